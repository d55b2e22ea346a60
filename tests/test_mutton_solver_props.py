"""Property tests of the Mutton solver.

- Random abstract charts: the fast engine equals brute force (itertools.combinations) over the
  facts, and the facts equal an independent reading of the chart semantics written here; cores
  are inconsistent and minimal; explanation rules are sound.
- Random games of the rules model's simulator, cut at random moments and under several rule
  options: the three engines agree, the true wolf set is always consistent, explanations are
  sound, the berserk set holds every living wolf.
- Random game records: pass constraints (D9) equal the rules model's own "no legal kill", the
  true set is consistent and has positive likelihood under the Wolf model, and the model
  posterior equals brute-force weighted sums.
"""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction
from itertools import combinations

from helpers.mutton_strategies import chart_problems as mutton_charts
from helpers.scaling import examples
from hypothesis import event, given, settings
from hypothesis import strategies as st

from fleece.rules.mutton.chart import Status, farmer_chart
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.moves import WolfPass
from fleece.rules.mutton.options import ALPHABET, MuttonOptions, Weapon
from fleece.rules.mutton.record import format_record
from fleece.rules.mutton.simulate import FarmerPolicy, random_move
from fleece.solver.mutton import (
    ENGINES,
    Problem,
    advise,
    enumerate_sets,
    problem_from_chart,
    problem_from_record,
    solve,
)
from fleece.solver.mutton.explain import derive, reasons
from fleece.solver.mutton.fast import brute_force, count_facts, is_consistent
from fleece.solver.mutton.problem import state_from_chart
from fleece.solver.mutton.wolf_prior import likelihood

# ---- an independent reading of the chart --------------------------------------------------------


def semantic_sets(problem: Problem, pass_states: list[GameState] = ()  # type: ignore[assignment]
                  ) -> set[frozenset[str]]:
    """Consistent wolf sets straight from the chart and the rules model, without the facts."""
    chart = problem.chart
    animals = chart.animals
    status = dict(zip(animals, chart.status, strict=True))
    alive = {a for a in animals if status[a] is Status.ALIVE}
    dead = [a for a in animals if status[a].dead]
    escaped = sum(1 for a in animals if status[a] is Status.ESCAPED)
    running = problem.running if problem.running is not None else (
        problem.passed or any(s is Status.DEAD for s in chart.status))
    state = state_from_chart(chart) if problem.passed else None
    out = set()
    for combo in combinations(animals, problem.num_wolves):
        w = frozenset(combo)
        if any(status[a] in (Status.DEAD_WOLF, Status.ESCAPED) and a not in w for a in animals):
            continue
        if any(status[a] is Status.DEAD_SHEEP and a in w for a in animals):
            continue
        if any(not row.runners & w for row in chart.rows):
            continue
        if running and not w & alive:
            continue
        if chart.score is not None and \
                sum(1 for a in dead if a not in w) + 3 * escaped != chart.score:
            continue
        if problem.dictionary is not None and w not in problem.dictionary:
            continue
        if state is not None and replace(state, wolves=w).legal_kills():
            continue
        if any(replace(s, wolves=w).legal_kills() for s in pass_states):
            continue
        out.add(w)
    return out


# ---- random abstract charts --------------------------------------------------------------------


def abstract_problems() -> st.SearchStrategy[Problem]:
    """Random charts of 4-9 animals with up to 4 runners a round."""
    return mutton_charts()


@given(abstract_problems())
def test_fast_equals_brute_force_and_chart_semantics(problem: Problem) -> None:
    sets = brute_force(problem.animals, problem.facts, problem.num_wolves)
    assert set(sets) == semantic_sets(problem)
    sol = solve(problem)
    assert sol.count == len(sets)
    for a in problem.animals:
        assert sol.wolf_counts[a] == sum(1 for w in sets if a in w)
    assert set(enumerate_sets(problem)) == set(sets)
    assert len(enumerate_sets(problem)) == len(sets)


