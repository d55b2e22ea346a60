"""W11: the finite clue-token supply of one round.

Each seat owns 6 double-sided clue tokens (Wolf/Hunter, Wolf/Sheep, Wolf/Dog, Hunter/Sheep,
Dog/Sheep, Dog/Hunter); a placed token shows one side. The table shares 12 "?" tokens. Whether a
seat's announcements so far can all be shown with its tokens is a bipartite matching problem
(announcements -> tokens carrying that side); this module answers it exactly, so the rules model
and the evidence checker can expose the rules gap of a seat that must announce something it has
no token left for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from fleece.rules.errors import IllegalMoveError
from fleece.rules.woof.cards import Character

_W, _H, _S, _D = Character.WOLF, Character.HUNTER, Character.SHEEP, Character.DOG

#: The 6 double-sided clue tokens every seat owns (facts).
CLUE_TOKENS: tuple[tuple[Character, Character], ...] = (
    (_W, _H), (_W, _S), (_W, _D), (_H, _S), (_D, _S), (_D, _H),
)
#: Size of the shared pool of "?" tokens (facts).
QUESTION_MARK_TOKENS = 12


def can_show(sides: Sequence[Character], tokens: Sequence[tuple[Character, ...]] = CLUE_TOKENS
             ) -> bool:
    """True when every wanted side can be shown by a distinct token (a perfect matching exists).

    Simple augmenting paths; at most 6 tokens, so this is instant.
    """
    if len(sides) > len(tokens):
        return False
    owner: list[int | None] = [None] * len(tokens)  # token -> index of the side it shows

    def augment(i: int, seen: set[int]) -> bool:
        for t, token in enumerate(tokens):
            if sides[i] in token and t not in seen:
                seen.add(t)
                current = owner[t]
                if current is None or augment(current, seen):
                    owner[t] = i
                    return True
        return False

    return all(augment(i, set()) for i in range(len(sides)))


@dataclass
class TokenSupply:
    """The clue tokens of one round: what each seat has shown and how many "?" tokens are out.

    `place` refuses (IllegalMoveError) a placement the supply cannot show; the caller decides
    what the rules gap means (the round model announces without a token and records it).
    """

    shown: dict[int, list[Character]] = field(default_factory=dict)
    question_marks: int = 0

    def can_place(self, seat: int, side: Character | None) -> bool:
        """Whether `seat` can still lay a token for `side` (None = a "?" token from the pool)."""
        if side is None:
            return self.question_marks < QUESTION_MARK_TOKENS
        if side is Character.SHEPHERD:
            return False  # no clue token shows the Shepherd
        return can_show([*self.shown.get(seat, []), side])

    def place(self, seat: int, side: Character | None) -> None:
        """Lay one token for `seat`'s announcement; IllegalMoveError when none is available."""
        if not self.can_place(seat, side):
            what = "?" if side is None else side.value
            raise IllegalMoveError(f"seat {seat} has no clue token left that shows {what} (W11)")
        if side is None:
            self.question_marks += 1
        else:
            self.shown.setdefault(seat, []).append(side)

    def within_supply(self) -> bool:
        """Invariant: the placed tokens never exceed the supply."""
        return self.question_marks <= QUESTION_MARK_TOKENS and all(
            can_show(sides) for sides in self.shown.values()
        )


def announcements_fit(sides: Iterable[Character]) -> bool:
    """Whether one seat's non-"?" announcements of a round fit its 6 clue tokens (W11)."""
    return can_show(list(sides))
