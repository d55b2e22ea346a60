"""The repository's root is the package `fleece`: these tests keep that layout free of its
sharp edges. Nothing imports a folder by its bare name (a second `rules.errors.ParseError`
next to `fleece.rules.errors.ParseError`), and such an import fails loudly; tests share code
through tests/helpers, never by importing each other; `pytest FILE` and `python -m pytest FILE`
run in the same import world; every package says what lives in it and what it imports, and
its modules keep to that."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
# Folders that are no source of this project: caches, build output, the strict editable
# install's link tree (build/), git's own data.
SKIP = {".git", "build", "dist", ".hypothesis", ".mypy_cache", ".ruff_cache", ".pytest_cache",
        "__pycache__", "node_modules"}
# The package's layers and modules by their bare names (api is a layer being added).
BARE = {"rules", "solver", "verify", "commands", "web", "api", "cli", "tests"}


def _python_files() -> Iterator[Path]:
    """Every .py file of the checkout: the package, tests, benchmarks, scripts."""
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIP and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            if name.endswith(".py"):
                yield Path(dirpath) / name


def _bare_names() -> set[str]:
    """What must never be imported under its own name: the root's packages and modules, the
    test folder and the test files themselves (test_*.py, conftest, scripts beside them)."""
    names = set(BARE)
    for path in ROOT.iterdir():
        if path.is_dir() and (path / "__init__.py").is_file():
            names.add(path.name)
        elif path.suffix == ".py" and path.stem not in ("__init__", "__main__"):
            names.add(path.stem)
    names |= {p.stem for p in TESTS.glob("*.py")}
    return names


def _imports(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """Every module named by an import statement, a relative import (as '.'), or a literal
    importlib.import_module / __import__ argument, with its line."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            yield ("." * node.level) + (node.module or ""), node.lineno
        elif isinstance(node, ast.Call) and node.args \
                and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else \
                func.id if isinstance(func, ast.Name) else ""
            if name in ("import_module", "__import__"):
                yield node.args[0].value, node.lineno


def test_no_file_imports_a_folder_or_a_test_module_by_its_bare_name() -> None:
    """Package code, tests, helpers and benchmarks import the package as `fleece.<folder>`,
    never `rules...` or `tests.helpers...`, use no relative imports, and no test imports a
    test module: shared test code lives in tests/helpers (`helpers.*`)."""
    bare = _bare_names()
    found = []
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name, line in _imports(tree):
            if name.startswith("."):
                found.append(f"{path.relative_to(ROOT)}:{line}: relative import {name}")
            elif name.split(".")[0] in bare:
                found.append(f"{path.relative_to(ROOT)}:{line}: imports {name}")
    assert found == [], "\n".join(found)


def test_the_import_scan_finds_each_kind_of_bare_import() -> None:
    """The scan above sees every form a bare import can take."""
    code = ("import rules.errors\nfrom solver import core\nfrom . import x\n"
            "import importlib\nimportlib.import_module('verify.trace')\n__import__('cli')\n"
            "from test_verify_bugs import Bug\nfrom helpers.clirun import invoke\n"
            "import fleece.rules\n")
    bare = _bare_names()
    flagged = sorted(((n, line) for n, line in _imports(ast.parse(code))
                      if n.startswith(".") or n.split(".")[0] in bare), key=lambda f: f[1])
    assert flagged == [("rules.errors", 1), ("solver", 2), (".", 3), ("verify.trace", 5),
                       ("cli", 6), ("test_verify_bugs", 7)]


_TRY_BARE = """
import importlib, sys
root, names = sys.argv[1], sys.argv[2:]
if root:
    sys.path.insert(0, root)
for name in names:
    try:
        importlib.import_module(name)
    except ModuleNotFoundError:
        print(name, "missing")
    except ImportError as e:
        print(name, "refused:", e)
    else:
        print(name, "IMPORTED")
    importlib.import_module("fleece." + name)
"""


