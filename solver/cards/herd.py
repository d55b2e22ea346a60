"""McCord's herd game (K3) by seeded simulation with a random or a greedy policy: seat win
rates, herd sizes, ties and game lengths with 95% intervals. Games that reach the turn limit
(K3 does not make every game end: CARDS-HERD-ENDLESS) are cut and counted, never looped."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from fleece.rules.cards.deck import WOLF_DECK, Deck
from fleece.rules.cards.herd import (
    KINDS,
    Attack,
    Crook,
    Discard,
    Disguise,
    HerdMove,
    HerdOptions,
    HerdState,
    Outcome,
    PlayFence,
    PlaySheep,
)
from fleece.solver.cards.stats import Mean, Proportion

POLICIES = ("random", "greedy")
# a card's worth in hand, for the greedy policy's crook and discard choices
CARD_VALUE = {"sheep3": 3.0, "wolf2": 2.5, "wisc": 2.4, "sheep2": 2.0, "wolf1": 1.5,
              "sheep1": 1.0, "fence": 0.8, "crook": 0.0}
Progress = Callable[[int], None]


def greedy_move(state: HerdState, moves: list[HerdMove]) -> HerdMove:
    """The move with the best immediate score: sheep added, sheep taken from the leading
    opponent, a fence on the largest open sheep, the most valuable card a crook can take;
    discards throw the least valuable card. Ties go to the first listed move."""
    me = state.to_move
    sizes = [h.size for h in state.herds]
    lead = max((sizes[q] for q in range(len(sizes)) if q != me), default=0)

    def score(m: HerdMove) -> float:
        if isinstance(m, PlaySheep):
            return float(m.value)
        if isinstance(m, PlayFence):
            return 0.6 * m.value
        if isinstance(m, Attack):
            return m.value + 0.1 * (sizes[m.target] == lead) - 0.2 * len(m.wolves)
        if isinstance(m, Disguise):
            return (0.5 if m.fence else 1.0) * m.value + 0.1 * (sizes[m.target] == lead) - 0.3
        if isinstance(m, Crook):
            return CARD_VALUE[KINDS[m.take]] - 0.5
        if isinstance(m, Discard):
            return -CARD_VALUE[KINDS[m.kind]]
        return 0.0

    return max(moves, key=score)


def play_game(options: HerdOptions, rng: random.Random, policy: str) -> HerdState:
    """One game to its end (or the turn limit)."""
    state = HerdState.new(options)
    while not state.is_terminal():
        if state.is_chance_node():
            state = state.play(state.sample_chance(rng))
            continue
        moves = list(state.legal_moves())
        move = moves[rng.randrange(len(moves))] if policy == "random" else \
            greedy_move(state, moves)
        state = state.play(move)
    return state


@dataclass(frozen=True)
class HerdStats:
    """Simulation results (see `simulate`)."""

    players: int
    games: int
    seed: int
    policy: str
    deck: Deck
    turn_limit: int | None
    cut: int
    sole_wins: tuple[int, ...]
    shared: int
    herd: tuple[Mean, ...]
    turns: Mean
    longest: int

    def to_json(self) -> dict[str, object]:
        """Seat win rates (sole wins), shared victories, herd sizes, game lengths, cut games,
        each with a 95% interval; the seed."""
        finished = self.games - self.cut
        return {
            "players": self.players, "games": self.games, "seed": self.seed,
            "policy": self.policy, "deck": self.deck.spec(), "turn_limit": self.turn_limit,
            "cut_at_limit": Proportion(self.cut, self.games).to_json(),
            "seat_wins": [Proportion(w, finished).to_json() for w in self.sole_wins],
            "shared_victories": Proportion(self.shared, finished).to_json(),
            "herd_size": [m.to_json() for m in self.herd],
            "turns": self.turns.to_json(), "longest": self.longest,
        }


def simulate(players: int, games: int, seed: int, policy: str = "greedy", *,
             deck: Deck = WOLF_DECK, turn_limit: int | None = 1000,
             progress: Progress | None = None) -> HerdStats:
    """Play `games` seeded games; game i uses random.Random(f"{seed}:{i}")."""
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}")
    options = HerdOptions(players, deck, turn_limit)
    cut, shared = 0, 0
    wins = [0] * players
    herd_vals: list[list[int]] = [[] for _ in range(players)]
    turns: list[int] = []
    for i in range(games):
        state = play_game(options, random.Random(f"{seed}:{i}"), policy)
        if state.outcome is Outcome.CUT:
            cut += 1
        else:
            w = state.winners()
            if len(w) == 1:
                wins[w[0]] += 1
            else:
                shared += 1
            for p in range(players):
                herd_vals[p].append(state.herds[p].size)
            turns.append(state.turns)
        if progress is not None:
            progress(i + 1)
    return HerdStats(players, games, seed, policy, deck, turn_limit, cut, tuple(wins), shared,
                     tuple(Mean.of(v) for v in herd_vals), Mean.of(turns),
                     max(turns, default=0))

