"""`fleece verify` as an honest CI gate: rules gaps of the variant under test fail the run unless
accepted (M10, M14/M17, M24), a solver's unknown is UNKNOWN and fails, every expectation is
fixed from docs/rules.md rather than from the outcome, JUnit shows it all, and --report never
replaces a file fleece verify did not write."""

from __future__ import annotations

import ast
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import z3
from helpers.clirun import invoke
from helpers.mutton_bugs import FarmerPassesAfterWolfPass

from fleece.rules.errors import FleeceError
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.options import MuttonOptions, Weapon
from fleece.rules.mutton.protocol import MUTTON
from fleece.verify import mutton
from fleece.verify.budget import Budget, Undecided
from fleece.verify.mutton import claims, crosscheck, gaps, termination
from fleece.verify.mutton.encoding import Variant
from fleece.verify.report import Report, check_targets, to_junit, to_markdown, write_reports
from fleece.verify.result import (
    GAP,
    NO_END,
    PASSED,
    PROVED,
    REFUTED,
    UNKNOWN,
    UNSETTLED,
    CheckResult,
    RulesGap,
    gap_found,
    gap_id,
    no_end_id,
    undecided,
)

M10_ID = "MUTTON-M10-UNPLACEABLE"
GATE = ["verify", "--quick", "--size", "3", "--sheep", "15", "--section", "gaps"]


class AlwaysUnknown(Budget):
    """A budget under which Z3 never decides: what a timeout does to a hard query."""

    def check(self, solver: Any, *assumptions: Any) -> Any:
        raise Undecided("forced by the test", self.timeouts)


# ---- expectations are constants (first: the quickest way to catch expected = outcome) ----


def test_no_check_computes_its_expectation_from_anything() -> None:
    """Every expectation in the verification code of every game (`expected=`, or the
    expectation argument of CheckResult and of the result builders) is a constant or a
    fixed table entry, never a computed value or a variable such as `outcome` (the old
    default-game check set expected = outcome)."""
    root = Path(mutton.__file__).resolve().parent.parent
    # the position of the expectation among the positional arguments of each result builder
    builders = {"CheckResult": 4, "judged": 4, "gave_up": 3}

    def fixed(value: ast.expr) -> bool:
        """A literal, an UPPER_CASE constant (PROVED), a table entry (EXPECTED[name]), or a
        parameter named `expected` passed through (its callers are scanned too)."""
        if isinstance(value, ast.Constant):
            return True
        if isinstance(value, ast.Name):
            return value.id.isupper() or value.id == "expected"
        if isinstance(value, ast.Subscript):
            return isinstance(value.value, ast.Name) and value.value.id.isupper()
        return isinstance(value, ast.Attribute) and value.attr.isupper()

    seen = 0
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            values = []
            if isinstance(node, ast.keyword) and node.arg == "expected":
                values.append(node.value)
            if isinstance(node, ast.Call):
                f = node.func
                fname = f.id if isinstance(f, ast.Name) else \
                    f.attr if isinstance(f, ast.Attribute) else ""
                if fname in builders and len(node.args) > builders[fname]:
                    values.append(node.args[builders[fname]])
            for value in values:
                seen += 1
                assert fixed(value), f"{path.name}:{value.lineno}: {ast.unparse(value)}"
    assert seen >= 100  # every game's checks (144 when this was written)


# Checks that settle without Z3 (exact arithmetic, enumeration in Python): the only ones that
# may still come out PROVED or REFUTED when every Z3 query is undecided.
NO_Z3 = {
    "mutton": {"C4/forced-apart", "C4/two-wolves-together", "C4/together-one-wolf"},
    "woof": set(),
    "ulvtafl": {"wolves-in-paddock-python"},
}
FAST_Z3_SECTIONS = {
    "mutton": ["gaps", "claims"],
    "woof": ["cards", "scoring", "ends", "tokens"],
    "ulvtafl": ["geometry", "ends", "claims"],
}


def _never_decides(self: Budget, solver: Any, *assumptions: Any) -> Any:
    """Budget.check under which every Z3 query stays unknown after its retry."""
    raise Undecided("forced by the test", self.timeouts)


