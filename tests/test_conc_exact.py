"""K4 Concentration solved exactly, against independent computations: a brute force over
explicit layouts whose every turn the rules model plays (fleece.verify.cards.memory: places
and layouts, no kinds-and-counts model, nothing from the solver) for every deck of up to 8
cards and two of 10, solitaire and two players;
strategies replayed through the rules model over every layout; worked examples; the published
values (Velleman & Warrington, Foerster & Wattenhofer, Zwick & Paterson); bad input and
budgets."""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

import pytest
from helpers.clirun import invoke

from fleece.rules.cards.concentration import ConcentrationOptions, ConcState, Deal, Flip
from fleece.rules.cards.deck import Deck, arrangements, pairs, parse_deck
from fleece.rules.errors import BudgetExceeded, FleeceError, ParseError, RulesError
from fleece.solver.cards.concentration import (
    DEFAULT_MAX_STATES,
    KNOWN,
    MATCH,
    TOP_PAIR,
    TOP_PASS,
    Duel,
    Position,
    Table,
    canonical,
    choices,
    count_positions,
    natural_departure,
    pairs_values,
    parse_position,
    policy,
    position_text,
    runs,
    solve,
    solve_duel,
    solve_solitaire,
    zp_table,
)
from fleece.solver.deadline import Stopped
from fleece.verify.cards.memory import UNSEEN, LayoutSearch

# every deck of even kinds with at most 8 cards, then two of 10 (kind counts)
SMALL_DECKS = [(2,), (4,), (2, 2), (6,), (4, 2), (2, 2, 2), (8,), (6, 2), (4, 4), (4, 2, 2),
               (2, 2, 2, 2), (6, 4), (4, 4, 2)]


def _spec(counts: tuple[int, ...]) -> str:
    return ",".join(f"{chr(97 + i)}*{c}" for i, c in enumerate(counts))


@pytest.mark.parametrize("counts", SMALL_DECKS, ids=_spec)
def test_k4_solver_equals_brute_force_over_layouts(counts: tuple[int, ...]) -> None:
    """K4 with several copies of a kind: the exact solitaire and two-player values of the
    position model equal the search over explicit layouts (cards and places, perfect
    memory, known cards left face down, known pairs taken only by choice)."""
    deck = parse_deck(_spec(counts))
    for players in (1, 2):
        want = LayoutSearch(deck, players).value()
        assert solve(deck, players=players).value() == want, (counts, players)


def test_k4_two_fours_values_by_brute_force() -> None:
    """The deck a*4,b*4: 188/35 turns alone (a position model that takes a known pair at
    once gives 38/7), and -8/35 pairs for the first of two players."""
    deck = parse_deck("a*4,b*4")
    assert LayoutSearch(deck).value() == Fraction(188, 35)
    assert LayoutSearch(deck, 2).value() == Fraction(-8, 35)
    assert solve_solitaire(parse_deck("a*4,b*4")).expected_turns == Fraction(188, 35)
    assert solve_duel(parse_deck("a*4,b*4")).gain == Fraction(-8, 35)


def test_k4_cli_prints_the_exact_value() -> None:
    r = invoke(["cards", "concentration", "solve", "--deck", "a*4,b*4", "--json"])
    assert r.exit_code == 0, r.output
    assert '"expected_turns": "188/35"' in r.stdout


def test_k4_hand_example_known_pair_is_not_taken_first() -> None:
    """A kind with 4 left of which 2 known, and a pair never seen (deck a*4,b*2 with two a's
    seen): taking the known pair first costs 1 + E(two unknown pairs) = 1 + 8/3 = 11/3; a
    card never seen first: 7/2 (half the time an a, taken with a known a, leaving a known a
    and an unknown pair: 1 + 7/3; half the time a b, then another new card...). By brute
    force from that information state, and by the policy function."""
    brute = LayoutSearch(parse_deck("a*4,b*2"))
    obs = (0, 0, UNSEEN, UNSEEN, UNSEEN, UNSEEN)  # places 0 and 1 seen as kind a
    assert brute.value(obs) == Fraction(7, 2)
    assert brute.place_value(obs, 0, 1) == Fraction(11, 3)  # the known pair
    res = policy("4/2,2/0")
    values = {(c.choice, c.kind): c.value for c in res.choices}
    assert values[("take-pair", (4, 2))] == Fraction(11, 3)
    assert values[("unseen-first", None)] == Fraction(7, 2)
    assert res.value == Fraction(7, 2) and res.best == "unseen-first"
    assert res.natural == "take-pair 4/2" and not res.natural_optimal


