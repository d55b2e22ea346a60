"""The Woof!! fast engine's shortcuts against brute force over physical deals.

The fast engine merges card kinds no evidence line tells apart, gets every seat's character
distribution from a forward and a backward pass instead of listing the posterior, carries
only per-group class counts for interchangeable seats (wolf sets, suspicion scores), and
checks consistency by bit masks per line and a depth-first search over seats. Each shortcut
must give exactly the numbers of brute force over physical deals (docs/rules.md section 2's
evidence model: W1 characters, W4 looks, W5 answers), including decks with undealt cards.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb, prod

from helpers.scaling import examples
from helpers.woof_strategies import evidence_about
from hypothesis import given, settings

from fleece.rules.woof.cards import (
    Card,
    Character,
    Hand,
    QuestionCard,
    character_of,
    make_hand,
    parse_card,
)
from fleece.rules.woof.evidence import (
    AskFact,
    Evidence,
    Fact,
    HandFact,
    LookFact,
    SawFact,
    parse_evidence,
)
from fleece.solver.woof import csp, fast
from fleece.solver.woof.shared import Posterior, VectorWeights, compile_evidence, likelihood

W = Character.WOLF


def _seats_of(f: Fact) -> tuple[int, ...]:
    if isinstance(f, HandFact):
        return (f.seat,)
    if isinstance(f, AskFact):
        return (f.target,)
    assert isinstance(f, LookFact | SawFact)
    return (f.viewer, f.target)


def brute_force_by_kinds(ev: Evidence) -> Posterior:
    """Brute force over deals, card kinds at a time: seat after seat takes two of the cards
    left (C(r, 2) physical ways for a pair of one kind, r_a * r_b for two kinds), the cards
    left at the end are the undealt ones; a line is weighed (model.likelihood, the docs/rules.md
    section 2 evidence model) as soon as its seats have hands, and a zero cuts the branch.
    Counts physical deals directly, one branch per hand, without the fast engine's factorial
    formula, merged kinds, passes or grouped seats; the physical brute force of
    test_woof_solver lists each of those deals one by one (too slow with undealt cards)."""
    seats = list(ev.table.seat_numbers)
    left = Counter(ev.deck)
    kinds = sorted(left, key=Card.sort_key)
    due: dict[int, list[Fact]] = {s: [] for s in seats}
    for f in ev.facts:
        due[max(_seats_of(f), key=seats.index)].append(f)
    weights: dict[tuple[Character, ...], Fraction] = {}
    hands: dict[int, Hand] = {}

    def rec(i: int, weight: Fraction) -> None:
        if i == len(seats):
            vec = tuple(character_of(hands[s]) for s in seats)
            weights[vec] = weights.get(vec, Fraction(0)) + weight
            return
        seat = seats[i]
        for a, ka in enumerate(kinds):
            for kb in kinds[a:]:
                ways = comb(left[ka], 2) if ka == kb else left[ka] * left[kb]
                if not ways:
                    continue
                hands[seat] = make_hand(ka, kb)
                w = weight * ways * likelihood(due[seat], hands)
                if w:
                    left[ka] -= 1
                    left[kb] -= 1
                    rec(i + 1, w)
                    left[ka] += 1
                    left[kb] += 1
        hands.pop(seat, None)

    rec(0, Fraction(1))
    deals = prod(comb(len(ev.deck) - 2 * i, 2) for i in range(len(seats)))
    total = sum(weights.values(), Fraction(0))
    return Posterior.from_weights(seats, weights, total / deals)


def same_answers(a: Posterior, b: Posterior, seat: int | None = None) -> None:
    """Two posteriors agree on everything the analysis reads."""
    assert a.consistent == b.consistent
    assert a.evidence_probability == b.evidence_probability
    if not a.consistent:
        return
    assert a.marginals() == b.marginals()
    assert a.wolf_sets() == b.wolf_sets()
    assert a.certain() == b.certain()
    for s in ([seat] if seat is not None else a.seats[:2]):
        for targets in ((Character.DOG, Character.HUNTER), (Character.SHEEP,),
                        (Character.WOLF, Character.WOLF)):
            assert a.suspicion_scores(s, targets) == b.suspicion_scores(s, targets)


@settings(max_examples=examples(25))
@given(evidence_about(min_players=4, max_players=5, extra=3, min_facts=2, max_facts=6,
                      lie_rate=6, with_me=True))
def test_fast_equals_brute_force_with_undealt_cards(case: tuple[Evidence, object]) -> None:
    """Undealt cards, merged kinds (a third of these files have no look, so kinds merge by
    picture), the passes and the grouped class counts: all exact. (Seat `me`'s hand is
    known, so the brute force's branches stay few; evidence without lines is checked by
    hand below.)"""
    ev, _ = case
    got = fast.solve(ev)
    want = brute_force_by_kinds(ev)
    same_answers(got, want, ev.me)
    assert got == want  # the listed posterior too


@settings(max_examples=examples(40))
@given(evidence_about(min_players=4, max_players=5, extra=2, min_facts=2, max_facts=12,
                      lie_rate=4))
def test_support_check_equals_the_weighted_solve(case: tuple[Evidence, object]) -> None:
    """Consistency by masks and search = positive weight = the csp engine's answer; a
    minimal core is inconsistent and every line of it is needed."""
    ev, _ = case
    ok = fast.Support(ev).consistent(ev.facts)
    assert ok == fast.solve(ev).consistent == csp.consistent(ev)
    if not ok:
        core = fast.minimal_core(ev)
        assert core and not fast.solve(ev.with_facts(core)).consistent
        for i in range(len(core)):
            assert fast.solve(ev.with_facts(core[:i] + core[i + 1:])).consistent


def test_no_evidence_8_seats_by_hand() -> None:
    """16 basic cards, 8 seats, nothing known: P(seat has a Wolf card) = 1 - C(14,2)/C(16,2);
    the wolf sets are exchangeable: each pair of seats 1/C(8,2) of P(two wolf seats)."""
    post = fast.solve(parse_evidence("seats 8\n"))
    assert post.marginals()[3][W] == 1 - Fraction(comb(14, 2), comb(16, 2))
    sets = dict(post.wolf_sets())
    assert sum(sets.values()) == 1
    pairs = [p for ws, p in sets.items() if len(ws) == 2]
    assert len(pairs) == comb(8, 2) and len(set(pairs)) == 1
    # two wolf seats: the two Wolf cards at different seats, C(16,2)-style count by hand:
    # P(wolf cards apart) = 1 - P(same seat) = 1 - 8 / C(16, 2)
    assert sum(pairs) == 1 - Fraction(8, comb(16, 2))


def test_undealt_cards_by_hand() -> None:
    """`deck basic*2`: 32 cards, 16 dealt; a seat's two cards are a uniform pair of the 32:
    P(Wolf) = 1 - C(28,2)/C(32,2), P(Shepherd) = (pairs with a Shepherd card and no Wolf)."""
    post = fast.solve(parse_evidence("seats 8\ndeck basic*2\n"))
    m = post.marginals()[8]
    assert m[W] == 1 - Fraction(comb(28, 2), comb(32, 2))
    assert m[Character.SHEPHERD] == Fraction(comb(2, 2) + 2 * 26, comb(32, 2))
    assert post.evidence_probability == 1
    assert sum(p for _, p in post.wolf_sets()) == 1


def test_kinds_merge_only_when_no_line_tells_them_apart() -> None:
    plain = compile_evidence(parse_evidence("seats 8\ndeck basic expert\n"))
    assert len(plain.kinds) == 11
    assert len(fast.merge_kinds(plain).kinds) == 5  # one per picture
    looked = compile_evidence(parse_evidence("seats 8\ndeck basic expert\nlook 1 2 sheep\n"))
    assert len(fast.merge_kinds(looked).kinds) == 11  # appearances matter now
    named = compile_evidence(parse_evidence("seats 8\ndeck basic*2\nhand 1 dog? sheep\n"))
    merged = fast.merge_kinds(named)
    assert parse_card("dog?") in merged.kinds and parse_card("dog") in merged.kinds
    assert Counter(dict(zip(merged.kinds, merged.counts, strict=True)))[
        parse_card("hunter")] == 6  # hunter and hunter? merged: 4 + 2


def test_repeated_lines_are_powers() -> None:
    """The same look twice weighs like its square: evidence probability (45/2/120)^2-like
    check against brute force on a small table."""
    ev = parse_evidence("seats 4\ndeck sheep*4 dog hunter*2 hunter? shepherd? wolf\n"
                        "look 2 1 ?\nlook 2 1 ?\nlook 3 1 ?\n")
    assert fast.solve(ev) == brute_force_by_kinds(ev)


def test_contradiction_in_many_lines() -> None:
    """600 repeated consistent lines and two answers that cannot both be true: the core is
    exactly those two (q1 yes and q1 no about seat 2)."""
    lines = ["seats 8", "look 1 2 ?", "look 3 4 sheep"] * 1 + ["look 5 6 sheep"] * 300
    lines[3:3] = ["ask 1 2 q1 yes"]
    lines += ["look 7 8 sheep"] * 300 + ["ask 3 2 q1 no"]
    ev = parse_evidence("\n".join(lines) + "\n")
    core = fast.minimal_core(ev)
    assert [type(f) for f in core] == [AskFact, AskFact]
    assert {f.answer for f in core if isinstance(f, AskFact)} == {True, False}
    assert all(f.question is QuestionCard.Q1 for f in core if isinstance(f, AskFact))
    assert not any(isinstance(f, LookFact) for f in core)


def test_vector_weights_agree_with_the_fast_source() -> None:
    """Summing the listed vectors (VectorWeights) gives what the fast source sums directly."""
    ev = parse_evidence("seats 6\ndeck preset\nlook 1 2 wolf\nask 3 4 q2 no\n")
    post = fast.solve(ev)
    listed = Posterior(post.seats, None, post.evidence_probability,
                       source=VectorWeights(post.seats, post.vectors))
    same_answers(post, listed)
    for a, b in combinations(post.seats, 2):
        assert post.probability({a: W, b: W}) == listed.probability({a: W, b: W})
