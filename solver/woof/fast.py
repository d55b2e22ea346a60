"""The fast exact engine: dynamic programming over seats with physical-deal multiplicities.

Why it is exact and fast: a deal's weight factorises over seats once the deck is tracked. The
number of physical deals giving a hand-type assignment is prod_k n_k! / (prod_{s,k} c_sk! *
prod_k r_k!), so each seat contributes 1/prod_k c_sk! and the undealt rest 1/prod_k r_k!. Looks
couple a target with its viewer only through "is the viewer the Shepherd?" (W4), so the engine
enumerates which look-making viewers are Shepherds (at most as many as there are Shepherd
cards) and, for each choice, every fact becomes a factor of one seat. All weights are integers
(likelihoods are halves, scaled by 2).

What keeps it fast:

- Card kinds that no evidence line tells apart (same picture, and the same appearance when a
  look is in the file; never a card named by a `hand` or `saw` line) are merged into one kind
  with the summed copies: physical deals are counted the same way with coarser labels, and a
  deck with undealt cards and no evidence has five kinds, one per picture.
- Each seat's table is built from its own lines, identical lines raised to a power.
- The posterior is not listed: one forward pass over the seats (state: the cards left in the
  deck) and one backward pass give the probability of the evidence and every seat's
  character distribution; the wolf sets and a suspicion's chances come from the same forward
  pass with a small class per seat (wolf or not; target characters). The full list of
  character vectors is built only when asked for (`Posterior.vectors`).
- Consistency, for the minimal contradicting lines, only asks whether some deal is possible:
  each line is a bit mask of the hand types it allows (computed once per distinct line), and
  a depth-first search over seats with a memo of dead ends finds a deal or proves there is
  none, so QuickXplain's checks stay cheap with thousands of lines.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations
from math import factorial, prod

from fleece.rules.woof.cards import CHARACTERS, Card, Character
from fleece.rules.woof.evidence import AskFact, Evidence, Fact, HandFact, LookFact, SawFact
from fleece.solver.core import minimal_core as quickxplain
from fleece.solver.woof.shared import (
    CompiledEvidence,
    Posterior,
    ask_ok,
    compile_evidence,
    hand_ok,
    hand_types,
    look_weight,
    saw_viewer_ok,
    saw_weight,
)

_NOT_SHEPHERD = Character.SHEEP  # any non-Shepherd viewer announces the same (W4)

SeatTable = list[tuple[int, int, Character]]  # (hand type index, integer weight, character)


# ---- compiling -----------------------------------------------------------------------------------


def merge_kinds(problem: CompiledEvidence) -> CompiledEvidence:
    """The same problem with card kinds that no line tells apart merged (summed copies)."""
    named: set[Card] = set()
    looks = False
    for f in problem.facts:
        if isinstance(f, HandFact):
            named.update(f.cards)
        elif isinstance(f, SawFact):
            named.add(f.card)
        elif isinstance(f, LookFact):
            looks = True
    groups: dict[object, list[int]] = {}
    for i, kind in enumerate(problem.kinds):
        key: object = kind if kind in named else (kind.picture, kind.appearance if looks else 0)
        groups.setdefault(key, []).append(i)
    if len(groups) == len(problem.kinds):
        return problem
    members = sorted(groups.values())
    kinds = tuple(problem.kinds[m[0]] for m in members)
    counts = tuple(sum(problem.counts[i] for i in m) for m in members)
    return CompiledEvidence(problem.evidence, problem.seats, kinds, counts,
                            hand_types(kinds, counts))


def _fact_vector(problem: CompiledEvidence, f: Fact, role: str) -> tuple[int, ...]:
    """One line's factor for every hand type of the seat it concerns (`role`: the target,
    the viewer of a `saw`, or the target of a look by a Shepherd / non-Shepherd viewer)."""
    hands = problem.hand_types
    if isinstance(f, HandFact):
        return tuple(int(hand_ok(ht.hand, f)) for ht in hands)
    if isinstance(f, AskFact):
        return tuple(int(ask_ok(ht.hand, f)) for ht in hands)
    if isinstance(f, SawFact):
        if role == "viewer":
            return tuple(int(saw_viewer_ok(ht.character, f)) for ht in hands)
        return tuple(saw_weight(ht.hand, f) for ht in hands)
    viewer = Character.SHEPHERD if role == "shepherd" else _NOT_SHEPHERD
    return tuple(look_weight(viewer, ht.hand, f) for ht in hands)


def _key(f: Fact) -> tuple[object, ...]:
    """What a line's factor depends on (not its seats or line number)."""
    if isinstance(f, HandFact):
        return ("hand", f.cards)
    if isinstance(f, AskFact):
        return ("ask", f.question, f.answer)
    if isinstance(f, SawFact):
        return ("saw", f.card, f.announced, f.announced_given)
    return ("look", f.announced)


