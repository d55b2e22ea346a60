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
from fleece.solver.woof.puzzle.answer import answer_from

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
    kinds = sorted(set(deck), key=Card.sort_key)
    supply = Counter(deck)
    return [make_hand(a, b) for a, b in combinations_with_replacement(kinds, 2)
            if a != b or supply[a] >= 2]


def _chars(dom: set[Hand]) -> str:
    return "/".join(sorted({character_of(h).value for h in dom}))


class _Empty(Exception):
    pass


def _unary(f: Fact, seat: int, h: Hand) -> bool:
    from fleece.solver.woof.model import ask_ok, hand_ok, saw_weight

    if isinstance(f, HandFact):
        return f.seat != seat or hand_ok(h, f)
    if isinstance(f, AskFact):
        return f.target != seat or ask_ok(h, f)
    if isinstance(f, SawFact):
        return f.target != seat or saw_weight(h, f) > 0
    return True


def _look_ok(f: Fact, viewer: Hand, target: Hand) -> bool:
    from fleece.solver.woof.model import look_weight, saw_viewer_ok

    if isinstance(f, LookFact):
        return look_weight(character_of(viewer), target, f) > 0
    if isinstance(f, SawFact):
        return saw_viewer_ok(character_of(viewer), f)
    return True


def _round(ev: Evidence, dom: dict[int, set[Hand]], level: Grade,
           log: list[tuple[str, str]] | None) -> bool:
    """One pass of every rule up to `level`; True when something changed."""
    changed = False

    def cut(seat: int, keep: set[Hand], rule: str, why: str) -> None:
        nonlocal changed
        if keep == dom[seat]:
            return
        if not keep:
            raise _Empty(why)
        before = _chars(dom[seat])
        dom[seat] = keep
        changed = True
        if log is not None:
            after = _chars(keep)
            note = f"seat {seat} is {after}" if after != before else f"seat {seat}'s hand narrows"
            log.append((rule, f"{why}: {note}"))

    for f in ev.facts:
        for seat in dom:
            if not isinstance(f, LookFact):
                cut(seat, {h for h in dom[seat] if _unary(f, seat, h)}, "seat facts",
                    fact_line(f))
        if isinstance(f, LookFact | SawFact) and f.viewer in dom and f.target in dom:
            cut(f.target, {t for t in dom[f.target]
                           if any(_look_ok(f, v, t) for v in dom[f.viewer])},
                "announcement", fact_line(f))
            cut(f.viewer, {v for v in dom[f.viewer]
                           if any(_look_ok(f, v, t) for t in dom[f.target])},
                "announcement", fact_line(f))
    if level >= Grade.MEDIUM and not changed:
        supply = Counter(ev.deck)
        sure: dict[int, Counter[Card]] = {}
        for s, d in dom.items():
            common: Counter[Card] | None = None
            for h in d:
                common = Counter(h) if common is None else common & Counter(h)
            sure[s] = common or Counter()
        for s in dom:
            others: Counter[Card] = Counter()
            for t, c in sure.items():
                if t != s:
                    others += c
            keep = {h for h in dom[s] if all(others[c] + n <= supply[c]
                                             for c, n in Counter(h).items())}
            cut(s, keep, "card count", "the cards the other seats surely hold use up the deck")
    return changed


def _settle(ev: Evidence, dom: dict[int, set[Hand]], level: Grade,
            log: list[tuple[str, str]] | None) -> None:
    while _round(ev, dom, level, log):
        pass


def _done(dom: dict[int, set[Hand]], q: int) -> bool:
    poss = {s: {character_of(h) for h in d} for s, d in dom.items()}
    return answer_from(poss, q) is not None


def human_solve(ev: Evidence, q: int, max_grade: Grade = Grade.HARD) -> WoofSolution:
    """Narrow each seat's possible hands with the named rules, easiest first, up to `max_grade`."""
    hands = _hands(ev.deck)
    dom = {s: set(hands) for s in ev.table.seat_numbers}
    log: list[tuple[str, str]] = []
    try:
        while not _done(dom, q):
            if _round(ev, dom, Grade.EASY, log):
                continue
            if max_grade >= Grade.MEDIUM and _round(ev, dom, Grade.MEDIUM, log):
                continue
            if max_grade >= Grade.HARD and _case_split(ev, dom, log):
                continue
            break
    except _Empty:
        return WoofSolution(tuple(WoofStep(r, w) for r, w in log), False, None)
    solved = _done(dom, q)
    grade = max((WOOF_RULES[r] for r, _ in log), default=Grade.EASY) if solved else None
    return WoofSolution(tuple(WoofStep(r, w) for r, w in log), solved, grade)


def _case_split(ev: Evidence, dom: dict[int, set[Hand]], log: list[tuple[str, str]]) -> bool:
    for s in sorted(dom, key=lambda t: len(dom[t])):
        if len(dom[s]) < 2:
            continue
        for h in sorted(dom[s], key=lambda x: (x[0].sort_key(), x[1].sort_key())):
            trial = {t: set(d) for t, d in dom.items()}
            trial[s] = {h}
            try:
                _settle(ev, trial, Grade.MEDIUM, None)
            except _Empty as exc:
                dom[s] = dom[s] - {h}
                log.append(("case split", f"if seat {s} held {h[0]} and {h[1]}, then "
                            f"{exc}: impossible; seat {s} is {_chars(dom[s])}"))
                return True
    return False
