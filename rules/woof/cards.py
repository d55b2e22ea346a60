"""Woof!! card catalogue as data: characters, values, appearances, targets, decks, questions.

Everything the rules and the solver need to know about a card lives here as plain data, so the rest
of the model never hard-codes a picture or a number. Sources: docs/rules.md section 2 (facts and
W1-W2). Two pieces of data are not known from any source and are therefore *assumptions*, marked as
such and overridable: the Dog's second target (W2) and the decks for 4-7 players.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum


class Character(StrEnum):
    """The five characters of Woof!!; a card's picture and (unless "?") its appearance."""

    SHEEP = "sheep"
    DOG = "dog"
    HUNTER = "hunter"
    SHEPHERD = "shepherd"
    WOLF = "wolf"


CHARACTERS: tuple[Character, ...] = tuple(Character)

#: Card values (facts): the higher value decides a mixed hand's character (W1).
CARD_VALUE: Mapping[Character, int] = {
    Character.SHEEP: 1,
    Character.DOG: 2,
    Character.HUNTER: 3,
    Character.SHEPHERD: 4,
    Character.WOLF: 5,
}

#: What an appearance of "?" is announced as: the viewer says "don't know".
UNKNOWN = "?"

Appearance = Character | None
"""A card's appearance or a look's announcement; None stands for "?" (don't know)."""


def face_name(face: Appearance) -> str:
    """Text of an appearance or announcement: the character's name, or "?"."""
    return UNKNOWN if face is None else face.value


@dataclass(frozen=True)
class Card:
    """One character card: the picture (its character and value) and its printed appearance.

    Identical cards are interchangeable as data; the solver still counts them as distinct
    physical cards when weighing deals.
    """

    picture: Character
    appearance: Appearance

    @property
    def value(self) -> int:
        """The card's value (W1), taken from its picture."""
        return CARD_VALUE[self.picture]

    @property
    def name(self) -> str:
        """Canonical text: `sheep`, `dog?` (appearance "?"), `sheep@dog` (other appearance)."""
        if self.appearance is None:
            return f"{self.picture.value}?"
        if self.appearance is self.picture:
            return self.picture.value
        return f"{self.picture.value}@{self.appearance.value}"

    def sort_key(self) -> tuple[int, int]:
        """Order by value, then appearance ("?" last), so hands and decks print stably."""
        app = 9 if self.appearance is None else CARD_VALUE[self.appearance]
        return (self.value, app)

    def __str__(self) -> str:
        return self.name


def parse_card(text: str) -> Card:
    """Read a card name (`sheep`, `dog?`, `sheep@dog`); ValueError naming what is wrong."""
    raw = text.strip().lower()
    if raw.endswith(UNKNOWN):
        pic_text, app_text = raw[:-1], UNKNOWN
    elif "@" in raw:
        pic_text, _, app_text = raw.partition("@")
    else:
        pic_text, app_text = raw, raw
    try:
        picture = Character(pic_text)
    except ValueError:
        raise ValueError(f"unknown card {text!r} (pictures: {', '.join(CHARACTERS)})") from None
    if app_text == UNKNOWN:
        return Card(picture, None)
    try:
        return Card(picture, Character(app_text))
    except ValueError:
        raise ValueError(f"unknown appearance {app_text!r} in card {text!r}") from None


def parse_face(text: str) -> Appearance:
    """Read an announcement (`wolf sheep dog hunter shepherd ?`); ValueError if unknown."""
    raw = text.strip().lower()
    if raw == UNKNOWN:
        return None
    try:
        return Character(raw)
    except ValueError:
        raise ValueError(
            f"unknown announcement {text!r} (use wolf, sheep, dog, hunter or ?)"
        ) from None


def _cards(spec: Iterable[tuple[str, int]]) -> tuple[Card, ...]:
    out: list[Card] = []
    for name, count in spec:
        out.extend([parse_card(name)] * count)
    return tuple(sorted(out, key=Card.sort_key))


#: The 16 basic cards (facts): 7 Sheep, 2 Dog + Dog "?", 2 Hunter + Hunter "?", Shepherd "?",
#: 2 Wolf. With 8 players all of them are dealt.
BASIC_CARDS: tuple[Card, ...] = _cards(
    [("sheep", 7), ("dog", 2), ("dog?", 1), ("hunter", 2), ("hunter?", 1), ("shepherd?", 1),
     ("wolf", 2)]
)

#: The 4 expert cards (facts): each shows an appearance other than its picture.
EXPERT_CARDS: tuple[Card, ...] = _cards(
    [("sheep@dog", 1), ("dog@wolf", 1), ("hunter@sheep", 1), ("shepherd@hunter", 1)]
)

