"""fleece's Wolf: meals and runner places that keep the Farmer unsure of the wolves and keep
the wolves out of the Farmer's sights.

The Wolf knows its wolves and computes the Farmer's exact belief (the public facts), so it can
predict what a sensible Farmer does next and what that costs the wolves. The Farmer model
(`farmer_turn_value`): the Farmer goes berserk on its best volley when that volley's expected
loss is below its estimate of the rest of the game (solver.mutton.bots.lookahead's
`rest_estimate`), else shoots its most likely animal when that animal is a wolf with
probability at least `shoot_at` (or must shoot after a Wolf pass), else passes. The value of a
Farmer turn for the Wolf is the sheep it expects to be lost from then on *given the true
wolves*: a volley that misses a wolf loses every living sheep; a shot at a sheep costs one;
and the rest of the game is a sniping estimate for the true wolves (`snipe_for`: how far down
the Farmer's order of suspects the last living wolf stands, a share `snipe_factor` of the
shots before it missing).

A move is chosen in two steps:
1. the meal (or escape, M12) with the most sheep expected: its own sheep plus the value of the
   Farmer turn it leads to;
2. the runners' cells (M9): among a seeded sample of placements, the one whose *next* Wolf turn
   is worth the most after the Farmer's predicted reply (the wolves keep a meal that tells
   the Farmer little; a Wolf with no meal must pass, which clears every animal next to a
   legal victim, D9).
"""

from __future__ import annotations

from dataclasses import dataclass

from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.moves import Escape, Move, WolfPass
from fleece.rules.mutton.options import MuttonOptions
from fleece.solver.mutton.bots.base import WolfBot, kill_move
from fleece.solver.mutton.bots.belief import Belief
from fleece.solver.mutton.bots.board import KillOption, Position
from fleece.solver.mutton.bots.knowledge import knowledge
from fleece.solver.mutton.bots.lookahead import (
    Settings,
    best_volley,
    rest_estimate,
    runner_placements,
    suspect_order,
)

ESCAPE_POINTS = 3  # M12


@dataclass(frozen=True)
class WolfSettings:
    """`shoot_at`: the probability from which the modelled Farmer shoots; `snipe_factor`: as
    the Farmer's lookahead; `placements`: runner placements sampled per kill."""

    shoot_at: float = 0.5
    snipe_factor: float = 0.5
    placements: int = 24


def _bits(animals: tuple[int, ...] | frozenset[int]) -> int:
    out = 0
    for a in animals:
        out |= 1 << a
    return out


