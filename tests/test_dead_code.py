"""No dead code: vulture finds no unused function, class, method, property or import in the
package (tests and benchmarks count as users). Names that only a framework calls are listed
below with the reason; anything else vulture reports is code to delete."""

from __future__ import annotations

from pathlib import Path

import vulture

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ["api", "cli.py", "commands", "rules", "solver", "verify", "web", "__init__.py"]
USERS = ["tests", "benchmarks"]

#: Called by a framework, never by name in our code.
FRAMEWORK_DECORATORS = [
    "@*.command",  # Typer registers the command
    "@app.callback",  # Typer: the root command's options
    "@pages.*", "@api.*",  # FastAPI routes
    "@rule", "@invariant", "@initialize", "@precondition",  # Hypothesis state machines
    "@pytest.fixture",
]
FRAMEWORK_NAMES = [
    "format_commands",  # click calls it to write a group's command list
    "__getattr__",  # the module hook (PEP 562) that keeps a package's imports lazy
    "__signature__", "__annotations__",  # what Typer reads to build a generated command
    "pytest_*",  # pytest hooks in conftest.py
    "api_schema",  # schemathesis's fixture, found by name
]
KINDS = {"function", "method", "class", "property", "import", "unreachable_code", "attribute"}


def test_vulture_finds_no_unused_code_in_the_package() -> None:
    v = vulture.Vulture(ignore_names=FRAMEWORK_NAMES, ignore_decorators=FRAMEWORK_DECORATORS)
    v.scavenge([str(ROOT / p) for p in PACKAGE + USERS], exclude=[str(ROOT / "build")])
    found = [f"{Path(i.filename).relative_to(ROOT)}:{i.first_lineno}: unused {i.typ} {i.name}"
             for i in v.get_unused_code(min_confidence=60)
             if i.typ in KINDS and Path(i.filename).relative_to(ROOT).parts[0] not in USERS]
    assert found == []
