"""A Z3 encoding of Woof!! (docs/rules.md section 2, W1-W11), written from docs/rules.md alone.

Nothing here comes from fleece.rules.woof: characters, card values, the basic and expert cards,
targets, questions and clue tokens are re-read from docs/rules.md, and every rule is a formula.
Characters are the integers SHEEP..WOLF in value order; an appearance or an announcement is a
character or UNKNOWN ("?"). Every function takes z3 terms (Python ints are lifted), so one
definition serves the proofs (symbolic arguments) and the cross-check (constants that
z3.simplify evaluates).

A round is a transition system over `RoundState` for one table (player count): the seat to
move, who has had a turn, who suspected early, who is barred (W8), the question cards each
seat holds (W5), the clue-token sides each seat has laid and the "?" tokens out (W11), and
which seat carries whose Wolf token (W9). One turn is a `Turn`: a look with its announcement,
an ask, or an early suspicion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

Expr = Any  # z3 terms are untyped in z3's Python API

# ---- characters, cards, questions, tokens (docs/rules.md section 2, facts) -----------------

SHEEP, DOG, HUNTER, SHEPHERD, WOLF = range(5)
CHARACTERS = (SHEEP, DOG, HUNTER, SHEPHERD, WOLF)
NAMES = ("sheep", "dog", "hunter", "shepherd", "wolf")
UNKNOWN = 5  # the appearance "?" and the announcement "don't know"
NO_TARGET = -1  # the Wolf's missing second target
VALUES = {SHEEP: 1, DOG: 2, HUNTER: 3, SHEPHERD: 4, WOLF: 5}

LOOK, ASK, EARLY = 0, 1, 2
NONE, EARLY_SUSPICION, FINAL_SUSPICION = 0, 1, 2  # how a seat suspected this round


def face_name(face: int) -> str:
    """A character's name, or "?"."""
    return "?" if face == UNKNOWN else NAMES[face]


@dataclass(frozen=True)
class SpecCard:
    """A character card as docs/rules.md describes it: its picture and its appearance."""

    picture: int
    appearance: int

    @property
    def name(self) -> str:
        """`sheep`, `dog?` (appearance "?") or `sheep@dog` (another appearance)."""
        if self.appearance == UNKNOWN:
            return f"{NAMES[self.picture]}?"
        if self.appearance == self.picture:
            return NAMES[self.picture]
        return f"{NAMES[self.picture]}@{NAMES[self.appearance]}"


def _set(spec: Sequence[tuple[int, int, int]]) -> tuple[SpecCard, ...]:
    return tuple(SpecCard(p, a) for p, a, n in spec for _ in range(n))


#: The 16 basic cards: 7 Sheep; 2 Dog and a Dog "?"; 2 Hunter and a Hunter "?"; the Shepherd
#: "?"; 2 Wolf. Other basic cards show their own character.
BASIC_SET = _set([(SHEEP, SHEEP, 7), (DOG, DOG, 2), (DOG, UNKNOWN, 1), (HUNTER, HUNTER, 2),
                  (HUNTER, UNKNOWN, 1), (SHEPHERD, UNKNOWN, 1), (WOLF, WOLF, 2)])
#: The 4 expert cards: Sheep as Dog, Dog as Wolf, Hunter as Sheep, Shepherd as Hunter.
EXPERT_SET = _set([(SHEEP, DOG, 1), (DOG, WOLF, 1), (HUNTER, SHEEP, 1), (SHEPHERD, HUNTER, 1)])

QUESTIONS = ("q1", "q2", "q3", "q4", "q5")
#: q1 "Wolf, Hunter or Shepherd?", q2 "Sheep, Hunter or Shepherd?", q3 "a card shows the
#: Dog?", q4 the same for the Hunter, q5 for the Sheep.
QUESTION_CHARACTERS = ((WOLF, HUNTER, SHEPHERD), (SHEEP, HUNTER, SHEPHERD))
QUESTION_PICTURES = (DOG, HUNTER, SHEEP)  # q3, q4, q5

#: Each seat's six double-sided clue tokens.
CLUE_TOKENS = ((WOLF, HUNTER), (WOLF, SHEEP), (WOLF, DOG), (HUNTER, SHEEP), (DOG, SHEEP),
               (DOG, HUNTER))