class FleeceWolf(WolfBot):
    """Meals and placements by the Farmer model of the module docstring."""

    name = "fleece"

    def __init__(self, rules: MuttonOptions, seed: int, settings: WolfSettings | None = None
                 ) -> None:
        super().__init__(rules, seed)
        self.settings = settings or WolfSettings()
        self.farmer = Settings()  # the modelled Farmer's estimate of the rest of the game

    # ---- the Farmer model ------------------------------------------------------------------

    def snipe_for(self, b: Belief, living: tuple[int, ...], order: list[int],
                  wolves: int) -> float:
        """The sniping estimate of the sheep lost from a Farmer turn for the true living
        wolves (bit mask `wolves` over animals)."""
        alive = [a for a in living if wolves >> a & 1]
        if not alive:
            return 0.0
        last = max(order.index(a) for a in alive) + 1
        n = len(alive)
        shots = n + self.settings.snipe_factor * (last - n)
        return 2 * shots - n - 1

    def farmer_turn_value(self, b: Belief, living: tuple[int, ...], wolves: int,
                          berserk: bool, must: bool) -> float:
        """Sheep expected to be lost from a Farmer turn on, given the true wolves (module
        docstring)."""
        if not any(wolves >> a & 1 for a in living):
            return 0.0
        marg = b.marginals(living)
        order = suspect_order(b, living, marg, None)
        if berserk:
            targets, value, _ = best_volley(b, living, marg, order, 0)
            if targets and value < rest_estimate(b, living, marg, self.farmer, True):
                inside = _bits(targets)
                if all(inside >> a & 1 for a in living if wolves >> a & 1):
                    return float(sum(1 for a in targets if not wolves >> a & 1))
                return float(sum(1 for a in living if not wolves >> a & 1))
        top = order[0]
        cols = b.universe.cols
        if must or marg[top] >= self.settings.shoot_at:
            rest = tuple(a for a in living if a != top)
            if wolves >> top & 1:
                left = wolves & ~(1 << top)
                if not any(left >> a & 1 for a in rest):
                    return 0.0
                after = b.restrict(cols[top])
                return 1 + self._snipe_at(after, rest, left)
            after = b.restrict(~cols[top])
            return 2 + self._snipe_at(after, rest, wolves)
        return 1 + self._snipe_at(b, living, wolves)

    def _snipe_at(self, b: Belief, living: tuple[int, ...], wolves: int) -> float:
        marg = b.marginals(living)
        return self.snipe_for(b, living, suspect_order(b, living, marg, None), wolves)

    # ---- moves -------------------------------------------------------------------------------

    def meal_value(self, b: Belief, living: tuple[int, ...], wolves: int, opt: KillOption,
                   berserk: bool, memo: dict[tuple[int, tuple[int, ...]], float] | None = None
                   ) -> tuple[float, Belief]:
        """The sheep expected from a kill (its own, if a sheep, and the Farmer turn after it),
        and the public belief after it. `memo` remembers the values of (victim, runners) for
        one belief: many placements lead to the same meals."""
        uni = b.universe
        col = uni.cols[opt.victim]
        is_wolf = wolves >> opt.victim & 1
        after = b.restrict(uni.any_of(opt.runners) & (col if is_wolf else ~col))
        key = (opt.victim, opt.runners)
        if memo is not None and key in memo:
            return memo[key], after
        rest = tuple(a for a in living if a != opt.victim)
        left = wolves & ~(1 << opt.victim)
        value = (0.0 if is_wolf else 1.0) + self.farmer_turn_value(after, rest, left, berserk,
                                                                   False)
        if memo is not None:
            memo[key] = value
        return value, after

    def move(self, state: GameState) -> Move:
        kills = state.legal_kills()
        escapes = state.escapes()
        if not kills and not escapes:
            return WolfPass()
        v = knowledge(state)
        b, _ = v.belief.compact()
        pos = v.position
        living = v.living
        wolves = _bits(frozenset(state.index(w) for w in state.hidden_wolves()))
        berserk = state.rules.berserk_allowed  # unused: a volley ends the game
        scored: list[tuple[float, float, Move | KillOption, Belief]] = []
        for k in kills:
            opt = pos.option(state.index(k.victim))
            value, after = self.meal_value(b, living, wolves, opt, berserk)
            scored.append((value, self.rng.random(), opt, after))
        cols = b.universe.cols
        for e in escapes:
            i = state.index(e)
            rest = tuple(a for a in living if a != i)
            after = b.restrict(cols[i])
            value = ESCAPE_POINTS + self.farmer_turn_value(after, rest, wolves & ~(1 << i),
                                                           berserk, False)
            scored.append((value, self.rng.random(), Escape(e), after))
        _, _, best, after = max(scored, key=lambda t: (t[0], t[1]))
        if not isinstance(best, KillOption):
            return best
        runs = self.place(after, pos, best, living, wolves, berserk)
        letters = state.letters
        return kill_move(state, letters[best.victim], tuple(letters[a] for a, _ in runs),
                         tuple(c for _, c in runs))

    def place(self, b: Belief, pos: Position, opt: KillOption, living: tuple[int, ...],
              wolves: int, berserk: bool) -> tuple[tuple[int, int], ...]:
        """The runner placement whose next Wolf turn is worth the most (module docstring)."""
        living = tuple(a for a in living if a != opt.victim)
        wolves &= ~(1 << opt.victim)
        shot = self.predicted_shot(b, living)
        if shot is not None:  # the Farmer's predicted reply, the same for every placement
            cols = b.universe.cols
            b = b.restrict(cols[shot] if wolves >> shot & 1 else ~cols[shot])
            wolves &= ~(1 << shot)
            living = tuple(a for a in living if a != shot)
        memo: dict[tuple[int, tuple[int, ...]], float] = {}
        best: tuple[tuple[int, int], ...] = ()
        best_key: tuple[float, float] | None = None
        for runs in runner_placements(opt, self.rng, self.settings.placements):
            after = pos.after_death(opt.victim, runs)
            if shot is not None:
                after = after.after_death(shot)
            value = self.next_turn_value(b, after, living, wolves, berserk, memo)
            key = (value, self.rng.random())
            if best_key is None or key > best_key:
                best_key, best = key, runs
        return best

    def predicted_shot(self, b: Belief, living: tuple[int, ...]) -> int | None:
        """The animal the modelled Farmer shoots at this belief (None: it passes; a volley
        ends the game, and the placement does not matter then)."""
        marg = b.marginals(living)
        top = suspect_order(b, living, marg, None)[0]
        return top if marg[top] >= self.settings.shoot_at else None

    def next_turn_value(self, b: Belief, pos: Position, living: tuple[int, ...], wolves: int,
                        berserk: bool, memo: dict[tuple[int, tuple[int, ...]], float]
                        ) -> float:
        """The best the Wolf can expect at its next turn on `pos` (after the Farmer's reply):
        its best meal, or a forced pass when no wolf has one."""
        if not any(wolves >> a & 1 for a in living):
            return 0.0
        best: float | None = None
        options = pos.kill_options()
        for opt in options:
            if any(wolves >> a & 1 for a in opt.runners):
                value, _ = self.meal_value(b, living, wolves, opt, berserk, memo)
                best = value if best is None else max(best, value)
        if best is not None:
            return best
        clear = 0
        for opt in options:
            clear |= b.universe.any_of(opt.runners)
        return self.farmer_turn_value(b.restrict(~clear), living, wolves, berserk, True)
