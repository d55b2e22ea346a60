"""An independent oracle for the Wolf-model posterior (solver/mutton/wolf_prior.py, M8-M12).

The model claims to weight each consistent wolf set by the probability that the random Wolf of
`rules.mutton.simulate.random_move` makes the record's Wolf moves. Two checks that share no
code with the model:

- a tiny record whose posterior is derived by hand below;
- an enumeration of the simulator itself: `random_move` is run with a scripted random source
  that walks every branch (each `choice`, each `sample` ordering, and `random()` on a grid of
  100 equally likely values), which gives the exact probability of every Wolf move in every
  replayed position; the posterior is then summed over all k-subsets of the animals, replaying
  the record under each (public information - the revealed identities - must agree).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.chart import farmer_chart
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.moves import (
    ChooseWolves,
    Escape,
    FarmerPass,
    Kill,
    Move,
    PlaceCells,
    Run,
)
from fleece.rules.mutton.options import MuttonOptions
from fleece.rules.mutton.record import format_record
from fleece.rules.mutton.simulate import random_move
from fleece.solver.mutton import problem_from_record, solve
from fleece.solver.mutton.wolf_prior import likelihood

GRID = 20  # random() takes the values (i + 1/2) / GRID, i = 0..GRID-1, each with 1/GRID


class _Scripted:
    """A random source that follows a list of branch indices and records each branching, with
    the branch probabilities. `sample` has two branches: the ordering that would give the
    `target` move's runner destinations (probability 1/orderings) and one representative of
    all the other orderings (the rest): enough to get P(target) exactly without listing the
    millions of placements."""

    def __init__(self, path: Sequence[int], target: Move | None) -> None:
        self.path = path
        self.target = target
        self.arities: list[int] = []
        self.prob = Fraction(1)

    def _pick(self, weights: Sequence[Fraction]) -> int:
        pos = len(self.arities)
        i = self.path[pos] if pos < len(self.path) else 0
        self.arities.append(len(weights))
        self.prob *= weights[i]
        return i

    def random(self) -> float:
        return (self._pick([Fraction(1, GRID)] * GRID) + 0.5) / GRID

    def choice(self, seq: Sequence[Any]) -> Any:
        return seq[self._pick([Fraction(1, len(seq))] * len(seq))]

    def sample(self, population: Sequence[Any], k: int) -> list[Any]:
        orders = math.perm(len(population), k)
        t = self.target
        want = [r.to for r in t.runs] if isinstance(t, Kill) else None
        if want is None or len(want) != k or not set(want) <= set(population) or orders == 1:
            self._pick([Fraction(1)])  # every ordering gives the same verdict on the target
            return list(population[:k])
        if self._pick([Fraction(1, orders), Fraction(orders - 1, orders)]) == 0:
            return want
        other = next(list(o) for o in itertools.permutations(population, k) if list(o) != want)
        return other


def move_probability(state: GameState, target: Move) -> Fraction:
    """Exact P(random_move(state, rng) == target) by walking every branch of the rng."""
    found = total = Fraction(0)
    path: list[int] = []
    while True:
        rng = _Scripted(path, target)
        move = random_move(state, rng)  # type: ignore[arg-type]
        total += rng.prob
        if move == target:
            found += rng.prob
        full = path + [0] * (len(rng.arities) - len(path))
        # next path: increment the last position that has a branch left
        i = len(full) - 1
        while i >= 0 and full[i] + 1 >= rng.arities[i]:
            i -= 1
        if i < 0:
            break
        path = [*full[:i], full[i] + 1]
    assert total == 1
    return found


def oracle_posterior(rules: MuttonOptions, moves: Sequence[Move]) -> dict[str, Fraction]:
    """P(animal is a wolf | public record) with a uniform prior over k-subsets and the
    simulator's own Wolf-move probabilities; `moves` starts with the placement and the
    Wolf's choice (the choice is the only secret)."""
    place, real_choice, rest = moves[0], moves[1], moves[2:]
    assert isinstance(real_choice, ChooseWolves)

    def replay(wolves: str) -> tuple[GameState, Fraction]:
        s = GameState.new(rules).play(place).play(ChooseWolves(wolves))
        lik = Fraction(1)
        for m in rest:
            try:
                nxt = s.play(m)
            except IllegalMoveError:  # impossible under this set (saves the enumeration)
                return s, Fraction(0)
            if s.phase is Phase.WOLF:
                lik *= move_probability(s, m)
                if lik == 0:
                    return s, lik
            s = nxt
        return s, lik

    real, _ = replay(real_choice.letters)
    public = (farmer_chart(real).status, real.over)
    weights: dict[str, Fraction] = {a: Fraction(0) for a in rules.letters}
    total = Fraction(0)
    for combo in itertools.combinations(rules.letters, rules.num_wolves):
        s, lik = replay("".join(combo))
        if lik == 0 or (farmer_chart(s).status, s.over) != public:
            continue
        total += lik
        for a in combo:
            weights[a] += lik
    return {a: w / total for a, w in weights.items()}


def model_probabilities(rules: MuttonOptions, moves: Sequence[Move]) -> dict[str, Fraction]:
    """The solver's Wolf-model posterior for the record of `moves`."""
    sol = solve(problem_from_record(format_record(rules, [list(moves)])))
    assert sol.model is not None and sol.model.available, sol.model
    return {a: sol.model.probability(a) for a in rules.letters}


