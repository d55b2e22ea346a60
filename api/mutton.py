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
from dataclasses import dataclass, replace
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
    "CompareReport",
    "CompareRequest",
    "MatchReport",
    "MatchRequest",
    "PackReport",
    "PlayMoveRequest",
    "PlayRecordReport",
    "PlayReport",
    "PlayStartRequest",
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
    "bot_names",
    "check_puzzle",
    "compare",
    "generate_pack",
    "match",
    "match_text",
    "parse_chart",
    "parse_letters",
    "play_move",
    "play_record",
    "play_robots",
    "play_start",
    "play_state",
    "problem",
    "replay",
    "rule_set_names",
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
    from fleece.rules.mutton.options import MuttonOptions
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
    rules = MuttonOptions(num_wolves=request.wolves)
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


# ---- robot matches ------------------------------------------------------------------------

MAX_GAMES = 100_000  # games of one match: hours of play for the slowest robots already
MAX_SEED = 2**63 - 1
SIDES = ("farmer", "wolf")


def bot_names() -> tuple[str, ...]:
    """The robots a match can use (`random`, `v2`, `fleece`), for either side."""
    from fleece.solver.mutton.bots.registry import BOTS

    return BOTS


def rule_set_names() -> tuple[str, ...]:
    """The named rule sets of a match (`pbmserv default`, `boardspace-like`)."""
    from fleece.solver.mutton.bots.match import RULE_SETS

    return tuple(RULE_SETS)


@dataclass(frozen=True)
class MatchRequest:
    """`fleece mutton match`: the `farmer` robot against the `wolf` robot for `games` single
    games from `seed`. `rules` is a named rule set (`pbmserv default`, `boardspace-like`) or
    pbmserv challenge options (`-quick=11 -shotgun`); `layout` (`sparse` or `random`)
    defaults to the named rule set's, else sparse (random where the sparse layout does not
    exist)."""

    farmer: str = "fleece"
    wolf: str = "v2"
    games: int = 100
    seed: int = 0
    rules: str = "pbmserv default"
    layout: str | None = None


@dataclass(frozen=True)
class CompareRequest(MatchRequest):
    """`fleece mutton match ... --against BOT --side farmer|wolf`: the request's robot on
    `side` and the `against` robot on that side, each against the request's other robot,
    game i of both on the same seed (same layout, same wolves)."""

    against: str = "v2"
    side: str = "farmer"


@dataclass(frozen=True, kw_only=True)
class MatchReport(Report):
    """A match's outcome (`fleece mutton match --json`): games played, the robots, sheep
    lost a game (the Wolf's points, M20) with its 95% interval, wins, moves a game, and the
    request behind them (`requested` games, `stopped` when interrupted before the end);
    `scores` the sheep lost in each game, in order. `result` is the solver's MatchResult
    (every game's record); `text` the report in words."""

    games: int
    farmer: str
    wolf: str
    sheep_lost: dict[str, Any]
    farmer_wins: int
    wolf_wins: int
    plies: dict[str, Any]
    requested: int
    stopped: bool
    seed: int
    rules: str
    rule_set: str | None
    layout: str
    win_target: int
    scores: list[int]
    result: Any = detail()
    seconds: float = detail(0.0)
    text: str = detail("")


@dataclass(frozen=True, kw_only=True)
class CompareReport(MatchReport):
    """A paired comparison: the fields of the request's match, then the `side` compared, the
    `against` robot's match on the same seeds (a MatchReport's JSON) and the paired
    `difference` of sheep lost a game (request's robot minus `against`, game by game) with
    its 95% interval."""

    side: str
    against: dict[str, Any]
    difference: dict[str, Any]


