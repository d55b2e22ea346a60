"""Random legal play, for tests, solver cross-checks and puzzle generation.

`random_move` draws one legal move without listing them all (a kill's runner placements can
number in the millions): it picks a legal kill, then distinct free cells for its runners.
The Farmer's policy is a small, documented mix (pass, snipe, rarely berserk), not strategy.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.moves import (
    Berserk,
    ChooseWolves,
    Escape,
    FarmerPass,
    Kill,
    Move,
    PlaceCells,
    PlaceRandom,
    PlaceSparse,
    Run,
    Shoot,
    WolfPass,
)
from fleece.rules.mutton.options import MuttonOptions


@dataclass(frozen=True)
class FarmerPolicy:
    """Probabilities of the random Farmer: pass (when allowed), berserk (when allowed);
    otherwise it shoots a uniformly random living animal."""

    p_pass: float = 0.55
    p_berserk: float = 0.03


def random_move(state: GameState, rng: random.Random,
                policy: FarmerPolicy = FarmerPolicy()) -> Move:
    """A random legal move of whoever is to move (the state must not be over)."""
    r = state.rules
    if state.phase is Phase.PLACE:
        if r.size == 4 and r.num_sheep == 26 and rng.random() < 0.3:
            return PlaceSparse()
        if rng.random() < 0.5:
            return PlaceRandom(rng.randrange(10**6))
        return PlaceCells(tuple(rng.sample(state.board.cells, r.num_sheep)))
    if state.phase is Phase.CHOOSE:
        if r.dictionary is not None:
            usable = sorted("".join(sorted(w)) for w in r.dictionary
                            if len(w) == r.num_wolves and w <= set(r.letters))
            return ChooseWolves(rng.choice(usable))
        return ChooseWolves("".join(sorted(rng.sample(r.letters, r.num_wolves))))
    if state.phase is Phase.WOLF:
        kills = state.legal_kills()
        escapes = state.escapes()
        if escapes and (not kills or rng.random() < 0.3):
            return Escape(rng.choice(escapes))
        if not kills:
            return WolfPass()
        k = rng.choice(kills)
        dest = rng.sample(k.free_cells, len(k.runners))
        return Kill(k.victim, tuple(Run(a, c) for a, c in zip(k.runners, dest, strict=True)))
    if state.phase is Phase.FARMER:
        if state.berserk_available() and rng.random() < policy.p_berserk:
            alive = state.living()
            size = rng.randint(2, min(len(alive), r.num_wolves + 2))
            return Berserk(tuple(sorted(rng.sample(alive, size))))
        shots = state.shot_options()
        if not state.wolf_passed and (not shots or rng.random() < policy.p_pass):
            return FarmerPass()
        s = rng.choice(shots)
        dest = rng.sample(s.free_cells, len(s.runners))
        return Shoot(s.victim, tuple(Run(a, c) for a, c in zip(s.runners, dest, strict=True)))
    raise ValueError("the game is over")


def random_game(rules: MuttonOptions, rng: random.Random, policy: FarmerPolicy = FarmerPolicy(),
                max_moves: int = 10_000) -> GameState:
    """Play one game to its end with random legal moves."""
    state = GameState.new(rules)
    for _ in range(max_moves):
        if state.over:
            return state
        state = state.play(random_move(state, rng, policy))
    raise RuntimeError("a random game did not end: the termination bound (M24) is broken")

