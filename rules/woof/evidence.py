"""Evidence files for the Woof!! solver: facts, parser, writer, and facts from a played round.

One fact per line, `#` starts a comment. Keywords (docs/rules.md section 2, evidence model):

    seats N                 players, 4..8 (with 4 a dummy seat 5 is added, W3)
    deck CARD ...           the cards in play; `basic` (the 16), `expert` (the 4 expert cards),
                            `preset` (an ASSUMED deck for the seat count), `card*N` for N copies
    me N                    the point of view (optional)
    dog-target CHARACTER    override the assumed second target of the Dog (default shepherd)
    hand S CARD CARD        seat S holds exactly these two cards
    look V T ANNOUNCEMENT   seat V looked at a card of seat T and announced it (wolf ... ?)
    saw V T CARD [ANN]      seat V looked at seat T and saw exactly this card
    ask A T Q yes|no        seat A asked seat T question q1..q5; the (truthful) answer

Words are separated by spaces or tabs; only `\n` and `\r\n` end a line; numbers are ASCII
digits. Errors are `ParseError`s naming the line, the column and what is wrong.
`format_evidence` writes the canonical text back; parsing it gives an equal `Evidence`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from fleece.rules.errors import ParseError, RulesError
from fleece.rules.text import quote, split_lines, whole_number
from fleece.rules.woof.cards import (
    BASIC_CARDS,
    DEFAULT_RULES,
    EXPERT_CARDS,
    PRESET_DECKS,
    PRESET_NOTE,
    QUESTION_DECK,
    Appearance,
    Card,
    CardRules,
    Character,
    Hand,
    QuestionCard,
    face_name,
    make_hand,
    parse_card,
    parse_face,
)
from fleece.rules.woof.round import AskEvent as _AskEvent
from fleece.rules.woof.round import LookEvent, Table, WoofRound
from fleece.rules.woof.tokens import announcements_fit

# ---- facts -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandFact:
    """`hand`: the seat holds exactly these two cards."""

    seat: int
    cards: Hand
    line: int = field(default=0, compare=False)

    def describe(self) -> str:
        """The fact in words."""
        return f"seat {self.seat} holds {self.cards[0]} and {self.cards[1]}"


@dataclass(frozen=True)
class LookFact:
    """`look`: a public announcement after looking at one of the target's two cards (W4)."""

    viewer: int
    target: int
    announced: Appearance
    line: int = field(default=0, compare=False)

    def describe(self) -> str:
        """The fact in words."""
        said = "don't know" if self.announced is None else self.announced.value
        return f"seat {self.viewer} looked at seat {self.target} and announced {said}"


@dataclass(frozen=True)
class SawFact:
    """`saw`: the viewer saw exactly this card of the target (private knowledge). When
    `announced_given`, the public announcement `announced` is conditioned on as well."""

    viewer: int
    target: int
    card: Card
    announced: Appearance = None
    announced_given: bool = False
    line: int = field(default=0, compare=False)

    def describe(self) -> str:
        """The fact in words."""
        text = f"seat {self.viewer} saw {self.card} at seat {self.target}"
        if self.announced_given:
            text += f" and announced {face_name(self.announced)}"
        return text


@dataclass(frozen=True)
class AskFact:
    """`ask`: a question card and its truthful answer (W5)."""

    asker: int
    target: int
    question: QuestionCard
    answer: bool
    line: int = field(default=0, compare=False)

    def describe(self) -> str:
        """The fact in words."""
        yn = "yes" if self.answer else "no"
        return (f"seat {self.asker} asked seat {self.target} {self.question.value} "
                f"({self.question.text}): {yn}")


Fact = HandFact | LookFact | SawFact | AskFact


