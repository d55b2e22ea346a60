"""The fleece Farmer's expected-loss numbers are exact where they can be checked: on a board so
small that the search reaches the end of every game, each candidate move's expected sheep lost
equals the value of the whole game tree, enumerated here with the rules model alone.

The reference (`farmer_value`, independent of solver/mutton/bots): the wolves are any wolf set
under which the game so far was legal and the dead show their identities (uniformly likely);
the Wolf is the random Wolf (every legal kill equally likely, then every placement of its
runners, a pass when no kill is legal); the Farmer picks, at each turn, the move with the least
expected loss among passing (when allowed), shooting an animal that may be a wolf, and every
volley of two or more living animals. Exact fractions; the search's floats must agree to 1e-9.
"""

from __future__ import annotations

import random

import pytest
from helpers.mutton_game_tree import Branch, consistent, farmer_value, wolf_value  # noqa: F401

from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.moves import (
    ChooseWolves,
    PlaceCells,
    format_move,
)
from fleece.rules.mutton.options import MuttonOptions
from fleece.rules.mutton.simulate import random_move
from fleece.solver.mutton.bots.base import farmer_move
from fleece.solver.mutton.bots.knowledge import knowledge
from fleece.solver.mutton.bots.lookahead import Settings, decide


def farmer_turns(rules: MuttonOptions, seed: int, turns: int) -> list[GameState]:
    """The first Farmer turns of a random game on a random layout."""
    rng = random.Random(seed)
    s = GameState.new(rules)
    s = s.play(PlaceCells(tuple(rng.sample(s.board.cells, rules.num_sheep))))
    s = s.play(ChooseWolves("".join(sorted(rng.sample(rules.letters, rules.num_wolves)))))
    out = []
    while not s.over and len(out) < turns:
        if s.phase is Phase.FARMER:
            out.append(s)
        s = s.play(random_move(s, rng))
    return out


EXACT = Settings(depth=12, shots=26, exact_volley=26, placements=10**6)


@pytest.mark.parametrize("rules", [
    MuttonOptions(size=2, num_sheep=4, num_wolves=1),
    MuttonOptions(size=2, num_sheep=5, num_wolves=2),
    MuttonOptions(size=2, num_sheep=5, num_wolves=2, berserk=False),
], ids=["4-animals-1-wolf", "5-animals-2-wolves", "no-berserk"])
def test_expected_losses_equal_the_enumerated_game_tree(rules: MuttonOptions) -> None:
    """Every candidate move's expected sheep lost (pass, each shot, the best volley) equals the
    enumerated game tree's, and the search's choice is an optimal move."""
    seen: set[str] = set()
    for seed in range(8):
        for state in farmer_turns(rules, seed, 2):
            best, values = farmer_value(consistent(state))
            choices = decide(knowledge(state).situation(), EXACT)
            for c in choices:
                text = format_move(farmer_move(state, c))
                assert float(values[text]) == pytest.approx(c.expected, abs=1e-9), (seed, text)
                seen.add(c.kind)
            if choices[0].kind == "berserk":
                assert float(best) == pytest.approx(choices[0].expected, abs=1e-9)
            assert choices[0].expected == pytest.approx(float(best), abs=1e-9)
            seen.add("must shoot" if state.farmer_must_shoot() else "may pass")
    assert {"shoot", "must shoot", "may pass"} <= seen
    assert ("berserk" in seen) == rules.berserk