def _match_setup(request: MatchRequest) -> tuple[Any, str, str | None]:
    """The MuttonOptions, layout and rule-set name of a request; FleeceError naming the field."""
    from fleece.rules.mutton.options import parse_options
    from fleece.solver.mutton.bots.match import LAYOUTS, RULE_SETS
    from fleece.solver.mutton.bots.registry import check_rules

    for name in ("farmer", "wolf", *(("against",) if isinstance(request, CompareRequest)
                                    else ())):
        bot = getattr(request, name)
        if bot not in bot_names():
            raise FleeceError(f"unknown robot {bot[:30]!r} (known: {', '.join(bot_names())})",
                              field=name)
    if isinstance(request, CompareRequest) and request.side not in SIDES:
        raise FleeceError(f"{request.side[:30]!r} is not a side (farmer or wolf)",
                          field="side")
    if not 1 <= request.games <= MAX_GAMES:
        raise FleeceError(f"must be in 1..{MAX_GAMES}, got {request.games}", field="games",
                          limit=MAX_GAMES)
    if not 0 <= request.seed <= MAX_SEED:
        raise FleeceError(f"must be in 0..2**63-1, got {request.seed}", field="seed",
                          limit=MAX_SEED)
    key = " ".join(request.rules.replace("-", " ").split()).lower()
    named = next((n for n in RULE_SETS if " ".join(n.replace("-", " ").split()) == key), None)
    if named is not None:
        rules, layout = RULE_SETS[named]
    else:
        try:
            rules, layout = parse_options(request.rules), "sparse"
        except ParseError as exc:
            raise ParseError(f"{exc.message} (or a named rule set: "
                             f"{', '.join(RULE_SETS)})", column=exc.column,
                             field="rules") from None
    try:
        check_rules(rules)
    except FleeceError as exc:
        raise FleeceError(exc.message.split(": ", 1)[-1], field="rules") from None
    if request.layout is not None:
        if request.layout not in LAYOUTS:
            raise FleeceError(f"{request.layout[:30]!r} is not a layout (sparse or random)",
                              field="layout")
        layout = request.layout
    return rules, layout, named


def _match_report(result: Any, named: str | None, cls: type[MatchReport] = MatchReport,
                  **extra: Any) -> Any:
    """The report of a solver MatchResult."""
    data = result.to_json(records=False)
    data.pop("seconds")
    report = cls(**data, rule_set=named, scores=[g.score for g in result.games],
                 result=result, seconds=result.seconds, **extra)
    return report


def match(request: MatchRequest, progress: Callable[[int], None] | None = None,
          stop: Callable[[], bool] | None = None) -> MatchReport:
    """Play a match refereed by the rules model (solver.mutton.bots.match): game i is drawn
    from (seed, i), so the same request gives the same games. `progress(done)` hears each
    finished game; `stop()` (asked between games) or Ctrl-C ends the match early with the
    games finished so far (`stopped`)."""
    from fleece.solver.mutton.bots.match import MatchRequest as Games
    from fleece.solver.mutton.bots.match import play_match

    rules, layout, named = _match_setup(request)
    games = Games(request.farmer, request.wolf, request.games, request.seed, rules, layout)
    tick = None if progress is None else (lambda done, total, game: progress(done))
    result = play_match(games, tick, stop)
    report: MatchReport = _match_report(result, named)
    return replace(report, text=match_text(report))


def compare(request: CompareRequest, progress: Callable[[int], None] | None = None,
            stop: Callable[[], bool] | None = None) -> CompareReport:
    """Play the request's robot and the `against` robot on `side` against the same opponent,
    game by game on the same seeds (interleaved: a stop leaves both with the same games)."""
    from fleece.rules.mutton.moves import Side
    from fleece.solver.mutton.bots.match import paired_match

    rules, layout, named = _match_setup(request)
    side = Side.FARMER if request.side == "farmer" else Side.WOLF
    first, opponent = ((request.farmer, request.wolf) if side is Side.FARMER
                       else (request.wolf, request.farmer))
    tick = None if progress is None else (lambda done, total, game: progress(done))
    paired = paired_match(side, first, request.against, opponent, request.games,
                          request.seed, rules, layout, tick, stop)
    second: MatchReport = _match_report(paired.second, named)
    report: CompareReport = _match_report(
        paired.first, named, CompareReport, side=request.side,
        against=second.to_json(), difference=paired.difference.to_json())
    report = replace(report, result=paired)
    return replace(report, text=match_text(report))


