"""fleece's Farmer: at each turn, the move with the least expected sheep lost from the
lookahead (solver.mutton.bots.lookahead) on the Farmer's belief over the wolf sets.

The belief is the solver's (every wolf set consistent with the public facts equally likely),
mixed with the posterior under the hypothesis that the Wolf is the V2 robot, weighted by how
well that hypothesis predicted the Wolf's kills so far (solver.mutton.bots.opponent). Against
any other Wolf the V2 hypothesis soon fails and the belief is the solver's alone;
`recognise=False` turns the hypothesis off.
"""

from __future__ import annotations

import math
from dataclasses import replace

from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.moves import Escape, Kill, Move
from fleece.rules.mutton.options import MuttonOptions
from fleece.solver.mutton.bots.base import Bot, farmer_move
from fleece.solver.mutton.bots.knowledge import knowledge
from fleece.solver.mutton.bots.lookahead import (
    Choice,
    Settings,
    Situation,
    bit_cost_for,
    decide,
)
from fleece.solver.mutton.bots.opponent import SURE, WolfEvidence, mixed_belief


class FleeceFarmer(Bot):
    """Shoots, waits or goes berserk by expected sheep lost (module docstring)."""

    name = "fleece"

    def __init__(self, rules: MuttonOptions, seed: int, settings: Settings | None = None,
                 recognise: bool = True) -> None:
        super().__init__(rules, seed)
        self.settings = settings or Settings()
        self.recognise = recognise
        self._seen: GameState | None = None  # the replay the evidence has reached
        self._evidence: WolfEvidence | None = None

    def evidence(self, state: GameState) -> WolfEvidence:
        """The evidence of the Wolf's kills up to `state` (replayed once per game: each call
        continues from the last state seen when the game went on from it)."""
        seen, evidence = self._seen, self._evidence
        if seen is None or evidence is None or state.history[:len(seen.history)] != seen.history:
            seen = GameState.new(state.rules, mirror_of=state.mirror_of)
            evidence = None
        for move in state.history[len(seen.history):]:
            if seen.phase is Phase.WOLF and isinstance(move, Kill | Escape):
                v = knowledge(seen)
                if evidence is None:
                    evidence = WolfEvidence(v.belief.universe.full)
                after = seen.play(move)
                if isinstance(move, Escape):  # the V2 robot never escapes
                    evidence = evidence.ruled_out()
                else:
                    wolf_eaten = after.score == seen.score  # public: the score did not move
                    evidence = evidence.after_kill(v.belief, v.position,
                                                   seen.index(move.victim), wolf_eaten)
                seen = after
            else:
                seen = seen.play(move)
        self._seen, self._evidence = seen, evidence
        if evidence is None:
            return WolfEvidence(0)
        return evidence

    def situation(self, state: GameState) -> tuple[Situation, Settings]:
        """The decision point at `state` with the Farmer's belief, and the search settings
        (the sniping estimate's information share is the V2 hypothesis's in proportion to
        its probability)."""
        sit = knowledge(state).situation()
        settings = replace(self.settings, seed=self.rng.randrange(2**32))
        if self.recognise:
            evidence = self.evidence(state)
            p = evidence.p_v2
            p = 1.0 if p >= SURE else 0.0 if p <= 1 - SURE else p
            sit = replace(sit, belief=mixed_belief(sit.belief, evidence),
                          public=sit.belief.mask, v2=p)
            settings = replace(settings,
                               wolf_cost=p * settings.wolf_cost_v2 + (1 - p) * settings.wolf_cost,
                               round_cost=p * settings.round_cost_v2
                               + (1 - p) * settings.round_cost)
        prior = math.log2(sit.belief.universe.size)
        per_bit = bit_cost_for(settings, prior, sit.belief.entropy(), state.round)
        return sit, replace(settings, bit_cost=per_bit)

    def choices(self, state: GameState) -> list[Choice]:
        """Every candidate move with its expected loss, best first (the decision's numbers)."""
        sit, settings = self.situation(state)
        return decide(sit, settings)

    def move(self, state: GameState) -> Move:
        return farmer_move(state, self.choices(state)[0])