def test_a_bare_import_of_a_folder_fails_loudly(tmp_path: Path) -> None:
    """Outside the checkout the folders' bare names do not exist (fleece.* works). With the
    root itself on sys.path (a script run from the checkout, `python -m` from it) a bare
    import raises ImportError naming the right import. Every package folder at the root is
    tried, so a new one needs the guard at the top of its __init__.py."""
    folders = sorted(p.name for p in ROOT.iterdir()
                     if p.is_dir() and (p / "__init__.py").is_file())
    assert {"rules", "solver", "verify", "commands", "web"} <= set(folders)
    outside = subprocess.run([sys.executable, "-c", _TRY_BARE, "", *folders, "cli"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert outside.returncode == 0, outside.stderr
    assert outside.stdout.splitlines() == [f"{n} missing" for n in [*folders, "cli"]]
    inside = subprocess.run([sys.executable, "-c", _TRY_BARE, str(ROOT), *folders], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert inside.returncode == 0, inside.stderr
    assert inside.stdout.splitlines() == [
        f"{n} refused: import fleece.{n}, not {n}: this folder is the package fleece.{n} "
        "(a bare name would load a second copy of its classes)" for n in folders]


def test_the_checkout_root_is_not_on_sys_path() -> None:
    """Inside the test run the root is no import location and fleece's __init__.py was
    imported once, as `fleece`; helpers come from tests/helpers. (Run by the next test under
    both `pytest` and `python -m pytest`.)"""
    import fleece

    assert all(Path(p or os.curdir).resolve() != ROOT for p in sys.path)
    assert Path(fleece.__file__ or "").resolve() == ROOT / "__init__.py"
    inits = sorted(name for name, mod in list(sys.modules.items())
                   if (getattr(mod, "__file__", None) or "").endswith("__init__.py")
                   and Path(mod.__file__ or "").resolve() == ROOT / "__init__.py")
    assert inits == ["fleece"]
    import helpers

    assert Path(helpers.__file__ or "").resolve().parent == TESTS / "helpers"


def test_pytest_and_python_m_pytest_run_the_same_file() -> None:
    """`pytest FILE` (the console script) and `python -m pytest FILE` both pass on one file,
    from the checkout's root, with the import world checked above; so does a test file that
    uses the shared helpers."""
    script = Path(sys.executable).with_name("pytest")
    pytest_cmd = [str(script)] if script.exists() else [shutil.which("pytest") or "pytest"]
    targets = [f"{Path(__file__).name}::test_the_checkout_root_is_not_on_sys_path",
               "test_cards_cli.py::test_deck_shows_the_partner_check"]
    for command in (pytest_cmd, [sys.executable, "-m", "pytest"]):
        proc = subprocess.run([*command, "-q", "-n", "0", "-p", "no:cacheprovider",
                               *(f"tests/{t}" for t in targets)],
                              cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, f"{command}:\n{proc.stdout}{proc.stderr}"
        assert re.search(r"\b2 passed\b", proc.stdout), proc.stdout


def _imported_names(tree: ast.AST) -> Iterator[tuple[str, int]]:
    """The fully qualified name of everything imported (`from a.b import c` gives a.b.c)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                yield f"{node.module}.{alias.name}", node.lineno


def _imports_line(doc: str) -> list[str] | None:
    """The fleece.* names of a docstring's `Imports:` paragraph, or None without one."""
    match = re.search(r"^Imports:(.*?)(?:\n\s*\n|\Z)", doc, re.MULTILINE | re.DOTALL)
    if match is None:
        return None
    return re.findall(r"\bfleece(?:\.\w+)*", match.group(1))


def test_every_package_says_what_lives_there_and_what_it_imports() -> None:
    """Each package's __init__.py docstring opens with what lives there and has an
    `Imports:` paragraph naming the fleece packages its modules may import; every module
    directly in the folder imports nothing of fleece outside them (its own package always
    allowed). Subfolders answer for themselves."""
    problems = []
    packages = sorted(p.parent for p in ROOT.glob("*/**/__init__.py")
                      if p.relative_to(ROOT).parts[0] not in SKIP | {"tests", "benchmarks"})
    assert len(packages) >= 20
    for folder in packages:
        rel = folder.relative_to(ROOT)
        own = ".".join(["fleece", *rel.parts])
        doc = ast.get_docstring(ast.parse((folder / "__init__.py").read_text("utf-8"))) or ""
        allowed = _imports_line(doc)
        if not doc.strip() or allowed is None or not allowed:
            problems.append(f"{rel}/__init__.py: no docstring with an 'Imports:' paragraph")
            continue
        for name in allowed:
            parts = name.split(".")[1:]
            target = ROOT.joinpath(*parts)
            if not (target.with_suffix(".py").is_file() or (target / "__init__.py").is_file()):
                problems.append(f"{rel}/__init__.py: 'Imports:' names {name}, which is no "
                                "module of the package")
        for path in sorted(folder.glob("*.py")):
            for name, line in _imported_names(ast.parse(path.read_text(encoding="utf-8"))):
                if not name.startswith("fleece."):
                    continue
                if not any(name == a or name.startswith(a + ".") for a in [*allowed, own]):
                    problems.append(f"{path.relative_to(ROOT)}:{line}: imports {name}, not in "
                                    f"its package's 'Imports:' ({', '.join(allowed)})")
    assert problems == [], "\n".join(problems)