#: ASSUMPTION (no source gives the player-count table): decks for 5-7 seats, obtained from the
#: basic set by leaving out Sheep first and then one Dog. 5 seats covers 5 players and 4 players
#: plus the dummy seat (W3). Used only when an evidence file says `deck preset`.
PRESET_DECKS: Mapping[int, tuple[Card, ...]] = {
    8: BASIC_CARDS,
    7: _cards([("sheep", 5), ("dog", 2), ("dog?", 1), ("hunter", 2), ("hunter?", 1),
               ("shepherd?", 1), ("wolf", 2)]),
    6: _cards([("sheep", 4), ("dog", 1), ("dog?", 1), ("hunter", 2), ("hunter?", 1),
               ("shepherd?", 1), ("wolf", 2)]),
    5: _cards([("sheep", 3), ("dog", 1), ("hunter", 2), ("hunter?", 1), ("shepherd?", 1),
               ("wolf", 2)]),
}
PRESET_NOTE = (
    "assumed deck preset: the rulebook's player-count table is unknown; this deck leaves out "
    "Sheep (and for 5 seats a Dog) from the 16 basic cards"
)


# ---- targets (W2) ----------------------------------------------------------------------------

#: ASSUMPTION (W2): no source names the Dog's second target; the default is the Shepherd.
DEFAULT_DOG_SECOND_TARGET = Character.SHEPHERD


@dataclass(frozen=True)
class CardRules:
    """Rule-set parameters of the model. `dog_second_target` is an assumption (default Shepherd)."""

    dog_second_target: Character = DEFAULT_DOG_SECOND_TARGET

    def targets(self, character: Character) -> tuple[Character, ...]:
        """The characters a seat of `character` must identify (W2), in pointer order."""
        table: dict[Character, tuple[Character, ...]] = {
            Character.SHEEP: (Character.DOG, Character.HUNTER),
            Character.SHEPHERD: (Character.WOLF, Character.SHEEP),
            Character.WOLF: (Character.SHEEP,),
            Character.HUNTER: (Character.WOLF, Character.DOG),
            Character.DOG: (Character.WOLF, self.dog_second_target),
        }
        return table[character]


DEFAULT_RULES = CardRules()


# ---- hands and characters (W1) ---------------------------------------------------------------

Hand = tuple[Card, Card]
"""A seat's two cards, sorted by Card.sort_key (order inside a hand carries no meaning)."""


def make_hand(a: Card, b: Card) -> Hand:
    """The canonical (sorted) hand of two cards."""
    return (a, b) if a.sort_key() <= b.sort_key() else (b, a)


def character_of(hand: Hand) -> Character:
    """W1: the shared picture of two equal pictures, else the picture of the higher value."""
    a, b = hand
    return a.picture if a.value >= b.value else b.picture


def announcement(card: Card, viewer: Character) -> Appearance:
    """W4: what a viewer of `viewer` character announces on seeing `card`.

    "?" gives "don't know" (None) for everybody; a Shepherd announces Wolf for any other card.
    """
    if card.appearance is None:
        return None
    if viewer is Character.SHEPHERD:
        return Character.WOLF
    return card.appearance


# ---- question cards (W5) ---------------------------------------------------------------------


class QuestionCard(StrEnum):
    """The five question cards; every answer must be truthful (W5)."""

    Q1 = "q1"  # are you Wolf, Hunter or Shepherd?
    Q2 = "q2"  # are you Sheep, Hunter or Shepherd?
    Q3 = "q3"  # does at least one of your cards show the Dog (picture)?
    Q4 = "q4"  # ... the Hunter?
    Q5 = "q5"  # ... the Sheep?

    @property
    def text(self) -> str:
        """The question in words."""
        return QUESTION_TEXT[self]

    def answer(self, hand: Hand) -> bool:
        """The truthful answer of a seat holding `hand`."""
        if self is QuestionCard.Q1:
            return character_of(hand) in (Character.WOLF, Character.HUNTER, Character.SHEPHERD)
        if self is QuestionCard.Q2:
            return character_of(hand) in (Character.SHEEP, Character.HUNTER, Character.SHEPHERD)
        picture = {QuestionCard.Q3: Character.DOG, QuestionCard.Q4: Character.HUNTER,
                   QuestionCard.Q5: Character.SHEEP}[self]
        return any(card.picture is picture for card in hand)


QUESTION_TEXT: Mapping[QuestionCard, str] = {
    QuestionCard.Q1: "are you the Wolf, a Hunter or the Shepherd?",
    QuestionCard.Q2: "are you a Sheep, a Hunter or the Shepherd?",
    QuestionCard.Q3: "does one of your cards show the Dog?",
    QuestionCard.Q4: "does one of your cards show the Hunter?",
    QuestionCard.Q5: "does one of your cards show the Sheep?",
}

#: The 16 question cards (facts): 4 x q1, 4 x q2, 3 x q3, 3 x q4, 2 x q5.
QUESTION_DECK: tuple[QuestionCard, ...] = (
    (QuestionCard.Q1,) * 4 + (QuestionCard.Q2,) * 4 + (QuestionCard.Q3,) * 3
    + (QuestionCard.Q4,) * 3 + (QuestionCard.Q5,) * 2
)
