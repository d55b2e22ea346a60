"""Mutton solver: hand-counted cases for every deduction clause (D1-D9), the help page's
example, explanations, advice, cores, the Wolf model, and JSON input."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from math import comb
from pathlib import Path

import pytest

from fleece.rules.errors import FleeceError, ParseError
from fleece.rules.mutton.chart import Chart, ChartRow, Status, parse_chart, render_paste
from fleece.rules.mutton.options import load_dictionary
from fleece.solver.mutton import (
    ENGINES,
    Kind,
    advise,
    count_sets,
    enumerate_sets,
    explain,
    problem_from_chart,
    problem_from_json,
    problem_from_record,
    problem_from_text,
    solve,
)
from fleece.solver.mutton.explain import derive
from fleece.solver.mutton.fast import brute_force
from fleece.solver.mutton.wolf_prior import likelihood

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "mutton"
HELP = (EXAMPLES / "helppage.txt").read_text()

A, S, D, W, E, X = (Status.ALIVE, Status.DEAD_SHEEP, Status.DEAD_WOLF, Status.DEAD,
                    Status.ESCAPED, Status.DEAD)


def chart(status: str, rows: list[tuple[int, str, str]] = (), *, reveal: bool = True,  # type: ignore[assignment]
          score: int | None = None) -> Chart:
    """A chart from a compact status string (. alive, x dead sheep / dead, w dead wolf,
    e escaped) and rows (round, victim, runners)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[: len(status)]
    m = {".": A, "w": D, "e": E, "x": S if reveal else X}
    return Chart(letters, tuple(m[c] for c in status),
                 tuple(ChartRow(r, v, frozenset(rs)) for r, v, rs in rows), reveal=reveal,
                 score=score)


def all_engines(problem):  # type: ignore[no-untyped-def]
    sols = [solve(problem, e) for e in ENGINES]
    for s in sols[1:]:
        assert s.count == sols[0].count
        assert s.wolf_counts == sols[0].wolf_counts
    return sols[0]


# ---- the help page -----------------------------------------------------------------------------


def test_help_page_counts_and_probabilities_exactly() -> None:
    p = problem_from_text(HELP)
    s = all_engines(p)
    # Rounds: 1 (H eaten) runners F J V, J a dead sheep: {F, V}; 2 (J eaten) C D S, D and S
    # dead sheep: C; 3 (W eaten) D F L N Z: {F, L, N, Z}. C is forced; then 3 more of the 20
    # other living candidates hitting {F,V} and {F,L,N,Z}: with F C(19,2)=171, without F: V
    # plus one of L,N,Z: C(18,2)-C(15,2)=48. Sets with F: 171, so P(F) = 171/219 = 57/73;
    # with V: F, V and one of 18 others (18) or all 48 without F: 66/219 = 22/73; with L: 18
    # with F, and V, L plus one of the 17 others without F: 35/219; with A: 18 with F, 3
    # without (A, V and one of L, N, Z): 21/219 = 7/73.
    assert s.count == 171 + 48 == 219
    assert s.certain_wolves == ("C",)
    assert s.cleared == ("D", "H", "J", "S", "W")
    assert s.probability("F") == Fraction(57, 73)
    assert s.probability("V") == Fraction(22, 73)
    assert s.probability("L") == Fraction(35, 219)
    assert s.probability("A") == Fraction(7, 73)
    assert sum(s.probabilities().values()) == 4
    assert count_sets(p) == 219
    assert len(enumerate_sets(p)) == 219
    assert len(brute_force(p.animals, p.facts, 4)) == 219


def test_help_page_reason_for_c() -> None:
    p = problem_from_text(HELP)
    s = solve(p)
    why = explain(p, s)
    assert why["C"] == ("round 2's runners were C, D and S; D and S were shot as sheep, so C "
                        "killed J")
    assert set(why) == {"C", "D", "H", "J", "S", "W"}


