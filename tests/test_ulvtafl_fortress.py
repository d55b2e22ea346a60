"""No-loss certificates and the fortress search (solver/ulvtafl/fortress.py): the search
against retrograde analysis (no shared code) on small positions, the 20-sheep start's
fortress, the rules-only checker against strategies that lose, files, and the command."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from helpers.clirun import invoke
from helpers.ulvtafl_positions import small_solved
from hypothesis import given, settings
from hypothesis import strategies as st

from fleece.rules.ulvtafl.game import SHEEP, SIDE_NAMES, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.ulvtafl.budget import BudgetError
from fleece.solver.ulvtafl.certificate import (
    NO_LOSS,
    Certificate,
    CertificateError,
    bare,
    check_no_loss,
    read_certificates,
    read_seeds,
    sample_no_loss,
    write_certificate,
)
from fleece.solver.ulvtafl.fortress import find_fortress
from fleece.solver.ulvtafl.search import retro_solve

REPORTS = Path(__file__).resolve().parent.parent / "reports"
START20 = "W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w"


def _losing_strategy(root_text: str, side: str) -> dict[str, str]:
    """A strategy for `side` from a position retrograde analysis calls the other side's
    win: the table's best move (the slowest loss) in every position it reaches."""
    root = parse_position(root_text)
    table = retro_solve(root, 200_000)
    assert table is not None
    me = SIDE_NAMES.index(side)
    out: dict[str, str] = {}
    todo, seen = [bare(root)], set()
    while todo:
        state = todo.pop()
        if state.is_terminal() or state.key in seen:
            continue
        seen.add(state.key)
        if state.to_move == me:
            move = table.best_move(state)
            assert move is not None
            out[position_text(state)] = move.text()
            todo.append(bare(state.play(move)))
        else:
            todo.extend(bare(state.play(m)) for m in state.legal_moves())
    return out


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_the_unrestricted_search_holds_exactly_where_the_other_side_cannot_win(
        seed: int) -> None:
    """With every move and no bound, a fortress exists exactly where retrograde analysis
    says the other side cannot force a win (U7), and each one found checks."""
    solved = small_solved(seed, 100_000)
    if solved is None:
        return
    root, value = solved
    for side in SIDE_NAMES:
        other = SIDE_NAMES[1 - SIDE_NAMES.index(side)]
        found = find_fortress(root, side, safe_only=False, forward_steps=None,
                              max_positions=200_000)
        assert found.outcome == ("none" if value == other else "found")
        if found.certificate is not None:
            assert found.checked == check_no_loss(root, side, found.certificate.strategy)
            assert found.holding <= found.explored


def test_the_sheep_never_lose_the_20_sheep_start() -> None:
    """Two forward steps and safe moves hold the start against every wolf line; one step
    does not (a wolf steps into the hole the first step leaves)."""
    start = initial_state(UlvtaflOptions(setup=20))
    found = find_fortress(start, "sheep", forward_steps=2)
    assert found.outcome == "found"
    assert (found.explored, found.holding, found.checked) == (64_206, 22_942, 7_743)
    assert found.certificate is not None and len(found.certificate.strategy) == 4_839
    assert check_no_loss(start, "sheep", found.certificate.strategy) == 7_743
    one = find_fortress(start, "sheep", forward_steps=1)
    assert (one.outcome, one.holding, one.certificate) == ("none", 0, None)
    assert one.explored == 6_516


def test_the_committed_bound_is_the_search_s_and_checks() -> None:
    """The no-loss certificate beside the start report is of the 20-sheep start and holds
    (the report names it in its 20-sheep row)."""
    report = json.loads((REPORTS / "ulvtafl-start.json").read_text())
    row = next(r for r in report["setups"] if r["setup"] == 20)
    bound = row["no_loss"]
    certs = read_certificates(REPORTS / bound["certificate"])
    assert [(position_text(bare(c.root)), c.winner, c.claim) for c in certs] == [
        (START20, "sheep", NO_LOSS)]
    assert certs[0].check() == bound["checked_positions"]
    assert len(certs[0].strategy) == bound["strategy_positions"]


