"""Every counting method of the Mutton fast engine gives the same exact numbers.

The fast engine (solver.mutton.fast) counts by a frontier DP over groups of interchangeable
animals, by the same DP with one item per animal, or by bit-mask enumeration of a component,
and `auto` mixes them per component. On random charts shaped like the hard ones (many large
overlapping rounds, unrevealed deaths, scores, Wolf passes, a dictionary now and then), each
method must give exactly what plain brute force over itertools.combinations gives: the
count, every animal's count, and the fewest and most living wolves (the advice's range,
M13/M15); the csp engine (python-constraint) must agree on small charts, and the certain
wolves and cleared animals of the solution must be the brute-force ones (D1-D9, M26).
"""

from __future__ import annotations

from itertools import combinations
from random import Random

from helpers.scaling import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from fleece.rules.mutton.chart import Chart, ChartRow, Status
from fleece.rules.mutton.options import ALPHABET
from fleece.solver.mutton import Fact, Kind, Problem, advise, problem_from_chart, solve
from fleece.solver.mutton.fast import METHODS, brute_force, count_facts, reduce_facts


@st.composite
def hard_charts(draw: st.DrawFn, max_animals: int = 12) -> tuple[Problem, tuple[Fact, ...]]:
    """A chart played forward: each round a living victim and up to six living runners (one
    of them a living wolf of a hidden true set), then some shots; optionally no reveal, a
    score line, Wolf-pass facts (D9) and a word list (D8). Returns the problem and its facts
    with the extra pass facts."""
    n = draw(st.integers(4, max_animals))
    animals = ALPHABET[:n]
    k = draw(st.integers(1, n // 2))
    truth = frozenset(draw(st.permutations(animals))[:k])
    reveal = draw(st.booleans())
    alive = list(animals)
    rows = []
    for rnd in range(1, draw(st.integers(0, n - 2)) + 1):
        living_wolves = [a for a in alive if a in truth]
        choices = [a for a in alive if not (a in truth and len(living_wolves) == 1)]
        if len(alive) < 3 or not choices:
            break
        victim = draw(st.sampled_from(choices))
        killer = draw(st.sampled_from([a for a in living_wolves if a != victim]))
        others = [a for a in alive if a not in (victim, killer)]
        extra = draw(st.lists(st.sampled_from(others), unique=True, max_size=5)) if others else []
        rows.append(ChartRow(rnd, victim, frozenset([killer, *extra])))
        alive.remove(victim)
    shots = draw(st.lists(st.sampled_from(alive), unique=True, max_size=2))
    for a in shots:
        if len([b for b in alive if b in truth]) > 1 or a not in truth:
            alive.remove(a)
    dead = [a for a in animals if a not in alive]

    def status(a: str) -> Status:
        if a in alive:
            return Status.ALIVE
        if not reveal:
            return Status.DEAD
        return Status.DEAD_WOLF if a in truth else Status.DEAD_SHEEP

    score = None
    if draw(st.booleans()):
        score = sum(1 for a in dead if a not in truth) + draw(st.sampled_from([0, 0, 0, 1]))
    chart = Chart(animals, tuple(status(a) for a in animals), tuple(rows), reveal=reveal,
                  score=score)
    words = None
    if draw(st.integers(0, 5)) == 0:
        pool = [frozenset(c) for c in combinations(animals, k)]
        words = frozenset([truth, *draw(st.lists(st.sampled_from(pool), max_size=6))])
    problem = problem_from_chart(chart, k, dictionary=words,
                                 running=draw(st.sampled_from([None, True, False])))
    passes = draw(st.lists(st.sampled_from(animals), unique=True, max_size=3))
    extra = tuple(Fact(f"pass now {a}", "D9", f"{a} is not a wolf (a pass)", Kind.SHEEP,
                       frozenset(a)) for a in passes)
    return problem, (*problem.facts, *extra)


def brute(animals: str, facts: tuple[Fact, ...], k: int, alive: frozenset[str]
          ) -> tuple[int, dict[str, int], tuple[int, int] | None]:
    """Count, per-animal counts and living-wolf range by itertools.combinations."""
    count = 0
    per = dict.fromkeys(animals, 0)
    living: set[int] = set()
    for combo in combinations(animals, k):
        w = frozenset(combo)
        if all(f.holds(w) for f in facts):
            count += 1
            for a in combo:
                per[a] += 1
            living.add(len(w & alive))
    return count, per, ((min(living), max(living)) if living else None)


@settings(max_examples=examples(120))
@given(hard_charts())
def test_every_method_equals_brute_force(case: tuple[Problem, tuple[Fact, ...]]) -> None:
    problem, facts = case
    alive = frozenset(problem.alive())
    want = brute(problem.animals, facts, problem.num_wolves, alive)
    for method in METHODS:
        got = count_facts(problem.animals, facts, track=alive, method=method)
        assert (got.count, got.wolf_counts, got.tracked) == want, method
        plain = count_facts(problem.animals, facts, method=method)  # no tracked animals
        assert (plain.count, plain.wolf_counts, plain.tracked) == (*want[:2], None), method
        assert count_facts(problem.animals, facts, marginals=False,
                           method=method).count == want[0], method


@settings(max_examples=examples(40))
@given(hard_charts(max_animals=10))
def test_solution_advice_and_csp_agree_with_brute_force(
        case: tuple[Problem, tuple[Fact, ...]]) -> None:
    """The solution's certain facts, the advice's living-wolf range (M15) and the csp engine."""
    problem, _ = case
    alive = frozenset(problem.alive())
    count, per, living = brute(problem.animals, problem.facts, problem.num_wolves, alive)
    sol = solve(problem)
    assert (sol.count, sol.wolf_counts) == (count, per)
    csp = solve(problem, "csp")
    assert (csp.count, csp.wolf_counts) == (count, per)
    assert (sol.core == ()) == (csp.core == ()) == (count > 0)  # a core only when inconsistent
    if not count:
        return
    assert sol.certain_wolves == tuple(a for a in problem.animals if per[a] == count)
    assert sol.cleared == tuple(a for a in problem.animals if per[a] == 0)
    if alive:
        assert advise(problem, sol).living_wolves == living
        assert advise(problem, csp).living_wolves == living  # computed without the engine


def test_nested_exact_counters_become_the_difference() -> None:
    """K = 3 wolves of which the score puts exactly 1 among the dead B, C, D: the K counter
    becomes "exactly 2 among A, E, F" and the counts stay C(3,1) * C(3,2) = 9."""
    animals = "ABCDEF"
    facts = (Fact("wolves", "D4", "", Kind.COUNT, frozenset(animals), 3, 3),
             Fact("score", "D7", "", Kind.COUNT, frozenset("BCD"), 1, 1))
    red = reduce_facts(animals, facts)
    assert red is not None
    assert sorted((sorted(s), lo, hi) for s, lo, hi in red.counters) == [
        (["A", "E", "F"], 2, 2), (["B", "C", "D"], 1, 1)]
    got = count_facts(animals, facts, track="AEF")
    assert got.count == 9
    assert got.wolf_counts == {"A": 6, "B": 3, "C": 3, "D": 3, "E": 6, "F": 6}
    assert got.tracked == (2, 2)


def test_at_least_one_counter_is_a_row() -> None:
    """D6 ("a wolf is alive") over A, B is a row: with 1 wolf among A-D, 2 sets."""
    animals = "ABCD"
    facts = (Fact("wolves", "D4", "", Kind.COUNT, frozenset(animals), 1, 1),
             Fact("running", "D6", "", Kind.COUNT, frozenset("AB"), 1, 4))
    red = reduce_facts(animals, facts)
    assert red is not None and red.rows == (frozenset("AB"),)
    assert count_facts(animals, facts, track="CD").tracked == (0, 0)
    assert count_facts(animals, facts).count == 2


def test_hit_branches_on_rows_and_counts_every_set_once() -> None:
    """Few wolves and only K over every free animal: the row branching ("hit", M15's living
    range included) gives brute force's count, per-animal counts and range, and "auto"
    picks it; a score counter (a second counter) sends it back to the DP."""
    animals = "ABCDEFGHIJ"
    k = Fact("wolves", "D4", "", Kind.COUNT, frozenset(animals), 3, 3)
    rows = tuple(Fact(f"row {i}", "D2", "", Kind.AT_LEAST_ONE, frozenset(r))
                 for i, r in enumerate(["ABC", "CDE", "EFG", "GHI", "AJ"]))
    facts = (k, *rows)
    alive = frozenset("ABCDEFG")
    want = brute(animals, facts, 3, alive)
    for method in ("hit", "auto"):
        got = count_facts(animals, facts, track=alive, method=method)
        assert got.method == "hit"
        assert (got.count, got.wolf_counts, got.tracked) == want
    score = Fact("score", "D7", "", Kind.COUNT, frozenset("HIJ"), 1, 1)
    got = count_facts(animals, (*facts, score), track=alive, method="hit")
    assert got.method != "hit"
    assert (got.count, got.wolf_counts, got.tracked) == brute(animals, (*facts, score), 3,
                                                              alive)


@settings(max_examples=examples(30))
@given(st.integers(2, 4), st.integers(6, 10), st.randoms(use_true_random=False))
def test_hit_method_on_no_reveal_charts_of_six_runner_rounds(wolves: int, rounds: int,
                                                             rng: Random) -> None:
    """The charts the 'hit' method is for (no reveal, only the wolf count, rounds of six
    runners over 16 animals): every node of its branching - the inlined last two wolves
    included - gives brute force's count and per-animal counts, with and without tracked
    animals."""
    names = ALPHABET[:16]
    truth = set(rng.sample(names, wolves))
    alive = list(names)
    rows = []
    for rnd in range(1, rounds + 1):
        living = [a for a in alive if a in truth]
        victims = [a for a in alive if a not in truth or len(living) > 2]
        victim = rng.choice(victims)
        killer = rng.choice([a for a in living if a != victim])
        others = [a for a in alive if a not in (victim, killer)]
        rows.append(ChartRow(rnd, victim,
                             frozenset([killer, *rng.sample(others, min(5, len(others)))])))
        alive.remove(victim)
    chart = Chart(names, tuple(Status.ALIVE if a in alive else Status.DEAD for a in names),
                  tuple(rows), reveal=False)
    problem = problem_from_chart(chart, wolves)
    sets = brute_force(problem.animals, problem.facts, wolves)
    per = {a: sum(a in s for s in sets) for a in names}
    track = frozenset(problem.alive())
    for got in (count_facts(problem.animals, problem.facts, method="hit"),
                count_facts(problem.animals, problem.facts, method="hit", track=track)):
        assert got.method == "hit"
        assert (got.count, got.wolf_counts) == (len(sets), per)