class _Tables:
    """The weight per hand type of some seats, from their own lines (identical lines as
    powers), at one resolution of the deck (`problem`)."""

    def __init__(self, problem: CompiledEvidence, seats: Sequence[int]) -> None:
        self.problem = problem
        self.seats = tuple(seats)
        mine = set(seats)
        hands = problem.hand_types
        self.base = {s: [1 if ht.pair else 2 for ht in hands] for s in seats}
        vectors: dict[tuple[object, ...], tuple[int, ...]] = {}

        def vector(f: Fact, role: str) -> tuple[int, ...]:
            key = (*_key(f), role)
            got = vectors.get(key)
            if got is None:
                got = vectors[key] = _fact_vector(problem, f, role)
            return got

        plain: Counter[tuple[int, tuple[int, ...]]] = Counter()
        # announced looks at these seats: (target, viewer, announcement) -> number of lines
        self.looks: Counter[tuple[int, int, Fact]] = Counter()
        for f in problem.facts:
            if isinstance(f, HandFact):
                if f.seat in mine:
                    plain[(f.seat, vector(f, "target"))] += 1
            elif isinstance(f, AskFact):
                if f.target in mine:
                    plain[(f.target, vector(f, "target"))] += 1
            elif isinstance(f, SawFact):
                if f.target in mine:
                    plain[(f.target, vector(f, "target"))] += 1
                if f.viewer in mine:
                    plain[(f.viewer, vector(f, "viewer"))] += 1
            elif f.target not in mine:
                continue
            elif f.announced is None:
                plain[(f.target, vector(f, "other"))] += 1
            else:
                self.looks[(f.target, f.viewer, LookFact(0, 0, f.announced))] += 1
        for (seat, vec), n in plain.items():
            row = self.base[seat]
            for h, x in enumerate(vec):
                if row[h]:
                    row[h] *= x ** n
        self.look_vectors = {key: (vector(f, "shepherd"), vector(f, "other"))
                             for key in self.looks for f in [key[2]]}

    def may_be_shepherd(self, seat: int) -> bool:
        """Whether the seat's own lines allow it a Shepherd hand."""
        hands = self.problem.hand_types
        return any(w and hands[h].character is Character.SHEPHERD
                   for h, w in enumerate(self.base[seat]))

    def for_choice(self, shepherds: frozenset[int], flagged: set[int]) -> dict[int, SeatTable]:
        """The seat tables when, of the look-making viewers `flagged`, exactly `shepherds`
        are Shepherds."""
        hands = self.problem.hand_types
        rows = {s: list(r) for s, r in self.base.items()}
        for (target, viewer, f), n in self.looks.items():
            shep, other = self.look_vectors[(target, viewer, f)]
            vec = shep if viewer in shepherds else other
            row = rows[target]
            for h, x in enumerate(vec):
                if row[h]:
                    row[h] *= x ** n
        out: dict[int, SeatTable] = {}
        for s, row in rows.items():
            table: SeatTable = []
            for h, w in enumerate(row):
                if not w:
                    continue
                ch = hands[h].character
                if s in flagged and (ch is Character.SHEPHERD) != (s in shepherds):
                    continue
                table.append((h, w, ch))
            out[s] = table
        return out


def _seat_keys(problem: CompiledEvidence) -> dict[int, tuple[object, ...]]:
    """Per seat, what its own lines tell apart of each card kind: the kind itself when a
    `hand` line of the seat or a `saw` at it names it, else the picture, with the appearance
    when some look is at the seat."""
    named: dict[int, set[Card]] = {s: set() for s in problem.seats}
    looked: set[int] = set()
    for f in problem.facts:
        if isinstance(f, HandFact):
            named[f.seat].update(f.cards)
        elif isinstance(f, SawFact):
            named[f.target].add(f.card)
        elif isinstance(f, LookFact):
            looked.add(f.target)
    return {s: tuple(k if k in named[s] else (k.picture, k.appearance if s in looked else 0)
                     for k in problem.kinds)
            for s in problem.seats}


