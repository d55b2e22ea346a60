"""Traceability: every clause of RULES.md section 1 (M1-M28, C1-C4) mapped to the tests and
proofs that cover it, and the clauses nothing covers yet.

The clause list is built in (so the command works in an installed copy); when the rules
reference ../shared/RULES.md is found, its clause titles are read from it instead. Tests are
found by scanning tests/ for clause IDs in test function names (`test_m9_...`) and docstrings.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from fleece.verify.result import CheckResult

ROW_LETTERS = "abcdefghijklmno"

CLAUSES: dict[str, str] = {
    "M1": "hexagonal board of `size` cells per side", "M2": "pbmserv cell names",
    "M3": "six neighbours of a cell", "M4": "num_sheep animals labelled A, B, ...",
    "M5": "starting layouts", "M6": "the Wolf secretly picks num_wolves wolves",
    "M7": "a round is a Wolf move then a Farmer move", "M8": "kill next to a hidden wolf",
    "M9": "run-away of the victim's neighbours", "M10": "kills with unplaceable runners",
    "M11": "the Wolf must kill, else pass", "M12": "escape option",
    "M13": "Farmer: pass, shoot, berserk", "M14": "after a Wolf pass the Farmer must shoot",
    "M15": "berserk ends the game", "M16": "remove option", "M17": "shotgun option",
    "M18": "reveal option", "M19": "end when no hidden wolf remains", "M20": "score",
    "M21": "match of two games", "M22": "quick play", "M23": "dictionary variant",
    "M24": "every game ends", "M25": "the Farmer's chart", "M26": "deduction principle",
    "M27": "the help page's example paste", "M28": "pbmserv move syntax",
    "C1": "sparse layout: at most 3 runners on the first kill",
    "C2": "berserk at most once per game", "C3": "berserk on known wolves wins",
    "C4": "berserk versus sniping expected sheep deaths",
}

_ID = re.compile(r"(?<![A-Za-z0-9])([MC])(\d{1,2})(?![0-9])")
_RULE_LINE = re.compile(r"^- (M\d+|C\d+)\s+(.*)$")


def cell_name(cell: tuple[int, int]) -> str:
    """pbmserv name of a (row, diagonal) cell (M2)."""
    return f"{ROW_LETTERS[cell[0]]}{cell[1]}"


def clause_titles(rules_md: Path | None = None) -> dict[str, str]:
    """Clause titles: the first line of each clause in RULES.md section 1 when found, else the
    built-in list (both have the same IDs)."""
    titles = dict(CLAUSES)
    path = rules_md or _find_rules_md()
    if path is None:
        return titles
    section = path.read_text(encoding="utf-8").split("\n## 2.", 1)[0]
    for line in section.splitlines():
        m = _RULE_LINE.match(line.strip())
        if m and m.group(1) in titles:
            titles[m.group(1)] = m.group(2).strip()
    return titles


def _find_rules_md() -> Path | None:
    here = Path(__file__).resolve().parent.parent
    for cand in (here.parent / "shared" / "RULES.md", Path.cwd().parent / "shared" / "RULES.md"):
        if cand.is_file():
            return cand
    return None


def clause_ids(text: str) -> set[str]:
    """Clause IDs mentioned in a text (`M9`, `m9`, `C3`); IDs outside M1-M28/C1-C4 ignored."""
    found = {f"{k.upper()}{int(n)}" for k, n in _ID.findall(text.upper())}
    return {c for c in found if c in CLAUSES}


def _name_ids(name: str) -> set[str]:
    return clause_ids(" ".join(name.split("_")))


def scan_tests(tests_dir: Path | None = None) -> dict[str, list[str]]:
    """Clause ID -> tests (`file::name`) whose name or docstring (or class's) mentions it."""
    root = tests_dir or (Path(__file__).resolve().parent.parent / "tests")
    out: dict[str, list[str]] = {}
    if not root.is_dir():
        return out
    for path in sorted(root.glob("test_*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                    and node.name.startswith("test"):
                ids = _name_ids(node.name) | clause_ids(ast.get_docstring(node) or "")
                for c in ids:
                    out.setdefault(c, []).append(f"{path.name}::{node.name}")
    return out


@dataclass(frozen=True)
class TraceRow:
    """One clause: its title, the tests and the verification checks that cover it."""

    clause: str
    title: str
    tests: tuple[str, ...]
    proofs: tuple[str, ...]

    @property
    def covered(self) -> bool:
        """Something covers the clause."""
        return bool(self.tests or self.proofs)


def trace_table(results: list[CheckResult], tests_dir: Path | None = None) -> list[TraceRow]:
    """The traceability table in clause order."""
    titles = clause_titles()
    tests = scan_tests(tests_dir)
    proofs: dict[str, list[str]] = {}
    for r in results:
        for c in r.clauses:
            proofs.setdefault(c, []).append(r.ident)
    return [TraceRow(c, titles[c], tuple(sorted(set(tests.get(c, [])))),
                     tuple(sorted(set(proofs.get(c, []))))) for c in CLAUSES]