@dataclass(frozen=True)
class Evidence:
    """Everything one point of view knows about one round: table, deck, facts.

    `deck` is the multiset of cards in play, sorted; with more cards than seats need, the rest
    are out of play (unseen). `notes` carries assumptions in force (e.g. a preset deck).
    """

    players: int
    deck: tuple[Card, ...]
    facts: tuple[Fact, ...] = ()
    me: int | None = None
    rules: CardRules = DEFAULT_RULES
    notes: tuple[str, ...] = field(default=(), compare=False)

    @property
    def table(self) -> Table:
        """The table (seats and dummy) of this evidence."""
        return Table(self.players)

    def with_facts(self, facts: Iterable[Fact]) -> Evidence:
        """The same table, deck and point of view with other facts."""
        return Evidence(self.players, self.deck, tuple(facts), self.me, self.rules, self.notes)

    def with_view(self, me: int | None = None, dog_target: str | None = None) -> Evidence:
        """Override the point of view and/or the assumed Dog target (the `me` and
        `dog_target` options); RulesError naming the field when the seat or character does not
        exist."""
        seat = self.me
        if me is not None:
            if me not in self.table.seat_numbers or me == self.table.dummy:
                raise RulesError(f"not a player's seat (players are 1..{self.players})",
                                 field="me", value=str(me))
            seat = me
        rules = self.rules
        notes = self.notes
        if dog_target is not None:
            try:
                rules = CardRules(Character(dog_target.lower()))
            except ValueError:
                raise RulesError("unknown character", field="dog_target",
                                 value=dog_target[:40]) from None
            notes = (*notes, f"Dog's second target: {rules.dog_second_target.value} (assumption)")
        return Evidence(self.players, self.deck, self.facts, seat, rules, notes)

    def warnings(self) -> list[str]:
        """Things the record says that the physical game cannot do (rules gaps, W11, W5)."""
        out: list[str] = []
        shown: dict[int, list[Character]] = {}
        marks = 0
        asked: Counter[int] = Counter()
        questions: Counter[QuestionCard] = Counter()
        for f in self.facts:
            said: Appearance = None
            acted = False
            if isinstance(f, LookFact) or (isinstance(f, SawFact) and f.announced_given):
                said, acted = f.announced, True
            elif isinstance(f, AskFact):
                asked[f.asker] += 1
                questions[f.question] += 1
            if acted:
                if said is None:
                    marks += 1
                else:
                    shown.setdefault(f.viewer, []).append(said)  # type: ignore[union-attr]
        for seat, sides in sorted(shown.items()):
            if not announcements_fit(sides):
                out.append(f"seat {seat}'s announcements need more clue tokens than a seat owns "
                           "(W11 gap)")
        if marks > 12:
            out.append(f"{marks} '?' announcements, the pool holds 12 tokens (W11 gap)")
        for seat, n in sorted(asked.items()):
            if n > 2:
                out.append(f"seat {seat} asked {n} questions but holds 2 question cards")
        supply = Counter(QUESTION_DECK)
        for q, n in sorted(questions.items()):
            if n > supply[q]:
                out.append(f"{n} {q.value} questions asked, only {supply[q]} such cards exist")
        return out


def describe(fact: Fact) -> str:
    """`line N: <fact in words>`."""
    return f"line {fact.line}: {fact.describe()}" if fact.line else fact.describe()


# ---- parser ----------------------------------------------------------------------------------

_KEYWORDS = ("seats", "deck", "me", "dog-target", "hand", "look", "saw", "ask")


@dataclass
class _Tok:
    text: str
    col: int


_BLANK = " \t\u00a0"


def _tokens(line: str, lineno: int) -> list[_Tok]:
    """The words of a line before any `#` comment; a control or invisible character outside
    a comment is an error at its column."""
    code = line.split("#", 1)[0]
    spaced = code
    if "\t" in spaced or "\u00a0" in spaced:
        spaced = spaced.replace("\t", " ").replace("\u00a0", " ")
    if spaced.isprintable():  # the usual line: split at the spaces (blanks are one char each)
        words: list[_Tok] = []
        col = 1
        for word in spaced.split(" "):
            if word:
                words.append(_Tok(word, col))
            col += len(word) + 1
        return words
    return _tokens_checked(code, lineno)


def _tokens_checked(code: str, lineno: int) -> list[_Tok]:
    """`_tokens` of a line holding a control or invisible character: the words up to the
    first such character inside a word, which is an error at its column."""
    out: list[_Tok] = []
    i = 0
    while i < len(code):
        if code[i] in _BLANK:
            i += 1
            continue
        j = i
        while j < len(code) and code[j] not in _BLANK:
            if not code[j].isprintable():
                raise ParseError(f"unexpected character U+{ord(code[j]):04X} (words are "
                                 "separated by spaces)", line=lineno, column=j + 1)
            j += 1
        out.append(_Tok(code[i:j], i + 1))
        i = j
    return out


