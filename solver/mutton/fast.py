"""The fast engine: exact counting of consistent wolf sets without listing them.

Method (the "boxes" of the best Minesweeper probability engines):

1. WOLF/SHEEP facts fix animals; a row already containing a fixed wolf is satisfied; fixed
   sheep leave the rows; COUNT facts are shifted by the fixed wolves they contain. What is left
   are *free* animals, *rows* (at least one free animal of the row is a wolf) and *counters*
   (lo <= wolves among a set <= hi, e.g. "exactly K", "some wolf is alive", the score).
2. Free animals in the same rows and the same counters are interchangeable: they form a
   *group*; a group of s animals holding k wolves stands for C(s, k) sets.
3. Rows sharing a group form a *component*; components are independent. Each component is
   counted by dynamic programming over its groups in a greedy order that keeps few rows
   "open": a state is the set of open rows already satisfied, its value a polynomial (a dict
   from the vector of counter values to a number of sets). A row whose last group has been
   processed without a wolf kills the state.
4. Components are combined by convolution of their polynomials; the count is the sum over
   counter vectors within their bounds. Exact Python integers throughout.
5. Wolf counts per animal: rerun a component's DP with its group's weight C(s, k) replaced by
   k * C(s, k) (the number of wolves the group contributes, summed over all sets), combine with
   the product of the other components, and divide by s (the members are interchangeable).

Fallback: a dictionary (WORDS fact, M23) breaks interchangeability; then the engine checks each
word of the list against the other facts (the list is the whole candidate space). Pass facts
(D9) and the score (D7) keep interchangeability: they are unary facts and counters.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from math import comb

from fleece.solver.mutton.facts import Fact, Kind

Poly = dict[int, int]  # packed counter vector -> number of sets


@dataclass(frozen=True)
class Reduced:
    """The facts after fixing animals (step 1). `rows` and counter sets hold free animals only."""

    wolves: frozenset[str]
    sheep: frozenset[str]
    free: tuple[str, ...]
    rows: tuple[frozenset[str], ...]
    counters: tuple[tuple[frozenset[str], int, int], ...]
    words: frozenset[frozenset[str]] | None
    others: tuple[Fact, ...]  # non-WORDS facts, for the dictionary fallback


def reduce_facts(animals: str, facts: Sequence[Fact]) -> Reduced | None:
    """Step 1; None when the facts already contradict each other."""
    wolves = {f.animal for f in facts if f.kind is Kind.WOLF}
    sheep = {f.animal for f in facts if f.kind is Kind.SHEEP}
    if wolves & sheep:
        return None
    free = tuple(a for a in animals if a not in wolves and a not in sheep)
    free_set = frozenset(free)
    rows: set[frozenset[str]] = set()
    counters: list[tuple[frozenset[str], int, int]] = []
    words: frozenset[frozenset[str]] | None = None
    for f in facts:
        if f.kind is Kind.AT_LEAST_ONE:
            if f.animals & wolves:
                continue
            rf = f.animals & free_set
            if not rf:
                return None
            rows.add(rf)
        elif f.kind is Kind.COUNT:
            n_in = len(f.animals & wolves)
            s = f.animals & free_set
            lo, hi = max(0, f.lo - n_in), f.hi - n_in
            if hi < 0 or lo > len(s) or lo > hi:
                return None
            hi = min(hi, len(s))
            if lo == 0 and hi >= len(s):
                continue
            counters.append((s, lo, hi))
        elif f.kind is Kind.WORDS:
            assert f.words is not None
            words = f.words if words is None else words & f.words
    # A row containing another row is implied by it.
    minimal = [r for r in rows if not any(o < r for o in rows)]
    minimal.sort(key=lambda r: (len(r), sorted(r)))
    others = tuple(f for f in facts if f.kind is not Kind.WORDS)
    return Reduced(frozenset(wolves), frozenset(sheep), free, tuple(minimal), tuple(counters),
                   words, others)


@dataclass(frozen=True)
class Group:
    """Interchangeable free animals: same rows, same counters."""

    members: tuple[str, ...]
    rows: int  # bit mask over the reduced rows
    dims: tuple[int, ...]  # 1 where the group belongs to the counter

    @property
    def size(self) -> int:
        """Number of animals in the group."""
        return len(self.members)


def make_groups(red: Reduced) -> list[Group]:
    """Step 2: group the free animals."""
    by_key: dict[tuple[int, tuple[int, ...]], list[str]] = {}
    for a in red.free:
        mask = 0
        for i, r in enumerate(red.rows):
            if a in r:
                mask |= 1 << i
        dims = tuple(1 if a in s else 0 for s, _, _ in red.counters)
        by_key.setdefault((mask, dims), []).append(a)
    return [Group(tuple(m), mask, dims) for (mask, dims), m in by_key.items()]


def components(groups: list[Group]) -> list[list[int]]:
    """Step 3: indices of groups linked through shared rows (a group in no row is alone)."""
    parent = list(range(len(groups)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[int, int] = {}
    for gi, g in enumerate(groups):
        m, bit = g.rows, 0
        while m:
            if m & 1:
                if bit in owner:
                    parent[find(gi)] = find(owner[bit])
                else:
                    owner[bit] = gi
            m >>= 1
            bit += 1
    comps: dict[int, list[int]] = {}
    for gi in range(len(groups)):
        comps.setdefault(find(gi), []).append(gi)
    return list(comps.values())


def _order(groups: list[Group], members: list[int]) -> list[int]:
    """A greedy order that keeps the set of open rows small."""
    remaining = list(members)
    rows_left: dict[int, int] = {}
    for gi in members:
        m = groups[gi].rows
        bit = 0
        while m:
            if m & 1:
                rows_left[bit] = rows_left.get(bit, 0) + 1
            m >>= 1
            bit += 1
    opened = 0
    out: list[int] = []
    while remaining:
        best, best_key = remaining[0], None
        for gi in remaining:
            m = groups[gi].rows
            new_open = bin(m & ~opened).count("1")
            closes = sum(1 for b, c in rows_left.items() if c == 1 and m >> b & 1)
            key = (new_open - closes, new_open, gi)
            if best_key is None or key < best_key:
                best, best_key = gi, key
        remaining.remove(best)
        out.append(best)
        m = groups[best].rows
        opened |= m
        for b in list(rows_left):
            if m >> b & 1:
                rows_left[b] -= 1
    return out


# Polynomial keys pack the counter vector into one int: one 8-bit field per counter, holding
# value + (127 - hi). A value above hi sets the field's top bit (GUARD), and adding two keys
# never carries into the next field while each value stays below 128.
_FIELD = 8
_TOP = 127


class Packing:
    """Packed-integer keys for counter vectors with upper bounds `his`."""

    def __init__(self, his: tuple[int, ...]) -> None:
        self.his = his
        self.bias = sum((_TOP - h) << (_FIELD * i) for i, h in enumerate(his))
        self.guard = sum(0x80 << (_FIELD * i) for i in range(len(his)))
        self.zero = self.bias

    def shift(self, k: int, dims: tuple[int, ...]) -> int:
        """The key increment of k wolves in a group with these counter memberships."""
        return sum((k * d) << (_FIELD * i) for i, d in enumerate(dims))

    def values(self, key: int) -> tuple[int, ...]:
        """Decode a key into the counter vector."""
        return tuple(((key >> (_FIELD * i)) & 0xFF) - (_TOP - h) for i, h in enumerate(self.his))


def component_poly(groups: list[Group], members: list[int], pack: Packing,
                   marked: int | None = None, order: list[int] | None = None) -> Poly:
    """Step 3 for one component: packed counter vector -> number of sets (weighted by the
    marked group's wolf count when `marked` is given)."""
    order = order if order is not None else _order(groups, members)
    last: dict[int, int] = {}
    for pos, gi in enumerate(order):
        m, bit = groups[gi].rows, 0
        while m:
            if m & 1:
                last[bit] = pos
            m >>= 1
            bit += 1
    closing = [0] * len(order)
    for bit, pos in last.items():
        closing[pos] |= 1 << bit
    guard = pack.guard
    states: dict[int, Poly] = {0: {pack.zero: 1}}
    for pos, gi in enumerate(order):
        g = groups[gi]
        close = closing[pos]
        keep = ~close
        new: dict[int, Poly] = {}
        steps = []
        for k in range(g.size + 1):
            w = comb(g.size, k) * (k if marked == gi else 1)
            if w:
                steps.append((k, w, pack.shift(k, g.dims)))
        for mask, poly in states.items():
            for k, w, shift in steps:
                nm = mask | g.rows if k else mask
                if nm & close != close:
                    continue
                nm &= keep
                target = new.get(nm)
                if target is None:
                    target = new[nm] = {}
                fit = False
                for key, c in poly.items():
                    nk = key + shift
                    if nk & guard:
                        continue
                    fit = True
                    target[nk] = target.get(nk, 0) + c * w
                if not fit and shift:
                    break
        states = {m: p for m, p in new.items() if p}
    return states.get(0, {})


def multiply(a: Poly, b: Poly, pack: Packing) -> Poly:
    """Convolution of two polynomials, truncated at the counters' upper bounds."""
    out: Poly = {}
    guard, bias = pack.guard, pack.bias
    for ka, ca in a.items():
        base = ka - bias
        for kb, cb in b.items():
            k = base + kb
            if not k & guard:
                out[k] = out.get(k, 0) + ca * cb
    return out


def _valid(pack: Packing, los: tuple[int, ...]) -> set[int]:
    """Keys of the counter vectors within bounds."""
    from itertools import product

    ranges = [range(lo, hi + 1) for lo, hi in zip(los, pack.his, strict=True)]
    return {pack.bias + sum(v << (_FIELD * i) for i, v in enumerate(vals))
            for vals in product(*ranges)}


def total(poly: Poly, valid: set[int]) -> int:
    """Sum of the entries whose counter values are within bounds."""
    return sum(c for k, c in poly.items() if k in valid)


def total_of_product(a: Poly, b: Poly, pack: Packing, valid: set[int]) -> int:
    """total(multiply(a, b)) without building the product."""
    out = 0
    bias = pack.bias
    for ka, ca in a.items():
        base = ka - bias
        for kb, cb in b.items():
            if base + kb in valid:
                out += ca * cb
    return out


@dataclass(frozen=True)
class Counts:
    """The fast engine's answer: number of consistent sets and, per animal, the number of
    consistent sets containing it."""

    count: int
    wolf_counts: dict[str, int]


def count_facts(animals: str, facts: Sequence[Fact], *, marginals: bool = True) -> Counts:
    """Count the wolf sets satisfying `facts` (and per-animal counts unless `marginals` is
    false)."""
    zero_counts = dict.fromkeys(animals, 0)
    red = reduce_facts(animals, facts)
    if red is None:
        return Counts(0, zero_counts)
    if red.words is not None:
        return _count_words(animals, red)
    groups = make_groups(red)
    his = tuple(hi for _, _, hi in red.counters)
    los = tuple(lo for _, lo, _ in red.counters)
    pack = Packing(his)
    valid = _valid(pack, los)
    comps = components(groups)
    orders = [_order(groups, c) for c in comps]
    polys = [component_poly(groups, c, pack, None, o) for c, o in zip(comps, orders, strict=True)]
    n = len(polys)
    prefix: list[Poly] = [{pack.zero: 1}]
    for p in polys:
        prefix.append(multiply(prefix[-1], p, pack))
    count = total(prefix[-1], valid)
    wolf_counts = dict(zero_counts)
    for a in red.wolves:
        wolf_counts[a] = count
    if not marginals or count == 0:
        return Counts(count, wolf_counts if count else zero_counts)
    suffix: list[Poly] = [{pack.zero: 1}] * (n + 1)
    for i in range(n - 1, -1, -1):
        suffix[i] = multiply(polys[i], suffix[i + 1], pack)
    for ci, comp in enumerate(comps):
        others = multiply(prefix[ci], suffix[ci + 1], pack)
        for gi in comp:
            g = groups[gi]
            weighted = component_poly(groups, comp, pack, gi, orders[ci])
            t = total_of_product(weighted, others, pack, valid)
            per, rem = divmod(t, g.size)
            assert rem == 0, "interchangeable animals must share the count"
            for a in g.members:
                wolf_counts[a] = per
    return Counts(count, wolf_counts)


def _count_words(animals: str, red: Reduced) -> Counts:
    """Dictionary fallback: check every word of the list against the other facts."""
    assert red.words is not None
    wolf_counts = dict.fromkeys(animals, 0)
    count = 0
    for w in red.words:
        if all(f.holds(w) for f in red.others):
            count += 1
            for a in w:
                wolf_counts[a] += 1
    return Counts(count, wolf_counts)


def is_consistent(animals: str, facts: Sequence[Fact]) -> bool:
    """True when at least one wolf set satisfies the facts."""
    return count_facts(animals, facts, marginals=False).count > 0


def iter_sets(animals: str, facts: Sequence[Fact]) -> Iterator[frozenset[str]]:
    """Every wolf set satisfying the facts, by backtracking with pruning (rows whose animals
    are all decided must hold a wolf; counters must stay reachable). Sets come in a fixed
    order; each is yielded once."""
    red = reduce_facts(animals, facts)
    if red is None:
        return
    if red.words is not None:
        for w in sorted(red.words, key=lambda s: sorted(s)):
            if all(f.holds(w) for f in red.others):
                yield w
        return
    # Animals in many rows first: rows close early, pruning sooner.
    free = sorted(red.free, key=lambda a: (-sum(a in r for r in red.rows), a))
    pos = {a: i for i, a in enumerate(free)}
    n = len(free)
    closes: list[list[int]] = [[] for _ in range(n)]
    row_masks = []
    for ri, r in enumerate(red.rows):
        closes[max(pos[a] for a in r)].append(ri)
        row_masks.append(sum(1 << pos[a] for a in r))
    cnt_sets = [sum(1 << pos[a] for a in s) for s, _, _ in red.counters]
    los = [lo for _, lo, _ in red.counters]
    his = [hi for _, _, hi in red.counters]
    # remaining[i][c]: members of counter c among free[i:]
    remaining = [[bin(m >> i).count("1") for m in cnt_sets] for i in range(n + 1)]
    fixed = red.wolves
    in_dims = [[(m >> i) & 1 for m in cnt_sets] for i in range(n)]

    chosen = [0] * len(cnt_sets)
    stack: list[str] = []

    def rec(i: int, mask: int) -> Iterator[frozenset[str]]:
        for c in range(len(cnt_sets)):
            if chosen[c] > his[c] or chosen[c] + remaining[i][c] < los[c]:
                return
        if i == n:
            yield fixed | frozenset(stack)
            return
        for take in (1, 0):
            nm = mask | (1 << i) if take else mask
            if any(not nm & row_masks[ri] for ri in closes[i]):
                continue
            if take:
                stack.append(free[i])
                for c in range(len(cnt_sets)):
                    chosen[c] += in_dims[i][c]
            yield from rec(i + 1, nm)
            if take:
                stack.pop()
                for c in range(len(cnt_sets)):
                    chosen[c] -= in_dims[i][c]

    yield from rec(0, 0)


def brute_force(animals: str, facts: Iterable[Fact], k: int) -> list[frozenset[str]]:
    """Every k-subset of the animals satisfying the facts, by itertools.combinations (the
    reference for tests; exponential)."""
    from itertools import combinations

    fs = list(facts)
    out = []
    for combo in combinations(animals, k):
        w = frozenset(combo)
        if all(f.holds(w) for f in fs):
            out.append(w)
    return out
