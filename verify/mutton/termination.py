"""M24: every game ends, with the longest possible game in rounds per variant.

Proof: the `rank` obligations of the invariant proofs show that kills, escapes, shots and
volleys lower the living count, a Wolf pass sets the flag that forbids the Farmer's pass, and
passes change nothing else; so every round removes at least one living animal, and a game not
over has a hidden wolf alive. Round r therefore starts with at most N-r+1 living animals and
at least one: a game lasts at most N rounds (N = num_sheep). A witness game of the Python
model with one death per round, the last wolf dying last, shows the bound is reached.
"""

from __future__ import annotations

import random
import time

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.moves import (
    ChooseWolves,
    FarmerPass,
    Kill,
    Move,
    PlaceRandom,
    Run,
    Shoot,
    WolfPass,
)
from fleece.rules.mutton.options import RuleSet
from fleece.verify.result import FAILED, PROVED, REFUTED, CheckResult


def _greedy_move(state: GameState, rng: random.Random) -> Move:
    """One death per round: the Wolf eats a sheep when it can (a wolf only while another wolf
    is left), the Farmer passes after a kill and shoots a sheep after a Wolf pass."""
    if state.phase is Phase.WOLF:
        kills = state.legal_kills()
        sheep = [k for k in kills if k.victim not in state.wolves]
        pick = sheep or kills
        if not pick:
            return WolfPass()
        k = rng.choice(pick)
        dest = rng.sample(k.free_cells, len(k.runners))
        return Kill(k.victim, tuple(Run(a, c) for a, c in zip(k.runners, dest, strict=True)))
    if not state.wolf_passed:
        return FarmerPass()
    shots = state.shot_options()
    sheep = [s for s in shots if s.victim not in state.wolves]
    s = rng.choice(sheep or shots)
    dest = rng.sample(s.free_cells, len(s.runners))
    return Shoot(s.victim, tuple(Run(a, c) for a, c in zip(s.runners, dest, strict=True)))


def witness_game(rules: RuleSet, tries: int = 20, seed: int = 5,
                 model: type[GameState] = GameState) -> tuple[int, GameState | None]:
    """The longest game found by the one-death-per-round strategy over random layouts."""
    rng = random.Random(seed)
    best: tuple[int, GameState | None] = (0, None)
    for _ in range(tries):
        state = model.new(rules).play(PlaceRandom(rng.randrange(10**6)))
        state = state.play(ChooseWolves("".join(sorted(rng.sample(rules.letters,
                                                                   rules.num_wolves)))))
        for _ in range(10 * rules.num_sheep + 10):
            if state.over:
                break
            state = state.play(_greedy_move(state, rng))
        if state.over and state.round > best[0]:
            best = (state.round, state)
        if best[0] == rules.num_sheep:
            break
    return best


def termination(rules: RuleSet, rank_proved: bool, rank_detail: str,
                model: type[GameState] = GameState) -> CheckResult:
    """The M24 check for one variant."""
    from fleece.rules.mutton.moves import format_move

    t0 = time.perf_counter()
    n = rules.num_sheep
    try:
        rounds, game = witness_game(rules, model=model)
    except IllegalMoveError as exc:
        return CheckResult(
            section="termination", name=rules.to_options().replace(" ", ""),
            title=f"M24: every game ends within {n} rounds ({rules.to_options()})",
            outcome=FAILED, expected=PROVED, clauses=("M24",),
            detail=f"the Python model refused a move it listed as legal: {exc}",
            seconds=time.perf_counter() - t0)
    tight = rounds == n
    if not rank_proved:
        outcome = REFUTED
    elif rounds > n:
        outcome = FAILED  # a game longer than the proved bound: the models disagree
    else:
        outcome = PROVED
    moves = " ".join(format_move(m) for m in game.history[2:]) if game else ""
    return CheckResult(
        section="termination", name=rules.to_options().replace(" ", ""),
        title=f"M24: every game ends within {n} rounds ({rules.to_options()})",
        outcome=outcome, expected=PROVED, clauses=("M7", "M11", "M14", "M19", "M24"),
        detail=(f"bound {n} rounds from the Z3 rank lemmas ({rank_detail}); witness game of "
                f"{rounds} rounds " + ("reaches it" if tight else "(bound not shown tight)")),
        witness=(f"{format_move(game.history[0])} {format_move(game.history[1])} {moves}"
                 if game else ""),
        seconds=time.perf_counter() - t0,
        data={"bound": n, "witness_rounds": rounds, "tight": tight})
