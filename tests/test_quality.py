"""The project's own standards as tests: ruff and mypy --strict clean, one import namespace,
data flowing one way between the layers, and no import cycles."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOP_FOLDERS = ("rules", "solver", "verify", "api", "commands", "web")
# Each layer may import only the layers listed after it (and itself); cli.py wires them all.
LAYERS = {
    "rules": {"rules"},
    "solver": {"solver", "rules"},
    "verify": {"verify", "solver", "rules"},
    "api": {"api", "verify", "solver", "rules"},
    "commands": {"commands", "api", "verify", "solver", "rules"},
    "web": {"web", "api", "verify", "solver", "rules"},
}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)


def _package_files() -> Iterator[Path]:
    yield ROOT / "__init__.py"
    yield ROOT / "cli.py"
    for folder in TOP_FOLDERS:
        if (ROOT / folder).is_dir():
            yield from sorted((ROOT / folder).rglob("*.py"))


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(["fleece", *parts])


def _imports(path: Path) -> Iterator[tuple[str, int]]:
    """Every imported module name (absolute), with its line, module level or not."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module, node.lineno
            for a in node.names:
                yield f"{node.module}.{a.name}", node.lineno


def test_ruff_clean() -> None:
    proc = _run("ruff", "check", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_clean() -> None:
    proc = subprocess.run([str(ROOT / ".ci" / "typecheck")], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_one_namespace_every_package_listed() -> None:
    """pyproject lists every folder with an __init__.py under the top-level folders as a
    fleece.* package (so nothing is left out of a wheel), and nothing else."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    assert config["tool"]["setuptools"]["package-dir"] == {"fleece": "."}
    found = {"fleece"}
    for folder in TOP_FOLDERS:
        for init in (ROOT / folder).rglob("__init__.py") if (ROOT / folder).is_dir() else ():
            found.add(_module_name(init))
    assert listed == found
    assert config["project"]["scripts"]["fleece"].startswith("fleece.")


def test_layers_import_downwards_only() -> None:
    """Data flows one way: rules knows nothing of solver or verify, and so on (LAYERS);
    rules imports no solver library at all."""
    for folder, allowed in LAYERS.items():
        if not (ROOT / folder).is_dir():
            continue
        for path in (ROOT / folder).rglob("*.py"):
            for name, line in _imports(path):
                parts = name.split(".")
                if parts[0] == "fleece" and len(parts) > 1:
                    layer = parts[1]
                    assert layer in allowed or (layer not in LAYERS and layer != "cli"), (
                        f"{path}:{line}: {folder} imports {name}")
                if folder == "rules":
                    assert parts[0] not in {"z3", "constraint", "numpy", "numba"}, (
                        f"{path}:{line}: rules imports {name}")


def test_no_argparse_outside_benchmarks() -> None:
    """The command line is Typer end to end: no module of the package or its tests builds an
    argparse parser (benchmarks/ scripts may)."""
    paths = [*_package_files(), *ROOT.joinpath("tests").rglob("*.py")]
    for path in paths:
        for name, line in _imports(path):
            assert name.split(".")[0] != "argparse", f"{path}:{line}: imports argparse"


def test_the_api_imports_no_interface_framework() -> None:
    """fleece.api is a library: it imports no command-line, web or display framework."""
    banned = {"argparse", "typer", "click", "fastapi", "starlette", "pydantic", "rich",
              "uvicorn", "jinja2"}
    for path in (ROOT / "api").rglob("*.py"):
        for name, line in _imports(path):
            assert name.split(".")[0] not in banned, f"{path}:{line}: imports {name}"


def test_no_import_cycles() -> None:
    """The module graph (every import, at module level or inside a function) has no cycle."""
    modules = {_module_name(p): p for p in _package_files()}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        for name, _ in _imports(path):
            if not name.startswith("fleece."):
                continue
            target = name
            while target not in modules and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in modules and target != mod and not mod.startswith(target + "."):
                graph[mod].add(target)
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycle = [*stack[stack.index(n):], n]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_cli_start_up_imports_no_heavy_library() -> None:
    code = ("import sys, fleece.cli\n"
            "print(sorted(m for m in ('z3', 'constraint') if m in sys.modules))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.stdout.strip() == "[]", proc.stdout + proc.stderr
