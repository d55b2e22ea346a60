"""README's promises that code can hold: the first command installs only what running needs
and the second is the test command `.ci/run` runs; the library example runs and gives the
values its comments state; the pre-commit hook runs `fleece verify`."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_the_set_up_commands() -> None:
    found = re.search(r"```bash\n(.*?)\n```", README, re.S)
    assert found is not None
    first, second = found.group(1).splitlines()
    assert first == ("python -m pip install . && fleece mutton solve "
                     "examples/mutton/helppage.txt")
    install, test = second.split(" && ")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert install == ('python -m pip install -e ".[test]" '
                       "--config-settings editable_mode=strict")
    assert ('python -m pip install --disable-pip-version-check -q -e ".[test]" '
            "--config-settings editable_mode=strict\n") in ci
    assert test == "python -m pytest -q" and "\npython -m pytest -q\n" in ci


def test_the_library_example_runs_and_says_true(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each `expression  # value` line of README's library example evaluates to the value
    written in its comment (strings as written; `...` stands for the rest of a string)."""
    block = re.search(r"## The library.*?```python\n(.*?)\n```", README, re.S)
    assert block is not None
    monkeypatch.chdir(ROOT)
    scope: dict[str, Any] = {}
    statement: list[str] = []
    checked = 0
    for line in block.group(1).splitlines():
        code, _, comment = line.partition("#")
        statement.append(code.rstrip())
        text = "\n".join(statement)
        try:
            compile(text, "README", "exec")
        except SyntaxError:
            continue  # a statement over several lines
        statement = []
        if not comment.strip() or "=" in code.split("(")[0]:
            exec(text, scope)
            continue
        value = eval(text.strip(), scope)
        expected = comment.strip()
        got = repr(value) if not isinstance(value, tuple) else \
            ", ".join(repr(v) for v in value)
        if "..." in expected:
            head, _, tail = expected.partition("...")
            assert got.startswith(head) and got.endswith(tail), (text, got, expected)
        else:
            assert got == expected, (text, got, expected)
        checked += 1
    assert checked >= 7


def test_the_pre_commit_hook_runs_fleece_verify() -> None:
    hook = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "- id: fleece-verify" in hook and "entry: fleece verify" in hook
    assert "pass_filenames: false" in hook and "language: python" in hook
    assert "id: fleece-verify" in README


def test_every_repository_file_the_docs_name_exists() -> None:
    """README and the 20-sheep page send readers to examples, reports, certificates and
    pictures by path: each one exists, so moving or renaming a file cannot leave a dead
    pointer (user-chosen names such as `c17.json.gz` have no such folder prefix)."""
    pattern = r"\b((?:docs|reports|examples|puzzles)/[\w./-]+\.(?:md|json|gz|txt|png|rec))"
    for page in ("README.md", "docs/ulvtafl-20-sheep.md"):
        named = set(re.findall(pattern, (ROOT / page).read_text(encoding="utf-8")))
        assert len(named) >= 10, page
        missing = sorted(name for name in named if not (ROOT / name).is_file())
        assert not missing, (page, missing)
