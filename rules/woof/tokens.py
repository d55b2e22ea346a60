"""W11: the finite clue-token supply of one round, as an immutable value.

Each seat owns 6 double-sided clue tokens (Wolf/Hunter, Wolf/Sheep, Wolf/Dog, Hunter/Sheep,
Dog/Sheep, Dog/Hunter); a placed token shows one side. The table shares 12 "?" tokens. Whether a
seat's announcements so far can all be shown with its tokens is a bipartite matching problem
(announcements -> tokens carrying that side); this module answers it exactly, so the rules model
and the evidence checker can expose the rules gap of a seat that must announce something it has
no token left for.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class TokenSupply:
    """The clue tokens laid in one round: the sides each seat has shown and the "?" tokens out.

    Immutable: `place` returns the supply after one more token, or refuses (IllegalMoveError)
    a placement the supply cannot show; the caller decides what that rules gap means (the round
    model announces without a token and records it). `shown` is sorted by seat.
    """

    shown: tuple[tuple[int, tuple[Character, ...]], ...] = ()
    question_marks: int = 0

    def sides(self, seat: int) -> tuple[Character, ...]:
        """The sides `seat` has shown so far, in the order laid."""
        for s, sides in self.shown:
            if s == seat:
                return sides
        return ()

    def by_seat(self) -> dict[int, tuple[Character, ...]]:
        """Every seat that laid a clue token -> the sides it shows."""
        return dict(self.shown)

    def can_place(self, seat: int, side: Character | None) -> bool:
        """Whether `seat` can still lay a token for `side` (None = a "?" token from the pool)."""
        if side is None:
            return self.question_marks < QUESTION_MARK_TOKENS
        if side is Character.SHEPHERD:
            return False  # no clue token shows the Shepherd
        return can_show([*self.sides(seat), side])

    def place(self, seat: int, side: Character | None) -> TokenSupply:
        """The supply after `seat` lays one token for its announcement; IllegalMoveError when
        no token is available (this supply is unchanged either way)."""
        if not self.can_place(seat, side):
            what = "?" if side is None else side.value
            raise IllegalMoveError(f"seat {seat} has no clue token left that shows {what} (W11)")
        if side is None:
            return TokenSupply(self.shown, self.question_marks + 1)
        shown = self.by_seat()
        shown[seat] = (*shown.get(seat, ()), side)
        return TokenSupply(tuple(sorted(shown.items())), self.question_marks)

    def within_supply(self) -> bool:
        """Invariant: the placed tokens never exceed the supply."""
        return self.question_marks <= QUESTION_MARK_TOKENS and all(
            can_show(sides) for _, sides in self.shown
        )


def announcements_fit(sides: Iterable[Character]) -> bool:
    """Whether one seat's non-"?" announcements of a round fit its 6 clue tokens (W11)."""
    return can_show(list(sides))