def _int(tok: _Tok, lineno: int, what: str) -> int:
    return whole_number(tok.text, what, max_digits=4, line=lineno, column=tok.col)


def _card(tok: _Tok, lineno: int) -> Card:
    try:
        return parse_card(tok.text)
    except ValueError as exc:
        raise ParseError(str(exc), line=lineno, column=tok.col) from None


def _face(tok: _Tok, lineno: int) -> Appearance:
    try:
        return parse_face(tok.text)
    except ValueError as exc:
        raise ParseError(str(exc), line=lineno, column=tok.col) from None


_ARITY = {"seats": (1, 1), "me": (1, 1), "dog-target": (1, 1), "hand": (3, 3),
          "look": (3, 3), "saw": (3, 4), "ask": (4, 4), "deck": (1, 99)}
_USAGE = {
    "seats": "seats N", "me": "me SEAT", "dog-target": "dog-target CHARACTER",
    "hand": "hand SEAT CARD CARD", "look": "look VIEWER TARGET ANNOUNCEMENT",
    "saw": "saw VIEWER TARGET CARD [ANNOUNCEMENT]", "ask": "ask ASKER TARGET q1..q5 yes|no",
    "deck": "deck CARD ... | basic | expert | preset",
}


def parse_evidence(text: str, *, rules: CardRules | None = None) -> Evidence:
    """Parse an evidence file (see the module docstring). Raises ParseError with line/column."""
    players: int | None = None
    deck_toks: tuple[int, list[_Tok]] | None = None
    me: tuple[int, _Tok] | None = None
    dog_target: Character | None = None
    seen_once: dict[str, int] = {}
    pending: list[tuple[int, str, list[_Tok]]] = []
    for lineno, raw in enumerate(split_lines(text), start=1):
        toks = _tokens(raw, lineno)
        if not toks:
            continue
        key = toks[0].text.lower()
        args = toks[1:]
        if key not in _KEYWORDS:
            raise ParseError(f"unknown keyword {quote(toks[0].text)} (expected one of "
                             f"{', '.join(_KEYWORDS)})", line=lineno, column=toks[0].col)
        lo, hi = _ARITY[key]
        if not lo <= len(args) <= hi:
            where = args[hi].col if len(args) > hi else \
                len(raw.split('#', 1)[0].rstrip(_BLANK)) + 1
            raise ParseError(f"{key}: expected `{_USAGE[key]}`", line=lineno, column=where)
        if key in ("seats", "deck", "me", "dog-target"):
            if key in seen_once:
                raise ParseError(f"second `{key}` line (the first is line {seen_once[key]})",
                                 line=lineno, column=toks[0].col)
            seen_once[key] = lineno
        if key == "seats":
            players = _int(args[0], lineno, "the number of players")
            if not 4 <= players <= 8:
                raise ParseError(f"Woof!! is for 4 to 8 players, not {players}", line=lineno,
                                 column=args[0].col)
        elif key == "deck":
            deck_toks = (lineno, args)
        elif key == "me":
            me = (lineno, args[0])
        elif key == "dog-target":
            try:
                dog_target = Character(args[0].text.lower())
            except ValueError:
                raise ParseError(f"unknown character {quote(args[0].text)}", line=lineno,
                                 column=args[0].col) from None
        else:
            pending.append((lineno, key, args))
    if players is None:
        raise ParseError("missing `seats N` line (number of players, 4..8)")
    table = Table(players)
    notes: list[str] = []
    deck = _parse_deck(deck_toks, table, notes)
    if rules is None:
        rules = CardRules(dog_target) if dog_target is not None else DEFAULT_RULES
    me_seat: int | None = None
    if me is not None:
        me_seat = _seat(me[1], me[0], table, acting=True, role="me")
    reader = _Reader(table)
    facts = tuple(_fact(lineno, key, args, reader) for lineno, key, args in pending)
    if rules.dog_second_target is not DEFAULT_RULES.dog_second_target or dog_target is not None:
        notes.append(f"Dog's second target: {rules.dog_second_target.value} (assumption)")
    return Evidence(players, deck, facts, me_seat, rules, tuple(notes))


