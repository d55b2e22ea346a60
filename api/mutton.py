"""Mutton through the library API: read a chart, solve it (count, probabilities, certain facts
with reasons, advice), draw a starting board, replay a record, generate and check puzzles.

    from fleece.api import mutton
    report = mutton.solve(mutton.SolveRequest(chart=open("helppage.txt").read()))
    report.count, report.fractions["C"]          # 219, '1/1'

Requests carry text, not file names (`source` names the text in error messages); a report's
fields are the keys of `fleece mutton ... --json`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fleece.api.budget import solve_budget, within
from fleece.api.report import ABSENT, Report, detail
from fleece.rules.errors import FleeceError, ParseError

__all__ = [
    "AdviceReport",
    "BoardReport",
    "BoardRequest",
    "ChartReport",
    "ChartRequest",
    "PackReport",
    "PuzzleCheckReport",
    "PuzzleCheckRequest",
    "PuzzleGenerateRequest",
    "ReplayReport",
    "ReplayRequest",
    "SolveReport",
    "SolveRequest",
    "VerifyVariant",
    "advise",
    "board",
    "board_svg",
    "check_puzzle",
    "generate_pack",
    "parse_chart",
    "parse_letters",
    "problem",
    "replay",
    "solve",
]


# ---- charts ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ChartRequest:
    """A pasted chart (board and score optional), puzzle text, JSON or game record."""

    chart: str
    no_reveal: bool = False
    source: str = "chart"


@dataclass(frozen=True, kw_only=True)
class ChartReport(Report):
    """The chart as read: animals, statuses, rows, score, board (`fleece mutton chart`)."""

    animals: str
    reveal: bool
    status: Any
    rows: Any
    score: Any = ABSENT
    to_beat: Any = ABSENT
    board: Any = ABSENT
    text: str = detail("")  # the chart printed back normalized


def parse_chart(request: ChartRequest) -> ChartReport:
    """Read a chart; ParseError naming `request.source`, line and column on bad input."""
    from fleece.rules.mutton.chart import render_paste
    from fleece.solver.mutton.inputs import chart_from_text

    try:
        parsed = chart_from_text(request.chart, reveal=not request.no_reveal)
    except ParseError as exc:
        raise exc.located(request.source) from None
    return ChartReport.from_json(parsed.to_json(), text=render_paste(parsed))


# ---- solving --------------------------------------------------------------------------


@dataclass(frozen=True)
class SolveRequest:
    """What `fleece mutton solve` takes: the chart text and the options."""

    chart: str
    wolves: int | None = None
    no_reveal: bool = False
    escaped: str = ""
    dictionary: str | None = None  # the word list's text (M23)
    passed: bool = False
    engine: str = "fast"
    timeout: float | None = None
    source: str = "chart"


@dataclass(frozen=True, kw_only=True)
class SolveReport(Report):
    """The exact deductions (`fleece mutton solve --json`); `analysis` is the solver's value
    (problem, solution, advice, reasons) behind it."""

    engine: str
    consistent: bool
    count: int
    num_wolves: int
    reveal: bool
    source: str
    probabilities: dict[str, float]
    fractions: dict[str, str]
    wolf_counts: dict[str, int]
    certain_wolves: list[str]
    cleared: list[str]
    possible_wolves: list[str]
    berserk_set: list[str]
    facts: list[dict[str, str]]
    notes: list[str]
    reasons: dict[str, Any] = ABSENT
    core: list[dict[str, str]] = ABSENT
    proved: list[str] = ABSENT
    advice: dict[str, Any] = ABSENT
    model: dict[str, Any] = ABSENT
    analysis: Any = detail()


def parse_letters(text: str) -> str:
    """`G,K` or `gk` -> `GK` (the escaped wolves); FleeceError (field `escaped`) otherwise."""
    letters = "".join(ch for ch in text.upper() if not ch.isspace() and ch != ",")
    bad = [ch for ch in letters if not "A" <= ch <= "Z"]
    if bad:
        raise FleeceError(f"'{bad[0]}' is not an animal letter", field="escaped")
    return letters


def problem(request: SolveRequest) -> Any:
    """The solver's Problem of a request (fleece.solver.mutton.Problem)."""
    from fleece.solver.mutton import problem_from_text

    words = None
    if request.dictionary is not None:
        from fleece.rules.mutton.options import load_dictionary

        words = load_dictionary(request.dictionary)
    escaped = parse_letters(request.escaped)
    try:
        return problem_from_text(request.chart, request.wolves, reveal=not request.no_reveal,
                                 escaped=escaped, dictionary=words, passed=request.passed)
    except ParseError as exc:
        raise exc.located(request.source) from None


