"""Traceability for any game: every clause of the game's RULES.md section mapped to the tests
and verification checks that cover it, so the clauses nothing covers yet stand out.

A game's section number and clause-ID prefixes come from the game registry
(fleece.rules.registry: Mutton is section 1 with M and C). The clause list and titles are read
from the rules reference ../shared/RULES.md when it is found, else from the built-in table
below (so an installed copy works). Tests are found by scanning tests/ for clause IDs in test
function names (`test_m9_...`, `test_w4_...`) and docstrings.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from fleece.verify.result import CheckResult

# Built-in clause titles per game (registry name -> clause ID -> title, in RULES.md order),
# used when RULES.md is not found. Add a game's table here when it gets verification;
# tests/test_verify.py checks each table against RULES.md.
MUTTON_CLAUSES: dict[str, str] = {
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

WOOF_CLAUSES: dict[str, str] = {
    "W1": "two character cards per seat; the higher or shared picture",
    "W2": "each character's targets", "W3": "the dummy fifth seat with 4 players",
    "W4": "look: announce a card's appearance", "W5": "ask: a question card, answered truly",
    "W6": "suspect early", "W7": "end of a round and final suspicions",
    "W8": "scoring suspicions", "W9": "Shepherd bonus", "W10": "end of the game and winner",
    "W11": "finite clue tokens",
}

FALLBACK_CLAUSES: dict[str, dict[str, str]] = {
    "mutton": MUTTON_CLAUSES,
    "woof": WOOF_CLAUSES,
    # "ulvtafl": {"U1": ..., ...}, "cards": {"K1": ..., ...}: with their registry entries.
}

_SECTION = re.compile(r"^## (\d+)\.", re.MULTILINE)


@dataclass(frozen=True)
class Clauses:
    """One game's rule clauses: its RULES.md section, clause-ID prefixes (`M`, `C`) and the
    clause titles by ID, in RULES.md order."""

    section: int
    prefixes: tuple[str, ...]
    titles: dict[str, str]

    def ids(self, text: str) -> set[str]:
        """The clause IDs of this game mentioned in a text (`M9`, `m9`, `C3`; unknown IDs
        such as M99 and other games' IDs ignored)."""
        if not self.prefixes:
            return set()
        alts = "|".join(re.escape(p.upper()) for p in sorted(self.prefixes, key=len,
                                                              reverse=True))
        pattern = re.compile(rf"(?<![A-Za-z0-9])({alts})(\d{{1,2}})(?![0-9])")
        found = {f"{k}{int(n)}" for k, n in pattern.findall(text.upper())}
        return {c for c in found if c in self.titles}


def find_rules_md() -> Path | None:
    """The rules reference ../shared/RULES.md next to the checkout (or the working directory's
    parent), or None in an installed copy."""
    here = Path(__file__).resolve().parent.parent
    for cand in (here.parent / "shared" / "RULES.md", Path.cwd().parent / "shared" / "RULES.md"):
        if cand.is_file():
            return cand
    return None


def read_clauses(text: str, section: int, prefixes: tuple[str, ...]) -> dict[str, str]:
    """Clause ID -> title (the clause's first line) of RULES.md section `section` for the
    given prefixes, in document order."""
    starts = list(_SECTION.finditer(text))
    body = ""
    for i, head in enumerate(starts):
        if int(head.group(1)) == section:
            end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
            body = text[head.end():end]
            break
    alts = "|".join(re.escape(p) for p in sorted(prefixes, key=len, reverse=True))
    if not alts:
        return {}
    line_re = re.compile(rf"^- ((?:{alts})\d+)\s+(.*)$")
    titles: dict[str, str] = {}
    for line in body.splitlines():
        clause = line_re.match(line.strip())
        if clause and clause.group(1) not in titles:
            titles[clause.group(1)] = clause.group(2).strip()
    return titles


def clauses_for(game: str | Clauses, rules_md: Path | None = None) -> Clauses:
    """The clauses of a registered game (by name) from RULES.md when found, else from the
    built-in table; a Clauses value is returned as it is."""
    if isinstance(game, Clauses):
        return game
    from fleece.rules.registry import entry

    e = entry(game)
    path = rules_md or find_rules_md()
    titles = read_clauses(path.read_text(encoding="utf-8"), e.section, e.clauses) \
        if path is not None else {}
    return Clauses(e.section, e.clauses, titles or dict(FALLBACK_CLAUSES.get(e.name, {})))


def clause_ids(text: str, game: str | Clauses) -> set[str]:
    """Clause IDs of the game mentioned in a text (`M9`, `m9`, `C3`); other IDs ignored."""
    return clauses_for(game).ids(text)


def scan_tests(game: str | Clauses, tests_dir: Path | None = None) -> dict[str, list[str]]:
    """Clause ID -> tests (`file::name`) whose name or docstring mentions it, for the game's
    clauses; the default folder is the checkout's tests/."""
    clauses = clauses_for(game)
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
                ids = clauses.ids(" ".join(node.name.split("_"))) \
                    | clauses.ids(ast.get_docstring(node) or "")
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


def trace_table(results: list[CheckResult], game: str | Clauses,
                tests_dir: Path | None = None) -> list[TraceRow]:
    """The traceability table of a game (registry name or Clauses), in clause order."""
    clauses = clauses_for(game)
    tests = scan_tests(clauses, tests_dir)
    proofs: dict[str, list[str]] = {}
    for r in results:
        for c in r.clauses:
            proofs.setdefault(c, []).append(r.ident)
    return [TraceRow(c, title, tuple(sorted(set(tests.get(c, [])))),
                     tuple(sorted(set(proofs.get(c, []))))) for c, title in
            clauses.titles.items()]
