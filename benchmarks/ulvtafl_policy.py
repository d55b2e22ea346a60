"""Ulvtafl play strength of the heuristic reply (solver.ulvtafl.policy.reply_move with no
solved move: what `fleece ulvtafl play` and the web page play when the solver runs out of
time) against a naive one and random moves, from the 20- and 13-sheep starts.

    python benchmarks/ulvtafl_policy.py                 # 100 games against random moves
    python benchmarks/ulvtafl_policy.py --games 20      # a quick look

The naive reply is the baseline: the wolves capture the most and otherwise take the first
step; the sheep advance the rearmost sheep that can move forward the most. The heuristic
keeps the sheep to moves after which no wolf can capture, and steps the wolves where they
threaten the most captures. A game ends by the rules (U5, a repetition under U7 is a draw)
or, unfinished, after 400 plies. Random moves come from one seeded generator per game, so
a run is repeatable.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from collections.abc import Callable

from fleece.rules.ulvtafl.game import SHEEP, Move, UlvState, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.geometry import rank_of
from fleece.solver.ulvtafl.policy import reply_move

Player = Callable[[UlvState], Move]
MAX_PLIES = 400


def heuristic(state: UlvState) -> Move:
    """fleece's heuristic reply."""
    return reply_move(state, None)


def naive(state: UlvState) -> Move:
    """The naive reply: the longest capture, else the first wolf step; the rearmost sheep
    that goes forward the most."""
    moves = list(state.legal_moves())
    if state.to_move != SHEEP:
        return max(moves, key=lambda m: len(m.path))
    return max(moves, key=lambda m: (rank_of(m.end) - rank_of(m.start), -rank_of(m.start)))


def randomly(seed: int) -> Player:
    """A player of uniformly random legal moves."""
    rng = random.Random(seed)
    return lambda state: rng.choice(list(state.legal_moves()))


def game(setup: int, sheep: Player, wolves: Player) -> str:
    """One game from a setup: 'sheep', 'wolves', 'draw' or 'unfinished'."""
    state = initial_state(UlvtaflOptions(setup=setup))
    for _ in range(MAX_PLIES):
        if state.is_terminal():
            return state.result or "draw"
        state = state.play((sheep if state.to_move == SHEEP else wolves)(state))
    return "unfinished"


def main() -> None:
    """Play the pairings and print one line each."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games against random moves")
    args = ap.parse_args()
    players = {"naive": naive, "heuristic": heuristic}
    for setup in (20, 13):
        for name, player in players.items():
            seed = 1000 * setup
            for side, against in (("sheep", "wolves"), ("wolves", "sheep")):
                results: Counter[str] = Counter()
                for i in range(args.games):
                    rnd = randomly(seed + i)
                    results[game(setup, player, rnd) if side == "sheep"
                            else game(setup, rnd, player)] += 1
                print(f"{setup} sheep: {name} {side} against random {against}, "
                      f"{args.games} games: " + ", ".join(
                          f"{k} {results[k]}" for k in ("sheep", "wolves", "draw",
                                                        "unfinished") if results[k]),
                      flush=True)
        for sheep_name, sheep_player in players.items():
            for wolf_name, wolf_player in players.items():
                print(f"{setup} sheep: {sheep_name} sheep against {wolf_name} wolves: "
                      f"{game(setup, sheep_player, wolf_player)}", flush=True)


if __name__ == "__main__":
    main()
