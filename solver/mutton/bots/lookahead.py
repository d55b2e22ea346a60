"""The Farmer's decision by expected sheep lost: a lookahead against a model of the Wolf.

At a Farmer turn the candidate moves are a volley (berserk, M13/M15), a single shot at one of
the most likely wolves, and passing (not after a Wolf pass, M14). Each gets the expected number
of sheep lost from now to the end of the game, under these assumptions:

- the wolves are a random set with the probabilities of the situation's belief (the chart
  advice: every consistent set equally likely, the solver's prior);
- the Wolf model (`WOLF_MODEL`): the Wolf makes a uniformly random legal kill (a victim next
  to one of its living wolves whose runners can be placed, M8-M10; a wolf may be the victim),
  places the runners uniformly at random, passes when it has no legal kill (M11), and never
  escapes. This is the Wolf model the solver uses for game records (solver.mutton.wolf_prior). The
  fleece Farmer robot mixes it with the V2 robot's meal rule by the probability that its
  opponent is that robot (`Situation.v2`, solver.mutton.bots.opponent). Every identity that
  dies becomes public (the score shows it even without reveal);
- the search looks `depth` Farmer moves ahead (the Farmer choosing the least expected loss at
  each), the Wolf's moves in between weighted by the model, the belief updated exactly (a kill
  says "a wolf is among its runners", a pass says "no wolf is next to a legal victim", D5/D9);
- beyond the horizon the rest of the game is estimated (`leaf_value`): the cheaper of the best
  volley (exact) and a cost per bit of what the Farmer has yet to learn (the belief's entropy)
  and per living wolf, fitted to games (see Settings).

On a board small enough for the search to reach the end of every game the numbers are the
exact expected losses of the best play against the model (tests/test_mutton_bots_exact.py
checks them by an independent enumeration of the game tree with the rules model).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from fleece.solver.mutton.bots.belief import Belief, count_classes
from fleece.solver.mutton.bots.board import KillOption, Position
from fleece.solver.mutton.bots.opponent import v2_outcomes

WOLF_MODEL = ("the random Wolf: a uniformly random legal kill (a wolf may be the victim), "
              "runners placed at random, a pass only when no kill is legal, no escape")


@dataclass(frozen=True)
class Settings:
    """The search's knobs.

    `depth`: Farmer moves searched (1: this move, the Wolf's reply, then the estimate).
    `shots`: most single shots considered at each Farmer node (the most likely animals).
    `base_cost`, `wolf_cost`, `bit_cost`: the estimate beyond the horizon, sheep lost as
    base + per living wolf + per bit of the belief's entropy. A bit costs `round_cost` sheep
    divided by the bits a round teaches, estimated from the game so far (`bit_cost_for`):
    the estimate says the rest of the game lasts as many rounds as the Farmer needs to learn
    what it does not know at the pace it has been learning. The constants are fitted by
    least squares to the sheep actually lost from the Farmer's decision points in games
    against the random Wolf (benchmarks/bench_mutton_bots.py --fit, seeds apart from the
    benchmark's).
    `wolf_cost_v2`, `round_cost_v2`: the same when the Wolf is the V2 robot: every later
    shot taken as a hit, a kill between shots (its kills tell so much that this plays better
    against it than the fitted estimate: 5.8 against 6.0 sheep a game on tuning seeds).
    `prior_rate`, `prior_rounds`: the pace assumed before any kill (bits a round), counted as
    that many rounds already seen.
    `exact_volley`: with at most this many possible wolves alive every subset is tried as a
    volley, else the top-k by probability for each k.
    `placements`: most runner placements averaged per kill when the search goes past the
    Wolf's move (all of them when there are no more; else a seeded sample).
    """

    depth: int = 1
    shots: int = 3
    base_cost: float = -0.15
    wolf_cost: float = 0.55
    bit_cost: float = 0.44
    round_cost: float = 0.57
    wolf_cost_v2: float = 1.0
    round_cost_v2: float = 0.0
    prior_rate: float = 2.0
    prior_rounds: float = 1.0
    exact_volley: int = 4
    placements: int = 12
    seed: int = 0


@dataclass(frozen=True)
class Situation:
    """A Farmer decision point: the Farmer's belief, the living animals, the position (None
    when a pasted chart has no board) and what the rules allow now. `public` is the mask of
    the sets consistent with the public facts (the solver's belief; None: the belief's
    own sets), which the V2 Wolf model scores its meals with; `wolf` names the Wolf model
    (`random` or `v2`)."""

    belief: Belief
    living: tuple[int, ...]
    position: Position | None
    berserk: bool
    must_shoot: bool = False
    shotgun: bool = False
    public: int | None = None
    v2: float = 0.0

    @property
    def public_mask(self) -> int:
        """The sets consistent with the public facts."""
        return self.belief.mask if self.public is None else self.public

    def after(self, belief: Belief, public: int, living: tuple[int, ...],
              position: Position | None, must_shoot: bool = False) -> Situation:
        """The next Farmer decision point of this search."""
        return replace(self, belief=belief, public=public, living=living, position=position,
                       must_shoot=must_shoot)


@dataclass(frozen=True)
class Choice:
    """A Farmer move with its expected sheep lost from now to the end of the game.

    `kind` is `shoot`, `pass` or `berserk`; `targets` the animal indices shot; `p_hit` the
    probability that the shot hits a wolf (shoot) or that the volley gets every living wolf
    (berserk); `runs` the shotgun's runner destinations (animal, cell index)."""

    kind: str
    targets: tuple[int, ...]
    expected: float
    p_hit: float = 0.0
    runs: tuple[tuple[int, int], ...] = field(default=())


# ---- the estimate beyond the horizon ------------------------------------------------------


def suspect_order(belief: Belief, living: Sequence[int], marg: dict[int, float],
           position: Position | None) -> list[int]:
    """Living animals, most likely wolf first; ties to the most living neighbours (a wolf
    there threatens more), then the first letter."""
    if position is None:
        return sorted(living, key=lambda a: (-marg[a], a))
    threat = position.threats
    return sorted(living, key=lambda a: (-marg[a], -threat[a], a))


def cover_probabilities(belief: Belief, order: Sequence[int]) -> list[float]:
    """P(every living wolf is among the first k of `order`), for k = 0..len(order)."""
    cols = belief.universe.cols
    total = belief.total
    suffix = [0] * (len(order) + 1)
    for k in range(len(order) - 1, -1, -1):
        suffix[k] = suffix[k + 1] | cols[order[k]]
    return [x / total for x in belief.weights([~m for m in suffix])]


def best_volley(belief: Belief, living: Sequence[int], marg: dict[int, float],
                order: Sequence[int], exact: int, cover: Sequence[float] | None = None
                ) -> tuple[tuple[int, ...], float, float]:
    """The volley with the least expected loss: every subset of the possible wolves (animals
    with a positive probability) when there are at most `exact` of them, else the first k of
    `order` for each k >= 2 (`cover`: their cover probabilities, when already known).
    Returns (targets, expected loss, P(all wolves shot)); no targets when fewer than two
    animals live."""
    n = len(order)
    if n < 2:
        return (), float("inf"), 0.0
    possible = [a for a in order if marg[a] > 0]
    best: tuple[tuple[int, ...], float, float] = ((), float("inf"), 0.0)
    if len(possible) <= exact:
        # every subset S of the possible wolves (by bit mask over `possible`); the sets with
        # no living wolf outside S are those outside the OR of the others' columns
        cols = belief.universe.cols
        m = len(possible)
        mine = [cols[a] & belief.mask for a in possible]
        subsets = range(1, 1 << m)
        spares = []
        for sub in subsets:
            spare = 0
            for i in range(m):
                if not sub >> i & 1:
                    spare |= mine[i]
            spares.append(~spare)
        total = belief.total
        covers = belief.weights(spares)
        p_all = sum(marg[a] for a in living)
        pad = next((a for a in reversed(order) if marg[a] == 0), None)
        for sub, got in zip(subsets, covers, strict=True):
            targets = [possible[i] for i in range(m) if sub >> i & 1]
            if len(targets) < 2:  # a volley shoots two or more: add a least likely animal
                targets.append(pad if pad is not None else
                               next(a for a in reversed(order) if a not in targets))
            covered = got / total
            p_in = sum(marg[a] for a in targets)
            value = (len(targets) - p_in) + max((1 - covered) * (n - len(targets))
                                                - (p_all - p_in), 0.0)
            if value < best[1] - 1e-12:
                best = (tuple(sorted(targets)), value, covered)
        return best
    if cover is None:
        cover = cover_probabilities(belief, order)
    p = [marg[a] for a in order]
    inside = 0.0
    rest = sum(p)
    for k in range(n + 1):
        if k >= 2:
            value = (k - inside) + max((1 - cover[k]) * (n - k) - rest, 0.0)
            if value < best[1] - 1e-12:
                best = (tuple(sorted(order[:k])), value, cover[k])
        if k < n:
            inside += p[k]
            rest -= p[k]
    return best


def bit_cost_for(settings: Settings, prior_bits: float, bits: float, rounds: int) -> float:
    """The cost of a bit of uncertainty: `round_cost` over the bits a round has taught so far
    (the entropy lost since the start, per Wolf move, smoothed by the prior pace)."""
    learnt = max(prior_bits - bits, 0.0)
    rate = (settings.prior_rate * settings.prior_rounds + learnt) / (settings.prior_rounds
                                                                    + max(rounds, 0))
    return settings.round_cost / max(rate, 0.25)


def rest_estimate(belief: Belief, living: Sequence[int], marg: dict[int, float],
                  settings: Settings, volley: bool) -> float:
    """The estimate of the sheep lost from a Farmer decision point on when the Farmer does
    not go berserk now: `base_cost + wolf_cost * L + bit_cost * H`, L the expected living
    wolves and H the entropy of the belief in bits (what the Farmer has yet to learn); at
    least L - 1 when no volley can end the game (a kill between any two shots)."""
    wolves = sum(marg[a] for a in living)
    if wolves <= 0:
        return 0.0
    value = settings.base_cost + settings.wolf_cost * wolves + settings.bit_cost * \
        belief.entropy()
    if not volley:
        value = max(value, wolves - 1)
    return max(value, 0.0)


def leaf_value(sit: Situation, settings: Settings) -> float:
    """The estimate of the sheep still to be lost from a Farmer decision point: the cheaper
    of the best volley (exact) and `rest_estimate`."""
    b = sit.belief
    marg = b.marginals(sit.living)
    value = rest_estimate(b, sit.living, marg, settings, sit.berserk)
    if sit.berserk:
        order = suspect_order(b, sit.living, marg, sit.position)
        volley = best_volley(b, sit.living, marg, order, settings.exact_volley)
        value = min(value, volley[1])
    return value


# ---- the search ---------------------------------------------------------------------------


class Search:
    """One decision's search (holds the settings and a seeded sampler of placements)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.rng = random.Random(settings.seed)

    def choices(self, sit: Situation, depth: int | None = None) -> list[Choice]:
        """Every candidate move with its expected loss, best first."""
        d = self.settings.depth if depth is None else depth
        b = sit.belief
        marg = b.marginals(sit.living)
        order = suspect_order(b, sit.living, marg, sit.position)
        out: list[Choice] = []
        if sit.berserk:
            targets, value, covered = best_volley(b, sit.living, marg, order,
                                                  self.settings.exact_volley)
            if targets:
                out.append(Choice("berserk", targets, value, covered))
        shots = [a for a in order if marg[a] > 0][: self.settings.shots] or order[:1]
        for a in shots:
            choice = self._shot(sit, a, marg[a], d)
            if choice is not None:
                out.append(choice)
        if not sit.must_shoot:
            after = self._wolf(sit, d)
            out.append(Choice("pass", (), after))
        rank = {"berserk": 0, "shoot": 1, "pass": 2}
        out.sort(key=lambda c: (round(c.expected, 9), rank[c.kind]))
        return out

    def value(self, sit: Situation, depth: int) -> float:
        """The least expected loss at a Farmer decision point searched `depth` moves deep."""
        if depth <= 0:
            return leaf_value(sit, self.settings)
        return min(c.expected for c in self.choices(sit, depth))

    def _shot(self, sit: Situation, a: int, p: float, depth: int) -> Choice | None:
        """A single shot at `a`: a sheep costs one; the game ends if `a` was the last living
        wolf; otherwise the Wolf moves on the new position."""
        b = sit.belief
        cols = b.universe.cols
        others = 0
        for x in sit.living:
            if x != a:
                others |= cols[x]
        living = tuple(x for x in sit.living if x != a)
        pos = sit.position
        runs: tuple[tuple[int, int], ...] = ()
        if pos is not None:
            if sit.shotgun:
                opt = pos.option(a)
                if len(opt.runners) > opt.free.bit_count():
                    return None
                runs = relocate(b, pos, opt, self.rng, self.settings.placements)
            pos = pos.after_death(a, runs)
        total = b.total
        expected = 1 - p
        for outcome in (~cols[a], cols[a] & others):  # a sheep; a wolf, and the game goes on
            child = b.restrict(outcome)
            if child.classes:
                nxt = sit.after(child, sit.public_mask & outcome, living, pos)
                expected += child.total / total * self._wolf(nxt, depth)
        return Choice("shoot", (a,), expected, p, runs)

    def _wolf(self, sit: Situation, depth: int) -> float:
        """Expected loss from the Wolf's move on, at the Farmer's belief of `sit` (the Farmer
        has just moved), under the Wolf model; the children are Farmer decision points
        searched `depth - 1` deep. A kill never ends the game: the killer lives."""
        b, pos = sit.belief, sit.position
        if pos is None:  # no board: the next kill costs a sheep and tells nothing
            return 1 + self.value(sit.after(b, sit.public_mask, sit.living, None), depth - 1)
        uni = b.universe
        options = pos.kill_options()
        hits = [uni.any_of(o.runners) for o in options]
        public = sit.public_mask
        total = b.total
        expected = 0.0
        some_kill = 0
        for h in hits:
            some_kill |= h
        passing = b.restrict(~some_kill)  # the Wolf passes: nobody next to a victim (D9)
        if passing.classes:
            nxt = sit.after(passing, public & ~some_kill, sit.living, pos, must_shoot=True)
            expected += passing.total / total * self.value(nxt, depth - 1)
        for opt, is_wolf, parts in self._kills(sit, options, hits):
            child = b.reweigh(parts)
            if not child.classes:
                continue
            col = uni.cols[opt.victim]
            seen = public & uni.any_of(opt.runners) & (col if is_wolf else ~col)
            rest = tuple(x for x in sit.living if x != opt.victim)
            nxt = sit.after(child, seen, rest, pos)
            expected += child.total / total * ((0.0 if is_wolf else 1.0)
                                               + self._after_kill(nxt, opt, depth))
        return expected

    def _kills(self, sit: Situation, options: list[KillOption], hits: list[int]
               ) -> list[tuple[KillOption, bool, list[tuple[float, int]]]]:
        """Each kill of the Wolf model with the victim's identity and P(kill | W) as
        (probability, mask) parts over the belief's sets: the random Wolf's, the V2 robot's,
        or their mixture by `sit.v2`."""
        b = sit.belief
        assert sit.position is not None
        out: list[tuple[KillOption, bool, list[tuple[float, int]]]] = []
        if sit.v2 > 0:
            public = Belief.uniform(b.universe, sit.public_mask)
            out = v2_outcomes(public, sit.position)
            if sit.v2 >= 1:
                return out
        by_n = [(n, m) for n, m in count_classes(hits, b.mask) if n]
        cols = b.universe.cols
        chance = []
        for opt, hit in zip(options, hits, strict=True):
            col = cols[opt.victim]
            for is_wolf in (False, True):
                ident = col if is_wolf else ~col
                chance.append((opt, is_wolf, [(1.0 / n, m & hit & ident) for n, m in by_n]))
        if sit.v2 <= 0:
            return chance
        v2 = {(o.victim, w): parts for o, w, parts in out}
        return [(o, w, mixture(sit.v2, v2.get((o.victim, w), []), parts))
                for o, w, parts in chance]

    def _after_kill(self, sit: Situation, opt: KillOption, depth: int) -> float:
        """The Farmer's value after a kill, averaged over the model's runner placements (only
        needed when the search goes on; the estimate does not look at the board)."""
        if depth - 1 <= 0:  # the estimate does not need the board
            return leaf_value(replace(sit, position=None), self.settings)
        assert sit.position is not None
        placements = runner_placements(opt, self.rng, self.settings.placements)
        acc = 0.0
        for runs in placements:
            moved = replace(sit, position=sit.position.after_death(opt.victim, runs))
            acc += self.value(moved, depth - 1)
        return acc / len(placements)


def mixture(p: float, first: list[tuple[float, int]], second: list[tuple[float, int]]
            ) -> list[tuple[float, int]]:
    """The per-set mixture p * first + (1 - p) * second of two likelihoods given as
    disjoint (probability, mask) parts."""
    out: list[tuple[float, int]] = []
    all_first = all_second = 0
    for _, m in first:
        all_first |= m
    for _, m in second:
        all_second |= m
    for f, mf in first:
        for g, mg in second:
            if mf & mg:
                out.append((p * f + (1 - p) * g, mf & mg))
        if mf & ~all_second:
            out.append((p * f, mf & ~all_second))
    for g, mg in second:
        if mg & ~all_first:
            out.append(((1 - p) * g, mg & ~all_first))
    return out


def runner_placements(opt: KillOption, rng: random.Random, limit: int
                      ) -> list[tuple[tuple[int, int], ...]]:
    """Every placement of the runners on distinct free cells when there are at most `limit`,
    else `limit` uniformly random ones (M9)."""
    free = opt.free_cells
    r = len(opt.runners)
    from math import perm

    if perm(len(free), r) <= limit:
        return [tuple(zip(opt.runners, dest, strict=True))
                for dest in itertools.permutations(free, r)]
    return [tuple(zip(opt.runners, rng.sample(free, r), strict=True)) for _ in range(limit)]


def relocate(belief: Belief, pos: Position, opt: KillOption, rng: random.Random, tries: int
             ) -> tuple[tuple[int, int], ...]:
    """The Farmer's destinations for a shotgun blast's runners (M17): among `tries`
    placements, the one whose worst next kill (the kill, legal for some wolf set, that leaves
    the most consistent sets) leaves the fewest."""
    if not opt.runners:
        return ()
    best: tuple[tuple[int, int], ...] = ()
    best_key = None
    uni = belief.universe
    base = belief.mask & ~uni.cols[opt.victim]
    for runs in runner_placements(opt, rng, tries):
        after = pos.after_death(opt.victim, runs)
        worst = 0
        for o in after.kill_options():
            worst = max(worst, (base & uni.any_of(o.runners)).bit_count())
        key = (worst, runs)
        if best_key is None or key < best_key:
            best_key, best = key, runs
    return best


def decide(sit: Situation, settings: Settings | None = None) -> list[Choice]:
    """Every candidate move at a Farmer decision point with its expected loss, best first."""
    st = settings or Settings()
    belief, remap = sit.belief.compact(sit.public)
    public = None if sit.public is None else remap(sit.public)
    return Search(st).choices(replace(sit, belief=belief, public=public))
