"""A second posterior for game records, weighted by a declared model of the Wolf player.

The declared Wolf model is the random Wolf of `rules.mutton.simulate.random_move`:

- the wolves are a uniformly random allowed set (the uniform prior);
- at a Wolf turn let L be the legal kills (victims next to a living wolf whose runners can be
  placed, M8-M10) and E the wolves that may escape (escape option on, no living neighbour,
  M12). If E is not empty the Wolf escapes with probability 3/10 (always when L is empty),
  choosing the escaping wolf uniformly from E; otherwise it picks a kill uniformly from L, then
  a uniformly random placement of the runners (ordered distinct free cells); with neither it
  passes;
- the Farmer's moves depend only on public information, so they cancel out.

Likelihood of a record under a wolf set W = product over the Wolf's moves of P(move | W,
position). The posterior is that likelihood times the uniform prior, normalised over the
consistent sets. Everything is exact (Fractions); the sets are enumerated (up to a limit).
The runner-placement factor 1/placements does not depend on W; it is kept in `total` so that
`total` is the real summed likelihood.
"""

from __future__ import annotations

from fractions import Fraction

from fleece.solver.mutton.fast import iter_sets
from fleece.solver.mutton.posterior import ModelPosterior
from fleece.solver.mutton.problem import Problem

ESCAPE_PROBABILITY = Fraction(3, 10)  # as rules.mutton.simulate.random_move


def _bits(letters: frozenset[str] | set[str], index: dict[str, int]) -> int:
    return sum(1 << index[a] for a in letters)


class Weigher:
    """Precomputed turns of a record: `weight(W)` is the W-dependent part of the likelihood as
    an exact (numerator, denominator) pair; `common` the factor shared by every W."""

    def __init__(self, problem: Problem) -> None:
        assert problem.turns is not None
        animals = problem.animals
        self.index = {a: i for i, a in enumerate(animals)}
        self.turns = []
        common = Fraction(1)
        for t in problem.turns:
            # For each animal, the mask of legal-kill options it could be the killer of.
            by_animal = [0] * len(animals)
            victim_bit = 0
            for oi, opt in enumerate(t.options):
                for a in opt.runners:
                    by_animal[self.index[a]] |= 1 << oi
                if t.move == "kill" and opt.victim == t.animal:
                    victim_bit = 1 << oi
                    common /= opt.placements
            isolated = _bits(t.isolated, self.index) if t.escape_allowed else 0
            animal_bit = 1 << self.index[t.animal] if t.animal is not None else 0
            self.turns.append((t.move, by_animal, victim_bit, isolated, animal_bit))
        self.common = common

    def weight(self, wolves: frozenset[str]) -> tuple[int, int]:
        """(numerator, denominator) of P(Wolf moves | wolves) / common; numerator 0 when the
        record is impossible under the model."""
        wbits = _bits(wolves, self.index)
        members = [self.index[a] for a in wolves]
        keep = ESCAPE_PROBABILITY.denominator - ESCAPE_PROBABILITY.numerator
        num, den = 1, 1
        for move, by_animal, victim_bit, isolated, animal_bit in self.turns:
            reach = 0
            for i in members:
                reach |= by_animal[i]
            n_kills = reach.bit_count()
            n_esc = (wbits & isolated).bit_count()
            if move == "kill":
                if not reach & victim_bit:
                    return 0, 1
                if n_esc:
                    num *= keep
                    den *= ESCAPE_PROBABILITY.denominator
                den *= n_kills
            elif move == "escape":
                if not wbits & isolated & animal_bit:
                    return 0, 1
                if n_kills:
                    num *= ESCAPE_PROBABILITY.numerator
                    den *= ESCAPE_PROBABILITY.denominator
                den *= n_esc
            elif n_kills or n_esc:  # a pass
                return 0, 1
        return num, den


def model_posterior(problem: Problem, count: int, *, limit: int = 200_000) -> ModelPosterior:
    """The Wolf-model posterior of a record problem with `count` consistent sets."""
    if problem.turns is None:
        return ModelPosterior(skipped="the Wolf model needs a full game record")
    if count > limit:
        return ModelPosterior(skipped=f"{count} consistent sets exceed the model's limit of "
                                      f"{limit}")
    animals = problem.animals
    weigher = Weigher(problem)
    totals: dict[int, int] = {}  # denominator -> summed numerators
    per_letter: dict[str, dict[int, int]] = {a: {} for a in animals}
    sets = 0
    for w in iter_sets(animals, problem.facts):
        sets += 1
        num, den = weigher.weight(w)
        if num == 0:
            continue
        totals[den] = totals.get(den, 0) + num
        for a in w:
            d = per_letter[a]
            d[den] = d.get(den, 0) + num
    common = weigher.common
    total = sum((Fraction(n, d) for d, n in totals.items()), Fraction(0)) * common
    weights = {a: sum((Fraction(n, d) for d, n in per_letter[a].items()), Fraction(0)) * common
               for a in animals}
    return ModelPosterior(total, weights, sets)


def likelihood(problem: Problem, wolves: frozenset[str]) -> Fraction:
    """P(the record's Wolf moves | wolves) under the declared model, placements included."""
    weigher = Weigher(problem)
    num, den = weigher.weight(frozenset(wolves))
    return Fraction(num, den) * weigher.common
