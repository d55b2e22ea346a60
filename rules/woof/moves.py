"""The moves of a Woof!! round as small frozen values (chance outcomes included).

A round (rules.woof.round.WoofRound) starts with the chance move `Deal`; on its turn a seat
plays `Look` (W4, followed by the chance move `CardPick`: which of the target's two cards is
seen), `Ask` (W5) or `SuspectEarly` (W6); after the round ends (W7) every seat without an early
suspicion plays `FinalSuspicion` (picks None = abstain). Moves carry no legality of their own:
`WoofRound.play` checks them against the state.
"""

from __future__ import annotations

from dataclasses import dataclass

from fleece.rules.woof.cards import Hand, QuestionCard, make_hand


@dataclass(frozen=True)
class Deal:
    """Chance: every seat's two character cards (seat order, the dummy included) and every
    acting seat's two question cards (seat order); the deck's other cards are out of play.

    Hands and question pairs are stored sorted, so equal deals are equal values."""

    hands: tuple[Hand, ...]
    questions: tuple[tuple[QuestionCard, ...], ...]

    def __post_init__(self) -> None:
        hands = tuple(make_hand(*h) if len(h) == 2 else tuple(h) for h in self.hands)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "questions", tuple(tuple(sorted(q)) for q in self.questions))


@dataclass(frozen=True)
class Look:
    """W4: `viewer` looks at one of the two cards of `target` (chance then picks which)."""

    viewer: int
    target: int


@dataclass(frozen=True)
class CardPick:
    """Chance after a look: the target's card `index` (0/1 of its sorted hand) is the one seen,
    each with probability 1/2 (W4: owners may reorder their cards before a look)."""

    index: int


@dataclass(frozen=True)
class Ask:
    """W5: `asker` plays its question card `question` on the acting seat `target`."""

    asker: int
    target: int
    question: QuestionCard


@dataclass(frozen=True)
class SuspectEarly:
    """W6: `seat` names one seat (or 0: nobody) per target of its character, in target order."""

    seat: int
    picks: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "picks", tuple(self.picks))


@dataclass(frozen=True)
class FinalSuspicion:
    """W7: after the round, `seat` names one seat (or 0) per target, or abstains (None)."""

    seat: int
    picks: tuple[int, ...] | None

    def __post_init__(self) -> None:
        if self.picks is not None:
            object.__setattr__(self, "picks", tuple(self.picks))


WoofMove = Deal | Look | CardPick | Ask | SuspectEarly | FinalSuspicion
"""Any move of a Woof!! round."""