def test_help_page_advice() -> None:
    p = problem_from_text(HELP)
    s = solve(p)
    adv = advise(p, s)
    assert adv.best_shot == "C"
    assert adv.best_probability == 1
    # Independently of the solver: the berserk set is every living animal that is a wolf in
    # some brute-force set. The dead are D H J S W (all sheep), so the 4 wolves live and the
    # other 21 animals are all possible: a volley on the 21 kills 21 - 4 = 17 sheep, in the
    # worst case and in expectation.
    sets = brute_force(p.animals, p.facts, 4)
    living = [a for a in p.animals if a not in "DHJSW"]
    assert adv.berserk_set == tuple(a for a in living if any(a in w for w in sets))
    assert len(adv.berserk_set) == 21 == len(living)
    assert adv.living_wolves == (4, 4)
    assert adv.sheep_cost_worst == 17
    assert adv.sheep_cost_expected == 17


def test_help_page_score_line_is_a_fact() -> None:
    p = problem_from_text(HELP)
    score = next(f for f in p.facts if f.key == "score")
    assert (score.kind, score.lo, score.hi) == (Kind.COUNT, 0, 0)


def test_help_page_passed_is_inconsistent_with_a_core() -> None:
    # On the help page's board C (g5) stands next to Q and U, whose kills are legal: a pass
    # would clear C, but round 2 needs C.
    p = problem_from_text(HELP, passed=True)
    for e in ENGINES:
        s = solve(p, e)
        assert s.count == 0
        keys = {f.key for f in s.core}
        assert keys == {"status D", "status S", "row 2", "pass now C"}, e


# ---- clause by clause ------------------------------------------------------------------------


def test_d5_one_row() -> None:
    # 6 animals, 2 wolves, one row run by A and B: all pairs meeting {A, B}.
    p = problem_from_chart(chart(".....x", [(1, "F", "AB")]), 2)
    s = all_engines(p)
    assert s.count == comb(5, 2) - comb(3, 2) == 7
    assert s.probability("A") == Fraction(4, 7)  # AB, AC, AD, AE
    assert s.probability("C") == Fraction(2, 7)  # AC, BC


def test_d1_d2_d3_statuses() -> None:
    p = problem_from_chart(chart("wex....."), 3)
    s = all_engines(p)
    assert s.count == 5  # A, B fixed; one of D..H
    assert s.certain_wolves == ("A", "B")
    assert s.cleared == ("C",)
    assert s.berserk_set == ("D", "E", "F", "G", "H")


def test_victim_may_be_a_wolf_but_not_its_own_killer() -> None:
    # A (dead wolf) was eaten in round 1 with B running: B is the killer, A cannot be.
    p = problem_from_chart(chart("w.....", [(1, "A", "B")]), 2)
    s = all_engines(p)
    assert s.count == 1 and s.certain_wolves == ("A", "B")
    assert explain(p, s)["B"] == "B was the only runner in round 1, so B killed A"


def test_dead_sheep_runner_cannot_be_the_killer() -> None:
    p = problem_from_chart(chart("xx......", [(1, "A", "BC")]), 2)
    s = all_engines(p)
    assert s.certain_wolves == ("C",)
    assert explain(p, s)["C"] == ("round 1's runners were B and C; B was shot as a sheep, so "
                                  "C killed A")


def test_no_reveal_dead_animals_may_be_wolves_but_not_all_wolves_dead() -> None:
    # A, B dead (unrevealed), C, D alive, 2 wolves: every pair but {A, B} (D6).
    p = problem_from_chart(chart("xx..", reveal=False), 2)
    assert p.game_running()
    s = all_engines(p)
    assert s.count == comb(4, 2) - 1 == 5
    assert s.probability("A") == Fraction(2, 5)
    assert s.probability("C") == Fraction(3, 5)


def test_no_reveal_runner_that_died_later_can_be_the_killer() -> None:
    # B ran in round 1 and died later (unrevealed): it may have been the killer.
    p = problem_from_chart(chart("xx....", [(1, "A", "B")], reveal=False), 1)
    s = all_engines(p)
    # 1 wolf: B killed A, but the game is running, so B (dead) cannot be the only wolf.
    assert s.count == 0
    assert {f.key for f in s.core} == {"row 1", "running", "wolves"}
    p2 = problem_from_chart(chart("xx....", [(1, "A", "BC")], reveal=False), 1)
    assert solve(p2).certain_wolves == ("C",)