def _estimate_text(data: dict[str, Any], digits: int = 2) -> str:
    """`6.10 (95% CI 5.20 to 7.00)` of an estimate's JSON."""
    if data["mean"] is None:
        return "-"
    head = f"{data['mean']:.{digits}f}"
    if data["ci95"] is None:
        return head
    lo, hi = data["ci95"]
    return f"{head} (95% CI {lo:.{digits}f} to {hi:.{digits}f})"


def match_text(report: MatchReport) -> str:
    """A match or paired comparison in words, as `fleece mutton match` prints it."""
    rules = f"{report.rule_set} ({report.rules})" if report.rule_set else report.rules
    head = (f"{report.games} game{'s' if report.games != 1 else ''}"
            + (f" of {report.requested} (stopped)" if report.stopped else "")
            + f", seed {report.seed}; rules {rules or '(pbmserv defaults)'}, "
              f"{report.layout} layout; the Wolf wins a game with {report.win_target} "
              "points or more")
    lines: list[str] = []
    if isinstance(report, CompareReport):
        side = report.side.capitalize()
        other, opponent = (("Wolf", report.wolf) if report.side == "farmer"
                           else ("Farmer", report.farmer))
        mine, theirs = getattr(report, report.side), report.against[report.side]
        sides = "Farmers" if report.side == "farmer" else "Wolves"
        lines.append(f"{sides} {mine} and {theirs} against the {opponent} {other}, game by "
                     "game on the same seeds (same layouts, same wolves)")
        rows = [(f"{mine} {side}", report.to_json()), (f"{theirs} {side}", report.against)]
    else:
        lines.append(f"{report.farmer} Farmer against {report.wolf} Wolf")
        rows = [(f"{report.farmer} Farmer", report.to_json())]
    lines.append(head)
    width = max(len(name) for name, _ in rows)
    lines.append(f"{'':{width}}  {'sheep lost a game':<30}  {'Farmer wins':>11}  "
                 f"{'Wolf wins':>9}  moves a game")
    for name, data in rows:
        moves = "-" if data["plies"]["mean"] is None else f"{data['plies']['mean']:.1f}"
        lines.append(f"{name:<{width}}  {_estimate_text(data['sheep_lost']):<30}  "
                     f"{data['farmer_wins']:>11}  {data['wolf_wins']:>9}  {moves}")
    if isinstance(report, CompareReport):
        d = report.difference
        verdict = ""
        if d["ci95"] is not None and (d["ci95"][0] > 0 or d["ci95"][1] < 0):
            verb = "loses" if report.side == "farmer" else "eats"
            verdict = (f": the {mine} {side} {verb} {'fewer' if d['mean'] < 0 else 'more'} "
                       "sheep (the interval excludes zero)")
        elif d["mean"] is not None:
            verdict = ": no difference shown (the interval includes zero)"
        lines.append(f"difference {mine} - {theirs}, sheep lost a game: "
                     f"{_estimate_text(d)}{verdict}")
    if report.games:
        lines.append(f"took {report.seconds:.1f} s ({report.seconds / report.games:.2f} s a "
                     f"game{' pair' if isinstance(report, CompareReport) else ''})")
    return "\n".join(lines) + "\n"


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
        from fleece.rules.mutton.options import MuttonOptions, Weapon

        rules = MuttonOptions(size=self.size, num_sheep=self.sheep, num_wolves=self.wolves,
                        remove=self.remove,
                        weapon=Weapon.SHOTGUN if self.shotgun else Weapon.RIFLE,
                        escape=self.escape, reveal=not self.no_reveal,
                        berserk=not self.no_berserk)
        return package.VerifyConfig(rules=rules, quick=quick)