def solve(request: SolveRequest) -> SolveReport:
    """Count the consistent wolf sets and everything that follows (M25-M26); an inconsistent
    chart is a result (`consistent` false, `core` the contradicting facts). Stopped when
    `timeout` (or the csp/smt engines' listing budget) runs out."""
    from fleece.solver.core import check_engine
    from fleece.solver.mutton import ENGINES, analyse

    engine = check_engine(request.engine, ENGINES)
    prob = problem(request)
    result = within(*solve_budget(engine, request.timeout), lambda: analyse(prob, engine))
    return SolveReport.from_json(result.to_json(), analysis=result)


@dataclass(frozen=True, kw_only=True)
class AdviceReport(Report):
    """The Farmer's advice alone: the best single shot and the berserk set with its cost."""

    consistent: bool
    best_shot: str | None = None
    best_probability: float | None = None
    tied: list[str] | None = None
    tie_rule: str | None = None
    berserk_set: list[str] | None = None
    sheep_cost_expected: float | None = None
    sheep_cost_worst: int | None = None


def advise(request: SolveRequest) -> AdviceReport:
    """What to shoot (M13 advice of `solve`); all None when the chart is inconsistent."""
    report = solve(request)
    advice = report.advice if report.advice is not ABSENT else {}
    keys = AdviceReport.json_keys()
    return AdviceReport(consistent=report.consistent,
                        **{k: v for k, v in advice.items() if k in keys})


def board_svg(report: SolveReport) -> str:
    """The board shaded by P(wolf) as SVG; FleeceError when the input had no board."""
    analysis = report.analysis
    if analysis.problem.board is None:
        raise FleeceError("needs the board in the input (a paste with the diagram, or a game "
                          "record)", field="svg")
    from fleece.solver.mutton.svg import board_svg as draw

    text: str = draw(analysis.problem, analysis.solution)
    return text


# ---- boards and records -----------------------------------------------------------------


@dataclass(frozen=True)
class BoardRequest:
    """A starting layout: `sparse`, `random` (seeded) or a cell list (`f3,b2,a3,...`)."""

    size: int = 4
    sheep: int = 26
    layout: str = ""
    seed: int = 0


@dataclass(frozen=True, kw_only=True)
class BoardReport(Report):
    """The starting board drawn as pbmserv draws it."""

    board: str


def board(request: BoardRequest) -> BoardReport:
    """The diagram of a starting layout (ParseError naming the bad option)."""
    from fleece.rules.mutton.summary import starting_board

    return BoardReport(board=starting_board(request.size, request.sheep, request.layout,
                                            request.seed))


@dataclass(frozen=True)
class ReplayRequest:
    """A game record: an options line, then one move per line."""

    record: str
    source: str = "record"


@dataclass(frozen=True, kw_only=True)
class ReplayReport(Report):
    """A replayed match (`fleece mutton replay --json`); `text` its boards, scores, charts."""

    rules: Any
    games: Any
    totals: Any
    over: Any
    winner: Any
    text: str = detail("")


def replay(request: ReplayRequest) -> ReplayReport:
    """Replay a record; ParseError at the first illegal move (line, column, reason)."""
    from fleece.rules.mutton.record import parse_record
    from fleece.rules.mutton.record import replay as replay_record
    from fleece.rules.mutton.summary import match_json, match_text

    try:
        match = replay_record(parse_record(request.record))
    except ParseError as exc:
        raise exc.located(request.source) from None
    return ReplayReport.from_json(match_json(match), text=match_text(match))


# ---- puzzles ----------------------------------------------------------------------------


@dataclass(frozen=True)
class PuzzleGenerateRequest:
    """`fleece mutton puzzle generate`: a pack of unique, minimal puzzles of one grade."""

    out: str
    count: int = 10
    grade: str = "easy"
    question: str = "any"  # all | certain | any (mixed)
    seed: int = 1
    wolves: int = 4
    workers: int = 1
    svg: bool = False
    force: bool = False