TOKEN_SIDES = (WOLF, HUNTER, SHEEP, DOG)
POOL = 12  # shared "?" tokens


@dataclass(frozen=True)
class SpecTable:
    """A table of 4-8 players (W3: with 4 a dummy fifth seat holds cards and never acts)."""

    players: int

    @property
    def seats(self) -> int:
        """Seats holding cards."""
        return self.players + 1 if self.players == 4 else self.players

    @property
    def dummy(self) -> int | None:
        """The dummy seat (the fifth with 4 players)."""
        return 5 if self.players == 4 else None

    @property
    def acting(self) -> tuple[int, ...]:
        """The seats that take turns, ask and are asked."""
        return tuple(range(1, self.players + 1))

    @property
    def limit(self) -> int:
        """W7: early suspicions that end a round (2 with 4-5 players, 3 with 6-8)."""
        return 2 if self.players <= 5 else 3


TABLES = tuple(SpecTable(n) for n in range(4, 9))


# ---- helpers -------------------------------------------------------------------------------


def lift(x: Expr) -> Expr:
    """A Python int or bool as a z3 term; z3 terms unchanged."""
    if isinstance(x, bool):
        return z3.BoolVal(x)
    if isinstance(x, int):
        return z3.IntVal(x)
    return x


def count(conds: Sequence[Expr]) -> Expr:
    """The number of true conditions, as an integer term."""
    if not conds:
        return z3.IntVal(0)
    return z3.Sum([z3.If(c, 1, 0) for c in conds])


_SELECTS: dict[tuple[int, ...], Expr] = {}
_MAX_SELECTS = 100_000


def select(items: Sequence[Expr], index: Expr, first: int = 1) -> Expr:
    """`items[index - first]` for a symbolic index (the last item when out of range).

    Memoized on the terms' z3 ids (z3 shares structurally equal terms, and the memo keeps
    them alive), since the same selections recur in every legality formula."""
    terms = [lift(x) for x in items]
    idx = lift(index)
    key = (first, idx.get_id(), *[t.get_id() for t in terms])
    hit = _SELECTS.get(key)
    if hit is not None:
        return hit
    out = terms[-1]
    for i in range(len(terms) - 2, -1, -1):
        out = z3.If(idx == i + first, terms[i], out)
    if len(_SELECTS) >= _MAX_SELECTS:
        _SELECTS.clear()
    _SELECTS[key] = out
    return out


def table_of(table: dict[int, int], x: Expr, default: int) -> Expr:
    """A finite function given by a Python dict, applied to a term."""
    out: Expr = z3.IntVal(default)
    for k in sorted(table, reverse=True):
        out = z3.If(lift(x) == k, table[k], out)
    return out


# ---- W1, W2, W4, W5 --------------------------------------------------------------------------


def value(picture: Expr) -> Expr:
    """A picture's card value (facts: Sheep 1 ... Wolf 5)."""
    return table_of(VALUES, picture, 0)


def is_character(x: Expr) -> Expr:
    """One of the five characters."""
    x = lift(x)
    return z3.And(x >= SHEEP, x <= WOLF)


def character(a: Expr, b: Expr) -> Expr:
    """W1: the shared picture of two equal pictures, else the picture of the higher value."""
    a, b = lift(a), lift(b)
    return z3.If(a == b, a, z3.If(value(a) > value(b), a, b))


def target(char: Expr, i: int, dog_second: Expr) -> Expr:
    """W2: target `i` (0 or 1) of a character: Sheep -> Dog, Hunter; Shepherd -> Wolf, Sheep;
    Wolf -> Sheep only; Hunter -> Wolf, Dog; Dog -> Wolf and `dog_second` (the assumption)."""
    c = lift(char)
    if i == 0:
        return z3.If(c == SHEEP, DOG, z3.If(c == SHEPHERD, WOLF, z3.If(c == WOLF, SHEEP, WOLF)))
    return z3.If(c == SHEEP, HUNTER, z3.If(c == SHEPHERD, SHEEP, z3.If(
        c == WOLF, NO_TARGET, z3.If(c == HUNTER, DOG, lift(dog_second)))))


