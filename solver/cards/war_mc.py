"""War (K1-K2) by seeded Monte Carlo, vectorised with numpy: thousands of games advance one
battle per step, each in a circular pile buffer.

Cycle detection for the fixed orders is exact: Brent's method compares the pile pair after
each battle with a snapshot taken after battle 0, 1, 2, 4, 8, ...; a 64-bit polynomial hash of
each pile (kept up to date as cards leave the top and join the bottom) filters the comparisons,
and every hash match is confirmed card by card against the snapshot. The first repeat of the
snapshot gives the cycle's period exactly. With the random order a repeated pile pair is no
cycle; games run until they end or reach the battle limit (counted as cut, never looped).

Deals and random return orders come from numpy generators spawned from the seed, deals in game
order, so the same seed and number of games give the same results.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fleece.rules.cards.deck import Deck
from fleece.rules.cards.war import Order, Runout
from fleece.solver.cards.stats import Mean, Proportion

A_WINS, B_WINS, DRAW, CYCLE, CUT = 0, 1, 2, 3, 4
DEFAULT_LIMIT = 100_000
SLOTS = 8192
_X = np.uint64(0x9E3779B97F4A7C15)  # odd, so invertible modulo 2**64
_XINV = np.uint64(pow(int(_X), -1, 2**64))

Int = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
Progress = Callable[[int], None]


@dataclass(frozen=True)
class MonteCarloWar:
    """Estimates from `games` seeded games: outcome counts with 95% intervals, the mean length
    of the games that end, cycle periods, the games cut at the limit, and the first cycling
    game's deal."""

    deck: Deck
    order: Order
    runout: Runout
    games: int
    seed: int
    limit: int
    counts: tuple[int, int, int, int, int]  # A, B, draw, cycle, cut
    battles: Mean  # of the games that ended
    longest: int
    periods: Mean  # of the cycling games
    cycle_example: tuple[tuple[int, ...], int] | None  # (deal, period)

    def to_json(self) -> dict[str, object]:
        """The JSON result: `a_wins`, `b_wins`, `draws`, `cycles`, `cut` as counts with
        fractions and 95% intervals; `mean_battles`; the seed."""
        n = self.games
        names = ("a_wins", "b_wins", "draws", "cycles", "cut")
        out: dict[str, object] = {
            "method": "monte-carlo", "deck": self.deck.spec(), "order": self.order.value,
            "runout": self.runout.value, "games": n, "seed": self.seed,
            "battle_limit": self.limit,
        }
        for name, k in zip(names, self.counts, strict=True):
            out[name] = Proportion(k, n).to_json()
        out["mean_battles"] = self.battles.to_json()
        out["longest"] = self.longest
        out["cycle_period"] = self.periods.to_json()
        out["cycle_example"] = None if self.cycle_example is None else {
            "deal": self.deck.text(self.cycle_example[0]), "period": self.cycle_example[1]}
        return out


def simulate(deck: Deck, order: Order, games: int, seed: int, *,
             runout: Runout = Runout.LOSE, limit: int = DEFAULT_LIMIT, slots: int = SLOTS,
             progress: Progress | None = None) -> MonteCarloWar:
    """Play `games` random deals (numpy); see the module docs."""
    sim = _Sim(deck, order, runout, games, seed, limit, min(slots, max(1, games)))
    sim.run(progress)
    outcome, battles, period = sim.outcome, sim.battles_of, sim.period
    counts = tuple(int(np.count_nonzero(outcome == k)) for k in range(5))
    ended = battles[outcome <= DRAW].astype(np.float64)
    cyc = period[outcome == CYCLE].astype(np.float64)
    example = None
    if sim.cycle_deals:
        g = min(sim.cycle_deals)
        example = (tuple(int(c) for c in sim.deal_of(g)), int(period[g]))
    return MonteCarloWar(
        deck, order, runout, games, seed, limit,
        (counts[0], counts[1], counts[2], counts[3], counts[4]),
        Mean(len(ended), float(ended.sum()), float((ended * ended).sum())),
        int(battles[outcome <= DRAW].max()) if len(ended) else 0,
        Mean(len(cyc), float(cyc.sum()), float((cyc * cyc).sum())), example)