B3 = board(3)
HAND_RULES = MuttonOptions(size=3, num_sheep=5, num_wolves=2, escape=True)
HAND_MOVES: tuple[Move, ...] = (
    PlaceCells(tuple(B3.cell(n) for n in ("a1", "a2", "c3", "e3", "e4"))),
    ChooseWolves("AC"),
    Kill("B", (Run("A", B3.cell("c5")),)),
    FarmerPass(),
)


def test_m8_m12_wolf_model_posterior_derived_by_hand() -> None:
    """Size 3, escape on, 2 wolves. A a1, B a2 (touching); C c3 alone; D e3 and E e4 touching.
    The Wolf eats B and A runs (B's only neighbour) to c5: A is certainly a wolf, B a sheep,
    and the second wolf is C, D or E (uniform prior: 1/3 each).

    B's runner A has 19 - 1 - 4 (a1 a3 b2 b3) - 3 (C D E) = 11 free cells: the placement
    factor 1/11 is the same for every set. Before the kill:
    - {A, C}: legal kills {B}; C has no living neighbour, so it may escape. The Wolf kills with
      probability 1 - 3/10 = 7/10, picks B from 1 kill: 7/10 * 1/11 = 7/110.
    - {A, D}: kills {B, E} (E touches D); no wolf is isolated: 1/2 * 1/11 = 5/110.
    - {A, E}: kills {B, D}; none isolated: 1/2 * 1/11 = 5/110.
    Total 17/110, so P(C) = 7/17, P(D) = P(E) = 5/17, P(A) = 1, P(B) = 0.
    (With escape probability 1/4 P(C) would be 3/8; without the 1/kills factor 7/27.)"""
    expected = {"A": Fraction(1), "B": Fraction(0), "C": Fraction(7, 17),
                "D": Fraction(5, 17), "E": Fraction(5, 17)}
    assert model_probabilities(HAND_RULES, HAND_MOVES) == expected
    problem = problem_from_record(format_record(HAND_RULES, [list(HAND_MOVES)]))
    assert likelihood(problem, frozenset("AC")) == Fraction(7, 110)
    assert likelihood(problem, frozenset("AD")) == Fraction(5, 110)
    sol = solve(problem)
    assert sol.model is not None and sol.model.total == Fraction(17, 110)
    # the oracle reproduces the hand derivation from the simulator itself
    assert oracle_posterior(HAND_RULES, HAND_MOVES) == expected


def test_m12_simulator_move_probabilities_by_hand() -> None:
    """The enumeration itself, checked by hand on the position before the kill above under
    {A, C}: escape C with 3/10; kill B with 7/10, spread over 11 placements of A; under
    {A, D}: no escape, B or E with 1/2 each."""
    s = GameState.new(HAND_RULES).play(HAND_MOVES[0])
    ac, ad = s.play(ChooseWolves("AC")), s.play(ChooseWolves("AD"))
    assert move_probability(ac, Escape("C")) == Fraction(3, 10)
    assert move_probability(ac, HAND_MOVES[2]) == Fraction(7, 110)
    assert move_probability(ad, Escape("D")) == 0
    assert move_probability(ad, HAND_MOVES[2]) == Fraction(1, 22)
    assert move_probability(ad, Kill("E", (Run("D", B3.cell("a3")),))) == Fraction(1, 22)


def _random_record(seed: int) -> tuple[MuttonOptions, list[Move]]:
    """A short random game on a tiny board (escape on), cut while it is still running and
    after at least one Wolf move (a new game is drawn until one qualifies)."""
    rng = random.Random(seed)
    while True:
        size = rng.choice([2, 3])
        n = rng.randint(4, 6 if size == 2 else 7)
        rules = MuttonOptions(size=size, num_sheep=n, num_wolves=rng.randint(1, 2), escape=True,
                        reveal=rng.random() < 0.7)
        s = GameState.new(rules)
        moves: list[Move] = []
        cut = rng.randint(3, 10)
        while not s.over and len(moves) < cut:
            m = random_move(s, rng)
            nxt = s.play(m)
            if nxt.over:
                break
            moves.append(m)
            s = nxt
        if len(moves) >= 3:
            return rules, moves


@pytest.mark.parametrize("seed", range(16))
def test_m8_m12_wolf_model_matches_the_simulator_on_random_records(seed: int) -> None:
    """The model's posterior equals the oracle's on random tiny records."""
    rules, moves = _random_record(seed)
    assert model_probabilities(rules, moves) == oracle_posterior(rules, moves)


def test_random_records_cover_escapes_and_uncertain_posteriors() -> None:
    """The random records above are not all trivial: some contain an escape or a kill made
    while an escape was possible, and some leave a probability strictly between 0 and 1."""
    kinds = set()
    for seed in range(16):
        rules, moves = _random_record(seed)
        kinds.update(type(m).__name__ for m in moves)
        if any(0 < p < 1 for p in oracle_posterior(rules, moves).values()):
            kinds.add("uncertain")
    assert {"Kill", "Escape", "uncertain"} <= kinds, kinds