def target_count(char: Expr) -> Expr:
    """W2: one target for the Wolf, two for everybody else."""
    return z3.If(lift(char) == WOLF, 1, 2)


def announcement(appearance: Expr, viewer: Expr) -> Expr:
    """W4: "?" is announced as "?" by everybody; a Shepherd announces Wolf for every other
    card; anybody else announces the appearance."""
    app = lift(appearance)
    return z3.If(app == UNKNOWN, UNKNOWN, z3.If(lift(viewer) == SHEPHERD, WOLF, app))


def answer(question: Expr, a: Expr, b: Expr) -> Expr:
    """W5: the truthful answer of a seat whose cards have pictures `a` and `b`."""
    q, a, b = lift(question), lift(a), lift(b)
    c = character(a, b)
    first = z3.Or([c == x for x in QUESTION_CHARACTERS[0]])
    second = z3.Or([c == x for x in QUESTION_CHARACTERS[1]])
    shows = [z3.Or(a == p, b == p) for p in QUESTION_PICTURES]
    return z3.If(q == 0, first, z3.If(q == 1, second, z3.If(
        q == 2, shows[0], z3.If(q == 3, shows[1], shows[2]))))


# ---- W11: matching announcements to tokens ---------------------------------------------------


def hall_fits(counts: Sequence[Expr]) -> Expr:
    """Announced sides (counts in TOKEN_SIDES order) that Hall's condition lets six tokens show:
    at most 3 of a side, 5 of two sides, 6 in all. Proved equal to `matching_exists` by the
    tokens section, then used in the round's transition."""
    c = [lift(x) for x in counts]
    singles = [x <= 3 for x in c]
    pairs = [c[i] + c[j] <= 5 for i in range(4) for j in range(i + 1, 4)]
    return z3.And([*singles, *pairs, z3.Sum(c) <= 6, *[x >= 0 for x in c]])


def matching(sides: Sequence[Expr], tag: str) -> tuple[Expr, list[Expr]]:
    """W11 as a matching: announcement i takes token `pick[i]` (distinct tokens), a token
    showing its side. Returns the constraint and the pick variables."""
    picks = [z3.Int(f"{tag}_tok{i}") for i in range(len(sides))]
    cons = [z3.And(p >= 0, p < len(CLUE_TOKENS)) for p in picks]
    if len(picks) > 1:
        cons.append(z3.Distinct(picks))
    for p, side in zip(picks, sides, strict=True):
        cons.append(z3.Or([z3.And(p == t, z3.Or(lift(side) == a, lift(side) == b))
                           for t, (a, b) in enumerate(CLUE_TOKENS)]))
    return z3.And(cons), picks


# ---- W8, W9: scoring -------------------------------------------------------------------------


def pick_right(t: Expr, pick: Expr, chars: Sequence[Expr]) -> Expr:
    """W8 for one target `t`: the pick names a seat of that character, or is 0 when no seat has
    it (docs/rules.md: "0 when no seat has it"); a missing target (the Wolf's) is always right."""
    pick = lift(pick)
    nobody = z3.And([lift(c) != t for c in chars])
    named = z3.Or([z3.And(pick == s, lift(c) == t) for s, c in enumerate(chars, start=1)])
    return z3.Or(t == NO_TARGET, z3.If(pick == 0, nobody, named))


def correct(char: Expr, picks: Sequence[Expr], chars: Sequence[Expr], dog_second: Expr) -> Expr:
    """W8: every target of `char` is right."""
    return z3.And([pick_right(target(char, i, dog_second), picks[i], chars) for i in range(2)])


def wolf_pick(char: Expr, picks: Sequence[Expr], dog_second: Expr) -> Expr:
    """The seat named for the target Wolf (0 when the character has no Wolf target)."""
    return z3.If(target(char, 0, dog_second) == WOLF, lift(picks[0]),
                 z3.If(target(char, 1, dog_second) == WOLF, lift(picks[1]), 0))


@dataclass(frozen=True)
class Score:
    """One round's scores as terms, per seat (index seat-1): points including the bonus, error
    tokens, the Shepherd bonus, and whether the seat is barred from early suspicion next
    round; `right` per seat (its suspicion is correct)."""

    points: tuple[Expr, ...]
    errors: tuple[Expr, ...]
    bonus: tuple[Expr, ...]
    barred: tuple[Expr, ...]
    right: tuple[Expr, ...]