class _Resolution:
    """The deck seen with some card kinds merged (classes of kinds with summed copies): a
    compiled problem over class representatives and its deck codes."""

    def __init__(self, fine: CompiledEvidence, classes: list[list[int]]) -> None:
        self.classes = classes
        kinds = tuple(fine.kinds[c[0]] for c in classes)
        counts = tuple(sum(fine.counts[i] for i in c) for c in classes)
        self.problem = CompiledEvidence(fine.evidence, fine.seats, kinds, counts,
                                        hand_types(kinds, counts))
        self.deck = _Deck(self.problem)
        self.class_of = {i: j for j, c in enumerate(classes) for i in c}


class _Coarsen:
    """Deck codes of a finer resolution as codes of a coarser one, with the factor that keeps
    physical deals counted the same: prod over coarse classes of q! / prod of the fine r!."""

    def __init__(self, fine: _Resolution, coarse: _Resolution) -> None:
        self.fine, self.coarse = fine, coarse
        self.target = [coarse.class_of[c[0]] for c in fine.classes]
        self._cache: dict[int, tuple[int, int]] = {}

    def __call__(self, code: int) -> tuple[int, int]:
        got = self._cache.get(code)
        if got is None:
            digits = self.fine.deck.digits(code)
            q = [0] * len(self.coarse.classes)
            for d, t in zip(digits, self.target, strict=True):
                q[t] += d
            out = sum(n * m for n, m in zip(q, self.coarse.deck.mult, strict=True))
            factor = prod(factorial(n) for n in q) // prod(factorial(d) for d in digits)
            got = self._cache[code] = (out, factor)
        return got