@given(abstract_problems())
def test_cores_are_inconsistent_and_minimal(problem: Problem) -> None:
    sol = solve(problem)
    if sol.count:
        assert sol.core == ()
        return
    core = list(sol.core)
    assert core
    k = problem.num_wolves
    any_size = [f for f in core if f.key != "wolves"]
    # Inconsistent: no set of any size satisfies the core (sizes other than K only matter when
    # the K fact itself was dropped from the core).
    for size in range(len(problem.animals) + 1):
        if size != k and len(any_size) < len(core):
            continue
        assert not brute_force(problem.animals, core, size)
    assert not is_consistent(problem.animals, core)
    for f in core:
        rest = [g for g in core if g is not f]
        assert is_consistent(problem.animals, rest), f.key


@given(abstract_problems())
def test_explanation_rules_are_sound(problem: Problem) -> None:
    sol = solve(problem)
    if not sol.count:
        return
    for r in derive(problem):
        if r.wolf:
            assert r.letter in sol.certain_wolves, r
        else:
            assert r.letter in sol.cleared, r
    why = {r.letter for r in reasons(problem, sol)}
    assert why == set(sol.certain_wolves) | set(sol.cleared)


# ---- random games --------------------------------------------------------------------------------

POLICY = FarmerPolicy(p_pass=0.85, p_berserk=0.01)


def bucket(n: int) -> str:
    """A Hypothesis event naming the size of a count, to see what the tests cover."""
    return "0 sets" if n == 0 else "1 set" if n == 1 else "2-50 sets" if n <= 50 else ">50 sets"


def play(rules: MuttonOptions, seed: int, moves: int) -> tuple[GameState, list[GameState]]:
    """A game of random legal moves, stopped after `moves` moves (or at its end); also the
    positions at which the Wolf passed."""
    rng = random.Random(seed)
    state = GameState.new(rules)
    passes = []
    for _ in range(moves):
        if state.over:
            break
        move = random_move(state, rng, POLICY)
        if isinstance(move, WolfPass):
            passes.append(state)
        state = state.play(move)
    return state, passes