def score(chars: Sequence[Expr], kinds: Sequence[Expr], picks: Sequence[Sequence[Expr]],
          wolf_at: Sequence[Sequence[Expr]], dog_second: Expr) -> Score:
    """W8-W9 for a round. `chars` every seat's character (the dummy's too); `kinds[s]`,
    `picks[s]` the suspicion of acting seat s+1 (NONE, EARLY_SUSPICION or FINAL_SUSPICION; two
    picks); `wolf_at[v][t]` seat v+1 laid a Wolf token at seat t+1.

    Correct early: 2 points; correct final: 1 point; wrong: 1 error token, and a wrong early
    suspicion bars the seat next round. A Shepherd gets +1 per Hunter or Dog whose suspicion
    named as Wolf a seat that is not a Wolf and carries that Shepherd's Wolf token."""
    acting = len(kinds)
    seats = len(chars)
    points, errors, bonus, barred, right = [], [], [], [], []
    for s in range(acting):
        ok = correct(chars[s], picks[s], chars, dog_second)
        made = lift(kinds[s]) != NONE
        right.append(z3.And(made, ok))
        base = z3.If(z3.And(lift(kinds[s]) == EARLY_SUSPICION, ok), 2,
                     z3.If(z3.And(lift(kinds[s]) == FINAL_SUSPICION, ok), 1, 0))
        errors.append(z3.If(z3.And(made, z3.Not(ok)), 1, 0))
        barred.append(z3.And(lift(kinds[s]) == EARLY_SUSPICION, z3.Not(ok)))
        points.append(base)
    misled = []  # per suspecting seat: it may earn a bonus, and seat t+1 is its Wolf pick
    for s in range(acting):
        named = wolf_pick(chars[s], picks[s], dog_second)
        may = z3.And(lift(kinds[s]) != NONE,
                     z3.Or(lift(chars[s]) == HUNTER, lift(chars[s]) == DOG),
                     named != 0, select(list(chars), named) != WOLF)
        misled.append((may, [named == t + 1 for t in range(seats)]))
    for sh in range(acting):
        gains = [z3.And(may, z3.Or([z3.And(at, lift(wolf_at[sh][t]))
                                    for t, at in enumerate(names)]))
                 for may, names in misled]
        bonus.append(z3.If(lift(chars[sh]) == SHEPHERD, count(gains), 0))
    total = [points[s] + bonus[s] for s in range(acting)]
    return Score(tuple(total), tuple(errors), tuple(bonus), tuple(barred), tuple(right))


# ---- the round as a transition system (W3, W4, W5, W6, W7, W11) -------------------------------


@dataclass(frozen=True)
class RoundState:
    """One state of a round's turns for a table, symbolic or constant (index = seat - 1).

    `cur` the seat to move; `had`, `early`, `barred` per acting seat; `held[s][q]` question
    cards of kind q held; `laid[s][i]` clue tokens laid showing TOKEN_SIDES[i]; `pool` "?"
    tokens out; `wolf_at[v][t]` seat v+1's Wolf token lies at seat t+1."""

    cur: Expr
    had: tuple[Expr, ...]
    early: tuple[Expr, ...]
    barred: tuple[Expr, ...]
    held: tuple[tuple[Expr, ...], ...]
    laid: tuple[tuple[Expr, ...], ...]
    pool: Expr
    wolf_at: tuple[tuple[Expr, ...], ...]

    @staticmethod
    def fresh(table: SpecTable, tag: str) -> RoundState:
        """A state of fresh variables named after `tag`."""
        n, m = table.players, table.seats

        def bools(name: str) -> tuple[Expr, ...]:
            return tuple(z3.Bool(f"{tag}_{name}{s}") for s in range(1, n + 1))

        return RoundState(
            z3.Int(f"{tag}_cur"), bools("had"), bools("early"), bools("barred"),
            tuple(tuple(z3.Int(f"{tag}_held{s}_{q}") for q in range(5))
                  for s in range(1, n + 1)),
            tuple(tuple(z3.Int(f"{tag}_laid{s}_{i}") for i in range(4))
                  for s in range(1, n + 1)),
            z3.Int(f"{tag}_pool"),
            tuple(tuple(z3.Bool(f"{tag}_wolf{v}_{t}") for t in range(1, m + 1))
                  for v in range(1, n + 1)))

    def variables(self) -> list[Expr]:
        """Every component, flattened (for substitution and state equality)."""
        out = [self.cur, *self.had, *self.early, *self.barred, self.pool]
        for rows in (self.held, self.laid, self.wolf_at):
            for row in rows:
                out.extend(row)
        return out

    def same(self, other: RoundState, *, with_cur: Expr = True) -> Expr:
        """Equal component by component (`cur` only where `with_cur` holds)."""
        pairs = list(zip(self.variables()[1:], other.variables()[1:], strict=True))
        return z3.And(z3.Implies(lift(with_cur), lift(self.cur) == lift(other.cur)),
                      *[lift(a) == lift(b) for a, b in pairs])


