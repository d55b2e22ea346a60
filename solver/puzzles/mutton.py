"""Mutton deduction puzzles: exact answers, a rule-limited human solver, grading and generation.

A puzzle is a Farmer's chart (M25) plus the number of wolves and a question: name all the wolves
(exactly one consistent wolf set) or name every animal that is certainly a wolf. Clues are the
chart's rounds and its standalone status marks (`x`/`w`/`e` of animals that are not the victim of
a kept round). Generation follows Tatham's clue-removal method: start from a simulated game's
chart, drop clues while the answer stays the same and a solver limited to named human rules up
to the target grade still finishes; keep the result only when it is minimal and graded as asked.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum, IntEnum
from math import comb

from fleece.rules.errors import FleeceError
from fleece.rules.mutton.chart import Chart, ChartRow, Status, farmer_chart, render_chart
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.options import RuleSet
from fleece.rules.mutton.simulate import random_move
from fleece.solver.puzzles.pool import collect

# ---- vocabulary -------------------------------------------------------------------------------


class Grade(IntEnum):
    """Difficulty: the level of the hardest named rule a solution needs."""

    EASY = 1
    MEDIUM = 2
    HARD = 3

    @property
    def label(self) -> str:
        """Lower-case name used in files and on the command line."""
        return self.name.lower()

    @classmethod
    def parse(cls, text: str) -> Grade:
        """Read `easy`, `medium` or `hard` (FleeceError otherwise)."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise FleeceError(f"unknown grade {text!r} (easy, medium or hard)") from None


class Question(Enum):
    """What the puzzle asks."""

    ALL = "all"  # name all the wolves: exactly one consistent wolf set
    CERTAIN = "certain"  # name every animal not shown as a wolf that is certainly a wolf

    def text(self, wolves: int) -> str:
        """The question as printed in a puzzle file."""
        if self is Question.ALL:
            return f"Name all {wolves} wolves."
        return "Name every animal not marked w that is certainly a wolf."


class Rule(Enum):
    """Named human deduction rules with their difficulty level."""

    LONE_SUSPECT = ("lone suspect", Grade.EASY)
    PACK_COMPLETE = ("pack complete", Grade.EASY)
    LAST_SUSPECTS = ("last suspects", Grade.EASY)
    ONE_WOLF_LEFT = ("one wolf left", Grade.EASY)
    CLEARED_BY_COUNT = ("cleared by count", Grade.MEDIUM)
    COMMON_SUSPECT = ("common suspect", Grade.MEDIUM)
    OVERLAPPING_ROUNDS = ("overlapping rounds", Grade.HARD)
    CASE_SPLIT = ("case split", Grade.HARD)

    @property
    def label(self) -> str:
        """The rule's name as used in solution files."""
        return self.value[0]

    @property
    def grade(self) -> Grade:
        """The grade a puzzle has when it needs this rule."""
        g: Grade = self.value[1]
        return g


RULE_HELP: dict[Rule, str] = {
    Rule.LONE_SUSPECT: "a round with a single runner who may still be a wolf: that runner killed",
    Rule.PACK_COMPLETE: "all K wolves are known: everyone else is a sheep",
    Rule.LAST_SUSPECTS: "the undecided animals are exactly as many as the wolves still missing",
    Rule.ONE_WOLF_LEFT: "one wolf missing: everyone who did not run in an open round is a sheep",
    Rule.CLEARED_BY_COUNT: "r >= 2 wolves missing and r open rounds without a shared suspect: "
                           "nobody outside those rounds is a wolf",
    Rule.COMMON_SUSPECT: "one wolf missing and two open rounds share a single suspect: the wolf",
    Rule.OVERLAPPING_ROUNDS: "r >= 2 wolves missing; without this animal, r+1 open rounds would "
                             "share no suspect: it must be a wolf",
    Rule.CASE_SPLIT: "assume an animal is a wolf (or a sheep), follow the easier rules to a "
                     "contradiction",
}

