"""K3: David McCord's herd-building game (2-4 players) as a game of the shared protocol.

Cards are McCord's kinds (rules.cards.deck). The draw pile is a multiset nobody sees in order,
so each draw is a chance move (a kind, with probability its share of the draw pile); the deal
is 3 draws per player, round the table. Hands are hidden: a player observes its own hand,
every herd, the face-up discard pile and the sizes of the other hands and of the draw pile.

A turn (K3), the player to move having cards: play one card or a legal wolf group, then refill
the hand to three from the draw pile (chance moves):
- a Sheep card (1, 2 or 3) goes into the player's own herd, unfenced;
- a Fence goes onto one of the player's own unfenced sheep cards;
- wolves attack ONE unfenced sheep card of another player; their strengths (one-Wolf 1,
  two-Wolf 2) must add up exactly to its sheep count: 1 = one-Wolf; 2 = two-Wolf or two
  one-Wolves; 3 = two-Wolf + one-Wolf or three one-Wolves. Wolves and sheep go to the discard
  pile;
- a Wolf in sheep's clothing, alone, removes another player's unfenced sheep card or a fence
  in another player's herd (the sheep under it stays, unfenced); both go to the discard pile
  (reading: "any" target belongs to another player, as the seed says for sheep);
- a Shepherd's Crook goes to the discard pile, then the player takes any card of the discard
  pile into the hand (literal reading: the crook itself included);
- only when no card in hand is playable: discard one card (then refill as usual).
A player without cards is skipped; the game ends when the draw pile and every hand are empty.
Score: the sheep count of a herd (fenced and unfenced). Largest herd wins; a tie goes to fewer
fences in play; a remaining tie is shared (each winner gets 1/w, the others 0).

K3 does not make every game end (a crook can take itself, or two crooks each other, for ever:
verify reports the gap CARDS-HERD-ENDLESS). The option `turn_limit` (default 1000) cuts a game
after that many turns with the outcome `cut` (returns all 0); None plays the rules as written.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import Enum
from fractions import Fraction

from fleece.rules.cards.deck import WOLF_DECK, Deck, escape, herd_deck, parse_deck
from fleece.rules.errors import IllegalMoveError, ParseError, RulesError
from fleece.rules.protocol import CHANCE, TERMINAL
from fleece.rules.text import split_lines, whole_number

HAND = 3
KINDS = ("fence", "crook", "sheep1", "sheep2", "sheep3", "wolf1", "wolf2", "wisc")
FENCE, CROOK, SHEEP1, SHEEP2, SHEEP3, WOLF1, WOLF2, WISC = range(8)
SHEEP = (SHEEP1, SHEEP2, SHEEP3)  # the sheep card of value v is SHEEP[v - 1]
WOLF_GROUPS = {1: ((1,),), 2: ((2,), (1, 1)), 3: ((2, 1), (1, 1, 1))}
DEFAULT_TURN_LIMIT = 1000

Counts = tuple[int, ...]  # per kind, in KINDS order


class Outcome(Enum):
    """How a herd game ended."""

    OVER = "over"  # all cards played: scored
    CUT = "cut"  # the turn limit


@dataclass(frozen=True)
class HerdOptions:
    """Players (2-4), the deck (McCord's kinds, any counts) and the turn limit."""

    players: int = 2
    deck: Deck = WOLF_DECK
    turn_limit: int | None = DEFAULT_TURN_LIMIT

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise RulesError("the herd game is for 2-4 players (K3)")
        herd_deck(self.deck)
        if self.turn_limit is not None and not 1 <= self.turn_limit <= 10**7:
            raise RulesError("the turn limit must be 1..10000000")

    def counts(self) -> Counts:
        """The deck as counts in KINDS order."""
        c = [0] * len(KINDS)
        for k in self.deck.kinds:
            c[KINDS.index(k.name)] = k.count
        return tuple(c)

    def text(self) -> str:
        """The options line of a position."""
        limit = "none" if self.turn_limit is None else str(self.turn_limit)
        return f"herd players={self.players} deck={self.deck.spec()} limit={limit}"


@dataclass(frozen=True)
class Herd:
    """One player's herd: unfenced and fenced sheep cards by value (index 0 = one sheep)."""

    open: tuple[int, int, int] = (0, 0, 0)
    fenced: tuple[int, int, int] = (0, 0, 0)

    @property
    def size(self) -> int:
        """K3's score: every sheep counted, fenced or not."""
        return sum((v + 1) * (self.open[v] + self.fenced[v]) for v in range(3))

    @property
    def fences(self) -> int:
        """Fences in play in this herd."""
        return sum(self.fenced)

    def cards(self) -> int:
        """Cards on the table in this herd (sheep and fences)."""
        return sum(self.open) + 2 * sum(self.fenced)


def _bump(t: tuple[int, ...], i: int, d: int) -> tuple[int, ...]:
    lst = list(t)
    lst[i] += d
    return tuple(lst)


# ---- moves -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Draw:
    """Chance: the next card of the draw pile, to the player owed a card."""

    kind: int


@dataclass(frozen=True)
class PlaySheep:
    """A sheep card of value 1-3 into the mover's herd."""

    value: int


@dataclass(frozen=True)
class PlayFence:
    """A fence onto one of the mover's unfenced sheep cards of this value."""

    value: int


@dataclass(frozen=True)
class Attack:
    """Wolves (strengths, largest first) against player `target`'s unfenced sheep card of
    value `value`."""

    target: int
    value: int
    wolves: tuple[int, ...]


@dataclass(frozen=True)
class Disguise:
    """The wolf in sheep's clothing against `target`: an unfenced sheep card of `value`, or
    (fence=True) the fence on a sheep card of `value`."""

    target: int
    value: int
    fence: bool


@dataclass(frozen=True)
class Crook:
    """The crook to the discard pile, then `take` from the discard pile into the hand."""

    take: int


@dataclass(frozen=True)
class Discard:
    """With nothing playable: a card from the hand to the discard pile."""

    kind: int


HerdMove = Draw | PlaySheep | PlayFence | Attack | Disguise | Crook | Discard


@dataclass(frozen=True)
class HerdState:
    """A herd game: draw pile, hands, herds, discard pile (all as counts), the player to move,
    the players still owed a card (chance), turns played and the outcome. Nothing else
    matters for the rest of the game, so the position text is this snapshot."""

    options: HerdOptions
    draw: Counts
    hands: tuple[Counts, ...]
    herds: tuple[Herd, ...]
    discard: Counts
    to_move: int = 0
    owed: tuple[int, ...] = ()
    turns: int = 0
    outcome: Outcome | None = None

    @classmethod
    def new(cls, options: HerdOptions) -> HerdState:
        """Before the deal: every card in the draw pile; three draws owed to each player."""
        n = options.players
        empty = (0,) * len(KINDS)
        owed = tuple(p for _ in range(HAND) for p in range(n))
        state = cls(options, options.counts(), (empty,) * n, (Herd(),) * n, empty, 0,
                    owed[:sum(options.counts())])
        return state._settle()

    # ---- bookkeeping -----------------------------------------------------------------

    def kind_totals(self) -> Counts:
        """How many cards of each kind there are in all places together (conservation: the
        deck's counts)."""
        totals = [self.draw[k] + self.discard[k] + sum(h[k] for h in self.hands)
                  for k in range(len(KINDS))]
        for h in self.herds:
            totals[FENCE] += sum(h.fenced)
            for v in range(3):
                totals[SHEEP[v]] += h.open[v] + h.fenced[v]
        return tuple(totals)

    def _settle(self) -> HerdState:
        """After a move: drop owed draws the draw pile cannot serve, pick the next player
        with cards, end the game when nothing is left or the turn limit is reached."""
        owed = self.owed[:sum(self.draw)]
        if owed != self.owed:
            return _replace(self, owed=owed)._settle()
        if owed:
            return self
        n = self.options.players
        if not any(sum(h) for h in self.hands):
            return _replace(self, outcome=Outcome.OVER)
        if self.options.turn_limit is not None and self.turns >= self.options.turn_limit:
            return _replace(self, outcome=Outcome.CUT)
        p = self.to_move
        for _ in range(n):
            if sum(self.hands[p]):
                return _replace(self, to_move=p)
            p = (p + 1) % n
        raise AssertionError("unreachable: some hand has cards")

    # ---- protocol ----------------------------------------------------------------------

    def current_player(self) -> int:
        """CHANCE while draws are owed, TERMINAL at the end, else the seat to move."""
        if self.outcome is not None:
            return TERMINAL
        return CHANCE if self.owed else self.to_move

    def is_terminal(self) -> bool:
        """True once every card is played (or the turn limit cut the game)."""
        return self.outcome is not None

    def is_chance_node(self) -> bool:
        """True while a card is owed from the draw pile."""
        return self.outcome is None and bool(self.owed)

    def playable(self) -> list[HerdMove]:
        """The mover's card plays (not discards), in a fixed order."""
        p = self.to_move
        hand = self.hands[p]
        herd = self.herds[p]
        moves: list[HerdMove] = []
        for v in (1, 2, 3):
            if hand[SHEEP[v - 1]]:
                moves.append(PlaySheep(v))
        if hand[FENCE]:
            moves += [PlayFence(v) for v in (1, 2, 3) if herd.open[v - 1]]
        others = [q for q in range(self.options.players) if q != p]
        for q in others:
            target = self.herds[q]
            for v in (1, 2, 3):
                if not target.open[v - 1]:
                    continue
                for group in WOLF_GROUPS[v]:
                    if (group.count(1) <= hand[WOLF1]) and (group.count(2) <= hand[WOLF2]):
                        moves.append(Attack(q, v, group))
        if hand[WISC]:
            for q in others:
                target = self.herds[q]
                moves += [Disguise(q, v, False) for v in (1, 2, 3) if target.open[v - 1]]
                moves += [Disguise(q, v, True) for v in (1, 2, 3) if target.fenced[v - 1]]
        if hand[CROOK]:
            pile = _bump(self.discard, CROOK, 1)
            moves += [Crook(k) for k in range(len(KINDS)) if pile[k]]
        return moves

    def legal_moves(self) -> Iterator[HerdMove]:
        """Draw outcomes at a chance node; else the card plays, or the discards when none."""
        if self.outcome is not None:
            return
        if self.owed:
            yield from (Draw(k) for k in range(len(KINDS)) if self.draw[k])
            return
        moves = self.playable()
        if moves:
            yield from moves
        else:
            hand = self.hands[self.to_move]
            yield from (Discard(k) for k in range(len(KINDS)) if hand[k])

    def count_legal_moves(self) -> int:
        """The exact number of legal moves."""
        return sum(1 for _ in self.legal_moves())

    def chance_probability(self, move: HerdMove) -> Fraction:
        """A draw of kind k: its share of the draw pile; anything else 0."""
        if self.outcome is not None or not self.owed or not isinstance(move, Draw):
            return Fraction(0)
        if not (isinstance(move.kind, int) and 0 <= move.kind < len(KINDS)):
            return Fraction(0)
        return Fraction(self.draw[move.kind], sum(self.draw))

    def sample_chance(self, rng: random.Random) -> HerdMove:
        """A draw with its probability."""
        if not self.owed or self.outcome is not None:
            raise ValueError("not a chance node")
        r = rng.randrange(sum(self.draw))
        for k, c in enumerate(self.draw):
            if r < c:
                return Draw(k)
            r -= c
        raise AssertionError("unreachable")

    def play(self, move: HerdMove) -> HerdState:
        """The state after `move`; IllegalMoveError saying why when it is not legal."""
        if self.outcome is not None:
            raise IllegalMoveError("the game is over")
        if self.owed:
            if not isinstance(move, Draw):
                raise IllegalMoveError("a card is being drawn (a chance move)")
            if self.chance_probability(move) == 0:
                raise IllegalMoveError("the draw pile has no such card")
            p = self.owed[0]
            hands = list(self.hands)
            hands[p] = _bump(hands[p], move.kind, 1)
            return _replace(self, draw=_bump(self.draw, move.kind, -1), hands=tuple(hands),
                            owed=self.owed[1:])._settle()
        if isinstance(move, Draw):
            raise IllegalMoveError("no card is owed: it is a player's turn")
        legal = self.playable()
        if move not in legal:
            if legal or not isinstance(move, Discard):
                raise IllegalMoveError(_why(self, move))
            if not (isinstance(move.kind, int) and 0 <= move.kind < len(KINDS)
                    and self.hands[self.to_move][move.kind]):
                raise IllegalMoveError("that card is not in the hand")
        return self._apply(move)

    def _apply(self, move: HerdMove) -> HerdState:
        p = self.to_move
        hands = list(self.hands)
        herds = list(self.herds)
        discard = self.discard
        hand = hands[p]
        if isinstance(move, PlaySheep):
            hand = _bump(hand, SHEEP[move.value - 1], -1)
            h = herds[p]
            herds[p] = Herd(_bump3(h.open, move.value - 1, 1), h.fenced)
        elif isinstance(move, PlayFence):
            hand = _bump(hand, FENCE, -1)
            h = herds[p]
            herds[p] = Herd(_bump3(h.open, move.value - 1, -1),
                            _bump3(h.fenced, move.value - 1, 1))
        elif isinstance(move, Attack):
            for w in move.wolves:
                kind = WOLF1 if w == 1 else WOLF2
                hand = _bump(hand, kind, -1)
                discard = _bump(discard, kind, 1)
            t = herds[move.target]
            herds[move.target] = Herd(_bump3(t.open, move.value - 1, -1), t.fenced)
            discard = _bump(discard, SHEEP[move.value - 1], 1)
        elif isinstance(move, Disguise):
            hand = _bump(hand, WISC, -1)
            discard = _bump(discard, WISC, 1)
            t = herds[move.target]
            if move.fence:
                herds[move.target] = Herd(_bump3(t.open, move.value - 1, 1),
                                          _bump3(t.fenced, move.value - 1, -1))
                discard = _bump(discard, FENCE, 1)
            else:
                herds[move.target] = Herd(_bump3(t.open, move.value - 1, -1), t.fenced)
                discard = _bump(discard, SHEEP[move.value - 1], 1)
        elif isinstance(move, Crook):
            hand = _bump(hand, CROOK, -1)
            discard = _bump(_bump(discard, CROOK, 1), move.take, -1)
            hand = _bump(hand, move.take, 1)
        elif isinstance(move, Discard):
            hand = _bump(hand, move.kind, -1)
            discard = _bump(discard, move.kind, 1)
        hands[p] = hand
        owed = (p,) * max(0, HAND - sum(hand))
        nxt = (p + 1) % self.options.players
        return _replace(self, hands=tuple(hands), herds=tuple(herds), discard=discard,
                        to_move=nxt, owed=owed, turns=self.turns + 1)._settle()

    def scores(self) -> tuple[tuple[int, int], ...]:
        """(herd size, fences in play) per player."""
        return tuple((h.size, h.fences) for h in self.herds)

    def winners(self) -> tuple[int, ...]:
        """K3: the largest herd; ties to fewer fences; then shared."""
        best = max(self.herds, key=lambda h: (h.size, -h.fences))
        key = (best.size, -best.fences)
        return tuple(i for i, h in enumerate(self.herds) if (h.size, -h.fences) == key)

    def returns(self) -> tuple[Fraction, ...]:
        """1/w to each of the w winners of a finished game; all 0 before the end or when
        cut."""
        n = self.options.players
        if self.outcome is not Outcome.OVER:
            return (Fraction(0),) * n
        w = self.winners()
        return tuple(Fraction(1, len(w)) if i in w else Fraction(0) for i in range(n))


def _bump3(t: tuple[int, int, int], i: int, d: int) -> tuple[int, int, int]:
    a = list(t)
    a[i] += d
    return (a[0], a[1], a[2])


def _replace(state: HerdState, **changes: object) -> HerdState:
    return replace(state, **changes)  # type: ignore[arg-type]


def _why(state: HerdState, move: HerdMove) -> str:
    hand = state.hands[state.to_move]
    if isinstance(move, Discard):
        return "a card may be discarded only when none can be played (K3)"
    if isinstance(move, PlayFence):
        return "a fence goes on one of your own unfenced sheep cards (K3)"
    if isinstance(move, Attack):
        if move.target == state.to_move:
            return "wolves attack another player's sheep (K3)"
        if sum(move.wolves) != move.value:
            return "the wolves' strength must equal the sheep count exactly (K3)"
        return "no such wolves in hand or no such unfenced sheep card (K3)"
    if isinstance(move, Disguise):
        return "the wolf in sheep's clothing takes another player's unfenced sheep or fence"
    if isinstance(move, Crook):
        if not hand[CROOK]:
            return "no crook in hand"
        return "the crook takes a card that is in the discard pile (K3)"
    return "not a legal move here (K3)"


# ---- text ------------------------------------------------------------------------------


def format_move(move: HerdMove) -> str:
    """`draw K`, `sheep V`, `fence V`, `wolves P V 2+1`, `disguise P sheep|fence V`,
    `crook K`, `discard K` (players numbered from 1)."""
    if isinstance(move, Draw):
        return f"draw {KINDS[move.kind]}"
    if isinstance(move, PlaySheep):
        return f"sheep {move.value}"
    if isinstance(move, PlayFence):
        return f"fence {move.value}"
    if isinstance(move, Attack):
        return f"wolves {move.target + 1} {move.value} {'+'.join(map(str, move.wolves))}"
    if isinstance(move, Disguise):
        return f"disguise {move.target + 1} {'fence' if move.fence else 'sheep'} {move.value}"
    if isinstance(move, Crook):
        return f"crook {KINDS[move.take]}"
    return f"discard {KINDS[move.kind]}"


def _kind(word: str) -> int:
    low = word.lower()
    if low not in KINDS:
        raise ParseError(f"unknown card {escape(word)} ({', '.join(KINDS)})")
    return KINDS.index(low)


def _small(word: str, lo: int, hi: int, what: str) -> int:
    if not word.isascii() or not word.isdigit() or len(word) > 2 or not lo <= int(word) <= hi:
        raise ParseError(f"{what} must be {lo}..{hi}, not {escape(word)}")
    return int(word)


def parse_move(text: str, players: int = 4) -> HerdMove:
    """The inverse of `format_move`."""
    if len(text) > 200:
        raise ParseError("move text too long")
    w = text.split()
    if not w:
        raise ParseError("empty move")
    verb, args = w[0].lower(), w[1:]
    shapes = {"draw": 1, "sheep": 1, "fence": 1, "wolves": 3, "disguise": 3, "crook": 1,
              "discard": 1}
    if verb not in shapes:
        raise ParseError(f"unknown move {escape(w[0])} (draw, sheep, fence, wolves, "
                         "disguise, crook, discard)")
    if len(args) != shapes[verb]:
        raise ParseError(f"`{verb}` takes {shapes[verb]} word(s)")
    if verb == "draw":
        return Draw(_kind(args[0]))
    if verb == "sheep":
        return PlaySheep(_small(args[0], 1, 3, "a sheep value"))
    if verb == "fence":
        return PlayFence(_small(args[0], 1, 3, "a sheep value"))
    if verb == "crook":
        return Crook(_kind(args[0]))
    if verb == "discard":
        return Discard(_kind(args[0]))
    target = _small(args[0], 1, players, "a player") - 1
    if verb == "wolves":
        value = _small(args[1], 1, 3, "a sheep value")
        parts = args[2].split("+")
        if len(parts) > 3:
            raise ParseError("at most three wolf cards")
        strengths = tuple(sorted((_small(x, 1, 2, "a wolf strength") for x in parts),
                                 reverse=True))
        return Attack(target, value, strengths)
    what = args[1].lower()
    if what not in ("sheep", "fence"):
        raise ParseError("disguise takes `sheep` or `fence`")
    return Disguise(target, _small(args[2], 1, 3, "a sheep value"), what == "fence")


def _counts_word(counts: Counts) -> str:
    parts = [f"{KINDS[k]}*{c}" for k, c in enumerate(counts) if c]
    return ",".join(parts) if parts else "-"


def _parse_counts(word: str) -> Counts:
    counts = [0] * len(KINDS)
    if word == "-":
        return tuple(counts)
    for part in word.split(","):
        name, _, n = part.partition("*")
        k = _kind(name)
        if counts[k]:
            raise ParseError(f"{name} listed twice")
        counts[k] = _small(n or "1", 1, 99, "a card count")
    return tuple(counts)


def _triple(word: str) -> tuple[int, int, int]:
    parts = word.split("/")
    if len(parts) != 3:
        raise ParseError(f"expected three counts a/b/c, not {escape(word)}")
    a, b, c = (_small(x, 0, 99, "a count") for x in parts)
    return (a, b, c)


def format_position(state: HerdState) -> str:
    """The snapshot: options, draw pile, discard pile, each hand and herd (open and fenced
    sheep cards by value 1/2/3), owed draws, player to move, turns, outcome."""
    lines = [state.options.text(), f"draw {_counts_word(state.draw)}",
             f"discard {_counts_word(state.discard)}"]
    for p in range(state.options.players):
        h = state.herds[p]
        lines.append(f"player {p + 1} hand {_counts_word(state.hands[p])} "
                     f"open {'/'.join(map(str, h.open))} fenced {'/'.join(map(str, h.fenced))}")
    if state.owed:
        lines.append("owed " + " ".join(str(p + 1) for p in state.owed))
    lines.append(f"to-move {state.to_move + 1}")
    lines.append(f"turns {state.turns}")
    if state.outcome is not None:
        lines.append(f"outcome {state.outcome.value}")
    return "\n".join(lines) + "\n"


def parse_position(text: str) -> HerdState:
    """Read `format_position`; ParseError naming the line when malformed, when the cards do
    not add up to the deck (conservation) or when the snapshot is not a settled position."""
    if len(text) > 100_000:
        raise ParseError("position text too long")
    numbered = [(i + 1, ln.split("#", 1)[0].strip()) for i, ln in enumerate(split_lines(text))]
    numbered = [(i, ln) for i, ln in numbered if ln]
    if not numbered:
        raise ParseError("empty herd position")
    no, first = numbered[0]
    try:
        options = parse_options(first)
    except ParseError as exc:
        raise ParseError(exc.message, line=no) from None
    n = options.players
    empty = (0,) * len(KINDS)
    fields: dict[str, object] = {"draw": None, "discard": None, "owed": (), "to-move": None,
                                 "turns": None, "outcome": None}
    hands: list[Counts | None] = [None] * n
    herds: list[Herd | None] = [None] * n
    for no, line in numbered[1:]:
        try:
            w = line.split()
            key = w[0]
            if key == "player":
                if len(w) != 8 or w[2] != "hand" or w[4] != "open" or w[6] != "fenced":
                    raise ParseError("expected `player P hand CARDS open a/b/c fenced a/b/c`")
                p = _small(w[1], 1, n, "a player") - 1
                if hands[p] is not None:
                    raise ParseError(f"player {p + 1} given twice")
                hands[p] = _parse_counts(w[3])
                herds[p] = Herd(_triple(w[5]), _triple(w[7]))
            elif key in fields and (fields[key] is None or (key == "owed" and not fields[key])):
                if key == "owed":
                    fields[key] = tuple(_small(x, 1, n, "a player") - 1 for x in w[1:])
                elif len(w) != 2:
                    raise ParseError(f"`{key}` takes one word")
                elif key in ("draw", "discard"):
                    fields[key] = _parse_counts(w[1])
                elif key == "to-move":
                    fields[key] = _small(w[1], 1, n, "a player") - 1
                elif key == "turns":
                    if not w[1].isascii() or not w[1].isdigit() or len(w[1]) > 9:
                        raise ParseError("turns must be a whole number")
                    fields[key] = int(w[1])
                else:
                    fields[key] = {o.value: o for o in Outcome}.get(w[1])
                    if fields[key] is None:
                        raise ParseError(f"unknown outcome {escape(w[1])} (over, cut)")
            else:
                raise ParseError(f"unexpected line {escape(line)}")
        except ParseError as exc:
            raise ParseError(exc.message, line=no) from None
    missing = [k for k in ("draw", "discard", "to-move", "turns") if fields[k] is None]
    if missing or None in hands:
        raise ParseError(f"incomplete position: missing {(missing or ['a player line'])[0]}")
    draw, discard = fields["draw"], fields["discard"]
    assert isinstance(draw, tuple) and isinstance(discard, tuple)
    state = HerdState(options, draw, tuple(h or empty for h in hands),
                      tuple(h or Herd() for h in herds), discard,
                      int(str(fields["to-move"])), tuple(fields["owed"]),  # type: ignore[arg-type]
                      int(str(fields["turns"])), fields["outcome"])  # type: ignore[arg-type]
    if state.kind_totals() != options.counts():
        raise ParseError("the cards do not add up to the deck (each card is in exactly one "
                         "place)")
    if len(state.owed) > sum(state.draw) or any(sum(h) > HAND for h in state.hands):
        raise ParseError("more cards owed than the draw pile holds, or a hand over three")
    if state.outcome is None and state._settle() != state:
        raise ParseError("not a settled position (the game would be over, or another player "
                         "is to move)")
    cards_left = sum(state.draw) + sum(sum(h) for h in state.hands)
    if state.outcome is Outcome.OVER and cards_left:
        raise ParseError("`outcome over` needs an empty draw pile and empty hands")
    if state.outcome is Outcome.CUT and (options.turn_limit is None
                                         or state.turns < options.turn_limit):
        raise ParseError("`outcome cut` needs the turn limit reached")
    return state


def parse_options(line: str) -> HerdOptions:
    """Read `herd players=N deck=SPEC limit=T|none`."""
    words = line.split()
    if not words or words[0] != "herd":
        raise ParseError("a herd position starts with `herd players=N deck=... limit=...`")
    values: dict[str, str] = {}
    for word in words[1:]:
        key, eq, value = word.partition("=")
        if not eq or key not in ("players", "deck", "limit") or key in values:
            raise ParseError(f"unexpected {escape(word)} in the options line")
        values[key] = value
    try:
        players = _small(values.get("players", "2"), 2, 4, "players")
        limit_text = values.get("limit", str(DEFAULT_TURN_LIMIT))
        limit = None
        if limit_text != "none":
            limit = whole_number(limit_text, "limit", max_digits=8)
        return HerdOptions(players, parse_deck(values.get("deck", "wolf")), limit)
    except RulesError as exc:
        raise ParseError(str(exc)) from None


def _counts_text(counts: Counts) -> str:
    parts = [f"{KINDS[k]}*{c}" for k, c in enumerate(counts) if c]
    return " ".join(parts) if parts else "-"


def observation_text(state: HerdState, player: int) -> str:
    """What `player` knows: its hand, every herd, the discard pile, hand and pile sizes."""
    lines = [f"you {player + 1}", f"turns {state.turns}",
             f"hand {_counts_text(state.hands[player])}",
             f"draw pile {sum(state.draw)}", f"discard {_counts_text(state.discard)}"]
    for q, h in enumerate(state.herds):
        lines.append(f"player {q + 1}: hand {sum(state.hands[q])} cards; herd "
                     f"open {'/'.join(map(str, h.open))} fenced {'/'.join(map(str, h.fenced))}"
                     f" = {h.size} sheep, {h.fences} fences")
    if state.outcome is not None:
        lines.append(f"outcome {state.outcome.value}")
    elif not state.owed:
        lines.append(f"to move {state.to_move + 1}")
    return "\n".join(lines) + "\n"


class HerdGame:
    """The `Game` object of McCord's herd game (docs/rules.md K3)."""

    name = "herd"

    def players(self, options: HerdOptions) -> tuple[str, ...]:
        """Seats `player 1` ... `player N` (2-4)."""
        return tuple(f"player {i + 1}" for i in range(options.players))

    def default_options(self) -> HerdOptions:
        """Two players, McCord's 52 cards, the turn limit of 1000 turns."""
        return HerdOptions()

    def random_options(self, rng: random.Random) -> HerdOptions:
        """2-4 players; sometimes McCord's deck, mostly a small random McCord-kind deck (quick
        to test); a turn limit."""
        players = rng.randint(2, 4)
        if rng.random() < 0.1:
            deck = WOLF_DECK
        else:
            kinds = rng.sample(KINDS, rng.randint(1, len(KINDS)))
            deck = parse_deck(",".join(f"{k}*{rng.randint(1, 3)}" for k in kinds))
        return HerdOptions(players, deck, rng.randint(1, 120))

    def new_initial_state(self, options: HerdOptions | None = None) -> HerdState:
        """Before the deal (the first moves are the deal's draws)."""
        return HerdState.new(options if options is not None else HerdOptions())

    def move_text(self, state: HerdState, move: HerdMove) -> str:
        """See `format_move`."""
        return format_move(move)

    def parse_move(self, state: HerdState, text: str) -> HerdMove:
        """The exact inverse of `move_text`."""
        return parse_move(text, state.options.players)

    def position_text(self, state: HerdState) -> str:
        """The snapshot (see `format_position`)."""
        return format_position(state)

    def parse_position(self, text: str) -> HerdState:
        """Read `position_text` back."""
        return parse_position(text)

    def observation(self, state: HerdState, player: int) -> str:
        """The player's own hand and the public table (see `observation_text`)."""
        return observation_text(state, player)

    def random_move(self, state: HerdState, rng: random.Random) -> HerdMove:
        """A uniformly random legal move (a draw with its probability at a chance node)."""
        if state.is_chance_node():
            return state.sample_chance(rng)
        moves = list(state.legal_moves())
        return moves[rng.randrange(len(moves))]

    def length_bound(self, options: HerdOptions) -> int | None:
        """Every card is drawn from the draw pile at most once (nothing returns to it), so
        draws <= deck size. Without crooks every turn moves a card out of a hand for good, so
        turns <= deck size as well: 2 * size. With crooks only the turn limit bounds a game
        (size + limit), and without a limit None (CARDS-HERD-ENDLESS)."""
        size = options.deck.size
        if options.counts()[CROOK] == 0:
            bound = 2 * size
            return bound if options.turn_limit is None else min(bound, size + options.turn_limit)
        return None if options.turn_limit is None else size + options.turn_limit


HERD = HerdGame()
