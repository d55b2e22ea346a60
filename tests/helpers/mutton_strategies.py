"""Hypothesis strategies for Mutton solver tests, shared by several test files."""

from __future__ import annotations

from itertools import combinations

from hypothesis import strategies as st

from fleece.rules.mutton.chart import Chart, ChartRow, Status
from fleece.rules.mutton.options import ALPHABET
from fleece.solver.mutton import Problem, problem_from_chart


@st.composite
def chart_problems(draw: st.DrawFn, min_animals: int = 4, max_animals: int = 9,
                   max_runners: int = 4, max_wolves: int = 13, max_word_animals: int = 26
                   ) -> Problem:
    """A random kill chart - revealed or not, with escapes, a score line, and sometimes a
    dictionary of wolf sets (only up to `max_word_animals` animals) - consistent or not."""
    n = draw(st.integers(min_animals, max_animals))
    animals = ALPHABET[:n]
    reveal = draw(st.booleans())
    choices = ([Status.ALIVE] * 3 + [Status.DEAD_SHEEP, Status.DEAD_WOLF, Status.ESCAPED]
               if reveal else [Status.ALIVE] * 3 + [Status.DEAD, Status.ESCAPED])
    status = [draw(st.sampled_from(choices)) for _ in animals]
    dead = [a for a, s in zip(animals, status, strict=True) if s.dead]
    victims = draw(st.lists(st.sampled_from(dead), unique=True, max_size=len(dead))) \
        if dead else []
    rows = []
    for i, v in enumerate(victims):
        runners = draw(st.sets(st.sampled_from([a for a in animals if a != v]), min_size=1,
                               max_size=max_runners))
        rows.append(ChartRow(i + 1, v, frozenset(runners)))
    score = draw(st.none() | st.integers(0, n))
    chart = Chart(animals, tuple(status), tuple(rows), reveal=reveal, score=score)
    k = draw(st.integers(1, max(1, min(max_wolves, n // 2))))
    words = None
    if n <= max_word_animals and draw(st.integers(0, 4)) == 0:
        pool = [frozenset(c) for c in combinations(animals, k)]
        words = frozenset(draw(st.lists(st.sampled_from(pool), max_size=8)))
    return problem_from_chart(chart, k, dictionary=words)