# ---- playing against a robot --------------------------------------------------------------

PLAY_SIDES = ("farmer", "wolf")
PLAY_LAYOUTS = ("sparse", "random")
MAX_PLAY_SEED = 10**18 - 1  # the layout's seed is taken modulo 10**18


@dataclass(frozen=True, kw_only=True)
class PlayStartRequest:
    """A new game against a robot: the person's side (`farmer` or `wolf`), the robot
    (`random`, `v2`, `fleece`), the seed the layout, the robot's wolves and every reply are
    drawn from (None: a fresh one, reported), the rule options (`-size=3 -num_sheep=10
    -num_wolves=2`; empty: pbmserv's default), the layout (`sparse` where the rules have it,
    else `random`) and whether to compute the solver's overlay."""

    person: str = "farmer"
    bot: str = "v2"
    seed: int | None = None
    rules: str = ""
    layout: str = "sparse"
    overlay: bool = True


@dataclass(frozen=True, kw_only=True)
class PlayMoveRequest(PlayStartRequest):
    """A game so far and the person's next move: `moves` every move after the set-up, both
    sides', as play_start and play_move report them (the robot's wolves are not among them:
    the seed gives them again); `move` the person's move in pbmserv notation (M28). The moves
    are checked against the rules, not replayed against the robot: a robot move changed to
    another legal one is played as given."""

    moves: tuple[str, ...] = ()
    move: str = ""


@dataclass(frozen=True, kw_only=True)
class PlayReport(Report):
    """The game after a request: the game's settings (`rules` as an options line), `moves`
    every move after the set-up, the person's move (`played`) and the robot's `replies`,
    who is to move, the score (the Wolf's: one per dead sheep, three per escaped wolf), the
    board as the person sees it (`animals`: letter, cell, fate, and `wolf` true, false or
    null when the person cannot know), the corpses' cells, what the person may do
    (`choices`) and, when asked and the game is under way, the solver's `overlay` of what the
    Farmer knows (count of wolf sets, P(wolf), certain facts, the Farmer robot's decision)."""

    person: str
    bot: str
    seed: int
    rules: str
    layout: str
    moves: list[str]
    played: str | None
    replies: list[str]
    to_move: str | None
    your_turn: bool
    over: bool
    round: int
    score: int
    result: str | None
    animals: list[dict[str, Any]]
    corpses: list[str]
    choices: dict[str, Any] | None
    overlay: dict[str, Any] | None
    state: Any = detail()


@dataclass(frozen=True, kw_only=True)
class PlayRecordReport(Report):
    """The game's record in the text `fleece mutton replay` reads (the robot's wolves
    included); `complete` whether the game is over."""

    record: str
    complete: bool
    name: str


def play_robots() -> dict[str, str]:
    """The robots a person can play against, by name, each with a line on how it plays."""
    from fleece.solver.mutton.bots.registry import BOTS, DESCRIPTIONS

    return {b: DESCRIPTIONS[b] for b in BOTS}


def _play_side(request: PlayStartRequest) -> Any:
    from fleece.rules.mutton.moves import Side

    if request.person not in PLAY_SIDES:
        raise FleeceError(f"expected farmer or wolf, got {request.person[:20]!r}",
                          field="person")
    if request.layout not in PLAY_LAYOUTS:
        raise FleeceError(f"expected sparse or random, got {request.layout[:20]!r}",
                          field="layout")
    return Side.FARMER if request.person == "farmer" else Side.WOLF


def _play_rules(text: str) -> Any:
    from fleece.rules.mutton.options import MuttonOptions, parse_options

    if not text.strip():
        return MuttonOptions()
    try:
        return parse_options(text)
    except FleeceError as exc:
        raise exc.located("rules") from None


