"""The `v2` robots: boardspace.net's V2 Mutton robot as its behaviour is described in words
(its published description, not its code), written for fleece's rules. Both sides track every
wolf set consistent with the history (the exact belief of solver.mutton.bots.knowledge).

Farmer, in this order:
1. one consistent set left: shoot its living wolves at once (a volley; a single shot when
   only one is alive or berserk is not available);
2. rank the living animals by probability of being a wolf; with one wolf left, animals next
   to the last victim (that kill's runners) first among equals;
3. shoot the first when its probability exceeds 0.65 - 0.05 x (dead sheep), when the Wolf just
   passed (M14: a pass is not allowed), or when one more kill reaches the quick-play target;
   otherwise pass. A Wolf pass rules out every animal next to a legal victim (the belief's D9).
4. shotgun: the runners of the blast go where the Wolf's worst next kill (the one leaving the
   most consistent sets) leaves the fewest (`lookahead.relocate`, over at most 24 placements).

Wolf: eats a sheep when it can (a wolf only when no sheep can be eaten); among those meals the
one after which the living animals' counts of consistent sets containing them have the
smallest maximum, then the smallest sum; places the runners uniformly at random; chooses its
wolves uniformly at random; never escapes.

Readings and differences (the description leaves them open or fleece's rules differ):
- Ties (equal probabilities, equal counts) are broken uniformly at random by the robot's seed.
- The counts are over the living animals after the meal (a dead wolf is in every set).
- The description's shotgun relocation by the Wolf has no counterpart: under fleece's rules
  the Farmer moves the animals a shotgun blast scares (M17); the V2 Farmer does, as in 4.
- "Trying every placement" is capped at 24 placements (a blast with 3 runners has thousands).
"""

from __future__ import annotations

from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.moves import Berserk, FarmerPass, Kill, Move, Run, Shoot, WolfPass
from fleece.solver.mutton.bots.base import Bot, WolfBot
from fleece.solver.mutton.bots.knowledge import Knowledge, knowledge
from fleece.solver.mutton.bots.lookahead import relocate

THRESHOLD = 0.65  # shoot above this probability ...
THRESHOLD_STEP = 0.05  # ... less this much per dead sheep
RELOCATION_TRIES = 24


def v2_threshold(dead_sheep: int) -> float:
    """The probability above which the V2 Farmer shoots."""
    return THRESHOLD - THRESHOLD_STEP * dead_sheep


class V2Farmer(Bot):
    """The described V2 Farmer (module docstring)."""

    name = "v2"

    def move(self, state: GameState) -> Move:
        v = knowledge(state)
        b = v.belief
        living = v.living
        marg = b.marginals(living)
        letters = state.letters
        if b.count == 1:
            suspects = [a for a in living if marg[a] > 0]
            if len(suspects) >= 2 and state.berserk_available():
                return Berserk(tuple(letters[a] for a in suspects))
        best = self.ranking(v, marg)[0]
        need_one = (state.rules.quick_play is not None
                    and state.score == state.rules.quick_play - 1)
        if (marg[best] > v2_threshold(v.dead_sheep()) or state.farmer_must_shoot()
                or need_one or b.count == 1):
            return self.shoot(v, best)
        return FarmerPass()

    def ranking(self, v: Knowledge, marg: dict[int, float]) -> list[int]:
        """Living animals, most likely first; with one wolf left the last kill's runners
        first among equals; remaining ties at random."""
        b = v.belief
        uni = b.universe
        one_left = not b.mask & ~uni.count_between(v.living, 1, 1)
        near: set[int] = set()
        kills = v.state.kills
        if one_left and kills:
            near = {v.state.index(a) for a in kills[-1].runners}
        keyed = [(-marg[a], a not in near, self.rng.random(), a) for a in v.living]
        return [a for *_, a in sorted(keyed)]

    def shoot(self, v: Knowledge, target: int) -> Shoot:
        """A shot at `target`; with the shotgun its runners go by the relocation rule."""
        state = v.state
        letter = state.letters[target]
        if not state.rules.shotgun:
            return Shoot(letter)
        opt = v.position.option(target)
        runs = relocate(v.belief, v.position, opt, self.rng, RELOCATION_TRIES)
        cells = state.board.cells
        return Shoot(letter, tuple(Run(state.letters[a], cells[c]) for a, c in runs))


class V2Wolf(WolfBot):
    """The described V2 Wolf (module docstring)."""

    name = "v2"

    def move(self, state: GameState) -> Move:
        kills = state.legal_kills()
        if not kills:
            return WolfPass()
        sheep = [k for k in kills if k.victim not in state.wolves]
        meals = sheep or kills
        v = knowledge(state)
        b = v.belief
        uni = b.universe
        scored = []
        for k in meals:
            victim = state.index(k.victim)
            col = uni.cols[victim]
            after = b.mask & uni.any_of(state.index(a) for a in k.runners)
            after &= col if k.victim in state.wolves else ~col
            counts = [(after & uni.cols[a]).bit_count() for a in v.living if a != victim]
            scored.append((max(counts, default=0), sum(counts), self.rng.random(), k))
        meal = min(scored, key=lambda t: t[:3])[3]
        dest = self.rng.sample(meal.free_cells, len(meal.runners))
        return Kill(meal.victim, tuple(Run(a, c) for a, c in zip(meal.runners, dest,
                                                                  strict=True)))