@st.composite
def rule_sets(draw: st.DrawFn, max_animals: int = 12) -> MuttonOptions:
    size = draw(st.sampled_from([3, 3, 4]))
    n = draw(st.integers(6, max_animals))
    k = min(n // 2, draw(st.sampled_from([1, 2, 3, 3, 4, 4])))
    words = None
    if draw(st.integers(0, 5)) == 0:
        pool = [frozenset(c) for c in combinations(ALPHABET[:n], k)]
        words = frozenset(draw(st.lists(st.sampled_from(pool), min_size=1, max_size=12)))
    return MuttonOptions(size=size, num_sheep=n, num_wolves=k, reveal=draw(st.booleans()),
                   escape=draw(st.booleans()), remove=draw(st.booleans()),
                   weapon=draw(st.sampled_from([Weapon.RIFLE, Weapon.SHOTGUN])),
                   dictionary=words)


@settings(max_examples=examples(40))
@given(rule_sets(), st.integers(0, 10**6), st.integers(2, 24))
def test_engines_agree_on_simulated_games(rules: MuttonOptions, seed: int, moves: int) -> None:
    state, _ = play(rules, seed, moves)
    if state.phase in (Phase.PLACE, Phase.CHOOSE):
        return
    chart = farmer_chart(state)
    problem = problem_from_chart(chart, rules.num_wolves, dictionary=rules.dictionary,
                                 running=not state.over)
    truth = state.wolves
    assert all(f.holds(truth) for f in problem.facts), [f.key for f in problem.facts
                                                       if not f.holds(truth)]
    sols = [solve(problem, e) for e in ENGINES]
    for s in sols:
        assert (s.count, s.wolf_counts) == (sols[0].count, sols[0].wolf_counts), s.engine
    sol = sols[0]
    event(f"{bucket(sol.count)}, {'over' if state.over else 'running'}")
    assert sol.count >= 1
    assert truth in set(enumerate_sets(problem))
    assert set(semantic_sets(problem)) == set(enumerate_sets(problem))
    for a in truth:
        assert a not in sol.cleared
    for r in derive(problem):
        assert (r.letter in sol.certain_wolves) if r.wolf else (r.letter in sol.cleared)
    adv = advise(problem, sol)
    living_wolves = {a for a in truth if problem.status(a) is Status.ALIVE}
    assert living_wolves <= set(adv.berserk_set)
    lo, hi = adv.living_wolves
    assert lo <= len(living_wolves) <= hi


@settings(max_examples=examples(30))
@given(st.integers(0, 10**6), st.integers(4, 40), st.booleans())
def test_default_board_games_fast_vs_csp(seed: int, moves: int, reveal: bool) -> None:
    """26 animals on the default board: the fast engine equals python-constraint's listing."""
    rules = MuttonOptions(reveal=reveal, escape=seed % 2 == 0)
    state, _ = play(rules, seed, moves)
    if state.phase in (Phase.PLACE, Phase.CHOOSE):
        return
    problem = problem_from_chart(farmer_chart(state), 4, running=not state.over)
    fast, csp = solve(problem, "fast"), solve(problem, "csp")
    event(bucket(fast.count))
    assert (fast.count, fast.wolf_counts) == (csp.count, csp.wolf_counts)
    assert all(f.holds(state.wolves) for f in problem.facts)


@settings(max_examples=examples(40))
@given(rule_sets(max_animals=10), st.integers(0, 10**6), st.integers(2, 60))
def test_pass_constraints_match_the_rules(rules: MuttonOptions, seed: int, moves: int) -> None:
    """A chart taken right after a Wolf pass, with --passed: the D9 facts select exactly the
    sets for which the rules model finds no legal kill."""
    rng = random.Random(seed)
    state = GameState.new(rules)
    for _ in range(moves):
        if state.over:
            return
        move = random_move(state, rng, POLICY)
        nxt = state.play(move)
        if isinstance(move, WolfPass) and not nxt.over:
            problem = problem_from_chart(farmer_chart(nxt), rules.num_wolves, passed=True,
                                         dictionary=rules.dictionary)
            assert all(f.holds(state.wolves) for f in problem.facts)
            sets = set(enumerate_sets(problem))
            assert sets == semantic_sets(problem)
            fast, smt = solve(problem, "fast"), solve(problem, "smt")
            event(f"a pass: {bucket(fast.count)}")
            assert (fast.count, fast.wolf_counts) == (smt.count, smt.wolf_counts)
            return
        state = nxt
    event("no pass")


# ---- random records -----------------------------------------------------------------------------


@settings(max_examples=examples(30))
@given(rule_sets(max_animals=10), st.integers(0, 10**6), st.integers(2, 24))
def test_records_true_set_and_model(rules: MuttonOptions, seed: int, moves: int) -> None:
    state, passes = play(rules, seed, moves)
    text = format_record(rules, [list(state.history)])
    problem = problem_from_record(text, dictionary=rules.dictionary)
    truth = state.wolves
    if not truth:
        return
    assert all(f.holds(truth) for f in problem.facts)
    sets = set(enumerate_sets(problem))
    assert truth in sets
    assert sets == semantic_sets(problem, passes)
    sol = solve(problem)
    assert sol.count == len(sets)
    event(f"{bucket(sol.count)}, {len(passes)} passes")
    assert likelihood(problem, truth) > 0
    m = sol.model
    assert m is not None and m.available
    weights = {w: likelihood(problem, w) for w in sets}
    total = sum(weights.values(), Fraction(0))
    assert m.total == total
    for a in problem.animals:
        assert m.probability(a) == sum((v for w, v in weights.items() if a in w),
                                       Fraction(0)) / total


def test_heaviest_chart_is_exact() -> None:
    """13 wolves of 26, no_reveal, 20 kills: the count agrees with the backtracking listing."""
    rules = MuttonOptions(num_wolves=13, reveal=False)
    rng = random.Random(30)
    state = GameState.new(rules)
    best = None
    while not state.over:
        state = state.play(random_move(state, rng, FarmerPolicy(p_pass=0.95, p_berserk=0)))
        if not state.over and (best is None or len(state.kills) >= len(best.kills)):
            best = state
    assert best is not None and len(best.kills) >= 15
    problem = problem_from_chart(farmer_chart(best), 13)
    counts = count_facts(problem.animals, problem.facts)
    assert counts.count > 10_000
    listed = 0
    per = dict.fromkeys(problem.animals, 0)
    for w in enumerate_sets(problem):
        listed += 1
        for a in w:
            per[a] += 1
    assert listed == counts.count
    assert per == counts.wolf_counts