def _play_seed(seed: int | None) -> int:
    if seed is None:
        import secrets

        return secrets.randbelow(10**6)
    if not 0 <= seed <= MAX_PLAY_SEED:
        raise FleeceError(f"{seed} is out of range (0..{MAX_PLAY_SEED})", field="seed")
    return seed


def _play_game(request: PlayMoveRequest) -> tuple[Any, Any, int]:
    """The game of a request rebuilt: the set-up from the seed, then every move of `moves`
    through the rules model; (state, the person's side, the number of set-up moves)."""
    from fleece.rules.errors import IllegalMoveError
    from fleece.rules.mutton.game import Phase
    from fleece.rules.mutton.moves import parse_move
    from fleece.solver.mutton.bots.play import setup
    from fleece.solver.mutton.bots.registry import check_bot

    person = _play_side(request)
    check_bot(request.bot, "bot")
    if request.seed is None:
        raise FleeceError("missing: the game's seed, as play_start reported it", field="seed")
    seed = _play_seed(request.seed)
    state = setup(_play_rules(request.rules), person, seed, request.layout)
    setup_moves = len(state.history)
    for i, text in enumerate(request.moves):
        where = f"item {i + 1} {text[:20]!r}"
        if state.over:
            raise FleeceError(f"{where}: the game is over before it", field="moves")
        side = None if state.phase in (Phase.PLACE, Phase.CHOOSE) else state.to_move
        try:
            state = state.play(parse_move(text, state.board, side))
        except (ParseError, IllegalMoveError) as exc:
            raise FleeceError(f"{where}: {exc.message}", field="moves") from None
    return state, person, setup_moves


def _play_report(request: PlayStartRequest, seed: int, person: Any, step: Any,
                 played: str | None, setup_moves: int) -> PlayReport:
    from fleece.rules.mutton.game import Fate, Phase
    from fleece.rules.mutton.moves import Side, format_move
    from fleece.solver.mutton.bots.play import overlay

    state = step.state
    side = state.to_move
    mine = side is person and not state.over
    know_all = person is Side.WOLF or state.over
    animals = []
    for a in state.letters:
        fate = state.fate(a)
        cell = state.position(a)
        known = know_all or fate is Fate.ESCAPED or (fate is not Fate.ALIVE
                                                      and state.rules.reveal)
        animals.append({"letter": a, "cell": None if cell is None else cell.name,
                        "fate": fate.value, "wolf": state.is_wolf(a) if known else None})
    choices = _play_choices(state) if mine else None
    shown = None
    if request.overlay and state.phase in (Phase.WOLF, Phase.FARMER):
        shown = overlay(state).to_json()
    result = None
    if state.over:
        result = (f"game over: the Wolf scores {state.score} ({state.dead_sheep()} sheep "
                  f"dead, {state.escaped_wolves()} wolves escaped)")
        quick = state.wolf_wins_quick_play()
        if quick is not None:
            result += f"; quick play to {state.rules.quick_play}: the " + \
                ("Wolf wins" if quick else "Farmer wins")
    return PlayReport(
        person=person.value.lower(), bot=request.bot, seed=seed,
        rules=state.rules.to_options(), layout=request.layout,
        moves=[format_move(m) for m in state.history[setup_moves:]], played=played,
        replies=[format_move(m) for m in step.replies],
        to_move=None if side is None else side.value.lower(), your_turn=mine,
        over=state.over, round=state.round, score=state.score, result=result,
        animals=animals, corpses=sorted(c.name for c in state.corpses), choices=choices,
        overlay=shown, state=state)