def test_k4_every_choice_of_a_position_by_brute_force() -> None:
    """policy(): each choice's exact value at 4/1,2/1 (deck a*4,b*2, one a and one b
    seen) equals the brute force's value of that explicit turn."""
    brute = LayoutSearch(parse_deck("a*4,b*2"))
    obs = (0, 1, UNSEEN, UNSEEN, UNSEEN, UNSEEN)  # place 0 an a, place 1 the b
    res = policy("4/1,2/1")
    got = {(c.choice, c.kind): c.value for c in res.choices}
    # a known card first (place 0 or 1), then an unseen one (place 2)
    assert got[("known-first", (4, 1))] == brute.place_value(obs, 0, 2)
    assert got[("known-first", (2, 1))] == brute.place_value(obs, 1, 2)
    assert got[("pass", None)] == 1 + brute.value(obs)
    assert res.value == brute.value(obs)


def _position(state: ConcState, deck: Deck) -> Position:
    """A rules-model state as per-kind (cards left, known)."""
    assert state.layout is not None
    kinds = []
    for k in range(len(deck.kinds)):
        left = [i for i, c in enumerate(state.layout) if c == k and i not in state.removed]
        known = [i for i in left if i in state.seen]
        kinds.append((len(left), len(known)))
    return canonical(kinds)


Chooser = Callable[[ConcState], tuple[int, int | None]]


def _replay(deck: Deck, players: int, first_flip: Chooser,
            second_flip: Callable[[ConcState], int]) -> Fraction:
    """Average over every layout of a strategy played through the rules model: turns
    (solitaire) or player 1's pairs minus player 2's."""
    total, count = Fraction(0), 0
    for layout in arrangements(deck.counts):
        s = ConcState(ConcentrationOptions(deck, players, 500)).play(Deal(layout))
        while not s.is_terminal():
            p, q = first_flip(s)
            s = s.play(Flip(p))
            s = s.play(Flip(second_flip(s) if q is None else q))
        assert s.outcome is not None and s.outcome.value == "cleared"
        total += s.turns if players == 1 else s.pairs[0] - s.pairs[1]
        count += 1
    return total / count


def _places(s: ConcState) -> tuple[list[int], dict[int, list[int]]]:
    """Face-down places never seen, and the seen ones by kind."""
    assert s.layout is not None
    down = [i for i in range(len(s.layout)) if i not in s.removed and i != s.first]
    unseen = [i for i in down if i not in s.seen]
    known: dict[int, list[int]] = {}
    for i in down:
        if i in s.seen:
            known.setdefault(s.layout[i], []).append(i)
    return unseen, known


def _natural_first(s: ConcState) -> tuple[int, int | None]:
    unseen, known = _places(s)
    for places in known.values():
        if len(places) >= 2:
            return places[0], places[1]
    return unseen[0], None


def _natural_second(s: ConcState) -> int:
    assert s.layout is not None and s.first is not None
    unseen, known = _places(s)
    partner = known.get(s.layout[s.first], [])
    return partner[0] if partner else unseen[0]


def _table_strategy(table: Table, deck: Deck) -> tuple[Chooser, Callable[[ConcState], int]]:
    """The solver's stored policy as flips on a rules-model state (the position at the
    start of the turn picks the first card; the stored second choice for the first card's
    kind in that position picks the second)."""
    before: list[Position] = []

    def first(s: ConcState) -> tuple[int, int | None]:
        pos = _position(s, deck)
        before[:] = [pos]
        top, run = table.top(pos)
        unseen, known = _places(s)
        if top == TOP_PAIR:
            r, k_s = runs(pos)[run]
            assert s.layout is not None
            for k, places in known.items():
                left = len(places) + sum(1 for i in unseen if s.layout[i] == k)
                if (left, len(places)) == (r, k_s):
                    return places[0], places[1]
        assert top != TOP_PASS
        return unseen[0], None

    def second(s: ConcState) -> int:
        assert s.layout is not None and s.first is not None
        kind = s.layout[s.first]
        unseen, known = _places(s)
        left = sum(1 for i, c in enumerate(s.layout) if c == kind and i not in s.removed)
        was = (left, len(known.get(kind, [])))  # the first card's kind before it was seen
        choice = table.second(before[0], runs(before[0]).index(was))
        if choice == MATCH:
            return known[kind][0]
        if choice == KNOWN:
            return next(i for k, places in known.items() if k != kind for i in places)
        return unseen[0]

    return first, second


