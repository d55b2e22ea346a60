"""A check must not call the code it checks: no module under verify/ imports fleece.solver,
at the top or inside a function, by an import statement, a relative import, `__import__` or
`importlib.import_module` (with a literal module name, or one built from literal pieces).
Each verify check computes its expectation from the rules models and its own means."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import fleece.verify

VERIFY = Path(fleece.verify.__file__).resolve().parent
PACKAGE = "fleece"


def _module_name(path: Path) -> str:
    rel = path.relative_to(VERIFY.parent).with_suffix("")
    parts = [PACKAGE, *rel.parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The absolute module an `ImportFrom` reads from (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[:len(base) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _literal(node: ast.expr) -> str | None:
    """A string known without running the code: a literal, or literals joined by +, or an
    f-string of literal parts."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left), _literal(node.right)
        return None if left is None or right is None else left + right
    if isinstance(node, ast.JoinedStr):
        parts = [_literal(v) for v in node.values]
        return None if None in parts else "".join(p for p in parts if p is not None)
    return None


def solver_imports(source: str, module: str, is_package: bool = False) -> list[str]:
    """Every place in `source` (the module `module`) that imports fleece.solver: line and
    what."""
    found = []

    def solver(name: str) -> bool:
        return name == f"{PACKAGE}.solver" or name.startswith(f"{PACKAGE}.solver.")

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names
                      if solver(a.name)]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, module, is_package)
            names = [f"{base}.{a.name}" for a in node.names]
            if solver(base) or any(solver(n) for n in names):
                found.append(f"line {node.lineno}: from {'.' * node.level}"
                             f"{node.module or ''} import ...")
        elif isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else (
                func.id if isinstance(func, ast.Name) else "")
            if name in ("import_module", "__import__") and node.args:
                text = _literal(node.args[0])
                if text is None:
                    found.append(f"line {node.lineno}: {name} of a computed name")
                elif solver(text) or (text.startswith(".") and solver(
                        _absolute(ast.ImportFrom(module=text.lstrip(".") or None, names=[],
                                                 level=len(text) - len(text.lstrip("."))),
                                  module, is_package))):
                    found.append(f"line {node.lineno}: {name}({text!r})")
    return found


def test_no_verify_module_imports_the_solver() -> None:
    """Every .py under verify/ (the package's own files, whatever their depth)."""
    files = sorted(VERIFY.rglob("*.py"))
    assert len(files) > 20
    bad = {}
    for path in files:
        hits = solver_imports(path.read_text(encoding="utf-8"), _module_name(path),
                              path.name == "__init__.py")
        if hits:
            bad[str(path.relative_to(VERIFY.parent))] = hits
    assert not bad, bad


@pytest.mark.parametrize("source", [
    "import fleece.solver.cards.concentration\n",
    "from fleece.solver.woof import supply\n",
    "from fleece import solver\n",
    "def f():\n    from fleece.solver.cards.war import analyse_fixed\n",
    "from ...solver.cards import war\n",
    "import importlib\nm = importlib.import_module('fleece.solver.cards')\n",
    "from importlib import import_module\nm = import_module('fleece.' + 'solver.woof')\n",
    "m = __import__('fleece.solver')\n",
    "import importlib\nname = 'x'\nm = importlib.import_module(name)\n",
])
def test_the_scan_sees_every_form(source: str) -> None:
    """The scanner is not blind: each way of importing the solver is reported (for a module
    at fleece.verify.cards.checks)."""
    assert solver_imports(source, "fleece.verify.cards.checks")


@pytest.mark.parametrize("source", [
    "from fleece.rules.cards.war import battle\n",
    "from . import memory\n",
    "from ..result import PASSED\n",
    "import importlib\nm = importlib.import_module('fleece.rules.cards.deck')\n",
])
def test_the_scan_lets_other_imports_be(source: str) -> None:
    assert not solver_imports(source, "fleece.verify.cards.checks")
