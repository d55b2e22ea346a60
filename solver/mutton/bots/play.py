"""Playing Mutton against a robot, one request at a time (what a web page needs): start a game,
apply the person's move and let the robot answer, and the solver's overlay of what the Farmer
knows.

Every call is a pure function of the game state: the robot is rebuilt for each reply with a
seed drawn from the game's seed and the number of moves made, so a page can keep nothing but
the record (rules.mutton.record) and the seed, and the same game replays the same replies.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.moves import Move, Side, format_move
from fleece.rules.mutton.options import MuttonOptions
from fleece.solver.mutton.advice import Decision, decision_for
from fleece.solver.mutton.bots.base import WolfBot, random_wolves
from fleece.solver.mutton.bots.knowledge import public_problem
from fleece.solver.mutton.bots.match import placement
from fleece.solver.mutton.bots.registry import check_bot, check_rules, make_bot


@dataclass(frozen=True)
class Step:
    """The game after a person's move and the robot's replies (`replies`, in order)."""

    state: GameState
    replies: tuple[Move, ...]

    def to_json(self) -> dict[str, Any]:
        """The replies as pbmserv move text, who is to move, and the score."""
        s = self.state
        return {"replies": [format_move(m) for m in self.replies],
                "to_move": None if s.to_move is None else s.to_move.value.lower(),
                "over": s.over, "score": s.score}


def reply_seed(seed: int, state: GameState) -> int:
    """The robot's seed for its reply at `state` (the game's seed and the moves so far)."""
    return random.Random(f"mutton-reply:{seed}:{len(state.history)}").randrange(2**63)


def bot_reply(state: GameState, bot: str, side: Side, seed: int) -> Step:
    """Let the robot `bot`, playing `side`, move until the other side is to move or the game
    is over (its moves go through the rules model: an illegal one is a robot bug and raises)."""
    replies: list[Move] = []
    while not state.over and state.to_move is side:
        robot = make_bot(bot, side, state.rules, reply_seed(seed, state))
        if state.phase is Phase.CHOOSE:
            assert isinstance(robot, WolfBot)
            move: Move = robot.choose_wolves(state)
        else:
            move = robot.move(state)
        state = state.play(move)
        replies.append(move)
    return Step(state, tuple(replies))


def setup(rules: MuttonOptions, person: Side, seed: int, layout: str = "sparse") -> GameState:
    """The game's set-up, drawn from the seed: the layout (sparse where it exists) and, when
    the robot plays the Wolf, its secret wolves. A page can keep the moves after the set-up
    and the seed, and rebuild the game without showing the robot's wolves."""
    check_rules(rules)
    state = GameState.new(rules).play(placement(rules, layout, seed))
    if person is Side.FARMER:
        state = state.play(random_wolves(rules, random.Random(reply_seed(seed, state))))
    return state


def start(rules: MuttonOptions, person: Side, bot: str, seed: int, layout: str = "sparse") -> Step:
    """A new game against the robot: the set-up (`setup`) and the robot's first moves (as
    the Wolf: its first kill); a person playing the Wolf chooses the wolves first (M6)."""
    check_bot(bot, "bot")
    state = setup(rules, person, seed, layout)
    robot_side = Side.WOLF if person is Side.FARMER else Side.FARMER
    return bot_reply(state, bot, robot_side, seed)


def step(state: GameState, move: Move, bot: str, seed: int) -> Step:
    """The person's move (IllegalMoveError, one line, when the rules refuse it), then the
    robot's replies."""
    side = state.to_move
    if side is None:
        raise IllegalMoveError("the game is over; no move is possible")
    after = state.play(move)
    robot_side = Side.WOLF if side is Side.FARMER else Side.FARMER
    return bot_reply(after, bot, robot_side, seed)


@dataclass(frozen=True)
class Overlay:
    """What the Farmer knows, for a page to show or hide: each animal's exact probability of
    being a wolf (the fast engine's count), the certain wolves and the cleared animals among
    the living, the number of consistent wolf sets, and, when the Farmer is to move, the
    Farmer robot's decision (expected sheep lost of each move)."""

    count: int
    probabilities: dict[str, Fraction]
    certain: tuple[str, ...]
    cleared: tuple[str, ...]
    decision: Decision | None

    def to_json(self) -> dict[str, Any]:
        """JSON: probabilities as floats and exact fractions."""
        return {"count": self.count,
                "probabilities": {a: round(float(p), 6) for a, p in self.probabilities.items()},
                "fractions": {a: f"{p.numerator}/{p.denominator}"
                              for a, p in self.probabilities.items()},
                "certain_wolves": list(self.certain), "cleared": list(self.cleared),
                "decision": None if self.decision is None else self.decision.to_json()}


def overlay(state: GameState) -> Overlay:
    """The solver's overlay of the Farmer's public knowledge at a state past the set-up."""
    from fleece.solver.mutton.engines import solve

    problem = public_problem(state)
    solution = solve(problem, model=False)
    living = state.living()
    probs = {a: solution.probability(a) for a in state.letters}
    decision = None
    if state.phase is Phase.FARMER:
        decision, _ = decision_for(problem, solution, berserk=state.berserk_available(),
                                   must_shoot=state.farmer_must_shoot(),
                                   shotgun=state.rules.shotgun, remove=state.rules.remove)
    return Overlay(solution.count, probs,
                   tuple(a for a in living if probs[a] == 1),
                   tuple(a for a in living if probs[a] == 0), decision)
