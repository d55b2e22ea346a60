"""The fast engine: exact counting of consistent wolf sets without listing them.

The facts (solver.mutton.facts) become, after fixing the known animals, *free* animals,
*rows* ("at least one of these is a wolf") and *counters* ("lo <= wolves among this set <= hi":
exactly K wolves, the score). Everything below is exact integer arithmetic.

1. Reduce (`reduce_facts`): WOLF/SHEEP facts fix animals; a row holding a fixed wolf is
   satisfied; fixed sheep leave the rows; counters are shifted by the fixed wolves they hold.
   A counter that only says "at least one" is a row (D6: a wolf is alive). A counter nested in
   an exact one is replaced by the difference (K wolves of which the score fixes m among the
   dead becomes K - m among the others), which keeps the counters small.
2. Group: free animals in the same rows and counters are interchangeable; a group of s
   animals holding k wolves stands for C(s, k) sets. Rows sharing a group form a component.
3. Count by a frontier DP over a chain of the groups, one component after another, each in
   a greedy order that keeps few distinct "open row" patterns: a state is the set of open
   rows already holding a wolf, its value a polynomial in the counters packed into one
   Python integer (Kronecker substitution: one fixed-width bit field per counter vector, so
   adding a group's wolves is a shift and a mask). Counter values that can no longer reach
   their bounds (too few animals left, or more wolves than the remaining rows' disjoint
   packing allows) are masked out at every step.
4. All per-animal counts come from one backward pass over the same states: its values count
   the completions of each state (stored in reversed counter order), so the number of sets
   through a state with the group's wolves is one integer product's middle coefficient.
   The same forward pass also carries, when asked, the number of wolves in a tracked set
   (the living animals, for the advice's living-wolf range).
5. A component whose wolf sets are few (C(n, k) small) is enumerated instead by bit masks
   and enters the chain as a table of counter vectors (`method="auto"` picks per component;
   "dp", "enum" and "animal-dp" force one method, for tests and benchmarks).
6. Few wolves and only the one counter K over every free animal (a no-reveal chart, the help
   page): the sets are counted by branching on the rows instead (`_count_hitting`, method
   "hit"): take the open row with the fewest candidates, make each candidate in turn its
   first wolf (the ones before it sheep), and once every row holds a wolf the rest are any
   C(m, r) choices of the m candidates left. Each set is reached once, along its own first
   wolves; at most (row size)^K branches, so "auto" uses it when that bound is small.

A dictionary (WORDS fact, M23) breaks interchangeability; then the engine checks each word of
the list against the other facts (the list is the whole candidate space).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from math import comb

from fleece.solver.mutton.facts import Fact, Kind

METHODS = ("auto", "dp", "enum", "animal-dp", "hit")
ENUM_LIMIT = 400  # auto: enumerate a component with at most this many candidate subsets
HIT_LIMIT = 3000  # auto: branch on rows when (largest row)^K is at most this

Counter = tuple[frozenset[str], int, int]


@dataclass(frozen=True)
class Reduced:
    """The facts after fixing animals (step 1). `rows` and counter sets hold free animals only."""

    wolves: frozenset[str]
    sheep: frozenset[str]
    free: tuple[str, ...]
    rows: tuple[frozenset[str], ...]
    counters: tuple[Counter, ...]
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
    counters: list[Counter] = []
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
            counters.append((f.animals & free_set, f.lo - n_in, f.hi - n_in))
        elif f.kind is Kind.WORDS:
            assert f.words is not None
            words = f.words if words is None else words & f.words
    simple = _simplify_counters(counters, rows)
    if simple is None:
        return None
    # A row containing another row is implied by it.
    minimal = [r for r in rows if not any(o < r for o in rows)]
    minimal.sort(key=lambda r: (len(r), sorted(r)))
    others = tuple(f for f in facts if f.kind is not Kind.WORDS)
    return Reduced(frozenset(wolves), frozenset(sheep), free, tuple(minimal), simple, words,
                   others)


def _clamp(s: frozenset[str], lo: int, hi: int) -> Counter | None:
    """The counter with bounds inside 0..|s|; None when no value fits."""
    lo, hi = max(0, lo), min(hi, len(s))
    return None if lo > hi else (s, lo, hi)


def _simplify_counters(counters: list[Counter], rows: set[frozenset[str]]
                       ) -> tuple[Counter, ...] | None:
    """Equivalent counters that are cheaper to count (step 1): bounds clamped, counters on the
    same set merged, a counter containing an exact one replaced by the difference, trivial
    ones dropped and "at least one" counters turned into rows (added to `rows`)."""
    by_set: dict[frozenset[str], tuple[int, int]] = {}
    for s, lo, hi in counters:
        c = _clamp(s, lo, hi)
        if c is None:
            return None
        old = by_set.get(s)
        lo, hi = c[1], c[2]
        if old is not None:
            lo, hi = max(lo, old[0]), min(hi, old[1])
            if lo > hi:
                return None
        by_set[s] = (lo, hi)
    by_set = {s: b for s, b in by_set.items() if b != (0, len(s))}  # trivial ones
    changed = True
    while changed:
        changed = False
        for inner, (m, m2) in list(by_set.items()):
            if m != m2 or inner not in by_set:
                continue
            for outer, (lo, hi) in list(by_set.items()):
                if inner < outer and outer in by_set:
                    rest = outer - inner
                    c = _clamp(rest, lo - m, hi - m)
                    if c is None:
                        return None
                    del by_set[outer]
                    old = by_set.get(rest)
                    lo2, hi2 = c[1], c[2]
                    if old is not None:
                        lo2, hi2 = max(lo2, old[0]), min(hi2, old[1])
                        if lo2 > hi2:
                            return None
                    by_set[rest] = (lo2, hi2)
                    changed = True
    out: list[Counter] = []
    for s, (lo, hi) in by_set.items():
        if lo == 0 and hi == len(s):
            continue
        if lo == 1 and hi == len(s):
            rows.add(s)
            continue
        out.append((s, lo, hi))
    out.sort(key=lambda c: (-len(c[0]), sorted(c[0]), c[1], c[2]))
    return tuple(out)


# ---- packed polynomials -------------------------------------------------------------------------


class _Layout:
    """Packed polynomial keys: one `width`-bit field per counter vector (strides hi+1, mixed
    radix), repeated in `blocks` blocks for the tracked count."""

    def __init__(self, los: tuple[int, ...], his: tuple[int, ...], blocks: int, width: int
                 ) -> None:
        self.los, self.his, self.width, self.blocks = los, his, width, blocks
        self.field = (1 << width) - 1
        strides = []
        size = 1
        for h in his:
            strides.append(size)
            size *= h + 1
        self.strides = tuple(strides)
        self.size = size  # fields per block
        self.rep = sum(1 << (t * size * width) for t in range(blocks))
        self.corner = sum(h * s for h, s in zip(his, strides, strict=True))
        self._boxes: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}

    def vectors(self) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Every field of one block with its counter vector."""
        for idx in range(self.size):
            vals = []
            x = idx
            for h in self.his:
                x, r = divmod(x, h + 1)
                vals.append(r)
            yield idx, tuple(vals)

    def box(self, lows: Sequence[int], highs: Sequence[int], fill: int) -> int:
        """`fill` in every field of block 0 whose vector lies within lows..highs."""
        key = (tuple(lows), tuple(highs))
        got = self._boxes.get(key) if fill == self.field else None
        if got is not None:
            return got
        m = fill
        for d, (a, b) in enumerate(zip(lows, highs, strict=True)):
            a = max(a, 0)
            b = min(b, self.his[d])
            if a > b:
                return 0
            shift = self.strides[d] * self.width
            out = 0
            for v in range(a, b + 1):
                out |= m << (v * shift)
            m = out
        if fill == self.field:
            self._boxes[key] = m
        return m

    def offset(self, vec: Sequence[int]) -> int:
        """Bit offset of a counter vector (block 0)."""
        return sum(v * s for v, s in zip(vec, self.strides, strict=True)) * self.width

    def coefficient(self, poly: int, index: int) -> int:
        """The value in field `index`."""
        return (poly >> (index * self.width)) & self.field