@pytest.mark.parametrize("game", sorted(FAST_Z3_SECTIONS))
def test_forced_unknown_fails_the_cli_run_of_every_z3_game(
        game: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """With every Z3 query undecided (a mocked solver budget), `fleece verify --game G` exits
    1 and reports UNKNOWN; no Z3-based check comes out PROVED, REFUTED or "no gap" (only the
    checks in NO_Z3, which use no solver, still settle), in the text and the JSON output."""
    monkeypatch.setattr(Budget, "check", _never_decides)
    args = ["verify", "--game", game, "--quick", "--report", str(tmp_path)]
    for s in FAST_Z3_SECTIONS[game]:
        args += ["--section", s]
    res = invoke([*args, "--json"])
    assert res.exit_code == 1, res.output
    doc = json.loads(res.stdout)
    assert doc["ok"] is False
    outcomes = {r["name"]: r["outcome"] for r in doc["results"]}
    assert "UNKNOWN" in outcomes.values()
    settled = {n for n, o in outcomes.items() if o in (PROVED, REFUTED, GAP)}
    assert settled <= NO_Z3[game], settled - NO_Z3[game]
    assert all(o in (UNKNOWN, PROVED, REFUTED, "PASSED") for o in outcomes.values())


def test_forced_unknown_in_the_text_output(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    """M10: the text report of an undecided gap search says UNKNOWN and fails (exit 1)."""
    monkeypatch.setattr(Budget, "check", _never_decides)
    text = invoke(["verify", "--quick", "--section", "gaps", "--report", str(tmp_path)])
    assert text.exit_code == 1 and "UNKNOWN" in text.stdout and "PROVED" not in text.stdout


def test_cards_verify_uses_no_solver(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The cards checks are exhaustive enumerations: an undecidable solver changes nothing
    (nothing is UNKNOWN), so its outcome cannot hide an unknown."""
    monkeypatch.setattr(Budget, "check", _never_decides)
    doc = json.loads(invoke(["verify", "--game", "cards", "--quick", "--json", "--report",
                             str(tmp_path)]).stdout)
    assert doc["results"] and all(r["outcome"] != UNKNOWN for r in doc["results"])


# ---- the shared API: results, gaps, the gate --------------------------------------------


def _gap(accepted: bool = False) -> RulesGap:
    return RulesGap("TOY-X1-STUCK", UNSETTLED, "X1", "no move is legal", "position p",
                    "-toy", "record\n", "toy replay FILE", accepted)


def test_gap_results_gate_unless_accepted_and_unknown_never_passes() -> None:
    """A GAP is ok only once accepted; UNKNOWN is never ok; expectations cannot be GAP or
    UNKNOWN; a gap ID is canonical upper case; NO-END is the standard termination gap."""
    found = gap_found("s", "n", "t", _gap())
    assert found.outcome == GAP and found.expected == PROVED and not found.ok
    assert found.accepting(frozenset({"TOY-X1-STUCK"})).ok
    assert not found.accepting(frozenset({"TOY-X2-STUCK"})).ok
    unknown = undecided("s", "u", "t", expected=PROVED, reason="timeout")
    assert unknown.outcome == UNKNOWN and not unknown.ok
    for bad in (dict(outcome=PROVED, expected=UNKNOWN), dict(outcome=PROVED, expected=GAP),
                dict(outcome=GAP, expected=PROVED)):
        with pytest.raises(ValueError):
            CheckResult("s", "n", "t", **bad)
    assert gap_id("mutton-m10-unplaceable") == M10_ID
    for text in ("M10", "MUTTON--M10", "MUTTON-M10-", "MUTTON M10", "MUTTON-\x1b[31m",
                 "A-" + "B" * 80, "MUTTON-М10"):
        with pytest.raises(ValueError):
            gap_id(text)
    assert no_end_id("ULV") == "ULV-NO-END"
    cycle = RulesGap(no_end_id("CARDS"), NO_END, "K3", "a game that need not end",
                     "'A B' repeats forever")
    assert gap_found("termination", "war", "K3: every game ends", cycle).gap == cycle
    with pytest.raises(ValueError):
        RulesGap("TOY-X1", "sometimes", "X1", "s", "w")


def _rep(results: list[CheckResult], game: str = "toy") -> Report:
    return Report({"options": "-toy", "mode": "quick"}, results, game=game, title="Toy",
                  sections=(("gaps", "Gaps"), ("claims", "Claims")))


def test_report_ok_gaps_accepts_and_junit_for_any_game() -> None:
    """Report.ok is false for an unaccepted gap or an UNKNOWN; with_accepted applies --accept
    by ID and keeps unmatched IDs; every report form lists the gaps; JUnit fails an
    unaccepted gap naming its ID and an UNKNOWN, and passes an accepted gap."""
    ok = CheckResult("claims", "c", "a claim", PROVED, PROVED, basis="X2")
    rep = _rep([gap_found("gaps", "g", "gap check", _gap()), ok])
    assert not rep.ok and rep.open_gaps() == [_gap()] and rep.verdict() == \
        "FAIL: 1 rules gap(s) not accepted"
    root = ET.fromstring(to_junit(rep))
    assert root.get("failures") == "1" and root.get("name") == "fleece verify --game toy"
    assert root.get("tests") == "2" == str(len(list(root.iter("testcase"))))
    fail = root.find(".//testcase[@name='g']/failure")
    assert fail is not None and fail.get("type") == "gap"
    assert "TOY-X1-STUCK" in (fail.get("message") or "")
    assert "--accept TOY-X1-STUCK" in (fail.get("message") or "")
    assert "record" in (fail.text or "")
    accepted = rep.with_accepted(["toy-x1-stuck", "TOY-NOT-THERE"])
    assert accepted.ok and accepted.accepted == ("TOY-X1-STUCK", "TOY-NOT-THERE")
    assert accepted.unmatched_accepts() == ["TOY-NOT-THERE"]
    assert accepted.gaps()[0].accepted and "1 accepted rules gap(s)" in accepted.verdict()
    root = ET.fromstring(to_junit(accepted))
    assert root.get("failures") == "0" and root.findall(".//failure") == []
    # 2 checks and the 2 accepted IDs (their own suite): 4 test cases, counted as such
    assert root.get("tests") == "4" == str(len(list(root.iter("testcase"))))
    assert [tuple(row)[:7] for row in accepted.summary()] == [
        ("gaps", 1, 1, 0, 1, 1, 0), ("claims", 1, 1, 0, 0, 0, 0)]
    assert [tuple(row)[:7] for row in rep.summary()] == [
        ("gaps", 1, 0, 0, 1, 0, 0), ("claims", 1, 1, 0, 0, 0, 0)]
    out = root.find(".//testcase[@name='g']/system-out")
    assert out is not None and (out.text or "").startswith("ACCEPTED GAP TOY-X1-STUCK")
    assert {c.get("name") for c in root.iter("testcase")
            if c.get("classname") == "verify.toy.accept"} == {"TOY-X1-STUCK", "TOY-NOT-THERE"}
    md = to_markdown(accepted)
    assert "### TOY-X1-STUCK" in md and "status: accepted" in md and "`TOY-NOT-THERE`" in md
    assert "replay with `toy replay FILE`" in md
    doc = accepted.to_json()
    assert doc["ok"] is True and doc["accepted_not_found"] == ["TOY-NOT-THERE"]
    assert doc["gaps"] == [dict(_gap(accepted=True).to_json())]
    unknown = _rep([ok, undecided("claims", "u", "hard", expected=PROVED, reason="timeout")])
    assert not unknown.ok and unknown.verdict() == "FAIL: 1 UNKNOWN"
    fail = ET.fromstring(to_junit(unknown)).find(".//failure")
    assert fail is not None and fail.get("type") == "unknown"
    assert (fail.get("message") or "").startswith("UNKNOWN, expected PROVED")


# ---- the gate on the command line -------------------------------------------------------


def _replayed_gap(record: str) -> tuple[GameState, str, int, int]:
    """Replay a gap's record with the rules protocol and count, from the board geometry
    alone, the victim's runners and the free cells away from it (M9): the victim is the
    candidate whose runners outnumber its free cells."""
    state = MUTTON.parse_position(record)
    assert isinstance(state, GameState) and state.phase is Phase.WOLF
    geo = board(state.rules.size)
    where = {state.positions[i]: a for i, a in enumerate(state.letters)
             if state.positions[i] is not None}
    for cell, animal in where.items():
        assert cell is not None
        near = geo.neighbours(cell)
        if not any(where.get(n) in state.wolves for n in near):
            continue
        runners = sum(1 for n in near if n in where)
        free = sum(1 for c in geo.cells if c != cell and c not in near and c not in where
                   and c not in state.corpses)
        if runners > free:
            return state, animal, runners, free
    raise AssertionError("the record shows no unplaceable kill")


def test_m10_gate_fails_size3_with_15_animals_and_passes_with_accept(tmp_path: Path) -> None:
    """M10: size 3 with 15 animals has kills whose runners cannot be placed (15 > 19 - 6):
    the run exits 1 naming MUTTON-M10-UNPLACEABLE with a witness whose record replays to a
    kill the rules refuse; JUnit fails it; --accept MUTTON-M10-UNPLACEABLE exits 0 and the
    report still lists the gap, as accepted."""
    rep_dir, junit = tmp_path / "r", tmp_path / "junit.xml"
    res = invoke([*GATE, "--report", str(rep_dir), "--junit", str(junit)])
    assert res.exit_code == 1, res.output
    line = next(x for x in res.stdout.splitlines() if x.startswith("GAP "))
    assert line.startswith(f"GAP {M10_ID} (M10): a kill whose ")
    assert line.endswith(f"accept with --accept {M10_ID}") and len(line) <= 300
    assert "FAIL: 1 rules gap(s) not accepted" in res.stdout
    doc = json.loads((rep_dir / "verification.json").read_text())
    assert doc["ok"] is False and [g["id"] for g in doc["gaps"]] == [M10_ID]
    gap = doc["gaps"][0]
    assert gap["accepted"] is False and gap["clause"] == "M10"
    assert gap["replay"] == "fleece mutton replay FILE"
    state, victim, runners, free = _replayed_gap(gap["record"])
    assert state.rules == MuttonOptions(size=3, num_sheep=15, num_wolves=4)
    assert gap["witness"].startswith(f"eating {victim} makes {runners} animals run with only "
                                     f"{free} free cells")
    assert victim not in {k.victim for k in state.legal_kills()}
    fail = ET.parse(junit).getroot().find(".//failure")
    assert fail is not None and fail.get("type") == "gap" and M10_ID in (fail.get("message")
                                                                         or "")
    res = invoke([*GATE, "--report", str(rep_dir), "--junit", str(junit), "--force",
                  "--accept", M10_ID])
    assert res.exit_code == 0, res.output
    assert f"accepted GAP {M10_ID}" in res.stdout and "accept with" not in res.stdout
    res = invoke([*GATE, "--report", str(rep_dir), "--accept", M10_ID.lower(), "--json",
                  "--force"])
    assert res.exit_code == 0 and res.stderr == ""
    doc = json.loads(res.stdout)
    assert doc == json.loads((rep_dir / "verification.json").read_text())
    assert doc["ok"] is True and doc["gaps"][0]["accepted"] is True
    assert doc["accepted"] == [M10_ID] and doc["accepted_not_found"] == []
    assert "status: accepted" in (rep_dir / "verification.md").read_text()
    assert ET.parse(junit).getroot().get("failures") == "0"


def test_accept_ids_unknown_to_the_game_are_errors_and_unfound_ones_warnings(
        tmp_path: Path) -> None:
    """--accept of an ID Mutton never reports, or of a malformed ID, is bad input (exit 2,
    one line, nothing run), as are a bad --section or --timeout; an ID it can report but did
    not find is a warning line and is listed in the report, and the verdict is unchanged."""
    rep_dir = tmp_path / "r"
    for bad in (["--accept", "MUTTON-M99-NOPE"], ["--accept", "not an id"],
                ["--accept", "X" * 200], ["--accept", "MUTTON-\x07"], ["--section", "nope"],
                ["--timeout", "0"], ["--timeout", "1e3"], ["--game", "nosuch"]):
        res = invoke(["verify", "--quick", "--section", "gaps", "--report", str(rep_dir),
                      *bad])
        assert res.exit_code == 2 and res.stdout == "", res.output
        assert res.stderr.startswith("fleece: error: ") and res.stderr.count("\n") == 1
        assert "\x07" not in res.stderr and len(res.stderr) < 300
    assert not rep_dir.exists()
    res = invoke(["verify", "--quick", "--section", "gaps", "--report", str(rep_dir),
                  "--accept", "MUTTON-SHOTGUN-STALL"])
    assert res.exit_code == 0, res.output
    assert res.stderr.splitlines() == [
        "fleece: warning: --accept MUTTON-SHOTGUN-STALL: no such gap was found in this run "
        "(listed in the report)", f"fleece: wrote {rep_dir / 'verification.md'}",
        f"fleece: wrote {rep_dir / 'verification.json'}"]
    doc = json.loads((rep_dir / "verification.json").read_text())
    assert doc["accepted_not_found"] == ["MUTTON-SHOTGUN-STALL"] and doc["gaps"] == []
    assert "Accepted with --accept but not found in this run: `MUTTON-SHOTGUN-STALL`" in \
        (rep_dir / "verification.md").read_text()


def test_m14_m17_shotgun_stall_gates_shotgun_variants_only() -> None:
    """M14/M17: a full size-3 board with the shotgun has the M10 gap and the stall, both
    gating, the stall replayed to a game the Python model stops as stalled; the rifle
    variant of the same board has no stall check; the default shotgun game has none."""
    def gate(rules: MuttonOptions) -> Report:
        return mutton.run(mutton.VerifyConfig(rules=rules, quick=True,
                                              sections=frozenset({"gaps"})))

    rep = gate(MuttonOptions(size=3, num_sheep=19, num_wolves=4, weapon=Weapon.SHOTGUN))
    assert [g.id for g in rep.gaps()] == [M10_ID, "MUTTON-SHOTGUN-STALL"] and not rep.ok
    stall = rep.gaps()[1]
    end = MUTTON.parse_position(stall.record)
    assert isinstance(end, GameState) and end.over and end.stalled
    assert stall.record.rstrip().endswith("pass") and stall.clause == "M14"
    assert rep.with_accepted([M10_ID, "MUTTON-SHOTGUN-STALL"]).ok
    rifle = gate(MuttonOptions(size=3, num_sheep=19, num_wolves=4))
    assert [g.id for g in rifle.gaps()] == [M10_ID]
    default_shotgun = gate(MuttonOptions(weapon=Weapon.SHOTGUN))
    assert default_shotgun.ok and [r.outcome for r in default_shotgun.results] == [PROVED,
                                                                                  PROVED]


def test_m10_gap_tables_of_other_boards_inform_but_never_gate() -> None:
    """The default game's run lists size 2 and 3 gaps in its gap tables (information) and
    still passes: only the variant under test gates. Each check names its expectation's
    basis.

    The size-3 gap counts by hand: 19 cells, n animals all alive (round one). A victim with d
    neighbour cells, r of them occupied, leaves 19 - 1 - d cells away from it, of which
    n - 1 - r are taken: r runners fit unless r > 19 - d - n + r, i.e. n > 19 - d, whatever r.
    The centre-like cells have d = 6, so kills are unplaceable exactly from n = 14 on; quick
    mode checks n = 12..19, so the gaps are at 14..19."""
    rep = mutton.run(mutton.VerifyConfig(quick=True, sections=frozenset({"gaps", "gap-table"})))
    assert rep.ok and rep.gaps() == []
    assert all(r.basis for r in rep.results)
    table = {r.name: r for r in rep.results if r.section == "gap-table"}
    assert table["M10/size3/no_remove"].data["gap_counts"] == list(range(20 - 6, 19 + 1))
    assert table["shotgun-stall/size2-sheep7"].data == {"stall": True}
    assert [r.outcome for r in rep.results if r.section == "gaps"] == [PROVED]


# ---- UNKNOWN is never success -----------------------------------------------------------


class _Flaky:
    """A solver stand-in answering unknown a given number of times, then sat."""

    def __init__(self, unknowns: int) -> None:
        self.unknowns = unknowns
        self.timeouts: list[int] = []

    def set(self, key: str, value: int) -> None:
        assert key == "timeout"
        self.timeouts.append(value)

    def check(self) -> Any:
        self.unknowns -= 1
        return z3.unknown if self.unknowns >= 0 else z3.sat

    def reason_unknown(self) -> str:
        return "timeout"


def test_budget_retries_an_unknown_once_with_a_larger_timeout() -> None:
    """One unknown is retried with 4x the timeout; two unknowns raise Undecided."""
    once = _Flaky(1)
    assert Budget(100).check(once) == z3.sat and once.timeouts == [100, 400]
    twice = _Flaky(2)
    with pytest.raises(Undecided) as info:
        Budget(100).check(twice)
    assert info.value.timeouts == (100, 400) and "unknown (timeout)" in str(info.value)
    assert Budget(100).answer(_Flaky(2)) == "unknown"
    with pytest.raises(ValueError):
        Budget(0)


def test_m10_unknown_is_reported_unknown_not_proved() -> None:
    """M10: when Z3 cannot decide the gap search (here it never can), the variant's check,
    the gap table, the claims and the cross-check are UNKNOWN and fail, never PROVED."""
    budget = AlwaysUnknown(1)
    m10 = gaps.variant_m10(MuttonOptions(), budget)
    assert m10.outcome == UNKNOWN and not m10.ok and "forced by the test" in m10.detail
    assert gaps.variant_stall(MuttonOptions(weapon=Weapon.SHOTGUN), budget).outcome == UNKNOWN
    assert {r.outcome for r in gaps.gap_table([2], 26, 4, quick=True, budget=budget)} == {
        UNKNOWN}
    assert gaps.default_free(budget=budget).outcome == UNKNOWN
    assert {r.outcome for r in claims.c1_sparse(budget=budget)} == {UNKNOWN}
    c2c3 = claims.c2_c3(Variant(size=3, num_sheep=10), budget)
    assert [r.outcome for r in c2c3] == [UNKNOWN] * 3 and not any(r.ok for r in c2c3)
    cross = crosscheck.crosscheck([MuttonOptions(size=2, num_sheep=7, num_wolves=3)], 6,
                                  budget=budget)
    assert cross[0].outcome == UNKNOWN and not cross[0].ok


def test_tiny_timeout_makes_the_run_unknown_and_failed() -> None:
    """A 1 ms budget (retry 4 ms) leaves the inductive proofs (M1-M20) undecided: the run
    reports UNKNOWN and fails, and termination (M24), resting on the proofs, cannot be
    PROVED from undecided lemmas. (A query that Z3 settles within 4 ms may still come out
    PROVED; nothing comes out REFUTED or FAILED. The same queries all decide with the
    default budget, see test_verify.py.)"""
    rules = MuttonOptions(size=2, num_sheep=7, num_wolves=3)
    rep = mutton.run(mutton.VerifyConfig(rules=rules, quick=True, timeout_ms=1,
                                         sections=frozenset({"invariants", "termination"})))
    outcomes = {r.outcome for r in rep.results}
    assert UNKNOWN in outcomes and outcomes <= {UNKNOWN, PROVED}
    assert not rep.ok and "UNKNOWN" in rep.verdict() and rep.meta["timeout_ms"] == [1, 4]
    for r in rep.results:
        assert (r.outcome == UNKNOWN) == ("not proved" in r.detail or "undecided" in r.detail)
    ranks = [r for r in rep.results if r.name == "size2/rank"]
    term = [r for r in rep.results if r.section == "termination"]
    if ranks[0].outcome == UNKNOWN:
        assert term[0].outcome == UNKNOWN and term[0].detail.startswith("undecided: ")
    v = Variant(size=3, num_sheep=10)
    tiny = claims.c2_c3(v, Budget(1))
    assert UNKNOWN in {r.outcome for r in tiny} and not all(r.ok for r in tiny)
    assert [r.outcome for r in claims.c2_c3(v)] == [PROVED, PROVED, REFUTED]


# ---- expectations come from docs/rules.md, not from outcomes ---------------------------------


def test_c3_c4_planted_bugs_flip_outcomes_and_the_fixed_expectation_fails_them(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """C3 and C4: a game too small for 11 points makes literal C3 PROVED, and a sniping model
    that forgets the split suspects (E = k-1 when forced apart) makes C4's second half
    REFUTED; both fail, because their expectations (literal C3 REFUTED, C4 PROVED, from
    docs/rules.md) do not move with the outcome. (C1's layout parameter allows the same with a
    planted layout, at several seconds a run.)"""
    small = claims.c3_literal(v=Variant(size=2, num_sheep=7, num_wolves=3))
    assert small.outcome == PROVED and small.expected == REFUTED and not small.ok
    assert claims.c3_literal().ok and "M22" in claims.c3_literal().basis
    assert all(r.ok for r in claims.c4(6))
    monkeypatch.setattr(claims, "snipe_split", lambda k: claims.Fraction(k - 1))
    by = {r.name: r for r in claims.c4(6)}
    apart = by["C4/forced-apart"]
    assert apart.outcome == REFUTED and apart.expected == PROVED and not apart.ok
    assert by["C4/together-one-wolf"].ok and by["C4/two-wolves-together"].ok


def test_m24_planted_endless_model_fails_and_a_refuted_rank_is_a_no_end_gap() -> None:
    """M24: a model letting the Farmer pass after a Wolf pass plays a cycle; with the rank
    lemmas proved that is a FAILED check with the cycle as witness; were the lemmas refuted,
    the variant under test would get the MUTTON-NO-END gap (another variant: REFUTED)."""
    failed = termination.termination(MuttonOptions(), PROVED, "proved",
                                     model=FarmerPassesAfterWolfPass, under_test=True)
    assert failed.outcome == "FAILED" and failed.expected == PROVED and not failed.ok
    assert failed.witness.startswith("'pass pass' repeats forever after the play ")
    gap = termination.termination(MuttonOptions(), REFUTED, "planted",
                                  model=FarmerPassesAfterWolfPass, under_test=True)
    assert gap.outcome == GAP and gap.gap is not None and gap.gap.id == "MUTTON-NO-END"
    assert gap.gap.kind == NO_END and not gap.ok
    lines = gap.gap.record.splitlines()
    assert lines[0] == MuttonOptions().to_options() and lines[-2:] == ["pass", "pass"]
    assert gap.gap.replay == "fleece mutton replay FILE"
    other = termination.termination(MuttonOptions(), REFUTED, "planted",
                                    model=FarmerPassesAfterWolfPass)
    assert other.outcome == REFUTED and other.gap is None and not other.ok


# ---- --report DIR never replaces a file it did not write ---------------------------------


def test_report_dir_refuses_foreign_files_without_force(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """An existing verification.md or .json is kept (exit 2 before the run, one line naming
    the file), whoever wrote it; --force replaces it. Without --report nothing is written
    (not even into ./reports). The library's writer keeps a file it did not write unless
    forced, and refuses a symbolic link or directory in their place."""
    rep_dir = tmp_path / "reports"
    rep_dir.mkdir()
    mine = rep_dir / "verification.md"
    mine.write_text("# my notes\n", encoding="utf-8")
    args = ["verify", "--quick", "--section", "gaps", "--report", str(rep_dir)]
    res = invoke(args)
    assert res.exit_code == 2 and res.stderr == (
        f"fleece: error: {mine}: already exists (use --force to overwrite)\n")
    assert mine.read_text() == "# my notes\n" and not (rep_dir / "verification.json").exists()
    assert invoke([*args, "--force"]).exit_code == 0
    assert "# Mutton rules verification" in mine.read_text()
    assert invoke(args).exit_code == 2  # its own files too: never overwritten unasked
    monkeypatch.chdir(tmp_path)
    assert invoke(["verify", "--quick", "--section", "gaps"]).exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]
    rep = _rep([CheckResult("claims", "c", "t", PROVED, PROVED)], game="mutton")
    write_reports(rep, rep_dir, None, True)
    other = tmp_path / "other.md"
    other.write_text("keep", encoding="utf-8")
    mine.unlink()
    mine.symlink_to(other)
    with pytest.raises(FleeceError, match="not written by fleece verify"):
        write_reports(rep, rep_dir, None, False)
    assert other.read_text() == "keep"
    mine.unlink()
    mine.mkdir()
    with pytest.raises(FleeceError, match="is a directory"):
        check_targets("mutton", rep_dir, None, True)


def test_u1_u2_geometry_section_alone_checks_each_of_its_facts() -> None:
    """`--section geometry` runs that section only, and it checks every one of its facts
    (a section that checked nothing would pass): the 33 points, the diagonals, the paddock,
    the paddock inside the board, the Python board against Z3, each PROVED or PASSED."""
    from fleece.verify.ulvtafl import VerifyConfig as UlvConfig
    from fleece.verify.ulvtafl import run as ulv_run

    rep = ulv_run(UlvConfig(sections=frozenset({"geometry"}), samples=0))
    assert {r.section for r in rep.results} == {"geometry"}
    assert [r.name for r in rep.results] == ["points", "diagonal-points", "paddock",
                                             "paddock-inside", "python-board"]
    assert all(r.ok and r.outcome in (PROVED, PASSED) for r in rep.results)
