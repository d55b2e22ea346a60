"""Traceability for any game: every clause of the game's section of the rules reference
(docs/rules.md) mapped to the tests and verification checks that cover it, so the clauses
nothing covers yet stand out.

Both sources ship inside the package, so an installed toolkit traces exactly as a checkout
does. The clause IDs and titles come from `fleece/docs/rules.md` (a clause is a heading
`### ID Title` in the section `## N. Name`; the registry gives a game's section number and
ID prefixes). The covering tests come from the clause index `fleece/verify/clause_tests.json`:
clause ID -> the tests (`file::name`) whose name or docstring cites it (`test_m9_...`,
"W4: ..."). The index is made from the checkout's tests/ by

    python -m fleece.verify.trace            # rewrite the index
    python -m fleece.verify.trace --check    # exit 1 when it is out of date

and a test fails while the committed index differs from a fresh one.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass
from pathlib import Path

from fleece.verify.result import CheckResult

#: The rules reference and the clause index, as paths inside the package.
RULES_DOC = ("docs", "rules.md")
INDEX = ("verify", "clause_tests.json")
#: The command that writes the index (named in it and in messages).
INDEX_COMMAND = "python -m fleece.verify.trace"

_SECTION = re.compile(r"^## (\d+)\.", re.MULTILINE)
_CLAUSE = re.compile(r"^### ([A-Z]+[0-9]+) +(\S.*?)\s*$", re.MULTILINE)


def _package_text(parts: tuple[str, ...]) -> str:
    """The text of a data file of the installed package."""
    from importlib.resources import files

    return files("fleece").joinpath(*parts).read_text(encoding="utf-8")


def _source_path(parts: tuple[str, ...]) -> Path:
    """A path in the checkout this module's source lives in (links followed)."""
    return Path(__file__).resolve().parent.parent.joinpath(*parts)


def rules_doc_text() -> str:
    """The text of the rules reference shipped with the package (docs/rules.md)."""
    return _package_text(RULES_DOC)


def section_clauses(text: str) -> dict[int, dict[str, str]]:
    """Section number -> (clause ID -> title) of a rules reference, in document order."""
    starts = list(_SECTION.finditer(text))
    out: dict[int, dict[str, str]] = {}
    for i, head in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        titles = out.setdefault(int(head.group(1)), {})
        for clause in _CLAUSE.finditer(text, head.end(), end):
            titles.setdefault(clause.group(1), clause.group(2))
    return out


def read_clauses(text: str, section: int, prefixes: tuple[str, ...]) -> dict[str, str]:
    """Clause ID -> title of section `section` of a rules reference, for the clause IDs with
    one of the given prefixes (M9 has the prefix M), in document order."""
    ids = re.compile("(?:" + "|".join(re.escape(p) for p in prefixes) + ")[0-9]+")
    return {c: t for c, t in section_clauses(text).get(section, {}).items()
            if prefixes and ids.fullmatch(c)}


@dataclass(frozen=True)
class Clauses:
    """One game's rule clauses: its section of the rules reference, clause-ID prefixes
    (`M`, `C`) and the clause titles by ID, in document order."""

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


def all_clauses(text: str | None = None) -> Clauses:
    """Every clause of every section of the rules reference (the package's by default), as
    one Clauses value (section 0)."""
    titles: dict[str, str] = {}
    for section in section_clauses(text if text is not None else rules_doc_text()).values():
        titles.update(section)
    prefixes = tuple(sorted({re.sub(r"[0-9]+$", "", c) for c in titles}))
    return Clauses(0, prefixes, titles)


def clauses_for(game: str | Clauses, rules_md: Path | None = None) -> Clauses:
    """The clauses of a registered game (by name), read from the package's rules reference
    or the given rules file; a Clauses value is returned as it is."""
    if isinstance(game, Clauses):
        return game
    from fleece.rules.registry import entry

    e = entry(game)
    text = rules_md.read_text(encoding="utf-8") if rules_md is not None else rules_doc_text()
    return Clauses(e.section, e.clauses, read_clauses(text, e.section, e.clauses))


