"""Which Wolf is the Farmer playing? Evidence from the Wolf's kills for one known robot, the
V2 Wolf, against the random Wolf, and the belief that weighs both hypotheses.

The V2 Wolf's meal rule (solver.mutton.bots.v2) depends on its wolves only through which
meals are legal for them: every meal's score (the largest, then the summed, count of consistent
sets containing a living animal after it) is public. So for each wolf set W the probability
that the V2 Wolf makes the kill it made is known exactly: 1/t when the kill is among the t
best-scoring legal meals of W (sheep first), else 0. Under the random Wolf it is 1/n(W) for
the n(W) legal kills of W.

`WolfEvidence` keeps, kill by kill, the V2 likelihood of every set (weight classes over the
universe of sets) and the log Bayes factor of "the Wolf is the V2 robot" against "the Wolf
moves at random", the latter's prediction of each kill made with the solver's belief (every
consistent set equally likely). A single kill the V2 rule could not have made for any set the
Farmer still believes in ends the V2 hypothesis. `mixed_belief` is the Farmer's belief: the
V2 posterior and the solver's, weighted by the posterior odds (prior odds 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from fleece.solver.mutton.bots.belief import Belief, count_classes
from fleece.solver.mutton.bots.board import KillOption, Position

PRIOR_LOG_ODDS = 0.0  # the V2 robot and the random Wolf are equally likely at the start


def meal_score(public: Belief, pos: Position, opt: KillOption, victim_wolf: bool
               ) -> tuple[int, int]:
    """The V2 Wolf's score of a meal: (largest, summed) count of consistent sets containing
    each living animal after it (the victim revealed as it is)."""
    uni = public.universe
    col = uni.cols[opt.victim]
    after = public.mask & uni.any_of(opt.runners) & (col if victim_wolf else ~col)
    counts = [(after & uni.cols[a]).bit_count() for a in pos.living if a != opt.victim]
    return max(counts, default=0), sum(counts)


Parts = list[tuple[float, int]]


def v2_outcomes(public: Belief, pos: Position) -> list[tuple[KillOption, bool, Parts]]:
    """Every kill the V2 Wolf might make at this position, with the victim's identity, and
    P(it makes that kill | W) over the sets of the public belief as (probability, mask)
    parts: W eats a sheep when it can, else a wolf; among those meals, the best-scoring
    (`meal_score` on the public belief), ties uniformly."""
    uni = public.universe
    mask = public.mask
    options = pos.kill_options()
    hits = [uni.any_of(o.runners) & mask for o in options]
    sheep = [h & ~uni.cols[o.victim] for o, h in zip(options, hits, strict=True)]
    no_sheep = mask
    for m in sheep:
        no_sheep &= ~m
    wolf = [h & uni.cols[o.victim] & no_sheep for o, h in zip(options, hits, strict=True)]
    out: list[tuple[KillOption, bool, Parts]] = []
    for victim_wolf, legal in ((False, sheep), (True, wolf)):
        ranked = sorted((meal_score(public, pos, o, victim_wolf), i)
                        for i, o in enumerate(options) if legal[i])
        better = 0
        k = 0
        while k < len(ranked):
            group = [i for s, i in ranked if s == ranked[k][0]]
            for i in group:
                ties = [legal[j] for j in group if j != i]
                parts = [(1.0 / (n + 1), m) for n, m in count_classes(ties, legal[i] & ~better)]
                if parts:
                    out.append((options[i], victim_wolf, parts))
            for i in group:
                better |= legal[i]
            k += len(group)
    return out


def v2_likelihood(public: Belief, pos: Position, victim: int, victim_wolf: bool) -> Parts:
    """P(the V2 Wolf kills `victim` (a wolf or not, as given) | W) over the public belief's
    sets, as parts (sets outside every part have probability 0)."""
    for opt, is_wolf, parts in v2_outcomes(public, pos):
        if opt.victim == victim and is_wolf == victim_wolf:
            return parts
    return []


def random_prediction(b: Belief, pos: Position, victim: int, victim_wolf: bool) -> float:
    """P(this kill | the random Wolf) averaged over the belief `b`."""
    uni = b.universe
    options = pos.kill_options()
    hits = [uni.any_of(o.runners) for o in options]
    chosen = next((h for o, h in zip(options, hits, strict=True) if o.victim == victim), 0)
    col = uni.cols[victim]
    match = chosen & (col if victim_wolf else ~col)
    total = b.total
    acc = 0.0
    for n, m in count_classes(hits, b.mask):
        if n:
            acc += b.weight(m & match) / n
    return acc / total if total else 0.0


SURE = 0.999  # from this posterior probability on, one hypothesis alone makes the belief


@dataclass(frozen=True)
class WolfEvidence:
    """The sets for which the V2 rule could have made every kill so far (`possible`, a mask
    over the universe) and the log Bayes factor for the V2 robot against the random Wolf
    (-inf: ruled out)."""

    possible: int
    log_odds: float = PRIOR_LOG_ODDS
    kills: int = 0

    @property
    def p_v2(self) -> float:
        """The posterior probability that the Wolf is the V2 robot."""
        if self.log_odds == -math.inf:
            return 0.0
        if self.log_odds > 50:
            return 1.0
        odds = math.exp(self.log_odds)
        return odds / (1 + odds)

    def ruled_out(self) -> WolfEvidence:
        """The evidence after a move the V2 robot never makes (an escape)."""
        return WolfEvidence(self.possible, -math.inf, self.kills)

    def after_kill(self, b: Belief, pos: Position, victim: int, victim_wolf: bool
                   ) -> WolfEvidence:
        """The evidence after a kill made at belief `b` (before the kill) and position `pos`.
        The V2 hypothesis predicts the kill with its own belief (the solver's restricted to
        the sets its rule allowed so far, ties weighed), the random Wolf with the solver's."""
        if self.log_odds == -math.inf:
            return WolfEvidence(self.possible, self.log_odds, self.kills + 1)
        like = v2_likelihood(b, pos, victim, victim_wolf)
        v2_belief = b.restrict(self.possible)
        total = v2_belief.total
        predicted = sum(v2_belief.weight(m) * f for f, m in like) / total if total else 0.0
        chance = random_prediction(b, pos, victim, victim_wolf)
        support = 0
        for _, m in like:
            support |= m
        if predicted <= 0:
            odds = -math.inf
        elif chance <= 0:
            odds = math.inf
        else:
            odds = self.log_odds + math.log(predicted) - math.log(chance)
        return WolfEvidence(self.possible & support, odds, self.kills + 1)


def mixed_belief(solver: Belief, evidence: WolfEvidence) -> Belief:
    """The Farmer's belief: the V2 posterior (the solver's belief restricted to the sets the
    V2 rule allows) and the solver's belief, mixed by the posterior probability of the V2
    hypothesis; either alone once it is SURE."""
    p = evidence.p_v2
    v2 = solver.restrict(evidence.possible)
    if p <= 1 - SURE or not v2.classes:
        return solver
    if p >= SURE:
        return v2
    z2, zu = v2.total, solver.total
    rest = solver.mask & ~evidence.possible
    classes = [(p / z2 + (1 - p) / zu, v2.mask)]
    if rest:
        classes.append(((1 - p) / zu, rest))
    return Belief(solver.universe, tuple(classes))
