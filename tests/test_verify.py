"""Tests of the verifier: the Z3 encoding against the Python geometry, invariant proofs that
can fail, M10 gaps, claims C1-C4, termination, the cross-check, reports, trace and CLI."""

from __future__ import annotations

import importlib
import json
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
import z3
from helpers.clirun import invoke
from helpers.scaling import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from fleece.rules.errors import FleeceError
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.geometry import Cell, board
from fleece.rules.mutton.moves import ChooseWolves, PlaceCells
from fleece.rules.mutton.options import MuttonOptions
from fleece.rules.mutton.simulate import random_move
from fleece.verify import mutton, trace
from fleece.verify.mutton import claims, gaps, invariants, termination
from fleece.verify.mutton.crosscheck import PositionChecker, crosscheck, to_concrete
from fleece.verify.mutton.encoding import (
    KILL,
    Variant,
    adjacent,
    board_cells,
    invariant,
    obligations,
    on_board,
    one_step,
    symbolic_state,
)
from fleece.verify.report import (
    GENERATOR_LINE,
    Report,
    report_stem,
    summary_table,
    to_json,
    to_junit,
    to_markdown,
    write_reports,
)
from fleece.verify.result import FAILED, GAP, PASSED, PROVED, REFUTED, CheckResult


def test_m1_m2_m3_z3_geometry_matches_the_python_board() -> None:
    """M1-M3: the Z3 encoding's cells, board test and adjacency equal rules.mutton.geometry."""
    for size in range(2, 9):
        b = board(size)
        cells = board_cells(size)
        assert cells == [(c.row, c.diag) for c in b.cells]
        assert len(cells) == 3 * size * (size - 1) + 1
        for r in range(-1, 2 * size + 1):
            for d in range(-1, 2 * size + 1):
                inside = z3.is_true(z3.simplify(on_board(size, z3.IntVal(r), z3.IntVal(d))))
                assert inside == ((r, d) in cells)
        for c in b.cells[:: max(1, len(b.cells) // 12)]:
            near = {x for x in cells if z3.is_true(z3.simplify(adjacent(
                z3.IntVal(c.row), z3.IntVal(c.diag), z3.IntVal(x[0]), z3.IntVal(x[1]))))}
            assert near == {(n.row, n.diag) for n in b.neighbours(c)}


def test_m8_m9_invariant_proofs_hold_for_a_size() -> None:
    """The inductive proofs of every obligation go through for size 3 (M8, M9, M20).

    13 distinct move relations over the 32 option combinations, by hand: a relation is (kind,
    corpses removed, shotgun shot). Kill, Wolf pass, Farmer pass and escape each come with
    corpses kept or removed: 8; a shot with the rifle (kept or removed) or the shotgun (always
    removed, M17): 3; berserk only with the rifle, kept or removed: 2."""
    base = invariants.sized(Variant(), 3)
    keys = {k for v in invariants.option_combinations(base) for k in invariants.step_keys(v)}
    assert len(keys) == 4 * 2 + 3 + 2 == 13
    proofs = invariants.prove_all(keys, workers=1)
    assert all(o.proved for o in proofs.values())
    res = invariants.results_for(invariants.option_combinations(base), proofs)
    assert {r.name.split("/")[1] for r in res} == set(invariants.OBLIGATIONS)
    assert all(r.outcome == PROVED for r in res)


def test_m20_invariant_prover_catches_a_broken_move() -> None:
    """A kill that forgets to count its victim is caught: conservation and score are sat."""
    v = Variant(size=3, num_sheep=8, num_wolves=2)
    s = symbolic_state(v.num_sheep, "s")
    step = one_step(v, s, KILL, "m")
    step.post.n_alive = s.n_alive  # the bug: the victim stays counted as alive
    step.deltas = {k: d for k, d in step.deltas.items() if k not in ("n_alive", "score")}
    step.post.score = s.score
    ob = obligations(v, s, step)
    for name in ("conservation", "score"):
        solver = z3.Solver()
        solver.add(invariant(v, s), step.guard, z3.Not(ob[name]))
        assert solver.check() == z3.sat, name


@pytest.mark.parametrize(("size", "animals", "gap"), [
    (2, 2, True), (2, 7, True), (3, 13, False), (3, 14, True), (3, 19, True), (4, 26, False),
    (5, 26, False),
])
def test_m10_gap_exists_exactly_when_animals_exceed_cells_minus_six(size: int, animals: int,
                                                                    gap: bool) -> None:
    """M10: an unplaceable kill exists iff N > cells - 6, with and without remove, and every
    round-one witness replays in the Python model."""
    for remove in (False, True):
        w = max(1, min(4, animals // 2))
        found = gaps.find_gap(size, animals, w, remove, round_one=True)
        assert (found is not None) == gap
        assert (animals > 3 * size * (size - 1) + 1 - 6) == gap
        if found is not None:
            assert found.runners > found.free
            assert gaps.replay_in_python(found, animals, w, remove) == ""
        anywhere = gaps.find_gap(size, animals, w, remove, round_one=False)
        assert (anywhere is not None) == gap


def test_m10_default_game_is_free_and_the_shotgun_can_stall_small_boards() -> None:
    """M10 for the default game is PROVED; the M14 shotgun stall exists on full small boards
    (size 2 with 7 animals, size 3 with 19) and not on size 4 with 26 animals."""
    assert gaps.default_free().outcome == PROVED
    assert gaps.variant_m10(MuttonOptions()).outcome == PROVED
    small = gaps.stall_table(2, 7, 3)
    assert small.outcome == PROVED and small.data == {"stall": True} and small.witness
    assert gaps.stall_table(4, 26, 4).data == {"stall": False}
    shotgun = MuttonOptions(weapon=MuttonOptions().weapon.SHOTGUN)
    assert gaps.variant_stall(shotgun).outcome == PROVED
    full = gaps.variant_stall(MuttonOptions(size=3, num_sheep=19, num_wolves=4,
                                      weapon=MuttonOptions().weapon.SHOTGUN))
    assert full.outcome == GAP and full.gap is not None and full.gap.id == "MUTTON-SHOTGUN-STALL"
    assert not full.ok and full.expected == PROVED


def test_c1_c2_c3_claims_settle_as_expected() -> None:
    """C1 and C2 PROVED, C3 precise PROVED and literal REFUTED (expected), with witnesses."""
    res = {r.name: r for r in claims.c1_sparse() + claims.c2_c3(Variant(size=3, num_sheep=10))}
    assert res["C1/sparse-first-kill"].outcome == PROVED
    assert "3 animals run" in res["C1/sparse-first-kill"].witness
    assert res["C1/packed-six"].outcome == PROVED
    assert res["C2/berserk-once"].outcome == PROVED
    assert res["C3/known-wolves"].outcome == PROVED
    assert res["C3/wins-for-sure"].outcome == REFUTED and res["C3/wins-for-sure"].ok
    assert all(r.ok for r in res.values())


def test_c4_exact_expected_sheep_deaths() -> None:
    """C4: with one wolf sniping costs k-1 like berserk; split suspects favour sniping; two
    wolves favour berserk (exact fractions)."""
    assert [claims.snipe(k, 1) for k in range(1, 7)] == [Fraction(k - 1) for k in range(1, 7)]
    assert claims.snipe_split(3) == Fraction(4, 3)
    assert claims.snipe(2, 2) == 1 and claims.snipe(3, 2) == Fraction(7, 3)
    assert [r.outcome for r in claims.c4(8)] == [PROVED, PROVED, REFUTED]


@pytest.mark.parametrize("rules", [MuttonOptions(),
                                   MuttonOptions(size=2, num_sheep=7, num_wolves=3)])
def test_m24_witness_game_reaches_the_bound(rules: MuttonOptions) -> None:
    """M24: the longest game has num_sheep rounds; the witness game replays to that length."""
    rounds, game, endless = termination.witness_game(rules)
    assert rounds == rules.num_sheep and endless is None
    assert game is not None and game.over and game.round == rules.num_sheep
    res = termination.termination(rules, PROVED, "test")
    assert res.outcome == PROVED and res.data["tight"] is True


@settings(max_examples=examples(8))
@given(seed=st.integers(0, 10**6), which=st.sampled_from([
    MuttonOptions(size=3, num_sheep=12, num_wolves=3),
    MuttonOptions(size=2, num_sheep=6, num_wolves=2, remove=True, escape=True),
    MuttonOptions(size=3, num_sheep=15, num_wolves=2, weapon=MuttonOptions().weapon.SHOTGUN),
]))
def test_m9_m10_python_and_z3_models_agree_on_random_positions(seed: int, which: MuttonOptions
                                                              ) -> None:
    """M8-M14: at every position of a random game both models allow the same moves."""
    rng = random.Random(seed)
    state = GameState.new(which)
    while not state.over:
        if state.phase in (Phase.WOLF, Phase.FARMER):
            assert PositionChecker(state).run() == []
        state = state.play(random_move(state, rng))


def test_m9_crosscheck_sees_a_wrong_successor_position() -> None:
    """The cross-check compares play() successors too: a model that forgets corpses fails."""
    class ForgetsCorpses(GameState):
        def _after_move(self) -> GameState:
            from dataclasses import replace
            return super(ForgetsCorpses, replace(self, corpses=frozenset()))._after_move()

    res = crosscheck([MuttonOptions(size=3, num_sheep=12, num_wolves=3)], 10, model=ForgetsCorpses)
    assert res[0].outcome == FAILED


def test_to_concrete_refuses_a_position_with_too_many_corpses() -> None:
    """A Python position with a corpse but no dead animal is not a Z3-model position."""
    rules = MuttonOptions(size=2, num_sheep=4, num_wolves=2)
    state = GameState.new(rules).play(PlaceCells(tuple(board(2).cells[:4])))
    state = state.play(ChooseWolves("AB"))
    from dataclasses import replace
    bad = replace(state, corpses=frozenset({Cell(2, 3)}))
    with pytest.raises(ValueError):
        to_concrete(bad)


def _report(ok: bool, game: str = "mutton") -> Report:
    res = [CheckResult("claims", "C1/x", "a claim", PROVED, PROVED, ("C1",), "fine"),
           CheckResult("gaps", "g", "a <gap> & more", REFUTED, REFUTED, ("M10",), "known",
                       "A=a1"),
           CheckResult("crosscheck", "c", "cross", PASSED if ok else FAILED, PASSED, ("M9",),
                       "d", "game 1: runners differ")]
    return Report({"options": "-size=4", "mode": "quick", "model": "m", "z3": "4"}, res,
                  trace.trace_table(res, "mutton"), 1.0, game=game, title="Mutton",
                  sections=mutton.SECTIONS, rules_section=1)


def test_reports_markdown_json_and_junit() -> None:
    """The three report forms agree on the results; JUnit marks unexpected outcomes only;
    titles and section order come from the report's game data."""
    good, bad = _report(True), _report(False)
    assert good.ok and not bad.ok
    md = to_markdown(bad)
    assert md.startswith(GENERATOR_LINE + "\n# Mutton rules verification\n")
    assert "**Result: FAIL: 1 FAILED**" in md and "Clauses nothing covers yet" in md
    assert "## Traceability (docs/rules.md section 1)" in md
    titles = dict(mutton.SECTIONS)
    order = [md.index(f"## {titles[k]}") for k in ("gaps", "claims", "crosscheck")]
    assert order == sorted(order)
    doc = json.loads(to_json(bad))
    assert next(iter(doc)) == "generator" and doc["generator"] == "fleece verify"
    assert doc["ok"] is False and len(doc["results"]) == 3 and len(doc["trace"]) == 32
    assert doc["gaps"] == [] and doc["accepted"] == [] and doc["verdict"] == "FAIL: 1 FAILED"
    assert [s["section"] for s in doc["summary"]] == ["gaps", "claims", "crosscheck"]
    root = ET.fromstring(to_junit(bad))
    assert root.get("failures") == "1" and root.get("name") == "fleece verify"
    assert {c.get("classname") for c in root.iter("testcase")} == {
        "verify.gaps", "verify.claims", "verify.crosscheck"}
    failures = root.findall(".//failure")
    assert len(failures) == 1 and "FAILED" in (failures[0].get("message") or "")
    assert failures[0].get("type") == "unexpected"
    assert ET.fromstring(to_junit(good)).get("failures") == "0"


def test_report_names_per_game_and_undeclared_sections() -> None:
    """Mutton keeps verification.md/.json; another game's files and JUnit names carry its
    name; a section the game does not declare is still reported, titled by its key."""
    assert report_stem("mutton") == "verification"
    assert report_stem("woof") == "verification-woof"
    other = _report(True, game="woof")
    assert [p.name for p in other.paths(Path("r"))] == ["verification-woof.md",
                                                        "verification-woof.json"]
    root = ET.fromstring(to_junit(other))
    assert root.get("name") == "fleece verify --game woof"
    assert "verify.woof.claims" in {c.get("classname") for c in root.iter("testcase")}
    odd = _report(True)
    odd.results.append(CheckResult("extra", "e", "extra", PASSED, PASSED))
    assert odd.section_keys()[-1] == "extra" and odd.summary()[-1][0] == "extra"
    assert "## extra" in to_markdown(odd)


def test_write_reports_replaces_its_own_files_but_not_a_junit_file(tmp_path: Path) -> None:
    """write_reports replaces the report files it wrote itself, refuses an existing JUnit file
    without force and writes nothing then; summary_table titles rows from the game data."""
    from rich.console import Console

    rep = _report(True)
    out = tmp_path / "reports"
    junit = tmp_path / "junit.xml"
    assert write_reports(rep, out, junit, False) == [out / "verification.md",
                                                      out / "verification.json", junit]
    assert write_reports(rep, out, None, False) == rep.paths(out)
    with pytest.raises(FleeceError):
        write_reports(_report(False), out, junit, False)
    assert json.loads((out / "verification.json").read_text())["ok"] is True
    write_reports(_report(False), out, junit, True)
    assert json.loads((out / "verification.json").read_text())["ok"] is False
    assert ET.parse(junit).getroot().get("failures") == "1"
    with pytest.raises(FleeceError):
        write_reports(rep, junit, None, False)
    console = Console(record=True, width=200)
    console.print(summary_table(rep))
    text = console.export_text()
    assert "fleece verify: -size=4 (quick, 1.0 s)" in text
    assert "Rules gaps of the variant under test (gate)" in text


def test_package_api_runs_a_section_and_writes_its_reports(tmp_path: Path) -> None:
    """The per-game API: fleece.verify.mutton exports VerifyConfig, SECTIONS and run; a run
    of one section yields a Report that write_reports turns into the usual files."""
    pkg = importlib.import_module("fleece.verify.mutton")
    assert [k for k, _ in pkg.SECTIONS] == ["invariants", "gaps", "gap-table", "claims",
                                           "termination", "crosscheck"]
    assert set(pkg.GAPS) == {"MUTTON-M10-UNPLACEABLE", "MUTTON-SHOTGUN-STALL", "MUTTON-NO-END"}
    rep = pkg.run(pkg.VerifyConfig(quick=True, sections=frozenset({"claims"})),
                  progress=False)
    assert isinstance(rep, Report) and rep.ok and rep.game == "mutton"
    assert rep.title == "Mutton" and rep.sections == pkg.SECTIONS and rep.rules_section == 1
    assert {r.section for r in rep.results} == {"claims"} and rep.trace == []
    assert all(r.basis.startswith("docs/rules.md C") for r in rep.results)
    written = write_reports(rep, tmp_path, None, False)
    assert [p.name for p in written] == ["verification.md", "verification.json"]
    assert "## Rulebook claims C1-C4" in written[0].read_text()


def test_trace_table_covers_every_clause_id_and_scans_tests() -> None:
    """Every clause of docs/rules.md section 1 appears, with its title; test names and
    docstrings are scanned; the report's tests are the committed clause index's."""
    assert trace.clause_ids("checks M9, m10 and C3 but not M99 or XM1 or W4",
                            "mutton") == {"M9", "M10", "C3"}
    found = trace.scan_tests("mutton", Path(__file__).parent)
    assert any("test_m10_gap" in t for t in found["M10"])
    assert not any(c.startswith("W") for c in found)
    rows = trace.trace_table([], "mutton")
    assert [r.clause for r in rows][:3] == ["M1", "M2", "M3"] and len(rows) == 32
    assert [r.clause for r in rows][-4:] == ["C1", "C2", "C3", "C4"]
    assert rows[0].title == "Board size" and all(r.title for r in rows)
    index = trace.read_index()
    assert all(r.tests == tuple(index[r.clause]) for r in rows)
    assert trace.trace_table([], "mutton", Path(__file__).parent) == rows


def test_trace_is_game_neutral() -> None:
    """Woof!!'s clauses (W1-W11, section 2) and their tests are traced like Mutton's; a game
    not in the registry can be traced from a Clauses value."""
    woof = trace.clauses_for("woof")
    assert woof.section == 2 and list(woof.titles) == [f"W{i}" for i in range(1, 12)]
    assert trace.clause_ids("W4 and w11, not M9 or W12", "woof") == {"W4", "W11"}
    found = trace.scan_tests("woof", Path(__file__).parent)
    assert any("test_w1_" in t for t in found["W1"]) and not any(
        c.startswith("M") for c in found)
    rows = trace.trace_table([CheckResult("s", "n", "t", PASSED, PASSED, ("W9",))], woof)
    assert next(r for r in rows if r.clause == "W9").proofs == ("s/n",)
    text = ("## 3. Ulvtafl\n### U1 Board: the cross\ntext\n### Facts: not a clause\n"
            "### U2 Sheep\n## 4. Cards\n### K1 War\n")
    ulv = trace.Clauses(3, ("U",), trace.read_clauses(text, 3, ("U",)))
    assert ulv.titles == {"U1": "Board: the cross", "U2": "Sheep"}
    assert [r.clause for r in trace.trace_table([], ulv, Path(__file__).parent)] == ["U1", "U2"]


def test_cli_verify_quick_writes_reports_and_refuses_to_clobber(tmp_path: Path) -> None:
    """`fleece verify --quick` of the default game (M1, M4 defaults) exits 0 with no --accept:
    report files, JUnit without failures, every check's basis stated; an existing --junit
    FILE needs --force; bad options are one-line errors with status 2."""
    rep = tmp_path / "rep"
    junit = tmp_path / "junit.xml"
    res = invoke(["verify", "--quick", "--report", str(rep), "--junit", str(junit)])
    assert res.exit_code == 0, res.output
    assert (rep / "verification.md").is_file() and (rep / "verification.json").is_file()
    doc = json.loads((rep / "verification.json").read_text())
    assert doc["ok"] is True and doc["gaps"] == [] and "PASS: " in res.stdout
    assert all(r["basis"] and r["outcome"] != "UNKNOWN" for r in doc["results"])
    root = ET.parse(junit).getroot()
    assert root.get("failures") == "0" and root.findall(".//failure") == []
    assert root.get("tests") == str(len(doc["results"]))
    assert {c.get("classname") for c in root.iter("testcase")} == {
        f"verify.{k}" for k, _ in mutton.SECTIONS}
    cli = [sys.executable, "-m", "fleece", "verify"]
    for args in (["--quick", "--report", str(rep), "--junit", str(junit)], ["--size", "9"],
                 ["--game", "woof", "--dog-target", "cat"]):
        done = subprocess.run(cli + args, capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith("fleece: error: ") and done.stderr.count("\n") == 1
