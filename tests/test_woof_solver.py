"""Woof!! solver: exact values, engines agree (fast / csp / smt / brute force over physical
deals), the true deal of a simulated round is always possible, minimal contradiction cores,
and the suggestion."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations, islice, product
from pathlib import Path

from helpers.scaling import examples
from helpers.woof_oracle import brute_force
from helpers.woof_strategies import evidence_about
from hypothesis import given, reject, settings
from hypothesis import strategies as st

from fleece.rules.woof.cards import (
    BASIC_CARDS,
    Character,
    character_of,
    make_hand,
    parse_card,
)
from fleece.rules.woof.evidence import (
    Evidence,
    HandFact,
    LookFact,
    evidence_from_round,
    load_evidence,
    parse_evidence,
)
from fleece.rules.woof.round import Table
from fleece.rules.woof.scoring import Suspicion, suspicion_correct
from fleece.rules.woof.simulate import simulate_round
from fleece.solver.deadline import Stopped
from fleece.solver.woof import csp, fast, smt
from fleece.solver.woof.analysis import Suggestion, analyse, suggest
from fleece.solver.woof.shared import compile_evidence

W, P, S = Character.WOLF, Character.SHEPHERD, Character.SHEEP
EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "woof"


# ---- exact values by hand ----------------------------------------------------------------


def test_exact_values_without_evidence() -> None:
    post = fast.solve(parse_evidence("seats 8\n"))
    m = post.marginals()[1]
    # 120 equally likely pairs from 16 cards: a Wolf card in 1 - C(14,2)/120 of them
    assert m[W] == Fraction(29, 120)
    assert m[P] == Fraction(13, 120)  # the Shepherd card without a Wolf
    assert m[S] == Fraction(21, 120)  # two of the 7 Sheep
    assert post.evidence_probability == 1
    assert post.wolf_sets()[0][1] + sum(p for _, p in post.wolf_sets()[1:]) == 1


def test_exact_values_after_a_dont_know() -> None:
    """`look 2 1 ?` weighs seat 1's pairs by (number of "?" cards)/2: 39 pairs with one "?"
    (weight 1/2) and 3 with two (weight 1), 45/2 in all."""
    post = fast.solve(parse_evidence("seats 8\nlook 2 1 ?\n"))
    m = post.marginals()[1]
    assert m[W] == Fraction(3, 1) / Fraction(45, 2) == Fraction(2, 15)
    assert m[P] == Fraction(15, 2) / Fraction(45, 2) == Fraction(1, 3)
    assert post.evidence_probability == Fraction(45, 2) / 120 == Fraction(3, 16)


def test_undealt_cards_are_counted() -> None:
    """4 players + dummy, 11 cards (one stays out): P(seat 1 has a Wolf) = 1 - C(9,2)/C(11,2)."""
    ev = parse_evidence("seats 4\ndeck sheep*4 dog hunter*2 hunter? shepherd? wolf*2\n")
    assert fast.solve(ev).marginals()[1][W] == 1 - Fraction(36, 55)
    known = ev.with_facts([HandFact(2, make_hand(parse_card("sheep"), parse_card("dog"))),
                           HandFact(3, make_hand(parse_card("wolf"), parse_card("hunter?"))),
                           LookFact(4, 1, Character.HUNTER)])
    assert fast.solve(known) == csp.solve(known) == smt.solve(known)


def test_shepherd_viewer_says_wolf() -> None:
    """Seat 2 holds the only Shepherd card with a Sheep: seat 2 is the Shepherd, so its "wolf"
    says nothing about seat 1 beyond "not two '?' cards"."""
    ev = parse_evidence("seats 8\nhand 2 shepherd? sheep\nlook 2 1 wolf\n")
    m = fast.solve(ev).marginals()[1]
    # seat 1 pairs from the 14 other cards, weighted by (non-"?" cards)/2; "?" cards: dog?, hunter?
    weights = Counter[Character]()
    rest = [c for c in BASIC_CARDS]
    rest.remove(parse_card("shepherd?"))
    rest.remove(parse_card("sheep"))
    for a, b in combinations(range(len(rest)), 2):
        h = make_hand(rest[a], rest[b])
        weights[character_of(h)] += sum(c.appearance is not None for c in h)
    assert m[W] == Fraction(weights[W], sum(weights.values()))


# ---- engines agree -----------------------------------------------------------------------


@settings(max_examples=examples(8))
@given(evidence_about(min_players=4, max_players=5, max_facts=8, lie_rate=6))
def test_fast_matches_brute_force_over_physical_deals(case: tuple[Evidence, object]) -> None:
    ev, _ = case
    assert fast.solve(ev) == brute_force(ev)


@given(evidence_about(min_players=4, max_players=5, extra=2, min_facts=2, max_facts=10,
                      lie_rate=6, with_me=True))
def test_fast_and_csp_agree(case: tuple[Evidence, object]) -> None:
    """The csp engine lists every consistent deal; a rare generated file with more than 5,000
    of them is rejected (it would take the csp engine seconds and its shrinking minutes) - the
    fast engine meets such files in test_fast_matches_brute_force_over_physical_deals."""
    ev, _ = case
    try:
        b = csp.solve(ev, limit=5_000)
    except Stopped:
        reject()
    a = fast.solve(ev)
    assert a == b
    if not a.consistent:
        core = fast.minimal_core(ev)
        assert core and not csp.consistent(ev.with_facts(core))
        for i in range(len(core)):
            assert csp.consistent(ev.with_facts(core[:i] + core[i + 1:]))


@settings(max_examples=examples(20))
@given(evidence_about(min_players=4, max_players=5, extra=1, min_facts=4, max_facts=10,
                      lie_rate=5, with_me=True))
def test_fast_and_smt_agree(case: tuple[Evidence, object]) -> None:
    """z3 lists a few hundred hand assignments a second: a rare generated file with more than
    500 (counted cheaply by the csp engine's generator) is rejected, as the smt engine would
    stop at its limit there and shrinking would take minutes."""
    ev, _ = case
    if sum(1 for _ in islice(csp.assignments(ev), 501)) > 500:
        reject()
    a = fast.solve(ev)
    assert a == smt.solve(ev)
    if a.consistent:
        assert smt.certain_characters(ev) == a.certain()
        assert smt.unsat_core(ev) == []
    else:
        core = smt.unsat_core(ev)
        assert core and not fast.consistent(ev.with_facts(core))
        for i in range(len(core)):
            assert fast.consistent(ev.with_facts(core[:i] + core[i + 1:]))


# ---- the true deal is always possible ----------------------------------------------------


@given(st.integers(4, 8), st.integers(0, 2**32 - 1), st.data())
def test_simulated_round_record_is_consistent_with_the_true_deal(
        n: int, seed: int, data: st.DataObject) -> None:
    rec = simulate_round(Table(n), random.Random(seed), max_turns=24)
    rnd = rec.round
    me = data.draw(st.sampled_from([None, *rnd.table.acting]))
    ev = evidence_from_round(rnd, me)
    if me is None:
        ev = ev.with_facts(ev.facts[:8])  # keep the public-only case small
    truth = tuple(rnd.character(s) for s in rnd.table.seat_numbers)
    post = fast.solve(ev)
    assert post.vectors.get(truth, 0) > 0
    full = ev.with_facts([*ev.facts, *(HandFact(s, h) for s, h in rnd.hands.items())])
    assert fast.consistent(full)
    assert fast.solve(full).vectors == {truth: 1}


# ---- contradictions and suggestions ------------------------------------------------------


def test_bundled_contradiction_core() -> None:
    ev = load_evidence((EXAMPLES / "contradiction.txt").read_text())
    want = [7, 8, 9]
    assert [f.line for f in fast.minimal_core(ev)] == want
    assert [f.line for f in csp.minimal_core(ev)] == want
    assert [f.line for f in smt.unsat_core(ev)] == want
    report = analyse(ev)
    assert not report.consistent and [f.line for f in report.contradiction] == want


def test_deck_too_small_for_two_hands_is_a_contradiction() -> None:
    ev = parse_evidence("seats 8\nhand 1 wolf wolf\nhand 2 wolf sheep\nlook 3 4 dog\n")
    assert [f.line for f in fast.minimal_core(ev)] == [2, 3]


@given(evidence_about(min_players=4, max_players=5, min_facts=3, max_facts=10, lie_rate=0,
                      with_me=True))
def test_suggestion_is_the_best_suspicion(case: tuple[Evidence, object]) -> None:
    ev, _ = case
    post = fast.solve(ev)
    got = suggest(post, ev, ev.me or 1)
    assert isinstance(got, Suggestion)
    seats = post.seats
    others = [0, *(s for s in seats if s != got.seat)]

    def p_right(picks: tuple[int, ...]) -> Fraction:
        sus = Suspicion(got.targets, picks)
        return sum((p for vec, p in post.vectors.items()
                    if suspicion_correct(sus, got.seat, dict(zip(seats, vec, strict=True)))),
                   Fraction(0))

    best = max(p_right(tuple(pk)) for pk in product(others, repeat=len(got.targets)))
    assert got.probability == best == p_right(got.picks)
    assert got.early_points == 2 * best and got.error_risk == 1 - best


def test_report_json_shape() -> None:
    ev = load_evidence((EXAMPLES / "dummy4.txt").read_text())
    data = analyse(ev).to_json()
    assert data["dummy"] == 5 and data["consistent"] is True
    assert set(data["characters"]) == {"1", "2", "3", "4", "5"}
    for dist in data["characters"].values():
        assert abs(sum(dist.values()) - 1) < 1e-9 and all(v > 0 for v in dist.values())
    assert abs(sum(p for _, p in data["wolf_sets"]) - 1) < 1e-9
    assert data["wolf_sets"] == sorted(data["wolf_sets"], key=lambda x: -x[1])
    assert data["certain"]["2"] == "wolf"
    sug = data["suggestion"]
    # 160/171 is P(seat 5 is a Sheep): derived here by enumerating every deal (brute_force)
    assert sug["picks"] == {"sheep": 5} and sug["probability_exact"] == "160/171"
    assert brute_force(ev).marginals()[5][S] == Fraction(160, 171)
    assert fast.solve(ev) == csp.solve(ev) == smt.solve(ev)


def test_examples_engines_agree() -> None:
    for name in ("basic8.txt", "expert6.txt", "rulebook5.txt"):
        ev = load_evidence((EXAMPLES / name).read_text())
        assert fast.solve(ev) == csp.solve(ev), name
    ev = load_evidence((EXAMPLES / "expert6.txt").read_text())
    assert fast.solve(ev) == smt.solve(ev)


def test_compile_evidence_hand_types() -> None:
    p = compile_evidence(parse_evidence("seats 8\n"))
    assert len(p.kinds) == 7 and p.counts == (7, 2, 1, 2, 1, 1, 2)
    assert len(p.hand_types) == 7 * 6 // 2 + 4  # pairs of kinds + doubles of sheep/dog/hunter/wolf