def _play_choices(state: Any) -> dict[str, Any]:
    """What the person may do now: the wolves to choose, the kills (victim, runners, the
    cells they may run to) and escapes, or the shots, berserk and pass."""
    from fleece.rules.mutton.game import Phase

    def option(o: Any) -> dict[str, Any]:
        return {"animal": o.victim, "runners": list(o.runners),
                "free": sorted(c.name for c in o.free_cells)}

    out: dict[str, Any] = {"phase": state.phase.value, "wolves": state.rules.num_wolves,
                           "targets": [], "escapes": [], "berserk": False, "pass": False}
    if state.phase is Phase.WOLF:
        kills = state.legal_kills()
        out.update(targets=[option(k) for k in kills], escapes=state.escapes(),
                   **{"pass": not kills})
    elif state.phase is Phase.FARMER:
        out.update(targets=[option(o) for o in state.shot_options()],
                   berserk=state.berserk_available(),
                   **{"pass": not state.farmer_must_shoot()})
    return out


def play_start(request: PlayStartRequest) -> PlayReport:
    """Start a game against a robot: the set-up drawn from the seed and the robot's first
    moves (as the Wolf: its first kill; a person playing the Wolf first chooses the wolves,
    M6). FleeceError naming the field on a bad side, robot, seed, layout or rule set."""
    from fleece.solver.mutton.bots.play import setup, start
    from fleece.solver.mutton.bots.registry import check_bot

    person = _play_side(request)
    check_bot(request.bot, "bot")
    seed = _play_seed(request.seed)
    rules = _play_rules(request.rules)
    first = start(rules, person, request.bot, seed, request.layout)
    state = setup(rules, person, seed, request.layout)
    return _play_report(request, seed, person, first, None, len(state.history))


def play_move(request: PlayMoveRequest) -> PlayReport:
    """The person's move after the game so far, then the robot's replies (the same replies
    as fleece.solver.mutton.bots.play.step: they depend only on the seed and the moves).
    FleeceError (field `move`) naming the move when it is malformed, illegal, or not the
    person's turn; (field `moves`) at the first bad move of the game so far."""
    from fleece.rules.errors import IllegalMoveError
    from fleece.rules.mutton.game import Phase
    from fleece.rules.mutton.moves import format_move, parse_move
    from fleece.solver.mutton.bots.play import step

    state, person, setup_moves = _play_game(request)
    assert request.seed is not None
    text = request.move.strip()
    if not text:
        raise FleeceError("missing: your move in pbmserv notation (a letter to shoot, "
                          "`K:L-a2,E-f4` to eat K)", field="move")
    if state.over:
        raise FleeceError(f"{text[:20]!r}: the game is over", field="move")
    if state.to_move is not person:
        raise FleeceError(f"{text[:20]!r}: it is the robot's turn after these moves",
                          field="move")
    side = None if state.phase is Phase.CHOOSE else state.to_move
    try:
        move = parse_move(text, state.board, side)
        after = step(state, move, request.bot, request.seed)
    except ParseError as exc:
        raise FleeceError(f"cannot read {text[:20]!r}: {exc.message}", field="move") from None
    except IllegalMoveError as exc:
        raise FleeceError(f"illegal move {text[:20]!r}: {exc.message}", field="move") from None
    return _play_report(request, request.seed, person, after, format_move(move), setup_moves)


def play_state(request: PlayMoveRequest) -> PlayReport:
    """The game so far, as it stands (`move` ignored): what a page shows again after a
    refused move or with the overlay switched."""
    from fleece.solver.mutton.bots.play import Step

    state, person, setup_moves = _play_game(request)
    assert request.seed is not None
    return _play_report(request, request.seed, person, Step(state, ()), None, setup_moves)


def play_record(request: PlayMoveRequest) -> PlayRecordReport:
    """The record of the game so far (`move` ignored), in the text `fleece mutton replay`
    reads: the options line, the placement, the wolves, then every move."""
    from fleece.rules.mutton.record import format_record

    state, _, _ = _play_game(request)
    return PlayRecordReport(record=format_record(state.rules, [list(state.history)]),
                            complete=state.over,
                            name=f"mutton-{request.person}-{request.bot}-{request.seed}.txt")