Clue = ChartRow | str  # a round, or the letter of a standalone status mark
MIN_ROUNDS = 2  # a puzzle about a chart should need at least two of its rounds


# ---- the chart as bit masks -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Masks:
    """A chart's constraints as bit masks (bit i = animal i): exact and fast to count."""

    n: int
    k: int
    wolf: int  # shown as a dead or escaped wolf
    sheep: int  # shown as a dead sheep
    rounds: tuple[int, ...]  # runners of each round

    @classmethod
    def of(cls, chart: Chart, k: int) -> Masks:
        """Masks of a chart with `k` wolves; `x` read as a dead sheep (reveal)."""
        wolf = sheep = 0
        for i, st in enumerate(chart.status):
            if st in (Status.DEAD_WOLF, Status.ESCAPED):
                wolf |= 1 << i
            elif st is Status.DEAD_SHEEP:
                sheep |= 1 << i
        idx = {a: i for i, a in enumerate(chart.animals)}
        rounds = tuple(sum(1 << idx[a] for a in r.runners) for r in chart.rows)
        return cls(len(chart.animals), k, wolf, sheep, rounds)


def _count(rounds: Sequence[int], k: int, must: int, never: int, full: int,
           limit: int | None) -> int:
    """Number of k-sets containing `must`, avoiding `never`, meeting every round (branching on the
    most constrained open round; the branches partition the sets, leaves counted by binomials)."""
    r = k - must.bit_count()
    if r < 0:
        return 0
    best = -1
    best_n = 99
    open_rounds = []
    for rm in rounds:
        if rm & must:
            continue
        c = rm & ~never
        if not c:
            return 0
        open_rounds.append(c)
        cn = c.bit_count()
        if cn < best_n:
            best, best_n = c, cn
    if best < 0:
        return comb((full & ~must & ~never).bit_count(), r)
    if r == 0:
        return 0
    total = 0
    excl = never
    c = best
    while c:
        bit = c & -c
        c ^= bit
        total += _count(open_rounds, k, must | bit, excl, full, limit)
        excl |= bit
        if limit is not None and total >= limit:
            return total
    return total


def count_sets(m: Masks, *, must: int = 0, never: int = 0, limit: int | None = None) -> int:
    """Exact number of consistent wolf sets (stops early once `limit` is reached)."""
    must |= m.wolf
    never |= m.sheep
    if must & never:
        return 0
    return _count(m.rounds, m.k, must, never, (1 << m.n) - 1, limit)


def iter_sets(m: Masks) -> Iterator[int]:
    """Every consistent wolf set as a bit mask (same branching as `count_sets`)."""
    full = (1 << m.n) - 1

    def rec(rounds: Sequence[int], must: int, never: int) -> Iterator[int]:
        r = m.k - must.bit_count()
        if r < 0:
            return
        open_rounds = [rm & ~never for rm in rounds if not rm & must]
        if any(not c for c in open_rounds):
            return
        if not open_rounds:
            free = [1 << i for i in range(m.n) if (full & ~must & ~never) >> i & 1]
            yield from _combos(free, r, must)
            return
        if r == 0:
            return
        best = min(open_rounds, key=int.bit_count)
        excl = never
        c = best
        while c:
            bit = c & -c
            c ^= bit
            yield from rec(open_rounds, must | bit, excl)
            excl |= bit

    if not m.wolf & m.sheep:
        yield from rec(m.rounds, m.wolf, m.sheep)


def _combos(free: list[int], r: int, base: int) -> Iterator[int]:
    if r == 0:
        yield base
        return
    for i in range(len(free) - r + 1):
        yield from _combos(free[i + 1:], r - 1, base | free[i])