def test_d7_score_under_no_reveal() -> None:
    # 2 dead (unrevealed), score 1: exactly one dead sheep, so exactly one dead wolf.
    p = problem_from_chart(chart("xx..", reveal=False, score=1), 2)
    s = all_engines(p)
    assert s.count == 4  # one of A,B with one of C,D
    assert s.probability("A") == Fraction(1, 2)
    p0 = problem_from_chart(chart("xx....", reveal=False, score=2), 2)
    s0 = solve(p0)
    assert s0.cleared == ("A", "B")
    assert explain(p0, s0)["A"].startswith("the score is 2")


def test_d7_score_mismatch_under_reveal_is_inconsistent() -> None:
    p = problem_from_chart(chart("xx....", score=3), 2)
    s = all_engines(p)
    assert s.count == 0
    assert {f.key for f in s.core} == {"score"}


def test_d7_escaped_wolves_score_three() -> None:
    # A escaped (3 points) and B is a dead sheep (1 point): score 4.
    assert solve(problem_from_chart(chart("ex....", score=4), 2)).count == 4
    assert solve(problem_from_chart(chart("ex....", score=1), 2)).count == 0


def test_escaped_option_marks_letters() -> None:
    c = chart("x.......", reveal=False)
    p = problem_from_chart(c, 2, escaped="A")
    assert p.status("A") is Status.ESCAPED
    assert solve(p).certain_wolves == ("A",)
    assert p.notes
    with pytest.raises(FleeceError):
        problem_from_chart(chart("x.....", [(1, "A", "B")]), 2, escaped="A")
    with pytest.raises(FleeceError):
        problem_from_chart(c, 2, escaped="Z")


def test_d8_dictionary() -> None:
    words = load_dictionary("ace\nbad\ncab\nfed\nabc\nbee\n", 3)
    assert frozenset("ABC") in words and len(words) == 4  # ACE, BAD, ABC(=CAB), FED
    p = problem_from_chart(chart("......", [(1, "F", "AB")]), 3, dictionary=words)
    s = all_engines(p)
    # ACE, BAD, ABC meet {A,B}; FED does not... it does not contain A or B.
    assert s.count == 3
    assert s.probability("A") == 1
    assert s.certain_wolves == ("A",)
    assert len(enumerate_sets(p)) == 3


def _board_chart(cells: dict[str, str], size: int, status: str,
                 rows: list[tuple[int, str, str]] = (),  # type: ignore[assignment]
                 corpses: tuple[str, ...] = ()) -> Chart:
    """A chart with a board, written out as a paste and read back by the pbmserv reader."""
    from dataclasses import replace

    from fleece.rules.mutton.diagram import BoardPicture
    from fleece.rules.mutton.geometry import board

    b = board(size)
    pic = BoardPicture(size, {a: b.cell(c) for a, c in cells.items()},
                       frozenset(b.cell(c) for c in corpses))
    return parse_chart(render_paste(replace(chart(status, rows), board=pic)))


def test_d9_passed_clears_neighbours_of_legal_victims() -> None:
    # Size-2 board (7 cells): A (a1) and B (a2) are neighbours, C (c3) stands alone. Eating A
    # is legal (B can run to b3 or c2), so after a pass neither A nor B is a wolf.
    c = _board_chart({"A": "a1", "B": "a2", "C": "c3"}, 2, "...")
    p = problem_from_chart(c, 1, passed=True)
    assert {f.key for f in p.facts if f.clause == "D9"} == {"pass now A", "pass now B"}
    s = all_engines(p)
    assert s.count == 1 and s.certain_wolves == ("C",)
    assert s.count == brute_from_rules(p)
    assert "passed this turn although A stood next to B" in explain(p, s)["A"]


def test_d9_a_runner_shared_by_two_kills_clears_the_other_runners_too() -> None:
    """Size 3, A B C D in a line on c1-c4, E alone on a3; one wolf. Every kill is placeable,
    so after a pass every neighbour of a victim is a sheep: B (next to A), A and C (next to
    B), D (next to C, whose runners are B, already cleared, and D). Only E may be the wolf."""
    c = _board_chart({"A": "c1", "B": "c2", "C": "c3", "D": "c4", "E": "a3"}, 3, ".....")
    p = problem_from_chart(c, 1, passed=True)
    assert {f.key for f in p.facts if f.clause == "D9"} == {
        "pass now A", "pass now B", "pass now C", "pass now D"}
    s = all_engines(p)
    assert s.count == 1 and s.certain_wolves == ("E",)