# ---- the chain ----------------------------------------------------------------------------------


@dataclass
class _Item:
    """A step of the chain: a group of interchangeable animals (`table` empty), or a whole
    component given as a table of counter vectors (`groups` lists its groups)."""

    members: tuple[str, ...]
    rows: int  # bit mask over the reduced rows
    dims: tuple[int, ...]  # 1 where the group belongs to the counter
    tracked: int  # 1 when the group's animals are in the tracked set
    groups: list[_Item] = field(default_factory=list)
    close: int = 0  # rows whose last group this is
    keep_sheep: int | None = None  # window mask of the k = 0 step (None: keep everything)
    fwd: list[tuple[int, int, int]] = field(default_factory=list)  # (weight, mask, shift)
    bwd: list[tuple[int, tuple[int, ...], int, int]] = field(default_factory=list)
    # (weight, per-group k-weights, mask, shift); for a group: k >= 1 only


def _bits(m: int) -> Iterator[int]:
    while m:
        b = m & -m
        yield b
        m ^= b


def _components(items: list[_Item]) -> list[list[int]]:
    """Indices of items linked through shared rows (an item in no row is alone)."""
    parent = list(range(len(items)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[int, int] = {}
    for gi, g in enumerate(items):
        for b in _bits(g.rows):
            if b in owner:
                parent[find(gi)] = find(owner[b])
            else:
                owner[b] = gi
    comps: dict[int, list[int]] = {}
    for gi in range(len(items)):
        comps.setdefault(find(gi), []).append(gi)
    return list(comps.values())


def _order(items: list[_Item], comp: list[int]) -> list[int]:
    """A greedy order of a component's groups: next comes the group after which the open rows
    (started, not finished) show the fewest distinct patterns of placed groups, since the
    DP's states at a cut are unions of those patterns; ties go to the group in most rows.
    Only groups sharing an open row are candidates while there are open rows."""
    if len(comp) <= 2:
        return list(comp)
    rows_of = [list(_bits(items[i].rows)) for i in comp]
    rowitems: dict[int, int] = {}
    for j, rl in enumerate(rows_of):
        for b in rl:
            rowitems[b] = rowitems.get(b, 0) | (1 << j)
    degree = [len(rl) for rl in rows_of]
    remaining = (1 << len(comp)) - 1
    placed = 0
    open_rows: set[int] = set()
    near = 0  # groups in open rows
    patterns: dict[int, int] = {}  # placed part of an open row -> number of such rows
    out: list[int] = []
    while remaining:
        cands = near & remaining or remaining
        best_key: tuple[int, int, int] | None = None
        best = 0
        while cands:
            cb = cands & -cands
            cands ^= cb
            j = cb.bit_length() - 1
            pf = placed | cb
            change: dict[int, int] = {}
            for b in rows_of[j]:
                im = rowitems[b]
                if b in open_rows:
                    old = im & placed
                    change[old] = change.get(old, 0) - 1
                if im & ~pf:
                    new = im & pf
                    change[new] = change.get(new, 0) + 1
            distinct = len(patterns)
            for pat, d in change.items():
                before = patterns.get(pat, 0)
                if before == 0 and d > 0:
                    distinct += 1
                elif before and before + d == 0:
                    distinct -= 1
            key = (distinct, -degree[j], j)
            if best_key is None or key < best_key:
                best_key, best = key, j
        bit = 1 << best
        for b in rows_of[best]:
            im = rowitems[b]
            if b in open_rows:
                old = im & placed
                patterns[old] -= 1
                if not patterns[old]:
                    del patterns[old]
            if im & ~(placed | bit):
                open_rows.add(b)
                new = im & (placed | bit)
                patterns[new] = patterns.get(new, 0) + 1
                near |= im
            else:
                open_rows.discard(b)
        remaining &= ~bit
        placed |= bit
        out.append(comp[best])
    return out


def _packing(rows: list[int]) -> int:
    """Size of a greedy set of pairwise disjoint rows (animal bit masks), smallest first: a
    lower bound on the wolves these rows need."""
    used = 0
    n = 0
    for r in sorted(rows, key=int.bit_count):
        if not r & used:
            used |= r
            n += 1
    return n


@dataclass(frozen=True)
class Counts:
    """The fast engine's answer: the number of consistent sets and, per animal, the number of
    consistent sets containing it; `tracked` is the (fewest, most) wolves of the tracked set
    over the consistent sets (None when not asked or when no set is consistent); `method`
    names the counting methods used."""

    count: int
    wolf_counts: dict[str, int]
    tracked: tuple[int, int] | None = None
    method: str = ""


def count_facts(animals: str, facts: Sequence[Fact], *, marginals: bool = True,
                track: Iterable[str] | None = None, method: str = "auto") -> Counts:
    """Count the wolf sets satisfying `facts`; unless `marginals` is false also per animal,
    and with `track` the range of the number of wolves among those animals."""
    if method not in METHODS:
        raise ValueError(f"unknown method {method!r} (known: {', '.join(METHODS)})")
    zero = dict.fromkeys(animals, 0)
    red = reduce_facts(animals, facts)
    if red is None:
        return Counts(0, zero)
    tracked = frozenset(track) if track is not None else None
    if red.words is not None:
        return _count_words(animals, red, tracked)
    if method in ("auto", "hit"):  # "hit" where it applies, else as "auto"
        got = _count_hitting(red, tracked, marginals, zero, method == "hit")
        if got is not None:
            return got
    return _Counter(red, tracked, marginals, method).run(zero)


def _count_hitting(red: Reduced, tracked: frozenset[str] | None, marginals: bool,
                   zero: dict[str, int], forced: bool) -> Counts | None:
    """Step 6: count by branching on the rows; None when it does not apply (another counter
    than K over every free animal, no row) or, unless `forced`, would branch too much."""
    free = red.free
    if len(red.counters) != 1 or not red.rows:
        return None
    members, lo, hi = red.counters[0]
    if members != frozenset(free):
        return None
    widest = max(len(r) for r in red.rows)
    if not forced and widest ** min(hi, len(red.rows)) > HIT_LIMIT:
        return None
    bit = {a: 1 << i for i, a in enumerate(free)}
    rows = [sum(bit[a] for a in r) for r in red.rows]
    tmask = sum(bit[a] for a in tracked if a in bit) if tracked is not None else 0
    # Per-animal counts without listing the leaves' wolf sets: a node that makes animal b a
    # wolf adds the number of sets below it to b (bit_w); a leaf's free candidates add
    # C(m-1, r-1) each (cand_w, by candidate mask), the last wolf's candidates 1 each (last_w).
    bit_w: dict[int, int] = {}  # a chosen wolf's bit -> sets through that choice
    cand_w: dict[int, int] = {}  # candidates left -> sets with each one of them a wolf
    last_w: dict[int, int] = {}  # the last wolf's candidates -> nodes with those candidates
    seen: set[tuple[int, int]] = set()  # (fewest, most) tracked wolves of some leaf

    def leaf(chosen: int, cand: int, j: int) -> int:
        m = cand.bit_count()
        sub = 0
        for k in range(max(lo, j), hi + 1):
            r = k - j
            if r > m:
                break
            sub += comb(m, r)
            if marginals and r:
                cand_w[cand] = cand_w.get(cand, 0) + comb(m - 1, r - 1)
            if tracked is not None:
                t = (chosen & tmask).bit_count()
                mt = (cand & tmask).bit_count()
                seen.add((t + max(0, r - (m - mt)), t + min(r, mt)))
        return sub

    def branch(open_rows: list[int], cand: int, chosen: int, j: int) -> int:
        """The number of sets below this node (chosen wolves, candidates left)."""
        if not open_rows:
            return leaf(chosen, cand, j)
        if j == hi:
            return 0
        if j == hi - 1:  # the last wolf: any candidate in every open row, nothing after it
            last = cand
            for r in open_rows:
                last &= r
            if not last:
                return 0
            if marginals:  # each animal of `last` is the last wolf of one set
                last_w[last] = last_w.get(last, 0) + 1
            if tracked is not None:  # the tracked wolves: the chosen ones, + 1 if b is tracked
                t = (chosen & tmask).bit_count()
                if last & tmask:
                    seen.add((t + 1, t + 1))
                if last & ~tmask:
                    seen.add((t, t))
            return last.bit_count()
        row = min((r & cand for r in open_rows), key=int.bit_count)
        sub = 0
        while row:
            b = row & -row
            row ^= b
            rest = [r for r in open_rows if not r & b]
            if rest and j == hi - 2 and tracked is None:
                # the last wolf, inline (the common case of the deepest level)
                last = cand & ~b
                for r in rest:
                    last &= r
                n = last.bit_count()
                if n and marginals:
                    last_w[last] = last_w.get(last, 0) + 1
            else:
                n = branch(rest, cand & ~b, chosen | b, j + 1)
            if n:
                sub += n
                if marginals:
                    bit_w[b] = bit_w.get(b, 0) + n
            cand &= ~b  # later branches: this animal is a sheep
        return sub

    total = branch(rows, sum(bit.values()), 0, 0)
    if not total:
        return Counts(0, zero, None, "hit")
    wolf_counts = dict(zero)
    for a in red.wolves:
        wolf_counts[a] = total
    if marginals:
        per = [0] * len(free)
        for b, w in bit_w.items():
            per[b.bit_length() - 1] += w
        for mask, w in (*cand_w.items(), *last_w.items()):
            while mask:
                b = mask & -mask
                per[b.bit_length() - 1] += w
                mask ^= b
        for a, n in zip(free, per, strict=True):
            wolf_counts[a] = n
    rng = None
    if tracked is not None:
        fixed = len(tracked & red.wolves)
        rng = (min(a for a, _ in seen) + fixed, max(b for _, b in seen) + fixed)
    return Counts(total, wolf_counts, rng, "hit")


class _Counter:
    """One count: the chain of items, the packed layout, and the two passes (steps 2-5)."""

    def __init__(self, red: Reduced, tracked: frozenset[str] | None, marginals: bool,
                 method: str) -> None:
        self.red = red
        self.marginals = marginals
        counters = red.counters
        free = red.free
        # What the tracked count needs: nothing, a counter's own dimension, or its own block.
        self.track_dim: int | None = None
        self.track_fixed = 0
        self.want_track = tracked is not None
        tfree: frozenset[str] = frozenset()
        if tracked is not None:
            self.track_fixed = len(tracked & red.wolves)
            tfree = tracked & frozenset(free)
            for d, (s, _, _) in enumerate(counters):
                if s == tfree:
                    self.track_dim = d
            if self.track_dim is not None or not tfree:
                tfree = frozenset()
        by_key: dict[tuple[int, tuple[int, ...], bool, str], list[str]] = {}
        alone = method == "animal-dp"  # one item per animal: no grouping
        for a in free:
            mask = 0
            for i, r in enumerate(red.rows):
                if a in r:
                    mask |= 1 << i
            dims = tuple(1 if a in s else 0 for s, _, _ in counters)
            by_key.setdefault((mask, dims, a in tfree, a if alone else ""), []).append(a)
        groups = [_Item(tuple(m), k[0], k[1], 1 if k[2] else 0) for k, m in by_key.items()]
        n = len(free)
        los = tuple(lo for _, lo, _ in counters)
        his = tuple(hi for _, _, hi in counters)
        self.layout = _Layout(los, his, len(tfree) + 1, n + n.bit_length() + 2)
        self.methods: set[str] = set()
        self.chain: list[_Item] = []
        for comp in sorted(_components(groups), key=lambda c: (len(c), c)):
            if method != "animal-dp" and self._enumerable(groups, comp, method):
                self.chain.append(self._table(groups, comp))
                self.methods.add("enum")
            else:
                self.chain.extend(groups[i] for i in _order(groups, comp))
                if len(comp) > 1 or groups[comp[0]].rows:
                    self.methods.add("animal-dp" if method == "animal-dp" else "dp")
        self._prepare()

    # -- planning --------------------------------------------------------------------------

    def _cap(self, members: int, dims_all: list[tuple[int, ...]]) -> int:
        """Most wolves a component can hold: counters covering all of it bound it."""
        cap = members
        for d, hi in enumerate(self.layout.his):
            if all(dims[d] for dims in dims_all):
                cap = min(cap, hi)
        return cap

    def _enumerable(self, groups: list[_Item], comp: list[int], method: str) -> bool:
        if method == "dp":
            return False
        if len(comp) == 1 and not groups[comp[0]].rows:
            return method == "enum"
        n = sum(len(groups[i].members) for i in comp)
        cap = self._cap(n, [groups[i].dims for i in comp])
        size = sum(comb(n, j) for j in range(cap + 1))
        return method == "enum" or size <= ENUM_LIMIT

    def _table(self, groups: list[_Item], comp: list[int]) -> _Item:
        """Step 5: a component as a table item (its groups in `groups`; `fwd`/`bwd` filled by
        `_prepare` from `_terms`)."""
        gs = [groups[i] for i in comp]
        rows = 0
        for g in gs:
            rows |= g.rows
        item = _Item((), rows, (), 0, gs)
        item.close = rows
        return item

    def _enumerate(self, item: _Item) -> tuple[dict[tuple[tuple[int, ...], int], int],
                                               dict[tuple[int, ...], list[int]]]:
        """Every wolf subset of a table item's groups that meets its rows and stays within the
        counters: (vector, tracked) -> number of sets, and vector -> per-group wolf counts."""
        gs = item.groups
        his = self.layout.his
        dims_n = len(his)
        # Order groups so that rows finish early, then enumerate by bit masks.
        order = _order(gs, list(range(len(gs))))
        gs = [gs[i] for i in order]
        item.groups = gs
        last: dict[int, int] = {}
        for p, g in enumerate(gs):
            for b in _bits(g.rows):
                last[b] = p
        closing = [0] * len(gs)
        for b, p in last.items():
            closing[p] |= b
        terms: dict[tuple[tuple[int, ...], int], int] = {}
        per: dict[tuple[int, ...], list[int]] = {}
        ks = [0] * len(gs)
        vec = [0] * dims_n

        def rec(p: int, hit: int, weight: int, t: int) -> None:
            if p == len(gs):
                key = tuple(vec)
                terms[(key, t)] = terms.get((key, t), 0) + weight
                row = per.get(key)
                if row is None:
                    row = per[key] = [0] * len(gs)
                for j, k in enumerate(ks):
                    if k:
                        row[j] += k * weight
                return
            g = gs[p]
            close = closing[p]
            for k in range(len(g.members) + 1):
                h = hit | g.rows if k else hit
                if h & close != close:
                    continue
                if any(vec[d] + k * g.dims[d] > his[d] for d in range(dims_n)):
                    break
                for d in range(dims_n):
                    vec[d] += k * g.dims[d]
                ks[p] = k
                rec(p + 1, h, weight * comb(len(g.members), k), t + k * g.tracked)
                for d in range(dims_n):
                    vec[d] -= k * g.dims[d]
            ks[p] = 0

        rec(0, 0, 1, 0)
        return terms, per

    def _prepare(self) -> None:
        """Closing rows, pruning windows and the masked shifts of every step."""
        chain, lay = self.chain, self.layout
        dims_n = len(lay.his)
        last: dict[int, int] = {}
        first: dict[int, int] = {}
        for p, it in enumerate(chain):
            for b in _bits(it.rows):
                last[b] = p
                first.setdefault(b, p)
        for b, p in last.items():
            if not chain[p].groups:
                chain[p].close |= b
        # Remaining members per counter after each cut, and a packing bound of the rows that
        # lie wholly after it (only for counters holding those rows).
        free_bit = {a: 1 << i for i, a in enumerate(self.red.free)}
        row_bits = [sum(free_bit[a] for a in r) for r in self.red.rows]
        cnt_bits = [sum(free_bit[a] for a in s) for s, _, _ in self.red.counters]
        rem = [[0] * dims_n for _ in range(len(chain) + 1)]
        lb = [[0] * dims_n for _ in range(len(chain) + 1)]
        suffix: list[int] = []
        starts: dict[int, list[int]] = {}
        for b, p in first.items():
            starts.setdefault(p, []).append(row_bits[b.bit_length() - 1])
        for p in range(len(chain) - 1, -1, -1):
            it = chain[p]
            members = [g for g in it.groups] if it.groups else [it]
            rem[p] = list(rem[p + 1])
            for g in members:
                for d in range(dims_n):
                    rem[p][d] += len(g.members) * g.dims[d]
            suffix.extend(starts.get(p, ()))
            for d in range(dims_n):
                inside = [r for r in suffix if r & ~cnt_bits[d] == 0]
                lb[p][d] = _packing(inside) if inside else 0
        self.ok = all(lay.los[d] <= rem[0][d] for d in range(dims_n))
        rep, full = lay.rep, lay.field
        for p, it in enumerate(chain):
            lows = [lo - r for lo, r in zip(lay.los, rem[p + 1], strict=True)]
            highs = [h - b for h, b in zip(lay.his, lb[p + 1], strict=True)]
            if it.groups:
                self._prepare_table(it, lows, highs)
                continue
            size = len(it.members)
            whole = lay.box([0] * dims_n, lay.his, full)
            sheep = lay.box(lows, highs, full)
            it.keep_sheep = None if sheep == whole else sheep * rep
            for k in range(1, size + 1):
                vec = [k * d for d in it.dims]
                if any(v > h for v, h in zip(vec, lay.his, strict=True)):
                    break
                shifted_lows = [a - v for a, v in zip(lows, vec, strict=True)]
                shifted_highs = [b - v for b, v in zip(highs, vec, strict=True)]
                window = lay.box(shifted_lows, shifted_highs, full) * rep
                pre = lay.box([0] * dims_n, [h - v for h, v in zip(lay.his, vec, strict=True)],
                              full)
                off = lay.offset(vec)
                w = comb(size, k)
                it.fwd.append((w, window, off + k * it.tracked * lay.size * lay.width))
                it.bwd.append((w, (k * w,), pre, off))

    def _prepare_table(self, it: _Item, lows: list[int], highs: list[int]) -> None:
        lay = self.layout
        dims_n = len(lay.his)
        terms, per = self._enumerate(it)
        for (vec, t), w in sorted(terms.items()):
            window = lay.box([a - v for a, v in zip(lows, vec, strict=True)],
                             [b - v for b, v in zip(highs, vec, strict=True)], lay.field)
            it.fwd.append((w, window * lay.rep, lay.offset(vec) + t * lay.size * lay.width))
        for vec, kw in sorted(per.items()):
            w = sum(c for (v, _), c in terms.items() if v == vec)
            pre = lay.box([0] * dims_n, [h - v for h, v in zip(lay.his, vec, strict=True)],
                          lay.field)
            it.bwd.append((w, tuple(kw), pre, lay.offset(vec)))

    # -- the passes ----------------------------------------------------------------------------

    def run(self, zero: dict[str, int]) -> Counts:
        red, lay = self.red, self.layout
        method = "+".join(sorted(self.methods)) or "closed form"
        if not self.ok:
            return Counts(0, zero, None, method)
        history = self._forward()
        if history is None:
            return Counts(0, zero, None, method)
        final = history[-1].get(0, 0)
        # Count per tracked value, over the counter vectors within bounds.
        valid = [(idx, vec) for idx, vec in lay.vectors()
                 if all(lo <= v <= hi for v, lo, hi in zip(vec, lay.los, lay.his, strict=True))]
        per_t: dict[int, int] = {}
        for t in range(lay.blocks):
            for idx, vec in valid:
                c = lay.coefficient(final, idx + t * lay.size)
                if c:
                    key = vec[self.track_dim] if self.track_dim is not None else t
                    per_t[key] = per_t.get(key, 0) + c
        count = sum(per_t.values())
        if not count:
            return Counts(0, zero, None, method)
        tracked = None
        if self.want_track:
            tracked = (min(per_t) + self.track_fixed, max(per_t) + self.track_fixed)
        wolf_counts = dict(zero)
        for a in red.wolves:
            wolf_counts[a] = count
        if self.marginals:
            self._backward(history, wolf_counts, count)
        return Counts(count, wolf_counts, tracked, method)

    def _forward(self) -> list[dict[int, int]] | None:
        """States before each step (and after the last): open-row mask -> packed counts."""
        states: dict[int, int] = {0: 1}
        history = []
        for it in self.chain:
            history.append(states)
            new: dict[int, int] = {}
            if it.groups:
                f = states.get(0, 0)
                acc = 0
                for w, mask, off in it.fwd:
                    v = f & mask
                    if v:
                        acc += (v << off) * w
                if acc:
                    new[0] = acc
            else:
                new = _step(states, it)
            if not new:
                return None
            states = new
        history.append(states)
        return history

    def _backward(self, history: list[dict[int, int]], wolf_counts: dict[str, int],
                  count: int) -> None:
        """Completions of every state, in reversed counter order (the boundary is 1 on every
        vector within bounds); each step's wolf part times the forward value, at the corner
        field, is the number of consistent sets with that step's wolves."""
        lay = self.layout
        dims_n = len(lay.his)
        one = lay.box([0] * dims_n, [h - lo for h, lo in zip(lay.his, lay.los, strict=True)], 1)
        corners = [lay.corner + t * lay.size for t in range(lay.blocks)]
        after: dict[int, int] = {0: one}
        for p in range(len(self.chain) - 1, -1, -1):
            it = self.chain[p]
            before: dict[int, int] = {}
            if it.groups:
                g = after.get(0, 0)
                f = history[p].get(0, 0)
                acc = 0
                marks = [0] * len(it.groups)
                for w, kws, pre, off in it.bwd:
                    v = g & pre
                    if v:
                        v <<= off
                        acc += v * w
                        for j, kw in enumerate(kws):
                            if kw:
                                marks[j] += v * kw
                if acc:
                    before[0] = acc
                for grp, mark in zip(it.groups, marks, strict=True):
                    self._set(grp, f * mark, corners, wolf_counts)
            else:
                before, total = _step_back(history[p], after, it)
                self._set(it, total, corners, wolf_counts)
            after = before
        assert lay.coefficient(after.get(0, 0), lay.corner) == count, "passes disagree"

    def _set(self, group: _Item, mark: int, corners: list[int],
             wolf_counts: dict[str, int]) -> None:
        lay = self.layout
        total = sum(lay.coefficient(mark, c) for c in corners)
        per, rest = divmod(total, len(group.members))
        assert rest == 0, "interchangeable animals must share the count"
        for a in group.members:
            wolf_counts[a] = per


def _step(states: dict[int, int], it: _Item) -> dict[int, int]:
    """One forward step over a group: each state without and with the group's wolves."""
    m, close, fwd, keep_sheep = it.rows, it.close, it.fwd, it.keep_sheep
    keep = ~close
    new: dict[int, int] = {}
    get = new.get
    if len(fwd) == 1:  # a single animal (or one possible k): no inner loop
        w, mask, off = fwd[0]
        for s, f in states.items():
            if s & close == close:
                v = f if keep_sheep is None else f & keep_sheep
                if v:
                    ns = s & keep
                    new[ns] = get(ns, 0) + v
            t = s | m
            if t & close == close:
                v = f & mask
                if v:
                    nt = t & keep
                    new[nt] = get(nt, 0) + (v << off) * w
        return new
    for s, f in states.items():
        if s & close == close:
            v = f if keep_sheep is None else f & keep_sheep
            if v:
                ns = s & keep
                new[ns] = get(ns, 0) + v
        t = s | m
        if t & close == close:
            acc = 0
            for w, mask, off in fwd:
                v = f & mask
                if v:
                    acc += (v << off) * w
            if acc:
                nt = t & keep
                new[nt] = get(nt, 0) + acc
    return new


def _step_back(states: dict[int, int], after: dict[int, int], it: _Item
               ) -> tuple[dict[int, int], int]:
    """One backward step over a group: the completions of each forward state, and the sum of
    forward value times k-weighted wolf part over the states. Both wolf parts depend only on
    the state the wolves lead to, so they are computed once per such state, and the forward
    values going there are added up before one product."""
    m, close, bwd = it.rows, it.close, it.bwd
    keep = ~close
    before: dict[int, int] = {}
    get = after.get
    parts: dict[int, tuple[int, int]] = {}  # target -> (wolf part, k-weighted wolf part)
    sums: dict[int, int] = {}  # target -> sum of the forward values leading there
    for s, f in states.items():
        acc = 0
        if s & close == close:
            g = get(s & keep)
            if g:
                acc = g
        t = s | m
        if t & close == close:
            nt = t & keep
            part = parts.get(nt)
            if part is None:
                ws = ks = 0
                g = get(nt)
                if g:
                    for w, kws, pre, off in bwd:
                        v = g & pre
                        if v:
                            v <<= off
                            ws += v * w
                            ks += v * kws[0]
                part = parts[nt] = (ws, ks)
            if part[0]:
                acc += part[0]
                sums[nt] = sums.get(nt, 0) + f
        if acc:
            before[s] = acc
    total = 0
    for nt, fsum in sums.items():
        total += fsum * parts[nt][1]
    return before, total


def _count_words(animals: str, red: Reduced, tracked: frozenset[str] | None) -> Counts:
    """Dictionary fallback: check every word of the list against the other facts."""
    assert red.words is not None
    wolf_counts = dict.fromkeys(animals, 0)
    count = 0
    seen: set[int] = set()
    for w in red.words:
        if all(f.holds(w) for f in red.others):
            count += 1
            for a in w:
                wolf_counts[a] += 1
            if tracked is not None:
                seen.add(len(w & tracked))
    rng = (min(seen), max(seen)) if seen else None
    return Counts(count, wolf_counts, rng, "words")


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
