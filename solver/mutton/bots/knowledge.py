"""What the Farmer publicly knows at a game state, for every robot (both sides reason about
the Farmer's knowledge): the solver's problem, the belief over wolf sets and the position.

Only public information is used: the Farmer's chart (rules.mutton.chart.farmer_chart:
identities of the dead under reveal, the score, the rows of every kill) and, for each Wolf
pass, the kills that were legal for some wolf set at that moment (D9). The secret choice of
wolves is used only to replay the moves, exactly as solver.mutton.public_record does.
"""

from __future__ import annotations

from dataclasses import dataclass

from fleece.rules.mutton.chart import farmer_chart
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.moves import WolfPass
from fleece.solver.mutton.bots.belief import Belief
from fleece.solver.mutton.bots.board import NOWHERE, Position
from fleece.solver.mutton.bots.lookahead import Situation
from fleece.solver.mutton.problem import Problem, WolfTurn, kill_options


def pass_turns(state: GameState) -> tuple[WolfTurn, ...]:
    """Every Wolf pass of the game so far with the kills that were legal for some wolf set
    at that moment (replayed from the start; only passes are looked at)."""
    if not any(isinstance(m, WolfPass) for m in state.history):
        return ()
    s = GameState.new(state.rules, mirror_of=state.mirror_of)
    out = []
    for move in state.history:
        if isinstance(move, WolfPass):
            out.append(WolfTurn(s.round, "pass", None, kill_options(s),
                                frozenset(s.living()), s.isolated_animals(),
                                s.rules.escape))
        s = s.play(move)
    return tuple(out)


def public_problem(state: GameState) -> Problem:
    """The solver's problem of everything the Farmer knows at `state`."""
    rules = state.rules
    return Problem(farmer_chart(state), rules.num_wolves, rules.dictionary, False,
                   pass_turns(state), not state.over, "game")


def position_of(state: GameState) -> Position:
    """The robots' position of a game state."""
    index = state.board.index
    cells = tuple(NOWHERE if c is None else index[c] for c in state.positions)
    corpses = sum(1 << index[c] for c in state.corpses)
    return Position(state.rules.size, cells, corpses, state.rules.corpses_removed)


@dataclass(frozen=True)
class Knowledge:
    """The Farmer's knowledge at a state: problem, belief, position, living animals."""

    state: GameState
    problem: Problem
    belief: Belief
    position: Position

    @property
    def living(self) -> tuple[int, ...]:
        """Indices of the living animals."""
        return self.position.living

    def situation(self) -> Situation:
        """The Farmer's decision point (the state must wait for a Farmer move)."""
        s = self.state
        return Situation(self.belief, self.living, self.position, s.berserk_available(),
                         s.farmer_must_shoot(), s.rules.shotgun)

    def dead_sheep(self) -> int:
        """Dead sheep, as the public score shows them (M20)."""
        return self.state.dead_sheep()


def knowledge(state: GameState) -> Knowledge:
    """The Farmer's public knowledge at a state that is past the set-up."""
    if state.phase in (Phase.PLACE, Phase.CHOOSE):
        raise ValueError("the robots' knowledge needs a game past the set-up")
    problem = public_problem(state)
    words = problem.dictionary
    belief = Belief.from_facts(state.letters, state.rules.num_wolves, problem.facts, words)
    return Knowledge(state, problem, belief, position_of(state))