def brute_force_sets(chart: Chart, k: int) -> list[frozenset[str]]:
    """Every consistent wolf set by plain enumeration of k-subsets (an independent cross-check)."""
    from itertools import combinations

    wolves = {a for a, s in zip(chart.animals, chart.status, strict=True)
              if s in (Status.DEAD_WOLF, Status.ESCAPED)}
    sheep = {a for a, s in zip(chart.animals, chart.status, strict=True)
             if s is Status.DEAD_SHEEP}
    out = []
    for combo in combinations(chart.animals, k):
        s = set(combo)
        if wolves <= s and not s & sheep and all(s & (r.runners - sheep) for r in chart.rows):
            out.append(frozenset(s))
    return out


def letters_of(mask: int, animals: str) -> list[str]:
    """The letters of a bit mask, in chart order."""
    return [a for i, a in enumerate(animals) if mask >> i & 1]


# ---- answers, clues, minimality ----------------------------------------------------------------


def answer(chart: Chart, k: int, question: Question) -> frozenset[str] | None:
    """The puzzle's answer, or None when the question has none (ambiguous, empty, inconsistent).

    ALL: the one consistent wolf set. CERTAIN: the animals not marked as wolves that are wolves
    in every consistent set (None when there is no such animal or only one set)."""
    m = Masks.of(chart, k)
    if question is Question.ALL:
        if count_sets(m, limit=2) != 1:
            return None
        only = next(iter_sets(m))
        return frozenset(letters_of(only, chart.animals))
    if count_sets(m, limit=2) < 2:
        return None
    certain = [a for i, a in enumerate(chart.animals)
               if not (m.wolf | m.sheep) >> i & 1 and count_sets(m, never=1 << i, limit=1) == 0]
    return frozenset(certain) or None


def _answer_is(chart: Chart, k: int, question: Question, ans: frozenset[str]) -> bool:
    """Fast test that the answer of `chart` is exactly `ans` (for clue removal)."""
    m = Masks.of(chart, k)
    if question is Question.ALL:
        return count_sets(m, limit=2) == 1
    idx = {a: i for i, a in enumerate(chart.animals)}
    for a in ans:
        if chart.status_of(a) is not Status.ALIVE or count_sets(m, never=1 << idx[a], limit=1):
            return False
    return answer(chart, k, question) == ans


def clues(chart: Chart) -> list[Clue]:
    """The removable clues: every round, and every status mark that no kept round needs."""
    victims = {r.victim for r in chart.rows}
    marks = [a for a, s in zip(chart.animals, chart.status, strict=True)
             if s is not Status.ALIVE and a not in victims]
    return [*chart.rows, *marks]


def without(chart: Chart, clue: Clue) -> Chart:
    """The chart with one clue removed (a status mark becomes a plain letter: fate not given)."""
    if isinstance(clue, ChartRow):
        return replace(chart, rows=tuple(r for r in chart.rows if r != clue))
    if any(r.victim == clue for r in chart.rows):
        raise ValueError(f"{clue} is the victim of a kept round")
    i = chart.animals.index(clue)
    status = (*chart.status[:i], Status.ALIVE, *chart.status[i + 1:])
    return replace(chart, status=status)


def redundant_clues(chart: Chart, k: int, question: Question) -> list[Clue]:
    """Clues whose removal leaves the answer unchanged (empty for a minimal puzzle)."""
    ans = answer(chart, k, question)
    if ans is None:
        raise FleeceError("the puzzle has no unique answer")
    return [c for c in clues(chart) if answer(without(chart, c), k, question) == ans]


def renumbered(chart: Chart) -> Chart:
    """The chart with rounds numbered 1, 2, ... and no board or score (a puzzle's chart)."""
    rows = tuple(ChartRow(i, r.victim, r.runners) for i, r in enumerate(chart.rows, start=1))
    return Chart(chart.animals, chart.status, rows, reveal=True)


# ---- the human solver -------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One deduction: the rule, what it shows, and the reason in words."""

    rule: Rule
    wolves: tuple[str, ...]
    sheep: tuple[str, ...]
    reason: str

    def __str__(self) -> str:
        return f"[{self.rule.label}] {self.reason}"


