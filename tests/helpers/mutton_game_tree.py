"""The whole game tree of a tiny Mutton game, enumerated with the rules model alone: the
exact expected sheep lost of each Farmer move against the random Wolf, as the reference
for the fleece Farmer's search (tests/test_mutton_bots_exact.py, tests/test_mutton_advice.py).

The wolves are any wolf set under which the game so far was legal and the dead show their
identities (uniformly likely); the Wolf is the random Wolf (every legal kill equally likely,
then every placement of its runners, a pass when no kill is legal); the Farmer picks, at each
turn, the move with the least expected loss among passing (when allowed), shooting an animal
that may be a wolf, and every volley of two or more living animals. Exact fractions.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from fractions import Fraction

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.moves import (
    Berserk,
    ChooseWolves,
    FarmerPass,
    Kill,
    Move,
    PlaceCells,
    Run,
    Shoot,
    WolfPass,
    format_move,
)
from fleece.rules.mutton.options import RuleSet
from fleece.rules.mutton.simulate import random_move

Branch = tuple[frozenset[str], GameState, Fraction]  # a wolf set, its game, its weight


def consistent(state: GameState) -> list[Branch]:
    """Every wolf set under which the moves so far were legal and the dead show the same
    identities, with the game replayed under it (weight 1 each)."""
    out = []
    for combo in itertools.combinations(state.letters, state.rules.num_wolves):
        w = frozenset(combo)
        s = GameState.new(state.rules)
        try:
            for m in state.history:
                s = s.play(ChooseWolves("".join(combo)) if isinstance(m, ChooseWolves) else m)
        except IllegalMoveError:
            continue
        if all((a in w) == (a in state.wolves) for a in state.letters if not state.is_alive(a)):
            out.append((w, s, Fraction(1)))
    return out


def expect(branches: dict[object, list[tuple[Branch, int]]],
           after: Callable[[list[Branch]], Fraction]) -> Fraction:
    """Mean over the public outcomes of (sheep lost by the move + what follows)."""
    total = sum(b[2] for g in branches.values() for b, _ in g)
    value = Fraction(0)
    for g in branches.values():
        weight = sum(b[2] for b, _ in g)
        cost = sum(b[2] * c for b, c in g) / weight
        value += weight / total * (cost + after([b for b, _ in g]))
    return value


def wolf_value(group: list[Branch]) -> Fraction:
    """Expected sheep lost from a Wolf turn on (the random Wolf)."""
    branches: dict[object, list[tuple[Branch, int]]] = {}
    for w, s, weight in group:
        kills = s.legal_kills()
        if not kills:
            branches.setdefault("pass", []).append(((w, s.play(WolfPass()), weight), 0))
        for k in kills:
            places = list(itertools.permutations(k.free_cells, len(k.runners)))
            for dest in places:
                move = Kill(k.victim, tuple(Run(a, c) for a, c in zip(k.runners, dest,
                                                                      strict=True)))
                n = s.play(move)
                branches.setdefault((format_move(move), k.victim in w), []).append(
                    ((w, n, weight / len(kills) / len(places)), n.score - s.score))
    return expect(branches, lambda g: farmer_value(g)[0])


def farmer_value(group: list[Branch]) -> tuple[Fraction, dict[str, Fraction]]:
    """The least expected loss at a Farmer turn and each move's."""
    state = group[0][1]
    if state.over:
        return Fraction(0), {}
    moves: list[Move] = [] if state.farmer_must_shoot() else [FarmerPass()]
    moves += [Shoot(a) for a in state.living() if any(a in w for w, _, _ in group)]
    if state.berserk_available():
        alive = state.living()
        moves += [Berserk(c) for k in range(2, len(alive) + 1)
                  for c in itertools.combinations(alive, k)]
    values = {}
    for move in moves:
        branches: dict[object, list[tuple[Branch, int]]] = {}
        for w, s, weight in group:
            n = s.play(move)
            hit = isinstance(move, Shoot) and move.target in w
            branches.setdefault((n.over, hit), []).append(((w, n, weight), n.score - s.score))
        values[format_move(move)] = expect(
            branches, lambda g: Fraction(0) if g[0][1].over else wolf_value(g))
    return min(values.values()), values


def farmer_turns(rules: RuleSet, seed: int, turns: int) -> list[GameState]:
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