def clause_ids(text: str, game: str | Clauses) -> set[str]:
    """Clause IDs of the game mentioned in a text (`M9`, `m9`, `C3`); other IDs ignored."""
    return clauses_for(game).ids(text)


def scan_tests(game: str | Clauses, tests_dir: Path) -> dict[str, list[str]]:
    """Clause ID -> tests (`file::name`, sorted) of a test folder whose name or docstring
    cites the clause, for the game's clauses: every test function of every test_*.py file
    under the folder."""
    clauses = clauses_for(game)
    out: dict[str, list[str]] = {}
    for path in sorted(tests_dir.rglob("test_*.py")):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        where = path.relative_to(tests_dir).as_posix()
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                    and node.name.startswith("test"):
                ids = clauses.ids(" ".join(node.name.split("_"))) \
                    | clauses.ids(ast.get_docstring(node) or "")
                for c in ids:
                    out.setdefault(c, []).append(f"{where}::{node.name}")
    return {c: sorted(set(tests)) for c, tests in out.items()}


def build_index(tests_dir: Path, text: str | None = None) -> dict[str, list[str]]:
    """The clause index of a test folder: every clause of the rules reference, in document
    order, with the tests that cite it (an empty list when none does)."""
    clauses = all_clauses(text)
    found = scan_tests(clauses, tests_dir)
    return {c: found.get(c, []) for c in clauses.titles}


def index_text(index: dict[str, list[str]]) -> str:
    """The clause index as the JSON file the package ships (stable, one test a line)."""
    return json.dumps({"generator": INDEX_COMMAND, "clauses": index}, indent=2) + "\n"


def read_index(path: Path | None = None) -> dict[str, list[str]]:
    """The clause index shipped with the package (or the file at `path`)."""
    data = json.loads(path.read_text(encoding="utf-8") if path is not None
                      else _package_text(INDEX))
    clauses = data["clauses"]
    assert isinstance(clauses, dict)
    return {str(c): [str(t) for t in tests] for c, tests in clauses.items()}


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
    """The traceability table of a game (registry name or Clauses), in clause order: the
    tests from the package's clause index, or from a scan of `tests_dir` when one is given,
    and the checks among `results` that name each clause."""
    clauses = clauses_for(game)
    tests = scan_tests(clauses, tests_dir) if tests_dir is not None else read_index()
    proofs: dict[str, list[str]] = {}
    for r in results:
        for c in r.clauses:
            proofs.setdefault(c, []).append(r.ident)
    return [TraceRow(c, title, tuple(sorted(set(tests.get(c, [])))),
                     tuple(sorted(set(proofs.get(c, []))))) for c, title in
            clauses.titles.items()]


def main(argv: list[str] | None = None) -> int:
    """`python -m fleece.verify.trace [--check]`: write the clause index of the checkout's
    tests/ into verify/clause_tests.json, or with --check exit 1 when the file differs from
    a fresh index (nothing written). Exit 2 when no tests/ folder is beside the package."""
    import sys

    from fleece.rules.io import atomic_write

    words = sys.argv[1:] if argv is None else argv
    if words not in ([], ["--check"]):
        print(f"usage: {INDEX_COMMAND} [--check]")
        return 2
    check = words == ["--check"]
    tests_dir = _source_path(("tests",))
    target = _source_path(INDEX)
    if not tests_dir.is_dir():
        print(f"{INDEX_COMMAND}: no tests/ folder at {tests_dir.parent}: run it on a checkout")
        return 2
    fresh = index_text(build_index(tests_dir))
    current = target.read_text(encoding="utf-8") if target.is_file() else ""
    if check:
        if current != fresh:
            print(f"{target}: out of date with {tests_dir}; run {INDEX_COMMAND}")
            return 1
        print(f"{target}: up to date")
        return 0
    if current != fresh:
        atomic_write(target, fresh, overwrite=True)
        print(f"{target}: written")
    else:
        print(f"{target}: already up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
