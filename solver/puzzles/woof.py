"""Woof!! deduction puzzles: an evidence file whose question ("who are the wolves?" or "what is
seat N?") has one answer, that needs every fact line, graded by a rule-limited solver.

The exact answer comes from the Woof solver (`solver.woof.fast`, support of the posterior). The
human solver keeps, per seat, the set of possible hands and narrows it with named rules:
facts about one seat (easy), announcements linking viewer and target (easy), card counting
against the deck (medium), and case splits (hard).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement

from fleece.rules.errors import FleeceError
from fleece.rules.woof.cards import Card, Character, character_of, make_hand
from fleece.rules.woof.evidence import (
    AskFact,
    Evidence,
    Fact,
    HandFact,
    LookFact,
    SawFact,
    evidence_from_round,
    fact_line,
    format_evidence,
    load_evidence,
)
from fleece.rules.woof.round import Table
from fleece.rules.woof.simulate import simulate_round
from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.pool import collect

Hand = tuple[Card, Card]
WOLVES = 0  # question code: who are the wolves? (a seat number n >= 1 asks "what is seat n?")


def question_text(q: int) -> str:
    """The question line of a Woof puzzle."""
    return "Who are the wolves?" if q == WOLVES else f"What is seat {q}?"


def possible(ev: Evidence) -> dict[int, set[Character]]:
    """Each seat's possible characters (exact, from the fast Woof solver)."""
    from fleece.solver.woof.fast import solve

    post = solve(ev)
    out: dict[int, set[Character]] = {s: set() for s in post.seats}
    for vec in post.vectors:
        for s, c in zip(post.seats, vec, strict=True):
            out[s].add(c)
    return out


def answer_from(poss: dict[int, set[Character]], q: int) -> str | None:
    """The answer given each seat's possible characters: wolf seats as `1 4`, or a character."""
    if not poss or any(not cs for cs in poss.values()):
        return None
    if q == WOLVES:
        if any(Character.WOLF in cs and len(cs) > 1 for cs in poss.values()):
            return None
        return " ".join(str(s) for s, cs in sorted(poss.items()) if cs == {Character.WOLF})
    cs = poss.get(q, set())
    return next(iter(cs)).value if len(cs) == 1 else None


def answer(ev: Evidence, q: int) -> str | None:
    """The puzzle's answer, or None when it is not unique."""
    return answer_from(possible(ev), q)


# ---- rule-limited human solver ------------------------------------------------------------------


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


# ---- puzzles --------------------------------------------------------------------------------


@dataclass(frozen=True)
class WoofPuzzle:
    """A finished Woof puzzle: evidence, question, answer, grade, id."""

    evidence: Evidence
    question: int
    answer: str
    grade: Grade
    ident: str = ""


def without(ev: Evidence, i: int) -> Evidence:
    """The evidence without its i-th fact line."""
    return ev.with_facts(f for j, f in enumerate(ev.facts) if j != i)


def redundant_facts(ev: Evidence, q: int) -> list[int]:
    """Indices of facts whose removal keeps the answer (empty for a minimal puzzle)."""
    ans = answer(ev, q)
    return [i for i in range(len(ev.facts)) if answer(without(ev, i), q) == ans]


def attempt(grade: Grade, seed: str) -> WoofPuzzle | None:
    """One attempt from a seeded random round: a minimal puzzle of exactly `grade`, or None."""
    rng = random.Random(seed)
    players = rng.randint(4, 8)
    rnd = simulate_round(Table(players), rng).round
    me = rng.choice(rnd.table.acting)
    ev = evidence_from_round(rnd, me=me)
    poss = possible(ev)
    qs = [WOLVES] if answer_from(poss, WOLVES) else []
    qs += [s for s, cs in poss.items() if len(cs) == 1 and s != me]
    if not qs:
        return None
    q = rng.choice(qs)
    ans = answer_from(poss, q)
    assert ans is not None
    order = list(range(len(ev.facts)))
    rng.shuffle(order)
    facts = list(ev.facts)
    for i in order:
        trial = [f for f in facts if f is not ev.facts[i]]
        tev = ev.with_facts(trial)
        if answer(tev, q) == ans and human_solve(tev, q, grade).solved:
            facts = trial
    small = ev.with_facts(facts)
    if len(facts) < 2 or human_solve(small, q).grade is not grade or redundant_facts(small, q):
        return None
    return WoofPuzzle(small, q, ans, grade)