@dataclass(frozen=True)
class HumanSolution:
    """What the rule-limited solver found: steps, known wolves and sheep, whether it finished."""

    steps: tuple[Step, ...]
    wolves: frozenset[str]
    sheep: frozenset[str]
    solved: bool

    @property
    def grade(self) -> Grade | None:
        """Hardest rule used (easy when no rule was needed); None when unsolved."""
        if not self.solved:
            return None
        return max((s.rule.grade for s in self.steps), default=Grade.EASY)


class _Contradiction(Exception):
    def __init__(self, why: str) -> None:
        super().__init__(why)
        self.why = why
        self.chain: list[tuple[Rule, int, int, str]] = []


@dataclass
class _Ctx:
    """Solver context: letters, round numbers, masks."""

    animals: str
    k: int
    rounds: list[tuple[int, int]]  # (round number, runner mask)
    full: int = field(init=False)

    def __post_init__(self) -> None:
        self.full = (1 << len(self.animals)) - 1

    def names(self, mask: int) -> str:
        return _and_list(letters_of(mask, self.animals))


def _and_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _rounds_list(nums: Sequence[int]) -> str:
    return ("round " if len(nums) == 1 else "rounds ") + _and_list([str(n) for n in nums])


def _open(ctx: _Ctx, w: int, s: int) -> list[tuple[int, int]]:
    """Open rounds (no known wolf among the runners) with their remaining suspects."""
    return [(no, rm & ~s) for no, rm in ctx.rounds if not rm & w]