def test_a_win_certificate_is_also_a_no_loss_certificate() -> None:
    """A forced win never lets the other side win: the 17-sheep proof passes the no-loss
    check, walking the same positions as the win check."""
    cert = next(c for c in read_certificates(REPORTS / "ulvtafl-start.json")
                if position_text(bare(c.root)).startswith(".W./.../......./SS...SS"))
    assert check_no_loss(cert.root, cert.winner, cert.strategy) == cert.check()


def test_the_checker_refuses_a_strategy_that_loses() -> None:
    """Wherever the other side wins, the slowest-losing strategy reaches its won end, and
    the checker names that end; a random-line check finds it too."""
    for seed in range(200):
        solved = small_solved(seed, 50_000)
        if solved is None or solved[1] == "draw":
            continue
        root, value = solved
        loser = SIDE_NAMES[1 - SIDE_NAMES.index(value)]
        strategy = _losing_strategy(position_text(root), loser)
        with pytest.raises(CertificateError, match=f"ends in a {value} win"):
            check_no_loss(root, loser, strategy)
        with pytest.raises(CertificateError, match=f"ends in a {value} win"):
            sample_no_loss(root, loser, strategy, 200)
        return
    pytest.fail("no small position with a winner")


def test_the_checker_refuses_a_missing_or_illegal_move() -> None:
    start = initial_state(UlvtaflOptions(setup=20))
    found = find_fortress(start, "sheep", forward_steps=2)
    assert found.certificate is not None
    strategy = dict(found.certificate.strategy)
    after = position_text(bare(start.play(parse_move("c7-d7"))))
    del strategy[after]
    with pytest.raises(CertificateError, match="no move in the strategy"):
        check_no_loss(start, "sheep", strategy)
    strategy[after] = "a4-a6"
    with pytest.raises(CertificateError, match="not legal"):
        check_no_loss(start, "sheep", strategy)
    with pytest.raises(CertificateError, match="side must be"):
        check_no_loss(start, "geese", strategy)


def test_no_loss_files_keep_their_claim_and_seed_no_search(tmp_path: Path) -> None:
    start = initial_state(UlvtaflOptions(setup=20))
    found = find_fortress(start, "sheep", forward_steps=2)
    assert found.certificate is not None
    path = write_certificate(tmp_path / "bound.json.gz", found.certificate)
    data = json.loads(gzip.decompress(path.read_bytes()))
    assert (data["claim"], data["winner"], data["root"]) == ("no-loss", "sheep", START20)
    back = read_certificates(path)
    assert [(c.claim, c.what()) for c in back] == [(NO_LOSS, "the sheep never lose")]
    with pytest.raises(CertificateError, match="proves no win"):
        read_seeds(str(path))
    win = Certificate(start, "sheep", {})
    assert "claim" not in win.to_json() and win.what() == "the sheep win"
    data["claim"] = "maybe"
    (tmp_path / "bad.json").write_text(json.dumps(data))
    with pytest.raises(CertificateError, match="'claim' must be"):
        read_certificates(tmp_path / "bad.json")


def test_budgets_stop_the_search_and_refuse_what_cannot_fit() -> None:
    start = initial_state(UlvtaflOptions(setup=20))
    small = find_fortress(start, "sheep", forward_steps=2, max_positions=1_000)
    assert (small.outcome, small.certificate, small.explored) == ("too-large", None, 1_000)
    late = find_fortress(start, "sheep", forward_steps=2, deadline=0.0)
    assert late.outcome == "stopped" and late.certificate is None
    with pytest.raises(BudgetError, match="more than the memory budget"):
        find_fortress(start, "sheep", max_positions=10_000_000, memory="64M")


def test_the_wolves_are_never_restricted() -> None:
    """As the side, the wolves play every move whatever the sheep options say: the
    search reports itself unrestricted, and from a small position it agrees with
    retrograde analysis."""
    for seed in range(40):
        solved = small_solved(seed, 50_000)
        if solved is None:
            continue
        root, value = solved
        found = find_fortress(root, "wolves", safe_only=True, forward_steps=0,
                              max_positions=100_000)
        assert (found.safe_only, found.forward_steps) == (False, None)
        assert (found.outcome == "found") == (value != "sheep")
        return
    pytest.fail("no small position")