def _parse_deck(spec: tuple[int, list[_Tok]] | None, table: Table, notes: list[str]
                ) -> tuple[Card, ...]:
    if spec is None:
        if table.seats == 8:
            return BASIC_CARDS
        raise ParseError(
            f"missing `deck` line: the deck for {table.seats} seats is not known from any source;"
            " list the cards or write `deck preset` (an assumed deck)")
    lineno, toks = spec
    cards: list[Card] = []
    for tok in toks:
        word, _, times = tok.text.lower().partition("*")
        count = 1
        if times or tok.text.endswith("*"):
            count = whole_number(times, f"the copy count of {quote(tok.text)} (card*N)",
                                 lo=1, hi=20, line=lineno, column=tok.col)
        if word == "basic":
            cards.extend(BASIC_CARDS * count)
        elif word == "expert":
            cards.extend(EXPERT_CARDS * count)
        elif word == "preset":
            if table.seats not in PRESET_DECKS:
                raise ParseError(f"no preset deck for {table.seats} seats", line=lineno,
                                 column=tok.col)
            cards.extend(PRESET_DECKS[table.seats] * count)
            if table.seats != 8:
                notes.append(PRESET_NOTE)
        else:
            cards.extend([_card(_Tok(word, tok.col), lineno)] * count)
    if len(cards) < 2 * table.seats:
        raise ParseError(f"the deck has {len(cards)} cards, {table.seats} seats need "
                         f"{2 * table.seats}", line=lineno, column=toks[0].col)
    if len(cards) > 2 * table.seats:
        notes.append(f"{len(cards) - 2 * table.seats} card(s) of the deck are not dealt")
    return tuple(sorted(cards, key=Card.sort_key))


def _seat(tok: _Tok, lineno: int, table: Table, *, acting: bool, role: str) -> int:
    seat = _int(tok, lineno, f"{role} seat")
    if seat not in table.seat_numbers:
        raise ParseError(f"{role} seat {seat} does not exist (seats 1..{table.seats})",
                         line=lineno, column=tok.col)
    if acting and seat == table.dummy:
        raise ParseError(f"{role} seat {seat} is the dummy seat, which never acts or answers "
                         "(W3)", line=lineno, column=tok.col)
    return seat