def _minimal_sets(items: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Drop suspect sets that contain another (a packing can always use the smaller one)."""
    items = sorted(items, key=lambda t: (t[1].bit_count(), t[0]))
    out: list[tuple[int, int]] = []
    for no, c in items:
        if not any(c & o == o for _, o in out):
            out.append((no, c))
    return out


def _packings(items: list[tuple[int, int]], size: int) -> Iterator[list[tuple[int, int]]]:
    """Every choice of `size` pairwise disjoint suspect sets (backtracking)."""
    def rec(start: int, used: int, chosen: list[tuple[int, int]]) -> Iterator[
            list[tuple[int, int]]]:
        if len(chosen) == size:
            yield list(chosen)
            return
        for j in range(start, len(items)):
            if len(items) - j < size - len(chosen):
                return
            no, c = items[j]
            if c & used:
                continue
            chosen.append((no, c))
            yield from rec(j + 1, used | c, chosen)
            chosen.pop()

    if size <= 0:
        yield []
        return
    yield from rec(0, 0, [])


def _check(ctx: _Ctx, w: int, s: int, level: Grade) -> None:
    """Raise _Contradiction when the state is impossible by the rules up to `level`."""
    r = ctx.k - w.bit_count()
    if r < 0:
        raise _Contradiction(f"there would be more than {ctx.k} wolves")
    unknown = ctx.full & ~w & ~s
    if unknown.bit_count() < r:
        raise _Contradiction(f"too few animals would be left for {ctx.k} wolves")
    opened = _open(ctx, w, s)
    for no, c in opened:
        if not c:
            raise _Contradiction(f"round {no} would have no possible killer")
    if level >= Grade.MEDIUM and opened:
        for pack in _packings(_minimal_sets(opened), r + 1):
            nums = sorted(no for no, _ in pack)
            raise _Contradiction(
                f"{_rounds_list(nums)} would share no suspect and need {r + 1} more wolves, "
                f"but only {r} remain")


def _sheep_word(mask: int) -> str:
    return "is a sheep" if mask.bit_count() == 1 else "are sheep"


def _missing(r: int) -> str:
    return f"{r} wolves are missing" if r > 1 else "1 wolf is missing"


def _next_step(ctx: _Ctx, w: int, s: int, level: Grade) -> tuple[Rule, int, int, str] | None:
    """The easiest applicable rule up to `level` (case splits excluded): (rule, new wolves, new
    sheep, reason), or None at a standstill."""
    r = ctx.k - w.bit_count()
    unknown = ctx.full & ~w & ~s
    if not unknown:
        return None
    opened = _open(ctx, w, s)
    # ---- easy
    for no, c in opened:
        if c.bit_count() == 1:
            rm = dict(ctx.rounds)[no]
            others = rm & ~c
            if others:
                why = (f"round {no}: of its runners {ctx.names(rm)}, {ctx.names(others)} "
                       f"{_sheep_word(others)}, so {ctx.names(c)} killed and is a wolf")
            else:
                why = f"round {no}: {ctx.names(c)} was its only runner, so the killer: a wolf"
            return Rule.LONE_SUSPECT, c, 0, why
    if r == 0:
        return (Rule.PACK_COMPLETE, 0, unknown,
                f"all {ctx.k} wolves are known ({ctx.names(w)}), so {ctx.names(unknown)} "
                f"{_sheep_word(unknown)}")
    if unknown.bit_count() == r:
        return (Rule.LAST_SUSPECTS, unknown, 0,
                f"{_missing(r)} and only {ctx.names(unknown)} are undecided: all of them are "
                "wolves")
    if not opened:
        return None
    mins = _minimal_sets(opened)
    if r == 1:
        no, c = mins[0]
        outside = unknown & ~c
        if outside:
            return (Rule.ONE_WOLF_LEFT, 0, outside,
                    f"1 wolf is missing and it ran in round {no} ({ctx.names(c)}), so "
                    f"{ctx.names(outside)} {_sheep_word(outside)}")
    if level < Grade.MEDIUM:
        return None
    # ---- medium
    if r >= 2:
        for pack in _packings(mins, r):
            union = 0
            for _, c in pack:
                union |= c
            outside = unknown & ~union
            if outside:
                nums = sorted(no for no, _ in pack)
                groups = " | ".join(ctx.names(c) for _, c in sorted(pack))
                return (Rule.CLEARED_BY_COUNT, 0, outside,
                        f"{_missing(r)} and {_rounds_list(nums)} ({groups}) share no suspect: "
                        f"each holds one, so {ctx.names(outside)} {_sheep_word(outside)}")
    if r == 1:
        for i, (no1, c1) in enumerate(mins):
            for no2, c2 in mins[i + 1:]:
                both = c1 & c2
                if both.bit_count() == 1:
                    a, b = sorted((no1, no2))
                    return (Rule.COMMON_SUSPECT, both, 0,
                            f"1 wolf is missing and it ran in both rounds {a} and {b}; only "
                            f"{ctx.names(both)} ran in both, so {ctx.names(both)} is a wolf")
    if level < Grade.HARD or r < 2:
        return None
    # ---- hard (without case splits)
    union_all = 0
    for _, c in opened:
        union_all |= c
    x = union_all
    while x:
        bit = x & -x
        x ^= bit
        reduced = [(no, c & ~bit) for no, c in opened]
        for pack in _packings(_minimal_sets(reduced), r + 1):
            nums = sorted(no for no, _ in pack)
            groups = " | ".join(ctx.names(c) for _, c in sorted(pack))
            return (Rule.OVERLAPPING_ROUNDS, bit, 0,
                    f"{_missing(r)}; without {ctx.names(bit)}, {_rounds_list(nums)} "
                    f"({groups}) would share no suspect and need {r + 1}: so "
                    f"{ctx.names(bit)} is a wolf")
    return None


def _case_split(ctx: _Ctx, w: int, s: int) -> tuple[Rule, int, int, str] | None:
    """Assume a suspect is a wolf (then a sheep); a contradiction under the other rules settles it
    the other way."""
    opened = _open(ctx, w, s)
    cands = 0
    for _, c in opened:
        cands |= c
    order = sorted(letters_of(cands, ctx.animals),
                   key=lambda a: (-sum(1 for _, c in opened
                                       if c >> ctx.animals.index(a) & 1), a))
    for a in order:
        bit = 1 << ctx.animals.index(a)
        for as_wolf in (True, False):
            nw, ns = (w | bit, s) if as_wolf else (w, s | bit)
            try:
                _propagate(ctx, nw, ns)
            except _Contradiction as exc:
                trail = "; ".join(st[3] for st in exc.chain)
                pre = f"suppose {a} were {'a wolf' if as_wolf else 'a sheep'}"
                body = f"{pre}: {trail}; then {exc.why}" if trail else f"{pre}: {exc.why}"
                concl = f"so {a} is {'a sheep' if as_wolf else 'a wolf'}"
                if as_wolf:
                    return Rule.CASE_SPLIT, 0, bit, f"{body}; {concl}"
                return Rule.CASE_SPLIT, bit, 0, f"{body}; {concl}"
    return None


def _propagate(ctx: _Ctx, w: int, s: int) -> None:
    """Apply easy and medium rules to a standstill; a _Contradiction carries the chain of steps
    that led to it (for case-split texts)."""
    steps: list[tuple[Rule, int, int, str]] = []
    while True:
        try:
            _check(ctx, w, s, Grade.MEDIUM)
        except _Contradiction as exc:
            exc.chain = steps
            raise
        step = _next_step(ctx, w, s, Grade.HARD)
        if step is None:
            return
        steps.append(step)
        w |= step[1]
        s |= step[2]


def human_solve(chart: Chart, k: int, question: Question, *, target: frozenset[str] | None = None,
                max_grade: Grade = Grade.HARD) -> HumanSolution:
    """Solve with the named rules up to `max_grade`, always using the easiest rule that applies.

    ALL is solved when every animal is decided; CERTAIN when every animal of `target` (the
    answer, computed exactly when not given) is shown to be a wolf."""
    ctx = _Ctx(chart.animals, k, [(r.round, 0) for r in chart.rows])
    m = Masks.of(chart, k)
    ctx.rounds = [(r.round, rm) for r, rm in zip(chart.rows, m.rounds, strict=True)]
    if question is Question.CERTAIN and target is None:
        target = answer(chart, k, question) or frozenset()
    tmask = sum(1 << chart.animals.index(a) for a in (target or ()))

    def goal(w: int, s: int) -> bool:
        if question is Question.ALL:
            return (w | s) == ctx.full
        return w & tmask == tmask

    w, s = m.wolf, m.sheep
    raw: list[tuple[Rule, int, int, str]] = []
    solved = False
    try:
        while True:
            _check(ctx, w, s, Grade.EASY)
            if goal(w, s):
                solved = True
                break
            step = _next_step(ctx, w, s, max_grade)
            if step is None and max_grade >= Grade.HARD:
                step = _case_split(ctx, w, s)
            if step is None:
                break
            raw.append(step)
            w |= step[1]
            s |= step[2]
    except _Contradiction:
        solved = False
    steps = tuple(Step(rule, tuple(letters_of(nw, chart.animals)),
                       tuple(letters_of(ns, chart.animals)), why) for rule, nw, ns, why in raw)
    return HumanSolution(steps, frozenset(letters_of(w, chart.animals)),
                         frozenset(letters_of(s, chart.animals)), solved)


# ---- puzzles and generation -------------------------------------------------------------------


@dataclass(frozen=True)
class MuttonPuzzle:
    """A finished puzzle: clue chart, wolf count, question, answer, grade and provenance."""

    chart: Chart
    wolves: int
    question: Question
    answer: frozenset[str]
    grade: Grade
    ident: str = ""
    source: str = ""

    def solution(self) -> HumanSolution:
        """The graded step-by-step solution."""
        return human_solve(self.chart, self.wolves, self.question, target=self.answer)


def game_moments(rules: RuleSet, rng: random.Random) -> list[Chart]:
    """The Farmer's chart at the start of every round of one random game, and at its end."""
    state = GameState.new(rules)
    out: list[Chart] = []
    while not state.over:
        state = state.play(random_move(state, rng))
        if (state.phase is Phase.WOLF and state.kills) or state.over:
            out.append(farmer_chart(state))
    return out


def minimize(chart: Chart, k: int, question: Question, ans: frozenset[str], grade: Grade,
             rng: random.Random) -> Chart:
    """Remove clues in random order (status marks first, so that rounds carry the deduction)
    while the answer stays `ans` and the rule-limited solver up to `grade` still finishes (one
    pass; the caller checks strict minimality)."""
    marks = [c for c in clues(chart) if isinstance(c, str)]
    rows = [c for c in clues(chart) if not isinstance(c, str)]
    rng.shuffle(marks)
    rng.shuffle(rows)
    order: list[Clue] = [*marks, *rows]
    for clue in order:
        if isinstance(clue, str) and any(r.victim == clue for r in chart.rows):
            continue  # its round is still there
        trial = without(chart, clue)
        if not _answer_is(trial, k, question, ans):
            continue
        if human_solve(trial, k, question, target=ans, max_grade=grade).solved:
            chart = trial
    # victims freed by a later round removal get a second chance
    for clue in clues(chart):
        if isinstance(clue, str):
            trial = without(chart, clue)
            if _answer_is(trial, k, question, ans) and human_solve(
                    trial, k, question, target=ans, max_grade=grade).solved:
                chart = trial
    return chart


def attempt(rules: RuleSet, grade: Grade, question: Question, seed: str) -> MuttonPuzzle | None:
    """One generation attempt from a seeded random game: a minimal puzzle of exactly `grade`,
    or None. Deterministic in `seed`."""
    rng = random.Random(seed)
    k = rules.num_wolves
    moments = game_moments(rules, rng)
    usable = []
    for ch in moments:
        ans = answer(ch, k, question)
        if ans is not None:
            usable.append((ch, ans))
    if not usable:
        return None
    chart, ans = rng.choice(usable)
    chart = Chart(chart.animals, chart.status, chart.rows, reveal=True)
    for _ in range(3):
        small = renumbered(minimize(chart, k, question, ans, grade, rng))
        if len(small.rows) < MIN_ROUNDS:
            continue
        sol = human_solve(small, k, question, target=ans, max_grade=grade)
        if sol.grade is not grade:
            continue
        if redundant_clues(small, k, question):
            continue
        return MuttonPuzzle(small, k, question, ans, grade, source=seed)
    return None


def generate(count: int, grade: Grade, question: Question | None, seed: int,
             rules: RuleSet | None = None, workers: int = 1,
             progress: Callable[[int, int], None] | None = None,
             max_attempts: int | None = None) -> list[MuttonPuzzle]:
    """`count` distinct puzzles of `grade`; `question` None mixes both questions. Attempt i uses
    seed `"{seed}:{i}"`, and results are taken in attempt order, so the output does not depend
    on `workers`. `progress(found, attempts)` is called after each attempt."""
    rules = rules or RuleSet()
    limit = max_attempts if max_attempts is not None else max(2000, 400 * count)
    jobs = ((rules, grade, question, f"{seed}:{i}") for i in range(limit))
    found, tried = collect(
        _attempt_job, jobs, count, workers=workers, progress=progress,
        key=lambda p: render_chart(p.chart) + p.question.value,
        named=lambda p, n: replace(p, ident=f"mutton-{grade.label}-{n:03d}"))
    if len(found) < count:
        raise FleeceError(f"only {len(found)} {grade.label} puzzles found in {tried} attempts")
    return found


def _attempt_job(job: tuple[RuleSet, Grade, Question | None, str]) -> MuttonPuzzle | None:
    rules, grade, question, seed = job
    q = question if question is not None else random.Random(seed + "q").choice(list(Question))
    return attempt(rules, grade, q, seed)
