"""Woof!! through the library API: the exact posterior of one round's evidence, and deduction
puzzles (generate a pack, check a puzzle).

    from fleece.api import woof
    report = woof.solve(woof.SolveRequest(evidence=open("rulebook5.txt").read()))
    report.characters["3"]                       # seat 3's character probabilities

Requests carry text, not file names (`source` names the text in error messages); a report's
fields are the keys of `fleece woof ... --json`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fleece.api.budget import solve_budget, within
from fleece.api.mutton import PackReport
from fleece.api.report import ABSENT, Report, detail

__all__ = [
    "PuzzleCheckReport",
    "PuzzleCheckRequest",
    "PuzzleGenerateRequest",
    "SolveReport",
    "SolveRequest",
    "VerifyVariant",
    "check_puzzle",
    "generate_pack",
    "solve",
]


@dataclass(frozen=True)
class SolveRequest:
    """What `fleece woof solve` takes: the evidence text and the options."""

    evidence: str
    engine: str = "fast"
    me: int | None = None  # point of view (overrides the `me` line)
    dog_target: str | None = None  # the Dog's assumed second target (W2)
    timeout: float | None = None
    source: str = "evidence"


@dataclass(frozen=True, kw_only=True)
class SolveReport(Report):
    """Exact beliefs (`fleece woof solve --json`); contradictory evidence is a result
    (`consistent` false, `contradiction` the minimal set of lines). `analysis` is the
    solver's value behind it."""

    engine: str
    players: int
    seats: int
    dummy: int | None
    me: int | None
    deck: list[str]
    lines: int
    consistent: bool
    notes: list[str]
    warnings: list[str]
    contradiction: list[dict[str, Any]] = ABSENT
    evidence_probability: float = ABSENT
    characters: dict[str, dict[str, float]] = ABSENT
    wolf_sets: list[Any] = ABSENT
    certain: dict[str, str] = ABSENT
    suggestion: dict[str, Any] | None = ABSENT
    analysis: Any = detail()


def solve(request: SolveRequest) -> SolveReport:
    """Every seat's exact character distribution, the wolf sets, certain facts and the
    suggestion for `me` (W1-W11). Stopped when the budget runs out."""
    from fleece.rules.woof.evidence import load_evidence
    from fleece.solver.core import check_engine
    from fleece.solver.woof import ENGINES, analyse

    engine = check_engine(request.engine, ENGINES)
    evidence = load_evidence(request.evidence, request.source).with_view(request.me,
                                                                         request.dog_target)
    result = within(*solve_budget(engine, request.timeout), lambda: analyse(evidence, engine))
    return SolveReport.from_json(result.to_json(), analysis=result)


@dataclass(frozen=True)
class PuzzleGenerateRequest:
    """`fleece woof puzzle generate`: a pack of unique, minimal Woof!! puzzles."""

    out: str
    count: int = 10
    grade: str = "easy"
    seed: int = 1
    workers: int = 1
    force: bool = False


def generate_pack(request: PuzzleGenerateRequest,
                  progress: Callable[[int, int], None] | None = None) -> PackReport:
    """Simulate rounds, cut puzzles and write them to `out` (refused before any work when
    `out` holds a pack and `force` is false)."""
    from fleece.solver.puzzles.core import Grade
    from fleece.solver.puzzles.pack import check_target
    from fleece.solver.puzzles.woof.formats import write_pack
    from fleece.solver.puzzles.woof.generate import generate

    grade = Grade.parse(request.grade)
    check_target(request.out, force=request.force)
    found = generate(request.count, grade, request.seed, progress=progress,
                     workers=request.workers)
    paths = write_pack(found, request.out, force=request.force)
    return PackReport(out=request.out, count=len(found), grade=grade.label, files=paths)


@dataclass(frozen=True)
class PuzzleCheckRequest:
    """A Woof!! puzzle (evidence with its header, or the JSON twin) and, when there is one,
    its solution file's text."""

    puzzle: str
    solution: str | None = None
    source: str = "puzzle"


@dataclass(frozen=True, kw_only=True)
class PuzzleCheckReport(Report):
    """z3's verdict on a puzzle (`fleece woof puzzle check --json`); `lines` in words."""

    question: str
    unique: bool
    answer: str | None
    consistent: bool = ABSENT
    minimal: bool = ABSENT
    redundant: list[int] = ABSENT
    grade: str | None = ABSENT
    ok: bool = ABSENT
    lines: tuple[str, ...] = detail(())
    passed: bool = detail(False)  # every check passed (`ok` is absent when z3 finds no answer)


def check_puzzle(request: PuzzleCheckRequest) -> PuzzleCheckReport:
    """Prove with z3 that the answer is unique and every fact needed; grade it; compare with
    the labelled grade and the solution's answer."""
    from fleece.solver.puzzles.woof.check import check_puzzle as check
    from fleece.solver.puzzles.woof.formats import parse_puzzle, solution_answer

    ev, q, labelled, ident = parse_puzzle(request.puzzle, request.source)
    claimed = solution_answer(request.solution) if request.solution is not None else None
    verdict = check(ev, q, labelled, claimed, ident or request.source)
    return PuzzleCheckReport.from_json(verdict.data, lines=verdict.lines,
                                         passed=verdict.ok)


@dataclass(frozen=True)
class VerifyVariant:
    """What `fleece verify --game woof` checks: the Dog's second target under test (W2's
    labelled assumption) and the random cross-check's seed and number of rounds."""

    dog_target: str = "shepherd"
    seed: int = 1
    rounds: int | None = None

    def config(self, quick: bool, package: Any) -> Any:
        """The verify package's VerifyConfig of this variant."""
        from fleece.rules.woof.cards import Character

        return package.VerifyConfig(quick=quick, dog_target=Character(self.dog_target),
                                    seed=self.seed, rounds=self.rounds)