class _Reader:
    """Reads the seat, card and announcement words of the fact lines of one table. A word
    read once is not read again (a file of 10,000 lines repeats a handful of words); only
    successful reads are kept, so every error still names its own line and column."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.seats: dict[tuple[str, bool, str], int] = {}
        self.cards: dict[str, Card] = {}
        self.faces: dict[str, Appearance] = {}

    def seat(self, tok: _Tok, lineno: int, *, acting: bool, role: str) -> int:
        """`_seat` of the word."""
        key = (tok.text, acting, role)
        seat = self.seats.get(key)
        if seat is None:
            seat = self.seats[key] = _seat(tok, lineno, self.table, acting=acting, role=role)
        return seat

    def card(self, tok: _Tok, lineno: int) -> Card:
        """`_card` of the word."""
        card = self.cards.get(tok.text)
        if card is None:
            card = self.cards[tok.text] = _card(tok, lineno)
        return card

    def face(self, tok: _Tok, lineno: int) -> Appearance:
        """`_face` of the word (None, the `?` announcement, is read each time)."""
        face = self.faces.get(tok.text)
        if face is None:
            face = _face(tok, lineno)
            if face is not None:
                self.faces[tok.text] = face
        return face


def _fact(lineno: int, key: str, args: list[_Tok], reader: _Reader) -> Fact:
    if key == "hand":
        seat = reader.seat(args[0], lineno, acting=False, role="hand")
        return HandFact(seat, make_hand(reader.card(args[1], lineno),
                                        reader.card(args[2], lineno)), lineno)
    if key == "ask":
        asker = reader.seat(args[0], lineno, acting=True, role="asking")
        target = reader.seat(args[1], lineno, acting=True, role="asked")
        if asker == target:
            raise ParseError("a seat cannot ask itself", line=lineno, column=args[1].col)
        try:
            question = QuestionCard(args[2].text.lower())
        except ValueError:
            raise ParseError(f"unknown question {quote(args[2].text)} (q1..q5)", line=lineno,
                             column=args[2].col) from None
        answer = args[3].text.lower()
        if answer not in ("yes", "no"):
            raise ParseError(f"answer must be yes or no, got {quote(args[3].text)}", line=lineno,
                             column=args[3].col)
        return AskFact(asker, target, question, answer == "yes", lineno)
    viewer = reader.seat(args[0], lineno, acting=True, role="looking")
    target = reader.seat(args[1], lineno, acting=False, role="looked-at")
    if viewer == target:
        raise ParseError("a seat cannot look at its own cards (W4)", line=lineno,
                         column=args[1].col)
    if key == "look":
        return LookFact(viewer, target, reader.face(args[2], lineno), lineno)
    card = reader.card(args[2], lineno)
    if len(args) == 4:
        return SawFact(viewer, target, card, reader.face(args[3], lineno), True, lineno)
    return SawFact(viewer, target, card, line=lineno)


def load_evidence(text: str, source: str | None = None) -> Evidence:
    """Parse `text`, naming `source` (a file name or `<stdin>`) in errors."""
    try:
        return parse_evidence(text)
    except ParseError as exc:
        raise exc.located(source) if source else exc from None
    except RulesError as exc:
        raise ParseError(str(exc), source=source) from None


# ---- writer ----------------------------------------------------------------------------------


def deck_text(deck: Sequence[Card]) -> str:
    """The deck as evidence-file text: `basic`, or card names with `*N` copy counts."""
    if tuple(deck) == BASIC_CARDS:
        return "basic"
    counts = Counter(deck)
    parts = []
    for card in sorted(counts, key=Card.sort_key):
        n = counts[card]
        parts.append(card.name if n == 1 else f"{card.name}*{n}")
    return " ".join(parts)


def fact_line(fact: Fact) -> str:
    """One fact as an evidence-file line."""
    if isinstance(fact, HandFact):
        return f"hand {fact.seat} {fact.cards[0]} {fact.cards[1]}"
    if isinstance(fact, LookFact):
        return f"look {fact.viewer} {fact.target} {face_name(fact.announced)}"
    if isinstance(fact, SawFact):
        tail = f" {face_name(fact.announced)}" if fact.announced_given else ""
        return f"saw {fact.viewer} {fact.target} {fact.card}{tail}"
    yn = "yes" if fact.answer else "no"
    return f"ask {fact.asker} {fact.target} {fact.question.value} {yn}"


def format_evidence(ev: Evidence) -> str:
    """Canonical text of `ev`; `parse_evidence(format_evidence(ev)) == ev`."""
    lines = [f"seats {ev.players}", f"deck {deck_text(ev.deck)}"]
    if ev.rules.dog_second_target is not DEFAULT_RULES.dog_second_target:
        lines.append(f"dog-target {ev.rules.dog_second_target.value}")
    if ev.me is not None:
        lines.append(f"me {ev.me}")
    lines.extend(fact_line(f) for f in ev.facts)
    return "\n".join(lines) + "\n"


# ---- from a played round ---------------------------------------------------------------------


def evidence_from_round(rnd: WoofRound, me: int | None = None,
                        deck: Sequence[Card] | None = None) -> Evidence:
    """The public record of a round, plus `me`'s private knowledge (own hand, cards seen).

    Looks become `look` lines (or `saw` lines with the announcement when `me` looked), questions
    become `ask` lines. `deck` defaults to the dealt cards (nothing out of play), or before the
    deal to the round's deck.
    """
    hands = rnd.hands
    if deck is None:
        deck = [c for h in hands.values() for c in h] if hands else rnd.deck
    facts: list[Fact] = []
    if me is not None and hands:
        facts.append(HandFact(me, hands[me]))
    for e in rnd.events:
        if isinstance(e, LookEvent):
            if e.viewer == me:
                facts.append(SawFact(e.viewer, e.target, e.card, e.announced, True))
            else:
                facts.append(LookFact(e.viewer, e.target, e.announced))
        elif isinstance(e, _AskEvent):
            facts.append(AskFact(e.asker, e.target, e.question, e.answer))
    return Evidence(rnd.table.players, tuple(sorted(deck, key=Card.sort_key)), tuple(facts), me,
                    rnd.rules)