def test_d9_unplaceable_kill_does_not_clear() -> None:
    """Size 2, corpses on b3 and c2, E a dead sheep. Eating A (a1) makes B and D run, but every
    cell away from a1 is a corpse or holds C; eating B (a2) needs A placed on b1, c2 or c3 and
    eating D (b1) needs A placed on a2, b3 or c3: all taken. C (c3) touches only corpses and
    the empty b2, so no kill is legal for any wolf set (M10): the pass clears no one, B stays
    a candidate, and the sets are all C(4, 2) = 6 pairs of A-D (B in 3 of them)."""
    c = _board_chart({"A": "a1", "B": "a2", "C": "c3", "D": "b1"}, 2, "....x",
                     corpses=("b3", "c2"))
    p = problem_from_chart(c, 2, passed=True)
    assert not [f for f in p.facts if f.clause == "D9"]
    s = all_engines(p)
    assert s.count == 6 == brute_from_rules(p)
    assert s.probability("B") == Fraction(1, 2)
    assert "B" in s.berserk_set


def test_passed_needs_the_board() -> None:
    with pytest.raises(FleeceError):
        problem_from_chart(chart("...."), 1, passed=True)


def brute_from_rules(problem) -> int:  # type: ignore[no-untyped-def]
    """Count sets of K living... by the rules model: a pass is legal iff no legal kill."""
    from dataclasses import replace

    from fleece.solver.mutton.problem import state_from_chart

    state = state_from_chart(problem.chart)
    n = 0
    for combo in combinations(problem.animals, problem.num_wolves):
        w = frozenset(combo)
        if not all(f.holds(w) for f in problem.facts if f.clause != "D9"):
            continue
        if replace(state, wolves=w).legal_kills():
            continue
        n += 1
    return n


def test_d4_too_many_dead_wolves() -> None:
    p = problem_from_chart(chart("www..."), 2)
    s = all_engines(p)
    assert s.count == 0
    # Every dead wolf is needed: with any two of them the chart fits.
    assert {f.key for f in s.core} == {"status A", "status B", "status C", "wolves"}


def test_listing_engines_refuse_huge_charts() -> None:
    p = problem_from_chart(chart("." * 26), 13)
    assert count_sets(p) == comb(26, 13)
    for e in ("csp", "smt"):
        with pytest.raises(FleeceError, match="use --engine fast"):
            solve(p, e)
    assert solve(p).count == comb(26, 13)


def test_wolves_option_range() -> None:
    with pytest.raises(FleeceError):
        problem_from_chart(chart("...."), 3)
    with pytest.raises(FleeceError):
        problem_from_chart(chart("...."), 0)


# ---- explanations ------------------------------------------------------------------------------


def test_counting_rule_clears_outside_disjoint_rows() -> None:
    # 2 wolves, rounds 1 and 2 with disjoint runners {A,B} and {C,D}: E, F are cleared (E4).
    p = problem_from_chart(chart("......xx", [(1, "G", "AB"), (2, "H", "CD")]), 2)
    s = solve(p)
    assert s.cleared == ("E", "F", "G", "H")
    why = explain(p, s)
    assert "ran in none of those rounds" in why["E"]
    assert "rounds 1 and 2" in why["E"]


def test_single_row_packing() -> None:
    # 1 wolf, rows {A,B} and {A,C}: the wolf ran in round 1, so C and D are cleared (E4);
    # then A is round 2's only runner left (E2) and B is cleared (E3).
    p = problem_from_chart(chart("....xx", [(1, "E", "AB"), (2, "F", "AC")]), 1)
    s = all_engines(p)
    assert s.certain_wolves == ("A",)
    why = explain(p, s)
    assert why["C"] == ("the only wolf not yet known must be round 1's killer, and C did not "
                        "run in round 1")
    assert why["A"] == "round 2's runners were A and C; C is cleared (above), so A killed F"
    assert why["B"] == "the only wolf is known (A)"


