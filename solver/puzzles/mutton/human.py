"""The rule-limited Mutton puzzle solver: named human deduction rules, each with a grade, the
easiest that applies used first; a puzzle's grade is the hardest rule its solution needs."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum

from fleece.rules.mutton.chart import Chart
from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.mutton.answer import Masks, MuttonQuestion, answer, letters_of


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


def human_solve(chart: Chart, k: int, question: MuttonQuestion, *,
                target: frozenset[str] | None = None, max_grade: Grade = Grade.HARD
                ) -> HumanSolution:
    """Solve with the named rules up to `max_grade`, always using the easiest rule that applies.

    ALL is solved when every animal is decided; CERTAIN when every animal of `target` (the
    answer, computed exactly when not given) is shown to be a wolf."""
    ctx = _Ctx(chart.animals, k, [(r.round, 0) for r in chart.rows])
    m = Masks.of(chart, k)
    ctx.rounds = [(r.round, rm) for r, rm in zip(chart.rows, m.rounds, strict=True)]
    if question is MuttonQuestion.CERTAIN and target is None:
        target = answer(chart, k, question) or frozenset()
    tmask = sum(1 << chart.animals.index(a) for a in (target or ()))

    def goal(w: int, s: int) -> bool:
        if question is MuttonQuestion.ALL:
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
