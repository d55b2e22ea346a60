"""What Woof!!'s checks share: building results, asking Z3 under the budget, and driving the
Python model under test (a WoofRound class, possibly a test's subclass with a seeded bug)
through rounds with chosen hands.

Translation between the two models happens only here and in the cross-check: the Z3 encoding's
characters are integers (fleece.verify.woof.encoding), the Python model's are
rules.woof.cards.Character values; cards are matched by their names (`sheep`, `dog?`,
`sheep@dog`), which docs/rules.md and both models share.
"""

from __future__ import annotations

import dataclasses
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from fleece.rules.woof.cards import QUESTION_DECK, Card, Character, QuestionCard, parse_card
from fleece.rules.woof.moves import Deal
from fleece.rules.woof.round import WoofOptions, WoofRound
from fleece.verify.budget import Budget, Undecided
from fleece.verify.result import CheckResult, undecided
from fleece.verify.woof import encoding as zm

RULES = "docs/rules.md section 2"

#: Python character <-> Z3 encoding integer.
TO_Z3: dict[Character, int] = {Character(name): i for i, name in enumerate(zm.NAMES)}
FROM_Z3: dict[int, Character] = {i: c for c, i in TO_Z3.items()}
QUESTION_INDEX: dict[QuestionCard, int] = {QuestionCard(q): i for i, q in enumerate(zm.QUESTIONS)}


def prove(budget: Budget, claim: Any, *background: Any) -> tuple[bool, Any]:
    """Z3: does `claim` follow from `background`? (True, None) when the negation is unsat,
    (False, model) with a counterexample; Undecided after two unknowns."""
    import z3

    s = z3.Solver()
    s.add(*background)
    s.add(z3.Not(claim))
    answer = budget.check(s)
    if answer == z3.unsat:
        return True, None
    return False, s.model()


def find(budget: Budget, *constraints: Any) -> Any:
    """Z3: a model of the constraints, or None when they are unsat (Undecided as `prove`)."""
    import z3

    s = z3.Solver()
    s.add(*constraints)
    return s.model() if budget.check(s) == z3.sat else None


def gave_up(section: str, name: str, title: str, expected: str, clauses: tuple[str, ...],
            basis: str, exc: Undecided, t0: float) -> CheckResult:
    """The UNKNOWN result of a check whose Z3 query stayed unknown."""
    return undecided(section, name, title, expected=expected, reason=str(exc), clauses=clauses,
                     basis=basis, seconds=time.perf_counter() - t0)


def evaluate(expr: Any) -> Any:
    """A closed z3 term's value as a Python int or bool (z3.simplify)."""
    import z3

    v = z3.simplify(expr)
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    return v.as_long()


# ---- the Python model under test -------------------------------------------------------------


def card(spec: zm.SpecCard) -> Card:
    """The Python model's card with the same name."""
    return parse_card(spec.name)


def new_round(model: type[WoofRound], options: WoofOptions) -> WoofRound:
    """The model under test's state before the deal (WoofRound.new builds the base class, so
    its fields are copied into `model`)."""
    base = WoofRound.new(options)
    if type(base) is model:
        return base
    return model(**{f.name: getattr(base, f.name) for f in dataclasses.fields(base)})


def question_deal(acting: int, first: Sequence[QuestionCard] = ()) -> tuple[
        tuple[QuestionCard, QuestionCard], ...]:
    """Two question cards for each acting seat from the 16, seat 1 getting `first` (up to
    two cards) first; the rest in deck order."""
    left = Counter(QUESTION_DECK)
    wanted = list(first)
    for q in wanted:
        left[q] -= 1
    pool = [q for q in QuestionCard for _ in range(left[q])]
    pairs: list[tuple[QuestionCard, QuestionCard]] = []
    for i in range(acting):
        mine = wanted if i == 0 else []
        while len(mine) < 2:
            mine.append(pool.pop(0))
        pairs.append((mine[0], mine[1]))
    return tuple(pairs)


def dealt_round(model: type[WoofRound], players: int, hands: Sequence[tuple[Card, Card]],
                *, first_questions: Sequence[QuestionCard] = (),
                questions: tuple[tuple[QuestionCard, QuestionCard], ...] | None = None,
                options: dict[str, Any] | None = None) -> WoofRound:
    """The model under test's round after dealing exactly these hands (the deck is the dealt
    cards) and question cards (`questions`, else seat 1's `first_questions` and the rest in
    deck order)."""
    deck = tuple(c for h in hands for c in h)
    opts = WoofOptions(players, deck, **(options or {}))
    if questions is None:
        questions = question_deal(len(opts.table.acting), first_questions)
    return new_round(model, opts).play(Deal(tuple(hands), questions))


#: A hand giving each character (W1) for viewers and suspects in small dealt rounds.
def hand_for(char: int) -> tuple[Card, Card]:
    """Two cards whose character is `char` by W1 (its own card and a Sheep)."""
    own = {zm.SHEEP: "sheep", zm.DOG: "dog", zm.HUNTER: "hunter", zm.SHEPHERD: "shepherd?",
           zm.WOLF: "wolf"}[char]
    return parse_card(own), parse_card("sheep")


SHEEP_HAND = (parse_card("sheep"), parse_card("sheep"))