def test_k4_optimal_strategy_replayed_over_every_layout() -> None:
    """The stored optimal policy, played through the rules model on all 70 layouts of
    a*4,b*4, averages exactly 188/35 turns; the natural rule played the same way averages
    38/7, which is also the solver's value of the natural rule."""
    deck = parse_deck("a*4,b*4")
    table = solve(deck)
    first, second = _table_strategy(table, deck)
    assert _replay(deck, 1, first, second) == Fraction(188, 35)
    assert _replay(deck, 1, _natural_first, _natural_second) == Fraction(38, 7)
    assert solve(deck, natural=True).value() == Fraction(38, 7)


@pytest.mark.parametrize("spec", ["a*4,b*2,c*2", "a*6,b*2", "pairs:3"])
def test_k4_natural_rule_value_replayed(spec: str) -> None:
    """The solver's value of the natural rule equals the rule played through the rules
    model over every layout."""
    deck = parse_deck(spec)
    assert solve(deck, natural=True).value() == _replay(deck, 1, _natural_first,
                                                        _natural_second)


def test_k4_two_player_optimal_policy_replayed() -> None:
    """Both players following the stored two-player policy on every layout of a*4,b*4:
    player 1's pairs minus player 2's average -8/35 (no stalemate on this deck)."""
    deck = parse_deck("a*4,b*4")
    table = solve(deck, players=2)
    first, second = _table_strategy(table, deck)
    assert _replay(deck, 2, first, second) == Fraction(-8, 35)


def test_k4_smallest_deck_where_the_natural_rule_is_not_optimal() -> None:
    """Computed, not asserted: on every deck of up to 6 cards the natural rule, played
    through the rules model, reaches the brute-force optimum; on a*4,b*4 it does not, and
    natural_departure() names it (8 cards, fewest kinds first)."""
    for counts in [(2,), (4,), (2, 2), (6,), (4, 2), (2, 2, 2)]:
        deck = parse_deck(_spec(counts))
        assert _replay(deck, 1, _natural_first, _natural_second) == LayoutSearch(deck).value()
    found = natural_departure(8)
    assert found is not None
    deck, res = found
    assert deck.counts == (4, 4) and res.exception_count > 0
    assert res.natural_turns == Fraction(38, 7) and res.expected_turns == Fraction(188, 35)


def test_k4_policy_function_agrees_with_the_compiled_pass() -> None:
    """For every position of two decks, the Python enumeration of a turn's choices (each
    valued from the table) finds the value the compiled pass stored, and the stored choice
    is an optimal one."""
    for counts, players in (((4, 4, 2), 1), ((6, 2, 2), 2), ((2, 2, 2, 2), 2)):
        table = solve(counts, players=players)
        for rank in range(1, table.space.size):
            pos = table.space.position(rank)
            assert table.space.rank(pos) == rank
            res = choices(table, pos)
            assert res.value == table.value(pos), (counts, position_text(pos))
            assert res.natural_optimal == table.natural_optimal(pos)


# ---- published values ---------------------------------------------------------------------


def test_k4_velleman_warrington_small_values() -> None:
    """Velleman & Warrington (arXiv:1208.4854): E(1) = 1, E(2) = 8/3, E(3) = 13/3."""
    assert pairs_values(3) == [Fraction(1), Fraction(8, 3), Fraction(13, 3)]


def test_k4_velleman_warrington_asymptote_and_foerster_wattenhofer_bounds() -> None:
    """V&W: E(n) - ((3 - 2 ln 2) n + 7/8 - 2 ln 2) -> 0; Foerster & Wattenhofer ("The
    Solitaire Memory Game"): 1.5 n - 1 <= E(n) < 1.75 n."""
    values = pairs_values(60)
    c = 3 - 2 * math.log(2)
    gaps = [float(e) - (c * n + 7 / 8 - 2 * math.log(2)) for n, e in enumerate(values, 1)]
    assert all(1.5 * n - 1 <= e < 1.75 * n for n, e in enumerate(values, 1))
    assert abs(gaps[-1]) < 0.002 and abs(gaps[-1]) < abs(gaps[19]) < abs(gaps[4])


# Zwick & Paterson, "The memory game", Theoretical Computer Science 110 (1993) 169-196: the
# optimal move for n pairs and k = 0..n known cards (0 pass, 1 one new card, 2 two new).
ZP_TABLE = {1: "21", 2: "221", 3: "2121", 4: "22121", 5: "212101", 6: "2112101",
            7: "21212101", 8: "221212101", 9: "2121212101", 10: "22121212101",
            11: "212121210101", 12: "2212121210101", 13: "21212121210101",
            14: "221212121210101", 15: "2121212121210101"}