@dataclass(frozen=True)
class Turn:
    """One turn: `kind` LOOK, ASK or EARLY; `target` the seat looked at or asked; `question` the
    kind asked (0-4); `said` a look's announcement (a character or UNKNOWN)."""

    kind: Expr
    target: Expr
    question: Expr
    said: Expr

    @staticmethod
    def fresh(tag: str) -> Turn:
        """A turn of fresh variables."""
        return Turn(z3.Int(f"{tag}_kind"), z3.Int(f"{tag}_target"), z3.Int(f"{tag}_q"),
                    z3.Int(f"{tag}_said"))


def initial(table: SpecTable, st: RoundState, start: Expr) -> Expr:
    """The state at the deal: `start` (an acting seat) to move, nobody has had a turn or
    suspected, every acting seat holds two question cards, no token laid; at most W7's limit
    of seats barred (a previous round's wrong early suspicions)."""
    n = table.players
    cons = [lift(st.cur) == lift(start), lift(start) >= 1, lift(start) <= n,
            lift(st.pool) == 0, count(st.barred) <= table.limit]
    for s in range(n):
        cons += [z3.Not(st.had[s]), z3.Not(st.early[s])]
        cons += [h >= 0 for h in st.held[s]] + [z3.Sum(list(st.held[s])) == 2]
        cons += [x == 0 for x in st.laid[s]] + [z3.Not(w) for w in st.wolf_at[s]]
    return z3.And(cons)


def over(table: SpecTable, st: RoundState) -> Expr:
    """W7: the turns are over after 2 early suspicions (4-5 players) or 3 (6-8)."""
    return count(st.early) >= table.limit


def pick_ok(table: SpecTable, seat: Expr, pick: Expr) -> Expr:
    """W6: a pick is 0 (nobody) or another seat (the dummy included, W3)."""
    p = lift(pick)
    return z3.Or(p == 0, z3.And(p >= 1, p <= table.seats, p != lift(seat)))


def said_ok(said: Expr) -> Expr:
    """An announcement is a token side (Wolf, Hunter, Sheep, Dog) or "?" (W4, W11)."""
    s = lift(said)
    return z3.Or([s == x for x in (*TOKEN_SIDES, UNKNOWN)])


def legal(table: SpecTable, st: RoundState, turn: Turn) -> Expr:
    """Whether the seat to move may take this turn: the round is not over, the seat acts (W3)
    and has not suspected early (W6); a look at another seat (the dummy included) announcing a
    token side or "?"; an ask of another acting seat with a question card held (W3, W5); an
    early suspicion after the seat's first turn when not barred (W6, W8)."""
    n, m = table.players, table.seats
    cur, kind, tgt = lift(st.cur), lift(turn.kind), lift(turn.target)
    held_q = select([select(list(row), turn.question, 0) for row in st.held], cur)
    return z3.And(
        z3.Not(over(table, st)), cur >= 1, cur <= n, z3.Not(select(list(st.early), cur)),
        z3.Or(
            z3.And(kind == LOOK, tgt >= 1, tgt <= m, tgt != cur, said_ok(turn.said)),
            z3.And(kind == ASK, tgt >= 1, tgt <= n, tgt != cur, lift(turn.question) >= 0,
                   lift(turn.question) <= 4, held_q >= 1),
            z3.And(kind == EARLY, select(list(st.had), cur),
                   z3.Not(select(list(st.barred), cur)))))


