"""What a simple greedy player sees in an Ulvtafl position: the plausible moves a puzzle's
grade counts, and the seeded player whose games give the puzzles' middle-game positions.

A move is *plausible* when a one-ply greedy player would consider it:

- for the wolves, a capture chain taking the most sheep, or a step after which a capture
  is threatened (a wolf could jump if it were the wolves' turn again: the "check" of this
  game);
- for the sheep, a safe move (after it no wolf can capture) that fills a paddock point or
  takes a move away from the wolves;
- for either side, a move that wins at once.

Everything else is *quiet*: a waiting step, or a sheep move that leaves the wolves their
moves. A sheep move after which a wolf can capture *gives a sheep* (a sacrifice).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from fleece.rules.ulvtafl.game import (
    SHEEP,
    SIDE_NAMES,
    WOLVES,
    Move,
    Rules,
    UlvState,
    generate,
    threatened,
)
from fleece.rules.ulvtafl.geometry import PADDOCK, rank_of


def wolf_mobility(rules: Rules, sheep: int, wolves: int) -> int:
    """The number of legal wolf moves on this board."""
    return sum(1 for _ in generate(rules, sheep, wolves, WOLVES))


@dataclass(frozen=True)
class MoveKind:
    """How a greedy player reads one move: what it does and whether it is plausible."""

    move: Move
    wins: bool  # the game ends at once in the mover's favour
    captures: int  # sheep taken (wolves)
    threat: bool  # a wolf step after which a capture is threatened
    fills: bool  # a sheep steps into the paddock
    hems: bool  # a sheep move that takes a move away from the wolves
    gives: bool  # a sheep move after which a wolf can capture (a sacrifice)
    plausible: bool

    def words(self) -> str:
        """What the move does, in a few words."""
        out = []
        if self.wins:
            out.append("wins at once")
        if self.captures:
            out.append(f"takes {self.captures} sheep")
        if self.threat:
            out.append("threatens a capture")
        if self.fills:
            out.append("fills a paddock point")
        if self.hems:
            out.append("takes a move from the wolves")
        if self.gives:
            out.append("gives a sheep")
        return ", ".join(out) or "quiet"


def read_moves(state: UlvState) -> list[MoveKind]:
    """Every legal move of the side to move, read as the greedy player reads it."""
    rules = state.rules
    moves = list(state.legal_moves())
    out = []
    most = max((len(m.path) - 1 for m in moves if m.capture), default=0)
    mobility = wolf_mobility(rules, state.sheep, state.wolves) if state.to_move == SHEEP else 0
    for m in moves:
        after = state.play(m)
        wins = after.result == SIDE_NAMES[state.to_move]
        sheep, wolves = after.sheep, after.wolves
        if state.to_move == WOLVES:
            taken = len(m.path) - 1 if m.capture else 0
            threat = not m.capture and threatened(rules, sheep, wolves)
            plausible = wins or (m.capture and taken == most) or threat
            out.append(MoveKind(m, wins, taken, threat, False, False, False, plausible))
            continue
        gives = threatened(rules, sheep, wolves)
        fills = bool(PADDOCK >> m.end & 1) and not PADDOCK >> m.start & 1
        hems = wolf_mobility(rules, sheep, wolves) < mobility
        plausible = wins or (not gives and (fills or hems))
        out.append(MoveKind(m, wins, 0, False, fills, hems, gives, plausible))
    return out


def greedy_move(state: UlvState, rng: random.Random, noise: float) -> Move:
    """The seeded greedy player's move: wolves take the longest chain or make a threat,
    sheep move safely, forward and into the paddock; `noise` (0 to 1) mixes in chance."""
    scored = []
    for k in read_moves(state):
        if state.to_move == WOLVES:
            score = 10.0 * k.wins + 2.0 * k.captures + 1.0 * k.threat
        else:
            forward = rank_of(k.move.end) > rank_of(k.move.start)
            score = (10.0 * k.wins + 3.0 * (not k.gives) + 1.0 * forward + 0.5 * k.fills
                     + 0.5 * k.hems)
        scored.append((score + rng.random() * 4.0 * noise, k.move.text(), k.move))
    return max(scored, key=lambda x: (x[0], x[1]))[2]