def test_what_if_rule() -> None:
    # 2 wolves, rows {A,B}, {A,C}, {A,D}: without A three killers would be needed (E5).
    p = problem_from_chart(chart("......xxx", [(1, "G", "AB"), (2, "H", "AC"), (3, "I", "AD")]),
                           2)
    s = all_engines(p)
    assert s.count == 5 and s.certain_wolves == ("A",)
    why = explain(p, s)
    assert why["A"] == ("if A were a sheep, rounds 1, 2 and 3 would need 3 different killers "
                        "(no possible killer ran in two of them), but only 2 wolves are unknown")


def test_count_rule_all_wolves_known() -> None:
    p = problem_from_chart(chart("w.....xx", [(1, "G", "B"), (2, "H", "CB")]), 2)
    s = solve(p)
    assert s.certain_wolves == ("A", "B")
    why = explain(p, s)
    assert why["C"] == "all 2 wolves are known (A and B)"


def test_fallback_reason() -> None:
    # Only the dictionary decides: no rule derives it.
    words = load_dictionary("ab\ncd\nac\n", 2)
    p = problem_from_chart(chart("......", [(1, "F", "AB")]), 2, dictionary=words)
    s = solve(p)
    why = explain(p, s)
    assert s.certain_wolves == ("A",)
    assert why["A"] == ("every letter set of the word list that fits the chart contains A "
                        "(AB, AC)")
    assert why["D"] == "no letter set of the word list that fits the chart contains D (AB, AC)"
    assert all(r.letter in s.certain_wolves or r.letter in s.cleared for r in derive(p))


# ---- records and the Wolf model --------------------------------------------------------------


RECORD = """\
-size=3 -num_sheep=8 -num_wolves=2 -reveal -no_escape
a1,a2,a3,b1,b4,c1,c5,e3
wolves=AH
B:A-c3,C-d4
pass
"""


def test_record_problem_and_model() -> None:
    p = problem_from_record(RECORD)
    assert p.is_record and p.turns is not None
    assert [t.move for t in p.turns] == ["kill"]
    s = all_engines(p)
    assert "A" in s.possible_wolves and "H" in s.possible_wolves
    assert s.model is not None and s.model.available
    truth = frozenset("AH")
    assert all(f.holds(truth) for f in p.facts)
    assert likelihood(p, truth) > 0
    # The model posterior is the likelihood-weighted share over the brute-force sets.
    sets = brute_force(p.animals, p.facts, 2)
    total = sum((likelihood(p, w) for w in sets), Fraction(0))
    assert s.model.total == total
    for a in p.animals:
        share = sum((likelihood(p, w) for w in sets if a in w), Fraction(0)) / total
        assert s.model.probability(a) == share


def test_record_wolves_option_must_match_the_record() -> None:
    """--wolves with a record must say what the record's options say (more or fewer is an
    error); the same number is accepted."""
    from fleece.solver.mutton.inputs import problem_from_record

    assert problem_from_record(RECORD, wolves=2).num_wolves == 2
    for k in (1, 3):
        with pytest.raises(FleeceError, match="contradicts the record's options"):
            problem_from_record(RECORD, wolves=k)


def test_smt_engine_splits_its_enumeration_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    """The smt engine lists at most ENUM_LIMIT sets in one solver scope, then splits the
    scope on the next animal; with a limit of 7 the help page's 219 sets are still counted
    exactly, each once (the same counts as the fast engine)."""
    from fleece.solver.mutton import smt

    monkeypatch.setattr(smt, "ENUM_LIMIT", 7)
    p = problem_from_text(HELP)
    want = solve(p)
    got = solve(p, "smt")
    assert (got.count, got.wolf_counts) == (want.count, want.wolf_counts) == (
        219, want.wolf_counts)


def test_record_rejects_chart_options() -> None:
    with pytest.raises(FleeceError):
        problem_from_text(RECORD, passed=True)
    with pytest.raises(FleeceError):
        problem_from_record(RECORD, wolves=3)


# ---- JSON input ----------------------------------------------------------------------------------


def test_json_chart_round_trip() -> None:
    c = parse_chart(HELP)
    p = problem_from_json(json.dumps(c.to_json()))
    assert solve(p).count == 219
    p2 = problem_from_text(json.dumps({"paste": HELP, "wolves": 4}))
    assert solve(p2).count == 219
    p3 = problem_from_text(json.dumps({"record": RECORD}))
    assert p3.is_record
    p4 = problem_from_text(json.dumps({"wolves": 5, "chart": c.to_json()}))  # puzzle files
    assert p4.num_wolves == 5 and solve(p4).count > 219