class _Sim:
    """The vectorised simulation state (see `simulate`). Slot s holds one game; player p's
    pile is a circular buffer at pile[s, p * n ...] with head h and size z per player. Every
    step updates all slots with whole-array operations (masked where a slot is idle or at
    war); wars are resolved on the subset at war; finished slots take the next deal, and
    the arrays shrink once most slots are idle."""

    def __init__(self, deck: Deck, order: Order, runout: Runout, games: int, seed: int,
                 limit: int, slots: int) -> None:
        self.n = n = deck.size
        self.L = 1 << max(1, (n - 1).bit_length())  # buffer length: a power of two >= n
        self.mask = self.L - 1
        self.half = (n + 1) // 2
        self.order, self.runout, self.games, self.limit = order, runout, games, limit
        self.cards = np.array(deck.cards(), dtype=np.int16)
        deal_seq, order_seq = np.random.SeedSequence(seed).spawn(2)
        self.order_rng = np.random.default_rng(order_seq)
        self.deal_rng = np.random.default_rng(deal_seq)
        self.chunk = np.zeros((0, n), dtype=np.int16)  # deals not yet started, in order
        self.saved: npt.NDArray[np.int16] | None = None  # tests may fix every deal
        self.cycle_deals: dict[int, npt.NDArray[np.int16]] = {}
        self.fixed = order is not Order.RANDOM
        self.pw = self._powers(int(_X), 2 * n + 2)
        self.ipw = self._powers(int(_XINV), 2 * n + 2)
        self.outcome = np.full(games, -1, dtype=np.int8)
        self.battles_of = np.zeros(games, dtype=np.int64)
        self.period = np.zeros(games, dtype=np.int64)
        self.started = 0
        self.finished = 0
        self._alloc(slots)

    def _alloc(self, slots: int) -> None:
        L = self.L
        self.S = slots
        self.pile = np.zeros(slots * 2 * L + 1, dtype=np.int16)  # + one scratch cell
        self.scratch = slots * 2 * L
        self.base_a = np.arange(slots, dtype=np.int64) * (2 * L)
        self.base_b = self.base_a + L
        z = np.zeros(slots, dtype=np.int64)
        self.ha, self.hb, self.za, self.zb = z.copy(), z.copy(), z.copy(), z.copy()
        self.count, self.snap_za, self.snap_at = z.copy(), z.copy(), z.copy()
        self.next_snap = np.ones(slots, dtype=np.int64)
        self.game = np.full(slots, -1, dtype=np.int64)
        self.active = np.zeros(slots, dtype=bool)
        u = np.zeros(slots, dtype=np.uint64)
        self.hash_a, self.hash_b, self.snap_a, self.snap_b = u.copy(), u.copy(), u.copy(), u.copy()
        self.snap_cards = np.zeros((slots, self.n), dtype=np.int16)
        self.slot_deal = np.zeros((slots, self.n), dtype=np.int16)

    def _compact(self) -> None:
        """Keep only the active slots (copying their state into smaller arrays)."""
        keep = np.nonzero(self.active)[0]
        old = {name: getattr(self, name) for name in (
            "ha", "hb", "za", "zb", "count", "snap_za", "snap_at", "next_snap", "game",
            "hash_a", "hash_b", "snap_a", "snap_b", "snap_cards", "slot_deal")}
        piles = self.pile[:-1].reshape(self.S, 2 * self.L)[keep]
        self._alloc(len(keep))
        for name, arr in old.items():
            getattr(self, name)[...] = arr[keep]
        self.pile[:-1] = piles.reshape(-1)
        self.active[...] = True

    @staticmethod
    def _powers(x: int, k: int) -> U64:
        out = [1]
        for _ in range(k):
            out.append(out[-1] * x % 2**64)
        return np.array(out, dtype=np.uint64)

    def deal_of(self, g: int) -> npt.NDArray[np.int16]:
        """The deal of cycling game g, top card first (kept when the game cycled)."""
        return self.cycle_deals[g]

    def _deals(self, k: int) -> npt.NDArray[np.int16]:
        """The next k deals in game order: drawn in chunks, so memory stays small."""
        if self.saved is not None:
            out: npt.NDArray[np.int16] = self.saved[self.started:self.started + k]
            return out
        while len(self.chunk) < k:
            m = max(k, min(65536, self.games))
            fresh = self.deal_rng.permuted(np.tile(self.cards, (m, 1)), axis=1)
            self.chunk = np.concatenate([self.chunk, fresh.astype(np.int16)])
        out, self.chunk = self.chunk[:k], self.chunk[k:]
        return out

    def run(self, progress: Progress | None) -> None:
        """Play every game to its end, refilling slots with new deals."""
        self._load(np.arange(self.S))
        while True:
            live = int(np.count_nonzero(self.active))
            if live == 0:
                break
            if live * 4 < self.S and self.S > 64:
                self._compact()
            self._step()
            if progress is not None:
                progress(self.finished)

    def _load(self, slots: Int) -> None:
        """Start the next games in these slots (or idle the slots)."""
        k = min(len(slots), self.games - self.started)
        self.active[slots[k:]] = False
        self.game[slots[k:]] = -1
        slots = slots[:k]
        if k == 0:
            return
        deals = self._deals(k)
        ids = np.arange(self.started, self.started + k)
        self.started += k
        self.slot_deal[slots] = deals
        h, n = self.half, self.n
        region = self.pile[:-1].reshape(self.S, 2, self.L)
        region[slots] = 0
        region[slots, 0, :h] = deals[:, :h]
        region[slots, 1, :n - h] = deals[:, h:]
        self.ha[slots] = 0
        self.hb[slots] = 0
        self.za[slots] = h
        self.zb[slots] = n - h
        self.game[slots] = ids
        self.count[slots] = 0
        self.active[slots] = True
        if self.fixed:
            one = np.uint64(1)
            self.hash_a[slots] = ((deals[:, :h].astype(np.uint64) + one) * self.pw[:h]).sum(
                axis=1, dtype=np.uint64)
            self.hash_b[slots] = ((deals[:, h:].astype(np.uint64) + one)
                                  * self.pw[:n - h]).sum(axis=1, dtype=np.uint64)
            self._snapshot(slots)
            self.next_snap[slots] = 1

    def _normal(self, slots: Int) -> npt.NDArray[np.int16]:
        """Each slot's pile pair as one row: A's cards top first, then B's."""
        mask = self.mask
        n = self.n
        t = np.arange(n)[None, :]
        za = self.za[slots][:, None]
        in_a = t < za
        cell_a = self.base_a[slots][:, None] + ((self.ha[slots][:, None] + t) & mask)
        cell_b = self.base_b[slots][:, None] + ((self.hb[slots][:, None] + t - za) & mask)
        out: npt.NDArray[np.int16] = self.pile[np.where(in_a, cell_a, cell_b)]
        return out

    def _snapshot(self, slots: Int) -> None:
        self.snap_a[slots] = self.hash_a[slots]
        self.snap_b[slots] = self.hash_b[slots]
        self.snap_za[slots] = self.za[slots]
        self.snap_cards[slots] = self._normal(slots)
        self.snap_at[slots] = self.count[slots]

    def _finish(self, slots: Int, code: int | Int) -> None:
        g = self.game[slots]
        self.outcome[g] = code
        self.battles_of[g] = self.count[slots]
        self.finished += len(slots)
        self._load(slots)

    def _step(self) -> None:
        """One battle in every active slot."""
        pile = self.pile
        up_a = pile[self.base_a + self.ha]
        up_b = pile[self.base_b + self.hb]
        active = self.active
        self.count += active
        tie = (up_a == up_b) & active
        plain = active & ~tie
        ended = np.full(self.S, -1, dtype=np.int64)
        self._plain(plain, up_a, up_b)
        war = np.nonzero(tie)[0]
        if len(war):
            self._war(war, up_a[war], up_b[war], ended)
        self._ends(ended)

    def _plain(self, plain: npt.NDArray[np.bool_], up_a: npt.NDArray[np.int16],
               up_b: npt.NDArray[np.int16]) -> None:
        """Battles without a war, in every slot where `plain`: the higher card takes both.
        Whole-array arithmetic (masks as 0/1 factors) keeps the numpy calls few."""
        mask = self.mask
        b_won = up_b > up_a
        step = plain.astype(np.int64)
        bw = b_won.astype(np.int64)
        a16, b16 = up_a.astype(np.int64), up_b.astype(np.int64)
        win = a16 + bw * (b16 - a16)
        lose = a16 + b16 - win
        if self.order is Order.WINNER_FIRST:
            first, second = win, lose
        elif self.order is Order.LOSER_FIRST:
            first, second = lose, win
        else:
            swap = (self.order_rng.random(self.S) < 0.5).astype(np.int64)
            first = win + swap * (lose - win)
            second = win + lose - first
        if self.fixed:
            one = np.uint64(1)
            xi = self.ipw[1]
            ustep = step.astype(np.uint64)
            # popping the top card: (h - (c + 1)) / X where the slot battles, else unchanged
            fa = np.where(plain, xi, one)
            self.hash_a = (self.hash_a - ustep * (a16.astype(np.uint64) + one)) * fa
            self.hash_b = (self.hash_b - ustep * (b16.astype(np.uint64) + one)) * fa
        self.ha = (self.ha + step) & mask
        self.hb = (self.hb + step) & mask
        self.za -= step
        self.zb -= step
        zw = self.za + bw * (self.zb - self.za)
        hw = self.ha + bw * (self.hb - self.ha)
        base_w = self.base_a + bw * self.L
        tail = base_w + ((hw + zw) & mask)
        tail2 = base_w + ((hw + zw + 1) & mask)
        scratch = self.scratch
        self.pile[np.where(plain, tail, scratch)] = first
        self.pile[np.where(plain, tail2, scratch)] = second
        if self.fixed:
            one = np.uint64(1)
            add = ustep * ((first.astype(np.uint64) + one) * self.pw[zw]
                           + (second.astype(np.uint64) + one) * self.pw[zw + 1])
            ubw = bw.astype(np.uint64)
            self.hash_b += ubw * add
            self.hash_a += (one - ubw) * add
        two = 2 * step
        self.zb += bw * two
        self.za += two - bw * two

    def _war(self, act: Int, up_a: npt.NDArray[np.int16], up_b: npt.NDArray[np.int16],
             ended: Int) -> None:
        """Battles with a war (slots `act`): extend until the face-up cards differ or a
        player runs out (`ended` gets the outcome of a run-out)."""
        mask = self.mask
        pile = self.pile
        ha, hb, za, zb = self.ha[act], self.hb[act], self.za[act], self.zb[act]
        base_a, base_b = self.base_a[act], self.base_b[act]
        da = np.zeros(len(act), dtype=np.int64)
        db = np.zeros(len(act), dtype=np.int64)
        out = np.full(len(act), -1, dtype=np.int64)
        tie = np.arange(len(act))
        while len(tie):
            if self.runout is Runout.LOSE:
                can_a = za[tie] - da[tie] - 1 >= 2
                can_b = zb[tie] - db[tie] - 1 >= 2
                out[tie[~can_a & ~can_b]] = DRAW
                out[tie[~can_a & can_b]] = B_WINS
                out[tie[can_a & ~can_b]] = A_WINS
                go = tie[can_a & can_b]
                da[go] += 2
                db[go] += 2
            else:
                left_a = za[tie] - da[tie] - 1
                left_b = zb[tie] - db[tie] - 1
                both_out = (left_a == 0) & (left_b == 0)
                out[tie[both_out]] = DRAW
                go = tie[~both_out]
                da[go] += np.minimum(2, left_a[~both_out])
                db[go] += np.minimum(2, left_b[~both_out])
            if len(go) == 0:
                break
            up_a[go] = pile[base_a[go] + ((ha[go] + da[go]) & mask)]
            up_b[go] = pile[base_b[go] + ((hb[go] + db[go]) & mask)]
            tie = go[up_a[go] == up_b[go]]
        stop = out >= 0
        if stop.any():
            ended[act[stop]] = out[stop]
            keep = ~stop
            act, da, db, up_a, up_b = act[keep], da[keep], db[keep], up_a[keep], up_b[keep]
            ha, hb, za, zb = ha[keep], hb[keep], za[keep], zb[keep]
            base_a, base_b = base_a[keep], base_b[keep]
            if len(act) == 0:
                return
        b_won = up_b > up_a
        ca, cb = da + 1, db + 1
        # group the wars by the cards each played, so every group is one dense block (and
        # by winner too when the counts differ, under `last-card`)
        keys = (ca * 64 + cb) * 2 + np.where(ca == cb, 0, b_won)
        for key in np.unique(keys):
            sel = np.nonzero(keys == key)[0]
            self._war_group(act[sel], int(ca[sel[0]]), int(cb[sel[0]]), b_won[sel],
                            ha[sel], hb[sel], za[sel], zb[sel], base_a[sel], base_b[sel])

    def _war_group(self, act: Int, ca: int, cb: int, b_won: npt.NDArray[np.bool_], ha: Int,
                   hb: Int, za: Int, zb: Int, base_a: Int, base_b: Int) -> None:
        """Finish wars in which A played ca cards and B cb (the winners differ only when
        ca == cb, so the pot has one shape)."""
        mask, pile = self.mask, self.pile
        a_cells = base_a[:, None] + ((ha[:, None] + np.arange(ca)) & mask)
        b_cells = base_b[:, None] + ((hb[:, None] + np.arange(cb)) & mask)
        a_cards, b_cards = pile[a_cells], pile[b_cells]
        if ca == cb:
            bw = b_won[:, None]
            own = np.where(bw, b_cards, a_cards)
            other = np.where(bw, a_cards, b_cards)
        elif b_won[0]:
            own, other = b_cards, a_cards
        else:
            own, other = a_cards, b_cards
        if self.order is Order.LOSER_FIRST:
            pot = np.concatenate([other, own], axis=1)
        else:
            pot = np.concatenate([own, other], axis=1)
        total = ca + cb
        if self.order is Order.RANDOM:
            keys = self.order_rng.random((len(act), total))
            pot = np.take_along_axis(pot, np.argsort(keys, axis=1), axis=1)
        one = np.uint64(1)
        if self.fixed:
            hash_a = (self.hash_a[act] - ((a_cards.astype(np.uint64) + one) * self.pw[:ca]).sum(
                axis=1, dtype=np.uint64)) * self.ipw[ca]
            hash_b = (self.hash_b[act] - ((b_cards.astype(np.uint64) + one) * self.pw[:cb]).sum(
                axis=1, dtype=np.uint64)) * self.ipw[cb]
        ha = (ha + ca) & mask
        hb = (hb + cb) & mask
        za = za - ca
        zb = zb - cb
        zw = np.where(b_won, zb, za)
        hw = np.where(b_won, hb, ha)
        base_w = np.where(b_won, base_b, base_a)
        t = np.arange(total)
        pile[base_w[:, None] + ((hw[:, None] + zw[:, None] + t) & mask)] = pot
        if self.fixed:
            add = ((pot.astype(np.uint64) + one) * self.pw[zw[:, None] + t]).sum(
                axis=1, dtype=np.uint64)
            zero = np.uint64(0)
            self.hash_a[act] = hash_a + np.where(b_won, zero, add)
            self.hash_b[act] = hash_b + np.where(b_won, add, zero)
        self.ha[act] = ha
        self.hb[act] = hb
        self.za[act] = za + np.where(b_won, 0, total)
        self.zb[act] = zb + np.where(b_won, total, 0)

    def _ends(self, ended: Int) -> None:
        """Finish the games that ended: run-outs, an empty pile, a cycle, the limit."""
        active = self.active
        runout = ended >= 0
        lost_a = (self.za == 0) & active & ~runout
        lost_b = (self.zb == 0) & active & ~runout
        codes = np.where(runout, ended, np.where(lost_a, B_WINS, A_WINS))
        over = runout | lost_a | lost_b
        if self.fixed:
            cyc = self._cycles(active & ~over)
            if cyc is not None:
                over |= cyc
                codes = np.where(cyc, CYCLE, codes)
        cut = active & ~over & (self.count >= self.limit)
        over |= cut
        codes = np.where(cut, CUT, codes)
        done = np.nonzero(over)[0]
        if len(done):
            self._finish(done, codes[done])

    def _cycles(self, live: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_] | None:
        """Brent: compare with the snapshot (hash filter, then card by card); record the
        period; take a new snapshot after battles 1, 2, 4, 8, ..."""
        cand = np.nonzero(live & (self.hash_a == self.snap_a) & (self.hash_b == self.snap_b)
                          & (self.za == self.snap_za))[0]
        cyc = None
        if len(cand):
            same = (self._normal(cand) == self.snap_cards[cand]).all(axis=1)
            hit = cand[same]
            if len(hit):
                cyc = np.zeros(self.S, dtype=bool)
                cyc[hit] = True
                self.period[self.game[hit]] = self.count[hit] - self.snap_at[hit]
                for slot in hit[:4]:
                    self.cycle_deals[int(self.game[slot])] = self.slot_deal[slot].copy()
                live = live & ~cyc
        due = np.nonzero(live & (self.count == self.next_snap))[0]
        if len(due):
            self._snapshot(due)
            self.next_snap[due] *= 2
        return cyc
