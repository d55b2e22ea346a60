"""Compiled (numba) loops of the exact Concentration solver (fleece.solver.cards.concentration).

A position is a multiset of kinds, each kind (r cards left, s of them known); kinds with equal
(r, s) are interchangeable. A kind's (r, s) is a *code*: 0 is a kind gone from the table,
then r = 2, 4, ... and, within r, s from r down to 0, so that every change a turn makes to a
kind (one more card known; a pair taken) lowers its code. A position is the non-increasing
sequence of its kinds' codes, one per kind of the deck, and positions are numbered in
lexicographic order of these sequences (`rank`): a position's successors always have lower
numbers, so one pass in increasing rank order solves every position after its successors.
The rank of a sequence a is sum_k T[k, a[k]] (T from `concentration.Space`); a position is
held as runs (code, multiplicity, first index), and a successor's rank is the parent's plus a
delta over the runs the moved kind passes (`move_delta`).

Values are exact integers: F = U! * value (U = cards never seen; every probability of a turn
has a denominator dividing U(U-1)), stored as L little-endian 32-bit limbs (the top limb signed:
two-player values can be negative) and added up in int64 limbs, carried once per sum.

Solitaire: F = U! + min over choices (a known pair taken: U! + F(next)). Two players: G = max
over choices; a turn that matches adds a pair and the mover goes on, a miss hands the turn over
(-G(next)); the pass (two known cards of different kinds) makes G = max(G, 0). The choices of
a turn (docs/rules.md K4): take a known pair; flip a card never seen, then (a) a known card of its
kind (the pair), (b) another card never seen, or (c) a known card of another kind. Flipping a
known card first and then an unseen card is (c) or (a) by another name (the same outcomes with
the same probabilities), so it is never better and is left out here; the library lists it.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

import numba
import numpy as np

F = TypeVar("F")


def njit(func: F) -> F:
    """numba.njit with an on-disk cache, typed for mypy."""
    return cast(F, numba.njit(cache=True, nogil=True)(func))


LIMB_BITS = 32
LIMB = 1 << 32
HALF = 1 << 31

# second-card choices after a card never seen (2 bits each in a policy word)
MATCH, UNSEEN, KNOWN = 0, 1, 2
# top-level choices (6 bits): a card never seen first, the pass, or a known pair (2 + run)
TOP_NEW, TOP_PASS, TOP_PAIR = 0, 1, 2


@njit
def runs_of(a: Any, kinds: int, rc: Any, rm: Any, rp: Any) -> int:
    """The runs of a non-increasing code sequence (codes > 0 only): code, multiplicity, first
    index; returns their number."""
    n = 0
    k = 0
    while k < kinds and a[k] != 0:
        c = a[k]
        if n > 0 and rc[n - 1] == c:
            rm[n - 1] += 1
        else:
            rc[n] = c
            rm[n] = 1
            rp[n] = k
            n += 1
        k += 1
    return n


@njit
def move_delta(rc: Any, rm: Any, rp: Any, n: int, tt: Any, t: int, c_to: int) -> int:
    """The rank change when one kind of run t takes the lower code c_to."""
    last = rp[t] + rm[t] - 1
    d: int = -tt[last, rc[t]]
    i = t + 1
    while i < n and rc[i] > c_to:
        d += tt[rp[i] - 1, rc[i]] - tt[rp[i] + rm[i] - 1, rc[i]]
        i += 1
    if c_to > 0:
        end = rp[i] if i < n else rp[n - 1] + rm[n - 1]
        d += tt[end - 1, c_to]
    return d


@njit
def successor(a: Any, kinds: int, bound: Any) -> None:
    """The next sequence in lexicographic order (in place)."""
    k = kinds - 1
    while k >= 0:
        cap = bound[k] if k == 0 else min(a[k - 1], bound[k])
        if a[k] < cap:
            a[k] += 1
            for j in range(k + 1, kinds):
                a[j] = 0
            return
        k -= 1


@njit
def predecessor(a: Any, kinds: int, bound: Any) -> None:
    """The previous sequence in lexicographic order (in place)."""
    k = kinds - 1
    while k >= 0 and a[k] == 0:
        k -= 1
    if k < 0:
        return
    a[k] -= 1
    for j in range(k + 1, kinds):
        a[j] = min(a[j - 1], bound[j])


# ---- exact limbs ----------------------------------------------------------------------
# Work vectors are rows of one int64 matrix `w` (no array views in the loops: numba counts
# references to every view, which costs more than the arithmetic).

BEST, NAT, TOTAL, NTOT, ACC, CAND = 0, 1, 2, 3, 4, 5  # rows of w; then 3 a run, then pairs


@njit
def add_val(w: Any, dst: int, vals: Any, row: int, nl: int, k: int) -> None:
    """w[dst] += k * value[row] (no carry)."""
    for j in range(nl - 1):
        w[dst, j] += k * np.int64(vals[row, j])
    top = np.int64(vals[row, nl - 1])
    if top >= HALF:
        top -= LIMB
    w[dst, nl - 1] += k * top


@njit
def add_from(w: Any, dst: int, src: Any, row: int, nl: int, k: int) -> None:
    """w[dst] += k * src[row] (no carry)."""
    for j in range(nl):
        w[dst, j] += k * src[row, j]


@njit
def carry(w: Any, dst: int, nl: int) -> None:
    """Normalise w[dst]: limbs 0..nl-2 in [0, 2^32), the top limb signed."""
    for j in range(nl - 1):
        c = w[dst, j] >> LIMB_BITS
        w[dst, j] -= c << LIMB_BITS
        w[dst, j + 1] += c


@njit
def compare(w: Any, a: int, b: int, nl: int) -> int:
    """-1, 0, 1 as w[a] <, ==, > w[b] (both normalised)."""
    for j in range(nl - 1, -1, -1):
        if w[a, j] != w[b, j]:
            return -1 if w[a, j] < w[b, j] else 1
    return 0


@njit
def better(w: Any, a: int, b: int, nl: int, duel: bool) -> bool:
    """w[a] strictly better than w[b] for the mover (fewer turns; more pairs)."""
    c = compare(w, a, b, nl)
    return c > 0 if duel else c < 0


@njit
def clear(w: Any, dst: int, nl: int) -> None:
    """w[dst] = 0."""
    for j in range(nl):
        w[dst, j] = 0


@njit
def copy_row(w: Any, dst: int, src: int, nl: int) -> None:
    """w[dst] = w[src]."""
    for j in range(nl):
        w[dst, j] = w[src, j]


@njit
def store(vals: Any, row: int, w: Any, src: int, nl: int) -> None:
    """value[row] = w[src] (normalised, nl limbs; the row's further limbs sign-extend)."""
    for j in range(nl):
        vals[row, j] = np.uint32(w[src, j] & 0xFFFFFFFF)
    fill = np.uint32(0xFFFFFFFF) if w[src, nl - 1] < 0 else np.uint32(0)
    for j in range(nl, vals.shape[1]):
        vals[row, j] = fill


# ---- one position ---------------------------------------------------------------------


@njit
def evaluate(rank: int, rc: Any, rm: Any, rp: Any, n: int, tt: Any, code_s: Any,
             code_u: Any, inc: Any, nn: Any, nk: Any, kk: Any, fact: Any, vals: Any,
             limbs: Any, duel: bool, natural: bool, w: Any, ok: Any, prk: Any, inc_rk: Any,
             second: Any) -> tuple[int, int, bool]:
    """The value of the position (runs rc, rm, rp; number `rank`) from its successors'
    values, into w[BEST] (normalised, limbs[U] limbs). Every choice's value goes to a row of
    w: after a first card of run t, w[CAND + 3t + MATCH, UNSEEN or KNOWN] (scaled by (U-1)!);
    the known pair of run t, w[CAND + 3n + t] (scaled by U!); `ok` says which exist. The
    second choice per run goes to `second`. Returns (limbs used, top choice, whether the
    natural rule's choice is optimal here); with `natural`, the value is the natural rule's
    (its choices, successors valued by it) instead of the optimum."""
    unseen = 0
    known_kinds = 0
    for i in range(n):
        unseen += rm[i] * code_u[rc[i]]
        if code_s[rc[i]] >= 1:
            known_kinds += rm[i]
    nl = limbs[unseen]  # the limbs values up to U! * bound need
    pair0 = CAND + 3 * n
    for i in range(4 * n):
        ok[i] = False
    for t in range(n):
        second[t] = UNSEEN
    # one more card known of a kind: (r, s + 1) is the code just below (r, s), so the kind
    # keeps its place in the sequence and only its own term of the rank changes; two such
    # changes (two kinds) add up (prk[t, t2]; t2 == t: two kinds of run t)
    if unseen >= 1:
        for t in range(n):
            c = rc[t]
            if code_u[c] >= 1:
                last = rp[t] + rm[t] - 1
                inc_rk[t] = tt[last, c - 1] - tt[last, c]
                if rm[t] >= 2:
                    prk[t, t] = rank + inc_rk[t] + tt[last - 1, c - 1] - tt[last - 1, c]
        for t in range(n):
            if code_u[rc[t]] >= 1:
                for t2 in range(t + 1, n):
                    if code_u[rc[t2]] >= 1:
                        prk[t, t2] = rank + inc_rk[t] + inc_rk[t2]
                        prk[t2, t] = prk[t, t2]
        for t in range(n):
            inc_rk[t] += rank
    has_pairs = False
    for t in range(n):
        if code_s[rc[t]] >= 2:
            has_pairs = True
    clear(w, TOTAL, nl)
    clear(w, NTOT, nl)
    for t in range(n):
        c = rc[t]
        u = code_u[c]
        if u < 1:
            continue
        s = code_s[c]
        base = CAND + 3 * t
        if s >= 1:  # (a) the known partner: a pair
            r1 = rank + move_delta(rc, rm, rp, n, tt, t, nk[c])
            clear(w, base + MATCH, nl)
            add_val(w, base + MATCH, vals, r1, nl, 1)
            if duel:
                add_from(w, base + MATCH, fact, unseen - 1, nl, 1)
            carry(w, base + MATCH, nl)
            ok[base + MATCH - CAND] = True
        if known_kinds - (1 if s >= 1 else 0) >= 1:  # (c) a known card of another kind
            clear(w, base + KNOWN, nl)
            add_val(w, base + KNOWN, vals, inc_rk[t], nl, -1 if duel else 1)
            carry(w, base + KNOWN, nl)
            ok[base + KNOWN - CAND] = True
        if unseen >= 2:  # (b) another card never seen
            d = base + UNSEEN
            clear(w, d, nl)
            if u >= 2:  # of the same kind: a pair
                r1 = rank + move_delta(rc, rm, rp, n, tt, t, nn[c])
                add_val(w, d, vals, r1, nl, u - 1)
                if duel:
                    add_from(w, d, fact, unseen - 2, nl, u - 1)
            sign = -1 if duel else 1
            for t2 in range(n):
                u2 = code_u[rc[t2]]
                if u2 < 1:
                    continue
                k = (rm[t2] - 1) * u2 if t2 == t else rm[t2] * u2
                if k > 0:
                    add_val(w, d, vals, prk[t, t2], nl, sign * k)
            carry(w, d, nl)
            ok[d - CAND] = True
        # the best second card; ties go to the partner, then a card never seen
        pick = -1
        for choice in range(3):
            if ok[base + choice - CAND] and (pick < 0 or better(w, base + choice, base + pick,
                                                                nl, duel)):
                pick = choice
        natural_pick = MATCH if s >= 1 else (UNSEEN if unseen >= 2 else KNOWN)
        if natural:
            pick = natural_pick
        second[t] = pick
        add_from(w, TOTAL, w, base + pick, nl, rm[t] * u)
        add_from(w, NTOT, w, base + natural_pick, nl, rm[t] * u)
    if unseen >= 1:
        if not duel:
            add_from(w, TOTAL, fact, unseen, nl, 1)
            add_from(w, NTOT, fact, unseen, nl, 1)
        carry(w, TOTAL, nl)
        carry(w, NTOT, nl)
    # known pairs taken
    first_pair = -1
    for t in range(n):
        if code_s[rc[t]] >= 2:
            r1 = rank + move_delta(rc, rm, rp, n, tt, t, kk[rc[t]])
            clear(w, pair0 + t, nl)
            add_val(w, pair0 + t, vals, r1, nl, 1)
            add_from(w, pair0 + t, fact, unseen, nl, 1)
            carry(w, pair0 + t, nl)
            ok[pair0 + t - CAND] = True
            if first_pair < 0:
                first_pair = t
    # the optimum; ties go to the natural rule's choice
    top = -1
    if unseen >= 1:
        copy_row(w, BEST, TOTAL, nl)
        top = TOP_NEW
    if has_pairs:
        if natural:
            copy_row(w, BEST, pair0 + first_pair, nl)
            top = TOP_PAIR + first_pair
        else:
            for t in range(n):
                if ok[pair0 + t - CAND] and (
                        top < 0 or better(w, pair0 + t, BEST, nl, duel)
                        or (top == TOP_NEW and compare(w, pair0 + t, BEST, nl) == 0)):
                    copy_row(w, BEST, pair0 + t, nl)
                    top = TOP_PAIR + t
    # the natural rule: a known pair if any, else a new card, its partner or another new card
    natural_ok = False
    if has_pairs:
        for t in range(n):
            if ok[pair0 + t - CAND] and compare(w, pair0 + t, BEST, nl) == 0:
                natural_ok = True
    else:
        natural_ok = compare(w, NTOT, BEST, nl) == 0
    if natural and not has_pairs:
        copy_row(w, BEST, NTOT, nl)
    if duel and not natural and known_kinds >= 2 and w[BEST, nl - 1] < 0:
        clear(w, BEST, nl)
        top = TOP_PASS
        natural_ok = False
    return nl, top, natural_ok


@njit
def solve_range(lo: int, hi: int, a: Any, kinds: int, bound: Any, tt: Any, code_s: Any,
                code_u: Any, inc: Any, nn: Any, nk: Any, kk: Any, fact: Any, vals: Any,
                limbs: Any, policy: Any, slots: int, duel: bool, natural: bool) -> int:
    """Solve positions lo..hi-1 (their successors solved); `a` holds position lo's sequence
    and is left at position hi's. Returns the number of positions where the natural rule's
    choice is not optimal."""
    nl = vals.shape[1]
    nmax = kinds + 2
    rc = np.zeros(nmax, np.int64)
    rm = np.zeros(nmax, np.int64)
    rp = np.zeros(nmax, np.int64)
    w = np.zeros((CAND + 4 * nmax, nl), np.int64)
    ok = np.zeros(4 * nmax, np.bool_)
    prk = np.zeros((nmax, nmax), np.int64)
    inc_rk = np.zeros(nmax, np.int64)
    second = np.zeros(nmax, np.int64)
    departures = 0
    empty_word = 1 << (2 * slots + 6)
    for rank in range(lo, hi):
        n = runs_of(a, kinds, rc, rm, rp)
        if n == 0:
            clear(w, BEST, nl)
            store(vals, rank, w, BEST, nl)
            policy[rank] = empty_word
            successor(a, kinds, bound)
            continue
        used, top, natural_ok = evaluate(rank, rc, rm, rp, n, tt, code_s, code_u, inc, nn, nk,
                                         kk, fact, vals, limbs, duel, natural, w, ok, prk,
                                         inc_rk, second)
        store(vals, rank, w, BEST, used)
        word = 0
        for t in range(min(n, slots)):
            word |= second[t] << (2 * t)
        word |= top << (2 * slots)
        if natural_ok:
            word |= empty_word
        else:
            departures += 1
        policy[rank] = word
        successor(a, kinds, bound)
    return departures


@njit
def propagate_range(hi: int, lo: int, a: Any, kinds: int, bound: Any, tt: Any, code_u: Any,
                    inc: Any, nn: Any, nk: Any, kk: Any, policy: Any, slots: int,
                    p_all: Any, p_clean: Any, out: Any) -> None:
    """Forward pass over positions hi-1 down to lo (`a` holds position hi-1's sequence and is
    left at position lo-1's): the probability of reaching each position under the policy
    (`p_all`), and before any position where the natural rule is not optimal (`p_clean`).
    out[0] += reachable positions, out[1] += reachable departures, out[2] += the probability
    of meeting a departure, out[3] += the probability of a stalemate (both players pass)."""
    nmax = kinds + 2
    rc = np.zeros(nmax, np.int64)
    rm = np.zeros(nmax, np.int64)
    rp = np.zeros(nmax, np.int64)
    mask = (1 << (2 * slots + 6)) - 1
    for rank in range(hi - 1, lo - 1, -1):
        pa = p_all[rank]
        if pa > 0.0:
            out[0] += 1.0
            word = int(policy[rank])  # numba: int64 (a uint64 would mix badly with int64)
            pc = p_clean[rank]
            if not (word >> (2 * slots + 6)) & 1:
                out[1] += 1.0
                out[2] += pc
                pc = 0.0
            n = runs_of(a, kinds, rc, rm, rp)
            top = (word & mask) >> (2 * slots)
            unseen = 0
            for i in range(n):
                unseen += rm[i] * code_u[rc[i]]
            if n > 0 and top == TOP_PASS:
                out[3] += pa
            elif n > 0 and top >= TOP_PAIR:
                t = top - TOP_PAIR
                r1 = rank + move_delta(rc, rm, rp, n, tt, t, kk[rc[t]])
                p_all[r1] += pa
                p_clean[r1] += pc
            elif n > 0:
                for t in range(n):
                    c = rc[t]
                    u = code_u[c]
                    if u < 1:
                        continue
                    p1 = rm[t] * u / unseen
                    sec = (word >> (2 * t)) & 3 if t < slots else UNSEEN
                    if sec == MATCH:
                        r1 = rank + move_delta(rc, rm, rp, n, tt, t, nk[c])
                        p_all[r1] += pa * p1
                        p_clean[r1] += pc * p1
                    elif sec == KNOWN:
                        r1 = rank + move_delta(rc, rm, rp, n, tt, t, inc[c])
                        p_all[r1] += pa * p1
                        p_clean[r1] += pc * p1
                    else:
                        last = rp[t] + rm[t] - 1
                        d1 = tt[last, c - 1] - tt[last, c]
                        if u >= 2:
                            r1 = rank + move_delta(rc, rm, rp, n, tt, t, nn[c])
                            p2 = (u - 1) / (unseen - 1)
                            p_all[r1] += pa * p1 * p2
                            p_clean[r1] += pc * p1 * p2
                        for t2 in range(n):
                            c2 = rc[t2]
                            u2 = code_u[c2]
                            k = (rm[t2] - 1) * u2 if t2 == t else rm[t2] * u2
                            if u2 < 1 or k <= 0:
                                continue
                            if t2 == t:
                                r1 = rank + d1 + tt[last - 1, c - 1] - tt[last - 1, c]
                            else:
                                l2 = rp[t2] + rm[t2] - 1
                                r1 = rank + d1 + tt[l2, c2 - 1] - tt[l2, c2]
                            p2 = k / (unseen - 1)
                            p_all[r1] += pa * p1 * p2
                            p_clean[r1] += pc * p1 * p2
        predecessor(a, kinds, bound)