def token_free(st: RoundState, turn: Turn) -> Expr:
    """W11: the seat to move has a token for its look's announcement: a "?" token left in the
    pool, or a clue token that, with those already laid, can show the side."""
    said = lift(turn.said)
    fits = []
    for i, side in enumerate(TOKEN_SIDES):
        laid = [select([row[j] for row in st.laid], st.cur) for j in range(4)]
        laid[i] = laid[i] + 1
        fits.append(z3.And(said == side, hall_fits(laid)))
    return z3.Or(z3.And(said == UNKNOWN, lift(st.pool) < POOL), *fits)


def next_seat(table: SpecTable, cur: Expr, early: Sequence[Expr]) -> Expr:
    """The next acting seat after `cur` in turn order that has not suspected early (`cur`
    itself when it is the only one left; 0 when none is)."""
    n = table.players
    out: Expr = z3.IntVal(0)
    for c in range(n, 0, -1):
        order = [(c + k - 1) % n + 1 for k in range(1, n + 1)]
        pick: Expr = z3.IntVal(0)
        for s in reversed(order):
            pick = z3.If(z3.Not(early[s - 1]), s, pick)
        out = z3.If(lift(cur) == c, pick, out)
    return out


def step(table: SpecTable, st: RoundState, turn: Turn) -> RoundState:
    """The state after a legal turn: the seat has had a turn; a look lays a token when one is
    free (W11; otherwise the announcement goes without one: the gap), a Wolf token marks its
    seat (W9); an ask uses up the question card; an early suspicion takes the seat out of the
    turns (W6). The next seat is the next one still playing; while W7 has not ended the round."""
    n, m = table.players, table.seats
    cur, kind = lift(st.cur), lift(turn.kind)
    look, ask, early = kind == LOOK, kind == ASK, kind == EARLY
    laid_ok = z3.And(look, token_free(st, turn))
    said = lift(turn.said)
    had = tuple(z3.Or(st.had[s], cur == s + 1) for s in range(n))
    early_next = tuple(z3.Or(st.early[s], z3.And(early, cur == s + 1)) for s in range(n))
    held = tuple(tuple(st.held[s][q] - z3.If(z3.And(ask, cur == s + 1,
                                                   lift(turn.question) == q), 1, 0)
                       for q in range(5)) for s in range(n))
    laid = tuple(tuple(st.laid[s][i] + z3.If(z3.And(laid_ok, cur == s + 1, said == side), 1, 0)
                       for i, side in enumerate(TOKEN_SIDES)) for s in range(n))
    pool = lift(st.pool) + z3.If(z3.And(laid_ok, said == UNKNOWN), 1, 0)
    wolf_at = tuple(tuple(z3.Or(st.wolf_at[v][t], z3.And(
        laid_ok, cur == v + 1, said == WOLF, lift(turn.target) == t + 1)) for t in range(m))
        for v in range(n))
    nxt = next_seat(table, cur, early_next)
    return RoundState(nxt, had, early_next, st.barred, held, laid, pool, wolf_at)


def no_token(st: RoundState, turn: Turn) -> Expr:
    """The turn is a look whose announcement has no token left (the W11 gap)."""
    return z3.And(lift(turn.kind) == LOOK, z3.Not(token_free(st, turn)))


# ---- W10: the game -------------------------------------------------------------------------

ROUNDS = 3


def game_over(rounds: Expr, errors: Sequence[Expr]) -> Expr:
    """W10: three rounds played, or a seat holds two error tokens."""
    return z3.Or(lift(rounds) >= ROUNDS, *[lift(e) >= 2 for e in errors])


def winner(points: Sequence[Expr], errors: Sequence[Expr], seat: int) -> Expr:
    """W10: `seat` (index) wins: no seat has more points, or as many with fewer error tokens."""
    p, e = lift(points[seat]), lift(errors[seat])
    return z3.And([z3.Or(lift(q) < p, z3.And(lift(q) == p, lift(f) >= e))
                   for q, f in zip(points, errors, strict=True)])