def generate(count: int, grade: Grade, seed: int,
             progress: Callable[[int, int], None] | None = None,
             max_attempts: int | None = None, workers: int = 1) -> list[WoofPuzzle]:
    """`count` distinct Woof puzzles of `grade`. Attempt i uses seed `"{seed}:{i}"` and results
    are taken in attempt order, so the output does not depend on `workers` (processes, see
    `solver.puzzles.pool`). `progress(found, attempts)` is called after each attempt."""
    limit = max_attempts if max_attempts is not None else max(2000, 400 * count)
    jobs = ((grade, f"{seed}:{i}") for i in range(limit))
    found, _ = collect(
        _attempt_job, jobs, count, workers=workers, progress=progress,
        key=lambda p: format_evidence(p.evidence) + str(p.question),
        named=lambda p, n: replace(p, ident=f"woof-{grade.label}-{n:03d}"))
    if len(found) < count:
        raise FleeceError(f"only {len(found)} {grade.label} Woof puzzles found in {limit} "
                          "attempts")
    return found


def _attempt_job(job: tuple[Grade, str]) -> WoofPuzzle | None:
    """`attempt` on one picklable job, for the process pool."""
    return attempt(*job)


# ---- files ----------------------------------------------------------------------------------


def render_puzzle(p: WoofPuzzle) -> str:
    """The puzzle as an evidence file (`fleece woof solve` reads it) with `#` header lines."""
    head = (f"# fleece Woof!! puzzle\n# Puzzle: {p.ident}\n# Grade: {p.grade.label}\n"
            f"# Question: {question_text(p.question)}\n")
    return head + format_evidence(p.evidence)


def parse_puzzle(text: str, source: str | None = None) -> tuple[Evidence, int, Grade | None, str]:
    """Read a Woof puzzle file: (evidence, question, labelled grade, id)."""
    import json
    import re

    from fleece.rules.errors import ParseError

    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
            text = str(data["puzzle_text"])
        except (ValueError, KeyError, TypeError) as exc:
            raise ParseError(f"malformed puzzle JSON: {exc}", source=source) from None
    ev = load_evidence(text, source)
    head = dict(re.findall(r"^#\s*(Puzzle|Grade|Question)\s*:\s*(.*?)\s*$", text, re.M))
    qtext = head.get("Question", "")
    m = re.search(r"seat\s+(\d+)", qtext, re.I)
    q = int(m.group(1)) if m else WOLVES
    if m is None and "wolves" not in qtext.lower():
        raise ParseError("no '# Question: Who are the wolves?' (or 'What is seat N?') line",
                         source=source)
    grade = Grade.parse(head["Grade"]) if "Grade" in head else None
    return ev, q, grade, head.get("Puzzle", "")


def puzzle_json(p: WoofPuzzle) -> str:
    """The JSON twin (no answer)."""
    import json

    return json.dumps({"format": "fleece-puzzle", "version": 1, "game": "woof", "id": p.ident,
                       "grade": p.grade.label, "question": question_text(p.question),
                       "puzzle_text": render_puzzle(p)}, indent=2) + "\n"


def render_solution(p: WoofPuzzle) -> str:
    """Answer and the step-by-step deduction in the named rules."""
    sol = human_solve(p.evidence, p.question)
    lines = [f"Puzzle: {p.ident}", f"Answer: {p.answer or 'no wolf'}",
             f"Grade: {sol.grade.label if sol.grade else 'unsolved'}", ""]
    lines += [f"{i}. [{s.rule}] {s.reason}." for i, s in enumerate(sol.steps, start=1)]
    return "\n".join(lines) + "\n"


def z3_answer(ev: Evidence, q: int) -> tuple[str | None, list[int]]:
    """The answer and the redundant fact indices, decided with the z3 engine of the Woof solver
    (independent of the fast engine the generator uses)."""
    from fleece.solver.woof.smt import possible_characters

    def ans(e: Evidence) -> str | None:
        return answer_from({s: set(cs) for s, cs in possible_characters(e).items()}, q)

    a = ans(ev)
    if a is None:
        return None, []
    return a, [i for i in range(len(ev.facts)) if ans(without(ev, i)) == a]


def solution_answer(text: str) -> str | None:
    """The `Answer:` value of a Woof solution file (`no wolf` reads as the empty answer)."""
    for line in text.splitlines():
        if line.lower().startswith("answer:"):
            value = line.split(":", 1)[1].strip()
            return "" if value == "no wolf" else value
    return None
