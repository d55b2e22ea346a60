"""Exact answers of Woof!! puzzles: the question ("who are the wolves?" or "what is seat N?"),
each seat's possible characters from the exact solver, and which evidence lines are needed.

A puzzle is an evidence file whose question has one answer and needs every fact line.
"""

from __future__ import annotations

from fleece.rules.woof.cards import Character
from fleece.rules.woof.evidence import Evidence

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


def without(ev: Evidence, i: int) -> Evidence:
    """The evidence without its i-th fact line."""
    return ev.with_facts(f for j, f in enumerate(ev.facts) if j != i)


def redundant_facts(ev: Evidence, q: int) -> list[int]:
    """Indices of facts whose removal keeps the answer (empty for a minimal puzzle)."""
    ans = answer(ev, q)
    return [i for i in range(len(ev.facts)) if answer(without(ev, i), q) == ans]