@dataclass(frozen=True, kw_only=True)
class PackReport(Report):
    """A written puzzle pack: where, how many, which grade, the files."""

    out: str
    count: int
    grade: str
    files: list[str]


def generate_pack(request: PuzzleGenerateRequest,
                  progress: Callable[[int, int], None] | None = None) -> PackReport:
    """Simulate games, cut puzzles and write them to `out` (refused before any work when
    `out` holds a pack and `force` is false)."""
    from fleece.rules.mutton.options import RuleSet
    from fleece.solver.puzzles.core import Grade
    from fleece.solver.puzzles.mutton.answer import MuttonQuestion
    from fleece.solver.puzzles.mutton.formats import write_pack
    from fleece.solver.puzzles.mutton.generate import generate
    from fleece.solver.puzzles.pack import check_target

    grade = Grade.parse(request.grade)
    if request.question not in ("all", "certain", "any"):
        raise FleeceError(f"unknown question {request.question!r} (all, certain or any)",
                          field="question")
    question = None if request.question == "any" else MuttonQuestion(request.question)
    rules = RuleSet(num_wolves=request.wolves)
    check_target(request.out, force=request.force)
    found = generate(request.count, grade, question, request.seed, rules, request.workers,
                     progress=progress)
    paths = write_pack(found, request.out, force=request.force, svg=request.svg)
    return PackReport(out=request.out, count=len(found), grade=grade.label, files=paths)


@dataclass(frozen=True)
class PuzzleCheckRequest:
    """A puzzle (text or JSON twin) and, when there is one, its solution file's text."""

    puzzle: str
    solution: str | None = None
    source: str = "puzzle"
    solution_source: str = "solution"


@dataclass(frozen=True, kw_only=True)
class PuzzleCheckReport(Report):
    """z3's verdict on a puzzle (`fleece mutton puzzle check --json`); `lines` in words."""

    unique: bool
    minimal: bool
    clues: int
    consistent: bool = ABSENT
    answer: list[str] = ABSENT
    grade: str | None = ABSENT
    ok: bool = ABSENT
    lines: tuple[str, ...] = detail(())
    passed: bool = detail(False)  # every check passed (`ok` is absent when z3 finds no answer)


def check_puzzle(request: PuzzleCheckRequest) -> PuzzleCheckReport:
    """Prove with z3 that the answer is unique and every clue needed; grade it; compare with
    the labelled grade and the solution's answer."""
    from fleece.solver.puzzles.mutton.check import check_puzzle as check
    from fleece.solver.puzzles.mutton.formats import parse_puzzle, parse_solution_answer

    spec = parse_puzzle(request.puzzle, request.source)
    claimed = None
    if request.solution is not None:
        claimed = parse_solution_answer(request.solution, request.solution_source)
    verdict = check(spec.chart, spec.wolves, spec.question, spec.grade, claimed,
                    spec.ident or request.source)
    return PuzzleCheckReport.from_json(verdict.data, lines=verdict.lines,
                                         passed=verdict.ok)


# ---- verification -------------------------------------------------------------------------


@dataclass(frozen=True)
class VerifyVariant:
    """The Mutton variant `fleece verify --game mutton` checks (M1-M18 options)."""

    size: int = 4
    sheep: int = 26
    wolves: int = 4
    remove: bool = False
    shotgun: bool = False
    escape: bool = False
    no_reveal: bool = False
    no_berserk: bool = False

    def config(self, quick: bool, package: Any) -> Any:
        """The verify package's VerifyConfig of this variant (RulesError when it breaks a
        rule of M1-M6)."""
        from fleece.rules.mutton.options import RuleSet, Weapon

        rules = RuleSet(size=self.size, num_sheep=self.sheep, num_wolves=self.wolves,
                        remove=self.remove,
                        weapon=Weapon.SHOTGUN if self.shotgun else Weapon.RIFLE,
                        escape=self.escape, reveal=not self.no_reveal,
                        berserk=not self.no_berserk)
        return package.VerifyConfig(rules=rules, quick=quick)