def test_k4_zwick_paterson_move_table() -> None:
    duel = Duel(pairs(15))
    assert {n: zp_table(duel, n) for n in ZP_TABLE} == ZP_TABLE


def test_k4_two_pairs_by_hand() -> None:
    """Two pairs, two players: the first player's two new cards match with probability 1/3
    and it takes both pairs; otherwise the second player knows one card of each kind and
    takes both: 1/3 * 2 - 2/3 * 2 = -2/3."""
    r = solve_duel(pairs(2))
    assert r.gain == Fraction(-2, 3) and r.outcomes is not None
    assert r.outcomes["first"] == Fraction(1, 3) and r.outcomes["second"] == Fraction(2, 3)


def test_k4_zwick_paterson_second_player_advantage() -> None:
    """The first player's expected gain is negative for n = 8, 10, 12 (about -0.033, -0.038,
    -0.020 pairs, as reported from Zwick & Paterson's model)."""
    for n, approx in ((8, -0.033), (10, -0.038), (12, -0.020)):
        assert abs(float(Duel(pairs(n)).gain()) - approx) < 0.0006


def test_k4_two_player_outcomes_add_up() -> None:
    """The exact split of wins, losses, ties and stalemates under optimal play sums to 1,
    and its expected pair difference is the game's value only through the policy (the
    split of a*4,b*4: 11/35, 12/35, 12/35)."""
    for spec in ("pairs:4", "pairs:6", "a*4,b*2,c*2"):
        r = solve_duel(parse_deck(spec))
        assert r.outcomes is not None and sum(r.outcomes.values()) == 1
    r = solve_duel(parse_deck("a*4,b*4"))
    assert r.outcomes == {"first": Fraction(11, 35), "second": Fraction(12, 35),
                          "tie": Fraction(12, 35), "stalemate": Fraction(0)}


def test_k4_mccord_deck_exact_optimum() -> None:
    """McCord's 52 cards (8, 8, 10, 8, 8, 4, 4, 2 per kind), 16,753,158 positions: the exact
    optimal expected number of turns (a regression value from this solver; the method is
    checked against the brute force above). The natural rule is not optimal at positions
    met with probability above 0.999 under optimal play."""
    r = solve_solitaire(parse_deck("wolf"))
    assert r.expected_turns == Fraction(210709969681301475377054281209557756213,
                                        5431896894238077315025834898834671875)
    assert r.positions == 16_753_158 and r.exception_count > 0 and r.p_departure > 0.999


# ---- positions, budgets, bad input --------------------------------------------------------


def test_position_text_round_trip_and_errors() -> None:
    pos = parse_position("2/0*3, 4/2")
    assert pos == ((4, 2), (2, 0), (2, 0), (2, 0))
    assert parse_position(position_text(pos)) == pos
    for bad in ("3/1", "4/5", "x", "2/0*0", "", "0/0"):
        with pytest.raises(ParseError):
            parse_position(bad)


@pytest.mark.parametrize("deck,message", [
    ((3, 2), "even"), ((), "even"), ((2, 0), "even")])
def test_bad_decks_are_one_line_errors(deck: tuple[int, ...], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        solve(deck)


def test_odd_and_empty_decks_through_the_deck_api() -> None:
    with pytest.raises(FleeceError, match="even count"):
        solve_solitaire(parse_deck("a*3,b*1"))


def test_budget_names_the_limit_before_any_work() -> None:
    """McCord's deck against a small state budget; a deck far beyond any budget is refused
    at once (its count overflows floats, no big numbers are built)."""
    assert count_positions(parse_deck("wolf")) == 16_753_158 <= DEFAULT_MAX_STATES
    with pytest.raises(BudgetExceeded, match=r"16,753,158 positions.*budget of 3,000,000"):
        solve(parse_deck("wolf"), max_states=3_000_000)
    with pytest.raises(BudgetExceeded, match="memory"):
        solve(parse_deck("wolf"), max_memory=10**6)
    with pytest.raises(BudgetExceeded) as huge:
        solve([40] * 13)
    assert "\n" not in str(huge.value)


def test_progress_and_time_budget() -> None:
    """A solve reports its progress (positions done, up to all of them) and stops at its
    time budget between compiled chunks."""
    seen: list[int] = []
    table = solve(pairs(40), progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == table.space.size
    with pytest.raises(Stopped, match="no answer within"):
        solve(pairs(60), timeout=1e-9)