class _Deck:
    """Mixed-radix codes for "cards left in the deck", with cached successor lists."""

    def __init__(self, problem: CompiledEvidence) -> None:
        self.counts = problem.counts
        self.mult: list[int] = []
        m = 1
        for n in self.counts:
            self.mult.append(m)
            m *= n + 1
        self.full = sum(n * k for n, k in zip(self.counts, self.mult, strict=True))
        self.delta = []
        self.need = []
        for ht in problem.hand_types:
            i, j = ht.kinds
            self.delta.append(self.mult[i] + self.mult[j])
            self.need.append((i, j))
        self._avail: dict[int, dict[int, int]] = {}
        self._multi: dict[int, int] = {}

    def digits(self, code: int) -> list[int]:
        """Cards left per kind."""
        return [(code // m) % (n + 1) for m, n in zip(self.mult, self.counts, strict=True)]

    def avail(self, code: int) -> dict[int, int]:
        """Hand type -> code after dealing it, for hand types the remaining deck allows."""
        got = self._avail.get(code)
        if got is None:
            d = self.digits(code)
            got = {}
            for h, (i, j) in enumerate(self.need):
                if (d[i] >= 2) if i == j else (d[i] >= 1 and d[j] >= 1):
                    got[h] = code - self.delta[h]
            self._avail[code] = got
        return got

    def multinomial(self, code: int) -> int:
        """(cards left)! / prod r_k!: the ways to deal the cards left to the seats still to
        come and the undealt pile (scaled like the seat tables)."""
        got = self._multi.get(code)
        if got is None:
            digits = self.digits(code)
            got = self._multi[code] = factorial(sum(digits)) // prod(factorial(r) for r in digits)
        return got

def _scale(problem: CompiledEvidence) -> Fraction:
    """Factor turning a scaled DP total into the probability of the evidence."""
    looks = sum(1 for f in problem.facts if isinstance(f, LookFact | SawFact))
    deck = prod(factorial(n) for n in problem.counts)
    return Fraction(deck, 2**looks * factorial(sum(problem.counts)))


# ---- the passes ----------------------------------------------------------------------------------


class _Step:
    """One seat of a chain: its table at the deck resolution of its cut, and its moves from a
    deck code (for each allowed hand: the code after dealing it, in the next cut's resolution,
    and the hand's weight times the coarsening factor), cached per code for every pass."""

    def __init__(self, seat: int, rows: SeatTable, deck: _Deck, coarsen: _Coarsen | None
                 ) -> None:
        self.seat, self.rows, self.deck, self.coarsen = seat, rows, deck, coarsen
        self.key = (id(deck), tuple(rows))  # equal keys: interchangeable seats
        self._moves: dict[int, list[tuple[int, int, int]]] = {}

    def moves(self, code: int) -> list[tuple[int, int, int]]:
        """(row index, next code, weight) for every hand the deck allows."""
        got = self._moves.get(code)
        if got is None:
            deck = self.deck
            digits = deck.digits(code)
            coarsen = self.coarsen
            got = []
            for j, (h, w, _) in enumerate(self.rows):
                a, b = deck.need[h]
                if (digits[a] < 2) if a == b else (not digits[a] or not digits[b]):
                    continue
                nxt = code - deck.delta[h]
                if coarsen is not None:
                    nxt, factor = coarsen(nxt)
                    w *= factor
                got.append((j, nxt, w))
            self._moves[code] = got
        return got


class FastJoint:
    """The fast engine's JointSource. Seats are dealt in an order that puts the seats whose
    lines tell card kinds apart first and the seats without any line (free seats) last; at
    each cut the deck is tracked only as finely as the seats still to come need (the rest of a
    card's identity no longer matters). The free seats are not dealt one by one: any deal of
    the cards left is as likely, so their weight, and each one's character distribution (that
    of a random pair of the cards left), are closed forms of the cards left; only the wolf
    sets and suspicions deal them, with the deck seen as just the pictures their classes need.
    One list of steps per Shepherd choice."""

    def __init__(self, problem: CompiledEvidence) -> None:
        fine = merge_kinds(problem)
        keys = _seat_keys(fine)
        count = Counter(s for f in fine.facts for s in _seats_of(f))
        flagged = {f.viewer for f in fine.facts
                   if isinstance(f, LookFact) and f.announced is not None}
        free = {s for s in fine.seats if not count[s] and s not in flagged}
        order = sorted(fine.seats, key=lambda s: (s in free, -len(set(keys[s])), -count[s], s))
        self.free = [s for s in order if s in free]
        self.free_from = len(order) - len(self.free)
        cuts: list[_Resolution] = []
        self.known: dict[tuple[tuple[int, ...], ...], _Resolution] = {}
        for i in range(len(order) + 1):
            rest = order[i:]
            groups: dict[object, list[int]] = {}
            for k, kind in enumerate(fine.kinds):
                key = tuple(keys[s][k] for s in rest) if rest else kind.picture
                groups.setdefault(key, []).append(k)
            cuts.append(self._resolution(fine, sorted(groups.values())))
        self.fine = fine
        self.first = cuts[0]
        self.tail = cuts[self.free_from]  # the deck as the free seats see it (pictures)
        constrained = order[:self.free_from]
        tables: dict[int, _Tables] = {}
        by_res: dict[int, list[int]] = {}
        for i, s in enumerate(constrained):
            by_res.setdefault(id(cuts[i]), []).append(s)
        for i in range(len(constrained)):
            if id(cuts[i]) not in tables:
                tables[id(cuts[i])] = _Tables(cuts[i].problem, by_res[id(cuts[i])])
        seat_tables = {s: tables[id(cuts[i])] for i, s in enumerate(constrained)}
        coarsen = [None if cuts[i] is cuts[i + 1] else _Coarsen(cuts[i], cuts[i + 1])
                   for i in range(len(constrained))]
        maybe = [v for v in sorted(flagged) if seat_tables[v].may_be_shepherd(v)]
        limit = sum(n for k, n in zip(fine.kinds, fine.counts, strict=True)
                    if k.picture is Character.SHEPHERD)
        self.seats = fine.seats
        self.choices: list[list[_Step]] = []
        for size in range(min(limit, len(maybe)) + 1):
            for chosen in combinations(maybe, size):
                rows: dict[int, SeatTable] = {}
                for t in tables.values():
                    rows.update(t.for_choice(frozenset(chosen), flagged))
                if all(rows.values()):
                    self.choices.append([_Step(s, rows[s], cuts[i].deck, coarsen[i])
                                         for i, s in enumerate(constrained)])
        self._forward = [self._pass(c) for c in self.choices]
        self.total = sum(self._end(f) for f in self._forward)

    def _resolution(self, fine: CompiledEvidence, classes: list[list[int]]) -> _Resolution:
        shape = tuple(tuple(c) for c in classes)
        if shape not in self.known:
            self.known[shape] = _Resolution(fine, classes)
        return self.known[shape]

    def _pass(self, steps: list[_Step]) -> list[dict[int, int]]:
        """Forward pass over the constrained seats: deck code -> weight before each seat (and
        after the last)."""
        states: dict[int, int] = {self.first.deck.full: 1}
        history = [states]
        for step in steps:
            new: defaultdict[int, int] = defaultdict(int)
            moves = step.moves
            for code, weight in states.items():
                for _, nxt, w in moves(code):
                    new[nxt] += weight * w
            states = {c: w for c, w in new.items() if w}
            history.append(states)
            if not states:
                break
        return history

    def _rest(self, code: int) -> int:
        """Weight of dealing the free seats and leaving the rest undealt from the cards left:
        (cards left)! / prod r_k! (scaled like the seat tables)."""
        return self.tail.deck.multinomial(code)

    def _end(self, history: list[dict[int, int]]) -> int:
        if len(history) < self.free_from + 1:
            return 0
        return sum(w * self._rest(c) for c, w in history[-1].items())

    def scale(self) -> Fraction:
        """Factor turning a total into the probability of the evidence."""
        return _scale(self.first.problem)

    def marginal_weights(self) -> dict[int, dict[Character, int]]:
        """Seat -> character -> summed weight, by one backward pass per Shepherd choice (the
        free seats: each that of a random pair of the cards left)."""
        out = {s: dict.fromkeys(CHARACTERS, 0) for s in self.seats}
        tail = self.tail.deck
        hands = self.tail.problem.hand_types
        for steps, history in zip(self.choices, self._forward, strict=True):
            if len(history) < len(steps) + 1:
                continue
            if self.free:
                by_char = dict.fromkeys(CHARACTERS, 0)
                for code, fw in history[-1].items():
                    for h, nxt in tail.avail(code).items():
                        by_char[hands[h].character] += (
                            fw * (1 if hands[h].pair else 2) * tail.multinomial(nxt))
                for s in self.free:
                    for c, x in by_char.items():
                        out[s][c] += x
            after = {c: self._rest(c) for c in history[-1]}
            for i in range(len(steps) - 1, -1, -1):
                step = steps[i]
                moves = step.moves
                before: dict[int, int] = {}
                by_hand = [0] * len(step.rows)
                for code, fw in history[i].items():
                    acc = 0
                    for j, nxt, w in moves(code):
                        b = after.get(nxt)
                        if b:
                            x = w * b
                            acc += x
                            by_hand[j] += fw * x
                    if acc:
                        before[code] = acc
                seat_out = out[step.seat]
                for (_, _, ch), x in zip(step.rows, by_hand, strict=True):
                    seat_out[ch] += x
                after = before
        return out

    def class_weights(self, classes: Mapping[Character, int]) -> dict[tuple[int, ...], int]:
        """One forward pass per Shepherd choice carrying the seats' classes. Seats with the
        same table are interchangeable, so only how many of them have each class is carried
        and the count is shared evenly among the arrangements at the end; the free seats are
        dealt from the deck seen as the groups of pictures that give the same classes."""
        seats = self.seats
        width = max(classes.values()) + 1
        pos = {s: i for i, s in enumerate(seats)}
        total: defaultdict[tuple[int, ...], int] = defaultdict(int)
        # The free seats' deck: pictures giving the same class with any other card merged.
        pictures = sorted({k.picture for k in self.tail.problem.kinds}, key=CHARACTERS.index)

        def behaviour(p: Character) -> tuple[int, ...]:
            pair = classes[_character(p, p)]
            return (pair, *(classes[_character(p, q)] for q in pictures))

        sig = {p: behaviour(p) for p in pictures}
        groups: dict[tuple[int, ...], list[int]] = {}
        for j, kind in enumerate(self.tail.problem.kinds):
            groups.setdefault(sig[kind.picture], []).append(j)
        fine_of = [[i for j in g for i in self.tail.classes[j]] for g in groups.values()]
        coarse = self._resolution(self.fine, sorted(sorted(c) for c in fine_of))
        to_coarse = None if coarse is self.tail else _Coarsen(self.tail, coarse)
        free_rows = [(ht.index, 1 if ht.pair else 2, ht.character)
                     for ht in coarse.problem.hand_types]
        free_step = _Step(0, free_rows, coarse.deck, None)
        for steps in self.choices:
            full = [*steps, *[free_step] * len(self.free)]
            seats_of = [*(st.seat for st in steps), *self.free]
            cut = len(steps)
            kinds_of_groups: dict[tuple[int, tuple[tuple[int, int, Character], ...]],
                                  list[int]] = {}
            for st, seat in zip(full, seats_of, strict=True):
                kinds_of_groups.setdefault(st.key, []).append(seat)
            index = {key: g for g, key in enumerate(kinds_of_groups)}
            members = list(kinds_of_groups.values())
            # counts: one number per (group, class), packed in base (seats + 1)
            base = len(seats) + 1
            states: dict[tuple[int, int], int] = {(self.first.deck.full, 0): 1}
            for n, st in enumerate(full):
                if n == cut and to_coarse is not None:
                    moved: defaultdict[tuple[int, int], int] = defaultdict(int)
                    for (code, counts), weight in states.items():
                        c2, factor = to_coarse(code)
                        moved[(c2, counts)] += weight * factor
                    states = dict(moved)
                g = index[st.key]
                steps_by_row = [base ** (g * width + classes[ch]) for _, _, ch in st.rows]
                moves = st.moves
                new: defaultdict[tuple[int, int], int] = defaultdict(int)
                for (code, counts), weight in states.items():
                    for j, nxt, w in moves(code):
                        new[(nxt, counts + steps_by_row[j])] += weight * w
                states = dict(new)
                if not states:
                    break
            else:
                end = coarse.deck if self.free else self.tail.deck
                packed: defaultdict[int, int] = defaultdict(int)
                for (code, counts), weight in states.items():
                    packed[counts] += weight * end.multinomial(code)
                for counts, weight in packed.items():
                    if weight:
                        _spread(counts, weight, members, width, base, pos, total)
        return {vec: w for vec, w in total.items() if w}


def _character(a: Character, b: Character) -> Character:
    """W1 for two pictures: the shared one, else the one of higher value."""
    return max(a, b, key=CHARACTERS.index)


def _seats_of(f: Fact) -> tuple[int, ...]:
    """The seats whose tables a line changes."""
    if isinstance(f, HandFact):
        return (f.seat,)
    if isinstance(f, SawFact):
        return (f.target, f.viewer)
    return (f.target,)


def _spread(counts: int, weight: int, members: list[list[int]], width: int, base: int,
            pos: dict[int, int], total: defaultdict[tuple[int, ...], int]) -> None:
    """Share `weight` evenly among the class vectors whose per-group class counts are
    `counts` (interchangeable seats: every arrangement is equally likely)."""
    per_group: list[list[tuple[tuple[int, int], ...]]] = []
    for g, seats in enumerate(members):
        need = []
        for c in range(width):
            need.append((counts // base ** (g * width + c)) % base)
        arrangements = _arrangements(need)
        per_group.append([tuple(zip(seats, arr, strict=True)) for arr in arrangements])
    share = weight
    for options in per_group:
        share, rest = divmod(share, len(options))
        assert rest == 0, "interchangeable seats share the weight evenly"
    vec = [0] * len(pos)

    def place(g: int) -> None:
        if g == len(per_group):
            total[tuple(vec)] += share
            return
        for assignment in per_group[g]:
            for s, c in assignment:
                vec[pos[s]] = c
            place(g + 1)

    place(0)


def _arrangements(need: list[int]) -> list[tuple[int, ...]]:
    """Every sequence with `need[c]` entries equal to c."""
    out: list[tuple[int, ...]] = []
    left = list(need)
    seq: list[int] = []
    size = sum(need)

    def rec() -> None:
        if len(seq) == size:
            out.append(tuple(seq))
            return
        for c, n in enumerate(left):
            if n:
                left[c] -= 1
                seq.append(c)
                rec()
                seq.pop()
                left[c] += 1

    rec()
    return out


def solve(evidence: Evidence) -> Posterior:
    """Exact posterior of the seat characters given the evidence."""
    problem = compile_evidence(evidence)
    joint = FastJoint(problem)
    if not joint.total:
        return Posterior(problem.seats, {}, Fraction(0))
    return Posterior(problem.seats, None, joint.total * joint.scale(), source=joint)


def evidence_probability(evidence: Evidence) -> Fraction:
    """The probability of the evidence under the model (cheap: one forward pass per choice)."""
    joint = FastJoint(compile_evidence(evidence))
    return joint.total * joint.scale()


# ---- consistency and contradictions --------------------------------------------------------------


class Support:
    """Which deals a set of lines allows, for fast consistency checks of any subset of an
    evidence file's lines: each line is a bit mask over hand types per seat it concerns."""

    def __init__(self, evidence: Evidence) -> None:
        self.problem = merge_kinds(compile_evidence(evidence))
        self.deck = _Deck(self.problem)
        hands = self.problem.hand_types
        self.all = (1 << len(hands)) - 1
        self.shepherd = sum(1 << h for h, ht in enumerate(hands)
                            if ht.character is Character.SHEPHERD)
        self.shepherd_cards = sum(n for k, n in zip(self.problem.kinds, self.problem.counts,
                                                    strict=True)
                                  if k.picture is Character.SHEPHERD)
        self._masks: dict[tuple[object, ...], int] = {}

    def _mask(self, f: Fact, role: str) -> int:
        key = (*_key(f), role)
        got = self._masks.get(key)
        if got is None:
            vec = _fact_vector(self.problem, f, role)
            got = self._masks[key] = sum(1 << h for h, x in enumerate(vec) if x)
        return got

    def consistent(self, facts: Sequence[Fact]) -> bool:
        """Whether some deal satisfies every one of `facts`."""
        allowed = dict.fromkeys(self.problem.seats, self.all)
        looks: list[tuple[int, int, int, int]] = []  # viewer, target, if Shepherd, if not
        for f in facts:
            if isinstance(f, HandFact):
                allowed[f.seat] &= self._mask(f, "target")
            elif isinstance(f, AskFact):
                allowed[f.target] &= self._mask(f, "target")
            elif isinstance(f, SawFact):
                allowed[f.target] &= self._mask(f, "target")
                allowed[f.viewer] &= self._mask(f, "viewer")
            elif f.announced is None:
                allowed[f.target] &= self._mask(f, "other")
            else:
                looks.append((f.viewer, f.target, self._mask(f, "shepherd"),
                              self._mask(f, "other")))
        if not all(allowed.values()):
            return False
        viewers = sorted({v for v, _, _, _ in looks})
        maybe = [v for v in viewers if allowed[v] & self.shepherd]
        for size in range(min(self.shepherd_cards, len(maybe)) + 1):
            for chosen in combinations(maybe, size):
                shepherds = set(chosen)
                al = dict(allowed)
                for v in viewers:
                    al[v] &= self.shepherd if v in shepherds else ~self.shepherd
                for v, t, if_shepherd, if_not in looks:
                    al[t] &= if_shepherd if v in shepherds else if_not
                if all(al.values()) and self._deal_exists(al):
                    return True
        return False

    def _deal_exists(self, allowed: dict[int, int]) -> bool:
        """Depth-first search for hands, fewest choices first, remembering dead ends."""
        order = sorted(allowed, key=lambda s: allowed[s].bit_count())
        masks = [allowed[s] for s in order]
        avail = self.deck.avail
        dead: set[tuple[int, int]] = set()

        def search(i: int, code: int) -> bool:
            if i == len(masks):
                return True
            if (i, code) in dead:
                return False
            m = masks[i]
            for h, nxt in avail(code).items():
                if m >> h & 1 and search(i + 1, nxt):
                    return True
            dead.add((i, code))
            return False

        return search(0, self.deck.full)


def consistent(evidence: Evidence) -> bool:
    """Whether some deal has positive weight."""
    return Support(evidence).consistent(evidence.facts)


def minimal_core(evidence: Evidence) -> list[Fact]:
    """A minimal set of contradicting facts (every proper subset is consistent): QuickXplain
    (solver.core.minimal_core) over one Support, earlier lines dropped first."""
    support = Support(evidence)
    return quickxplain(list(evidence.facts), support.consistent)