def test_json_chart_inside_a_puzzle_keeps_its_own_reveal() -> None:
    """A puzzle file's `chart` with "reveal": false is read with hidden identities even when
    the outer object says nothing (x = dead, identity unknown)."""
    c = parse_chart("Sheep   : x B C D E", reveal=False)
    p = problem_from_json(json.dumps({"wolves": 2, "chart": c.to_json()}))
    assert not p.reveal and p.chart.status_of("A") is Status.DEAD
    assert solve(p).count == 10  # any 2 of the 5, A included (worked in test_advice_boundaries)


def test_json_puzzle_twin_fields_are_checked() -> None:
    """An object that says it is a puzzle twin must say it is a fleece Mutton puzzle."""
    chart_json = parse_chart(HELP).to_json()
    for fmt, game in (("other", "mutton"), ("fleece-puzzle", "woof")):
        with pytest.raises(ParseError, match="not a Mutton input"):
            problem_from_json(json.dumps({"format": fmt, "game": game, "wolves": 4,
                                          "chart": chart_json}))
    ok = problem_from_json(json.dumps({"format": "fleece-puzzle", "game": "mutton",
                                       "wolves": 4, "chart": chart_json}))
    assert solve(ok).count == 219


def test_wolf_model_skipped_above_its_limit_reports_nothing() -> None:
    """A record's Wolf-model posterior over more consistent sets than its limit is skipped:
    no sets, no weights, a reason."""
    p = problem_from_text(RECORD)
    s = solve(p, model_limit=1)
    assert s.model is not None and s.model.skipped
    assert (s.model.sets, s.model.total, s.model.weights) == (0, 0, {})


def test_json_errors() -> None:
    with pytest.raises(ParseError):
        problem_from_text("{not json")
    with pytest.raises(ParseError):
        problem_from_text(json.dumps({"animals": "ABC", "rows": [{"round": 1}]}))
    with pytest.raises(ParseError):
        problem_from_text(json.dumps({"animals": "ABCD", "status": {"A": "zombie"}}))


def test_bundled_examples_agree_across_engines() -> None:
    seen = 0
    for path in sorted(EXAMPLES.iterdir()):
        if path.suffix not in (".txt", ".json", ".rec") or path.name == "words.txt":
            continue
        text = path.read_text()
        if "illegal" in path.name:
            with pytest.raises(ParseError):
                problem_from_text(text)
            continue
        p = problem_from_text(text)
        sols = [solve(p, e) for e in ENGINES]
        for s in sols[1:]:
            assert (s.count, s.wolf_counts) == (sols[0].count, sols[0].wolf_counts), path.name
        if sols[0].count == 0:
            assert [f.key for f in sols[1].core] == [f.key for f in sols[0].core]
        seen += 1
    assert seen >= 8


def test_example_word_list_with_the_help_page() -> None:
    words = load_dictionary((EXAMPLES / "words.txt").read_text(), 4)
    p = problem_from_text(HELP, dictionary=words)
    s = all_engines(p)
    assert sorted("".join(sorted(w)) for w in enumerate_sets(p)) == ["ACEF", "ACFL", "ACFT",
                                                                     "CEFL"]
    assert s.certain_wolves == ("C", "F")


def test_what_if_single_wolf_left() -> None:
    # 2 wolves, rows {A,D}, {A,E,F}, {D,F}: if B were a wolf, one wolf would have to run in all
    # three rounds, and no animal did (E5); the sets are AD, AF, DE, DF.
    p = problem_from_chart(chart(".......xxx", [(1, "H", "AD"), (2, "I", "AEF"), (3, "J", "DF")]),
                           2)
    s = all_engines(p)
    assert s.count == 4 and s.cleared == ("B", "C", "G", "H", "I", "J")
    why = explain(p, s)
    assert why["B"] == ("if B were a wolf, the one wolf left would have run in each of rounds 1, "
                        "2 and 3, and no animal that can be a wolf ran in all of them")
