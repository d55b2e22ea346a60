"""Text of Woof!! moves and rounds: one move per line after an options header.

Moves (seats are numbers, picks are seats or 0 for "nobody", in the order of the seat's
targets, W2):

    deal 1:sheep,wolf:q1,q2 2:hunter,shepherd?:q1,q3 ... 5:hunter?,sheep
                        every seat's two cards and each acting seat's two question cards
                        (the dummy seat has none, W3)
    look 1 4            seat 1 looks at a card of seat 4 (W4)
    card 0              chance: the card seen is card 0 (or 1) of the target's sorted hand
    ask 1 4 q1          seat 1 asks seat 4 question q1 (W5)
    early 1 4 0         seat 1 suspects early: seat 4 for its first target, nobody for the
                        second (W6)
    final 3 4 0         seat 3's final suspicion (W7)
    abstain 5           seat 5 makes no final suspicion

A round (position) is the options header then every move so far, `#` starting a comment:

    players 5
    deck sheep*3 dog hunter*2 hunter? shepherd? wolf*2
    start 1
    barred 2            (optional: seats barred from early suspicion, W8)
    turn-limit 40       (optional: end the round after this many turns, a recorded gap)
    dog-target hunter   (optional: the Dog's assumed second target, W2; default shepherd)
    deal ...
    look 1 4
    ...

`parse_move` is the exact inverse of `format_move`, `parse_position` of `format_position`;
errors are ParseErrors naming the line and column.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from fleece.rules.errors import FleeceError, ParseError, RulesError
from fleece.rules.woof.cards import (
    BASIC_CARDS,
    DEFAULT_RULES,
    EXPERT_CARDS,
    Card,
    CardRules,
    Character,
    QuestionCard,
    parse_card,
)
from fleece.rules.woof.moves import (
    Ask,
    CardPick,
    Deal,
    FinalSuspicion,
    Look,
    SuspectEarly,
    WoofMove,
)
from fleece.rules.woof.round import AskEvent, EarlyEvent, LookEvent, WoofOptions, WoofRound

MOVE_KEYWORDS = ("deal", "look", "card", "ask", "early", "final", "abstain")
OPTION_KEYWORDS = ("players", "deck", "start", "barred", "turn-limit", "dog-target")


# ---- moves -----------------------------------------------------------------------------------


def format_move(move: WoofMove) -> str:
    """A move in the notation of the module docstring."""
    if isinstance(move, Deal):
        parts = []
        for i, hand in enumerate(move.hands):
            text = f"{i + 1}:{','.join(c.name for c in hand)}"
            if i < len(move.questions):
                text += ":" + ",".join(q.value for q in move.questions[i])
            parts.append(text)
        return "deal " + " ".join(parts)
    if isinstance(move, Look):
        return f"look {move.viewer} {move.target}"
    if isinstance(move, CardPick):
        return f"card {move.index}"
    if isinstance(move, Ask):
        return f"ask {move.asker} {move.target} {move.question.value}"
    if isinstance(move, SuspectEarly):
        return " ".join(["early", str(move.seat), *map(str, move.picks)])
    if move.picks is None:
        return f"abstain {move.seat}"
    return " ".join(["final", str(move.seat), *map(str, move.picks)])


@dataclass(frozen=True)
class _Word:
    text: str
    column: int


def _words(line: str) -> list[_Word]:
    """The words of a line before any `#`, with their 1-based columns."""
    code = line.split("#", 1)[0]
    out: list[_Word] = []
    i = 0
    while i < len(code):
        if code[i].isspace():
            i += 1
            continue
        j = i
        while j < len(code) and not code[j].isspace():
            j += 1
        out.append(_Word(code[i:j], i + 1))
        i = j
    return out


def _number(word: _Word, what: str, line: int | None) -> int:
    text = word.text
    if not text.isascii() or not text.isdigit():
        raise ParseError(f"{what} must be a number, got {text!r}", line=line, column=word.column)
    return int(text)


_USAGE = {
    "deal": "deal SEAT:CARD,CARD[:Q,Q] ...", "look": "look VIEWER TARGET", "card": "card 0|1",
    "ask": "ask ASKER TARGET q1..q5", "early": "early SEAT PICK...",
    "final": "final SEAT PICK...", "abstain": "abstain SEAT",
}
_ARITY = {"look": (2, 2), "card": (1, 1), "ask": (3, 3), "early": (2, 3), "final": (2, 3),
          "abstain": (1, 1), "deal": (1, 99)}


def _move(words: list[_Word], line: int | None, end: int) -> WoofMove:
    key = words[0].text.lower()
    args = words[1:]
    if key not in MOVE_KEYWORDS:
        raise ParseError(f"unknown move {words[0].text!r} (expected one of "
                         f"{', '.join(MOVE_KEYWORDS)})", line=line, column=words[0].column)
    lo, hi = _ARITY[key]
    if not lo <= len(args) <= hi:
        column = args[hi].column if len(args) > hi else end
        raise ParseError(f"{key}: expected `{_USAGE[key]}`", line=line, column=column)
    if key == "deal":
        return _deal(args, line)
    what = {"look": ("the viewer", "the target"), "card": ("the card index",),
            "ask": ("the asker", "the target")}.get(key, ("a seat", "a pick", "a pick"))
    nums = [_number(w, what[i], line) for i, w in enumerate(args[:len(what)])]
    if key == "look":
        return Look(nums[0], nums[1])
    if key == "card":
        return CardPick(nums[0])
    if key == "ask":
        try:
            question = QuestionCard(args[2].text.lower())
        except ValueError:
            raise ParseError(f"unknown question {args[2].text!r} (q1..q5)", line=line,
                             column=args[2].column) from None
        return Ask(nums[0], nums[1], question)
    if key == "early":
        return SuspectEarly(nums[0], tuple(nums[1:]))
    if key == "final":
        return FinalSuspicion(nums[0], tuple(nums[1:]))
    return FinalSuspicion(nums[0], None)


def _deal(args: list[_Word], line: int | None) -> Deal:
    hands: list[tuple[Card, Card]] = []
    questions: list[tuple[QuestionCard, ...]] = []
    for i, word in enumerate(args):
        parts = word.text.split(":")
        if len(parts) not in (2, 3):
            raise ParseError(f"deal: expected SEAT:CARD,CARD[:Q,Q], got {word.text!r}",
                             line=line, column=word.column)
        if parts[0] != str(i + 1):
            raise ParseError(f"deal: seat {i + 1} comes next, got {parts[0]!r}", line=line,
                             column=word.column)
        cards = parts[1].split(",")
        if len(cards) != 2:
            raise ParseError(f"deal: seat {i + 1} gets two cards, got {parts[1]!r}", line=line,
                             column=word.column)
        try:
            a, b = parse_card(cards[0]), parse_card(cards[1])
        except ValueError as exc:
            raise ParseError(f"deal: {exc}", line=line, column=word.column) from None
        hands.append((a, b))
        if len(parts) == 3:
            if len(questions) != i:
                raise ParseError("deal: only the last seat (the dummy) may lack question cards",
                                 line=line, column=word.column)
            qs = parts[2].split(",")
            try:
                pair = tuple(QuestionCard(q.lower()) for q in qs)
            except ValueError:
                raise ParseError(f"deal: unknown question card in {parts[2]!r} (q1..q5)",
                                 line=line, column=word.column) from None
            if len(pair) != 2:
                raise ParseError(f"deal: seat {i + 1} gets two question cards, got "
                                 f"{parts[2]!r}", line=line, column=word.column)
            questions.append(pair)
    return Deal(tuple(hands), tuple(questions))


def parse_move(text: str, *, line: int | None = None) -> WoofMove:
    """Read one move (ParseError naming the column, and `line` when given)."""
    words = _words(text)
    if not words:
        raise ParseError("empty move", line=line, column=1)
    return _move(words, line, len(text.split("#", 1)[0].rstrip()) + 1)


# ---- rounds ----------------------------------------------------------------------------------


def deck_text(deck: tuple[Card, ...]) -> str:
    """The deck as `basic` or card names with `*N` copy counts (as in evidence files)."""
    if deck == BASIC_CARDS:
        return "basic"
    counts = Counter(deck)
    return " ".join(c.name if counts[c] == 1 else f"{c.name}*{counts[c]}"
                    for c in sorted(counts, key=Card.sort_key))


def options_lines(options: WoofOptions) -> list[str]:
    """The options header (optional lines only when they differ from the default)."""
    lines = [f"players {options.players}", f"deck {deck_text(options.deck)}",
             f"start {options.start}"]
    if options.barred:
        lines.append("barred " + " ".join(map(str, sorted(options.barred))))
    if options.turn_limit is not None:
        lines.append(f"turn-limit {options.turn_limit}")
    if options.rules != DEFAULT_RULES:
        lines.append(f"dog-target {options.rules.dog_second_target.value}")
    return lines


def history(state: WoofRound) -> Iterator[WoofMove]:
    """The moves that lead from the initial state to `state` (replaying them gives an equal
    state: a look's card is the first card of the target's hand equal to the card seen)."""
    if not state.dealt:
        return
    asked: dict[int, list[QuestionCard]] = {s: [] for s in state.table.acting}
    for e in state.events:
        if isinstance(e, AskEvent):
            asked[e.asker].append(e.question)
    yield Deal(state.dealt, tuple((*held, *asked[s])
                                  for s, held in zip(state.table.acting, state.held,
                                                     strict=True)))
    for e in state.events:
        if isinstance(e, LookEvent):
            yield Look(e.viewer, e.target)
            yield CardPick(state.hand(e.target).index(e.card))
        elif isinstance(e, AskEvent):
            yield Ask(e.asker, e.target, e.question)
        elif isinstance(e, EarlyEvent):
            yield SuspectEarly(e.seat, e.suspicion.picks)
    if state.pending is not None:
        yield state.pending
    for f in state.finals:
        yield FinalSuspicion(f.seat, None if f.suspicion is None else f.suspicion.picks)


def format_position(state: WoofRound) -> str:
    """The options header and every move so far, one per line."""
    lines = options_lines(state.options) + [format_move(m) for m in history(state)]
    return "\n".join(lines) + "\n"


def _single(key: str, line: int, args: list[_Word]) -> _Word:
    if len(args) != 1:
        raise ParseError(f"{key}: expected `{key} VALUE`", line=line,
                         column=args[1].column if len(args) > 1 else 1)
    return args[0]


def _options(header: dict[str, tuple[int, list[_Word]]], first_line: int) -> WoofOptions:
    if "players" not in header:
        raise ParseError("missing `players N` line (4..8)", line=first_line, column=1)
    players, deck, rules = 0, tuple[Card, ...](), DEFAULT_RULES
    start, barred, turn_limit = 1, frozenset[int](), None
    for key, (line, args) in header.items():
        if key == "players":
            players = _number(_single(key, line, args), "the number of players", line)
        elif key == "start":
            start = _number(_single(key, line, args), "the start seat", line)
        elif key == "turn-limit":
            turn_limit = _number(_single(key, line, args), "the turn limit", line)
        elif key == "barred":
            barred = frozenset(_number(w, "a barred seat", line) for w in args)
        elif key == "dog-target":
            word = _single(key, line, args)
            try:
                rules = CardRules(Character(word.text.lower()))
            except ValueError:
                raise ParseError(f"unknown character {word.text!r}", line=line,
                                 column=word.column) from None
        else:
            deck = _deck(args, line)
    try:
        return WoofOptions(players, deck, rules, start, barred, turn_limit)
    except RulesError as exc:
        raise ParseError(f"options: {exc}", line=header["players"][0], column=1) from None


def _deck(args: list[_Word], line: int) -> tuple[Card, ...]:
    if not args:
        raise ParseError("deck: expected `deck CARD ... | basic | expert`", line=line, column=1)
    cards: list[Card] = []
    for word in args:
        name, _, times = word.text.lower().partition("*")
        count = 1
        if times:
            if not times.isascii() or not times.isdigit() or not 1 <= int(times) <= 20:
                raise ParseError(f"bad copy count in {word.text!r} (use card*N, N 1..20)",
                                 line=line, column=word.column)
            count = int(times)
        if name == "basic":
            cards.extend(BASIC_CARDS * count)
        elif name == "expert":
            cards.extend(EXPERT_CARDS * count)
        else:
            try:
                cards.extend([parse_card(name)] * count)
            except ValueError as exc:
                raise ParseError(str(exc), line=line, column=word.column) from None
    return tuple(cards)


def parse_position(text: str) -> WoofRound:
    """Read a round written by `format_position` and replay its moves; ParseError with the line
    and column of a malformed line or of an illegal move (and the rule it breaks)."""
    header: dict[str, tuple[int, list[_Word]]] = {}
    moves: list[tuple[int, list[_Word], int]] = []
    first_line = 1
    for no, raw in enumerate(text.splitlines(), start=1):
        words = _words(raw)
        if not words:
            continue
        if not header and not moves:
            first_line = no
        key = words[0].text.lower()
        if key in OPTION_KEYWORDS:
            if moves:
                raise ParseError(f"`{key}`: the options come before the moves", line=no,
                                 column=words[0].column)
            if key in header:
                raise ParseError(f"second `{key}` line (the first is line {header[key][0]})",
                                 line=no, column=words[0].column)
            header[key] = (no, words[1:])
        elif key in MOVE_KEYWORDS:
            moves.append((no, words, len(raw.split("#", 1)[0].rstrip()) + 1))
        else:
            raise ParseError(f"unknown keyword {words[0].text!r} (options: "
                             f"{', '.join(OPTION_KEYWORDS)}; moves: "
                             f"{', '.join(MOVE_KEYWORDS)})", line=no, column=words[0].column)
    state = WoofRound.new(_options(header, first_line))
    for no, words, end in moves:
        move = _move(words, no, end)
        try:
            state = state.play(move)
        except FleeceError as exc:
            raise ParseError(f"illegal move: {exc}", line=no, column=words[0].column) from None
    return state
