"""The rule-limited Woof!! puzzle solver: per seat, the set of possible hands, narrowed by
named rules - facts about one seat and announcements (easy), card counting against the deck
(medium), case splits (hard); a puzzle's grade is the hardest rule its solution needs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations_with_replacement

from fleece.rules.woof.cards import Card, character_of, make_hand
from fleece.rules.woof.evidence import (
    AskFact,
    Evidence,
    Fact,
    HandFact,
    LookFact,
    SawFact,
    fact_line,
)
from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.woof.answer import answer_from

Hand = tuple[Card, Card]

WOOF_RULES = {"seat facts": Grade.EASY, "announcement": Grade.EASY,
              "card count": Grade.MEDIUM, "case split": Grade.HARD}


@dataclass(frozen=True)
class WoofStep:
    """One deduction: rule name and the narrowed characters of a seat, in words."""

    rule: str
    reason: str


@dataclass(frozen=True)
class WoofSolution:
    """Steps of the rule-limited solver and whether they settle the question."""

    steps: tuple[WoofStep, ...]
    solved: bool
    grade: Grade | None


def _hands(deck: tuple[Card, ...]) -> list[Hand]:
    """Every two-card hand the deck can deal, in a fixed order (their numbers below)."""
    kinds = sorted(set(deck), key=Card.sort_key)
    supply = Counter(deck)
    return [make_hand(a, b) for a, b in combinations_with_replacement(kinds, 2)
            if a != b or supply[a] >= 2]


class _Empty(Exception):
    """A seat has no hand left: the evidence (or a case-split trial) is contradictory."""


def _unary(f: Fact, seat: int, h: Hand) -> bool:
    """Hand `h` of `seat` agrees with fact `f` (true for facts about other seats)."""
    from fleece.solver.woof.shared import ask_ok, hand_ok, saw_weight

    if isinstance(f, HandFact):
        return f.seat != seat or hand_ok(h, f)
    if isinstance(f, AskFact):
        return f.target != seat or ask_ok(h, f)
    if isinstance(f, SawFact):
        return f.target != seat or saw_weight(h, f) > 0
    return True


def _look_ok(f: Fact, viewer: Hand, target: Hand) -> bool:
    """The look or sighting `f` can happen with these viewer and target hands."""
    from fleece.solver.woof.shared import look_weight, saw_viewer_ok

    if isinstance(f, LookFact):
        return look_weight(character_of(viewer), target, f) > 0
    if isinstance(f, SawFact):
        return saw_viewer_ok(character_of(viewer), f)
    return True


Dom = dict[int, set[int]]
"""Per seat, the numbers (indices into `_Rules.hands`) of the hands it may hold."""


class _Rules:
    """The named rules over one evidence file, on hand numbers instead of card pairs.

    A seat fact depends on the seat's hand alone and an announcement on the viewer's and the
    target's hands alone, so each verdict is worked out the first time it is asked and reused
    by every later pass and case-split trial; hands are numbered so that the many set
    operations hash small integers instead of card objects.
    """

    def __init__(self, ev: Evidence) -> None:
        self.ev = ev
        self.hands = _hands(ev.deck)
        self.char = [character_of(h) for h in self.hands]
        self.cards = [Counter(h) for h in self.hands]
        self.order = [(h[0].sort_key(), h[1].sort_key()) for h in self.hands]
        self.supply = Counter(ev.deck)
        self.unary: dict[tuple[int, int], frozenset[int]] = {}
        self.look: dict[int, dict[tuple[int, int], bool]] = {}

    def chars(self, dom: set[int]) -> str:
        """The characters a set of hands allows, as `sheep/wolf`."""
        return "/".join(sorted({self.char[i].value for i in dom}))

    def done(self, dom: Dom, q: int) -> bool:
        """The question has its answer from the characters still possible."""
        poss = {s: {self.char[i] for i in d} for s, d in dom.items()}
        return answer_from(poss, q) is not None

    def allowed(self, k: int, seat: int) -> frozenset[int]:
        """The hands of `seat` that satisfy fact number `k` (a fact about one seat)."""
        ok = self.unary.get((k, seat))
        if ok is None:
            f = self.ev.facts[k]
            ok = self.unary[(k, seat)] = frozenset(
                i for i, h in enumerate(self.hands) if _unary(f, seat, h))
        return ok

    def look_ok(self, k: int, viewer: int, target: int) -> bool:
        """The announcement of fact number `k` fits the viewer's and the target's hands."""
        table = self.look.setdefault(k, {})
        ok = table.get((viewer, target))
        if ok is None:
            ok = table[(viewer, target)] = _look_ok(self.ev.facts[k], self.hands[viewer],
                                                    self.hands[target])
        return ok

    def round(self, dom: Dom, level: Grade, log: list[tuple[str, str]] | None) -> bool:
        """One pass of every rule up to `level`; True when something changed."""
        changed = False

        def cut(seat: int, keep: set[int], rule: str, why: str | Fact) -> None:
            nonlocal changed
            if keep == dom[seat]:
                return
            reason = why if isinstance(why, str) else fact_line(why)
            if not keep:
                raise _Empty(reason)
            before = self.chars(dom[seat])
            dom[seat] = keep
            changed = True
            if log is not None:
                after = self.chars(keep)
                note = (f"seat {seat} is {after}" if after != before
                        else f"seat {seat}'s hand narrows")
                log.append((rule, f"{reason}: {note}"))

        for k, f in enumerate(self.ev.facts):
            if not isinstance(f, LookFact):
                for seat in dom:
                    cut(seat, dom[seat] & self.allowed(k, seat), "seat facts", f)
            if isinstance(f, LookFact | SawFact) and f.viewer in dom and f.target in dom:
                cut(f.target, {t for t in dom[f.target]
                               if any(self.look_ok(k, v, t) for v in dom[f.viewer])},
                    "announcement", f)
                cut(f.viewer, {v for v in dom[f.viewer]
                               if any(self.look_ok(k, v, t) for t in dom[f.target])},
                    "announcement", f)
        if level >= Grade.MEDIUM and not changed:
            sure: dict[int, Counter[Card]] = {}
            for s, d in dom.items():
                common: Counter[Card] | None = None
                for h in d:
                    common = self.cards[h] if common is None else common & self.cards[h]
                sure[s] = common or Counter()
            for s in dom:
                others: Counter[Card] = Counter()
                for t, c in sure.items():
                    if t != s:
                        others += c
                keep = {h for h in dom[s] if all(others[c] + n <= self.supply[c]
                                                 for c, n in self.cards[h].items())}
                cut(s, keep, "card count",
                    "the cards the other seats surely hold use up the deck")
        return changed

    def settle(self, dom: Dom, level: Grade) -> None:
        """Apply the rules up to `level` until nothing changes (no log: a trial)."""
        while self.round(dom, level, None):
            pass

    def case_split(self, dom: Dom, log: list[tuple[str, str]]) -> bool:
        """Rule out one hand of the seat with fewest hands whose trial leads to a contradiction."""
        for s in sorted(dom, key=lambda t: len(dom[t])):
            if len(dom[s]) < 2:
                continue
            for h in sorted(dom[s], key=lambda x: self.order[x]):
                trial = {t: set(d) for t, d in dom.items()}
                trial[s] = {h}
                try:
                    self.settle(trial, Grade.MEDIUM)
                except _Empty as exc:
                    dom[s] = dom[s] - {h}
                    a, b = self.hands[h]
                    log.append(("case split", f"if seat {s} held {a} and {b}, then "
                                f"{exc}: impossible; seat {s} is {self.chars(dom[s])}"))
                    return True
        return False


def human_solve(ev: Evidence, q: int, max_grade: Grade = Grade.HARD) -> WoofSolution:
    """Narrow each seat's possible hands with the named rules, easiest first, up to `max_grade`."""
    rules = _Rules(ev)
    dom: Dom = {s: set(range(len(rules.hands))) for s in ev.table.seat_numbers}
    log: list[tuple[str, str]] = []
    try:
        while not rules.done(dom, q):
            if rules.round(dom, Grade.EASY, log):
                continue
            if max_grade >= Grade.MEDIUM and rules.round(dom, Grade.MEDIUM, log):
                continue
            if max_grade >= Grade.HARD and rules.case_split(dom, log):
                continue
            break
    except _Empty:
        return WoofSolution(tuple(WoofStep(r, w) for r, w in log), False, None)
    solved = rules.done(dom, q)
    grade = max((WOOF_RULES[r] for r, _ in log), default=Grade.EASY) if solved else None
    return WoofSolution(tuple(WoofStep(r, w) for r, w in log), solved, grade)