def test_fortress_command(tmp_path: Path) -> None:
    cert = tmp_path / "bound.json.gz"
    run = invoke(["ulvtafl", "fortress", "--setup", "20", "--certificate", str(cert)])
    assert run.exit_code == 0, run.output
    assert "FOUND: the sheep never lose; the wolves cannot force a win" in run.output
    assert "the sheep's move in 4,839 positions" in run.output
    check = invoke(["ulvtafl", "certificate", "check", str(cert)])
    assert check.exit_code == 0
    assert f"{START20}: the sheep never lose - certificate of 4,839 positions" in check.output
    again = invoke(["ulvtafl", "fortress", "--setup", "20", "--certificate", str(cert)])
    assert again.exit_code == 2 and "already exists" in again.output
    one = invoke(["ulvtafl", "fortress", "--forward-steps", "1", "--json"])
    assert one.exit_code == 1
    assert json.loads(one.stdout)["outcome"] == "none"
    for bad in (["--forward-steps", "-1"], ["--max-positions", "0"], ["--seconds", "0"],
                ["--side", "geese"], ["--position", "W.W/... w"]):
        out = invoke(["ulvtafl", "fortress", *bad])
        assert out.exit_code == 2, (bad, out.output)
        assert "Traceback" not in out.output


def test_the_fortress_of_the_sheep_is_safe_moves_only() -> None:
    """Every sheep move of the start's fortress leaves no capture: safe-only is kept."""
    from fleece.rules.ulvtafl.game import threatened

    start = initial_state(UlvtaflOptions(setup=20))
    found = find_fortress(start, "sheep", forward_steps=2)
    assert found.certificate is not None
    for text, move in found.certificate.strategy.items():
        state = parse_position(text)
        after = state.play(parse_move(move))
        assert state.to_move == SHEEP
        assert not threatened(after.rules, after.sheep, after.wolves), text


def test_a_draw_is_proved_by_a_fortress_for_each_side(tmp_path: Path) -> None:
    """A drawn position (retrograde analysis: neither side can force a win): each side
    has a fortress, so the two no-loss certificates together prove the draw, and each
    checks with the rules alone."""
    drawn = "S../SSS/SSS.SS./....W../......./.../... s"
    table = retro_solve(parse_position(drawn), 100_000)
    assert table is not None and table.value(parse_position(drawn))[0] == "draw"
    for side in SIDE_NAMES:
        cert = tmp_path / f"{side}.json"
        run = invoke(["ulvtafl", "fortress", "--position", drawn, "--side", side,
                      "--all-moves", "--unbounded", "--certificate", str(cert)])
        assert run.exit_code == 0, run.output
        assert f"FOUND: the {side} never lose" in run.output
        assert "search: " + ("the sheep on every move" if side == "sheep" else
                             "both sides on every move") in run.output
        (got,) = read_certificates(cert)
        assert (got.winner, got.claim) == (side, NO_LOSS) and got.check() > 0


def test_the_backward_phase_reads_the_clock_too() -> None:
    """Solving the explored graph stops at the deadline as exploring does."""
    from fleece.solver.ulvtafl import fortress

    start = initial_state(UlvtaflOptions(setup=20))
    graph = fortress._explore(start, SHEEP, True, 2, 100_000, None, None)
    assert graph.size() == 64_206 and not graph.stopped
    assert graph.solve(SHEEP, deadline=0.0) is None
    bad = graph.solve(SHEEP)
    assert bad is not None and len(bad) - sum(bad) == 22_942


@pytest.mark.parametrize(("words", "explored", "strategy"), [
    (["orthogonal"], 32_950, 1_806),
    (["wolf-diagonal-captures-only"], 63_218, 1_294),
    (["sheep-orthogonal"], 64_062, 6_018),
    (["wolf-diagonal-captures-only", "sheep-orthogonal"], 31_550, 1_139),
])
def test_the_wolves_cannot_win_the_20_sheep_start_under_any_movement_limit(
        words: list[str], explored: int, strategy: int) -> None:
    """U1/U6 movement options on the 20-sheep start: a fortress of two forward steps holds
    under each (the figures the 20-sheep page gives), checked by the rules."""
    from fleece.rules.ulvtafl.game import rules_from_words

    rules = rules_from_words(words)
    start = initial_state(UlvtaflOptions(setup=20, rules=rules))
    found = find_fortress(start, "sheep", forward_steps=2)
    assert found.outcome == "found" and found.certificate is not None
    assert (found.explored, len(found.certificate.strategy)) == (explored, strategy)
    assert found.certificate.root.rules == rules
