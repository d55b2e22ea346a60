"""Ulvtafl solver: the compiled generator and perft against the reference model, retrograde
analysis against an independent value iteration, the proof-number search against the
retrograde values (U7's reading), hand-analysed positions, and the budget contract."""

from __future__ import annotations

import importlib
import itertools
import random
from typing import Any

import pytest
from helpers.ulvtafl_positions import random_board, small_position
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.ulvtafl.game import (
    SHEEP,
    WOLVES,
    Move,
    UlvState,
    UlvtaflOptions,
    apply_move,
    generate,
    initial_state,
    wolf_captures,
)
from fleece.rules.ulvtafl.game import perft as model_perft
from fleece.rules.ulvtafl.geometry import rank_of
from fleece.rules.ulvtafl.notation import parse_position
from fleece.solver.ulvtafl import kernels as k
from fleece.solver.ulvtafl import perft, solve
from fleece.solver.ulvtafl.search import ProofSearch, check_certificate, retro_solve, tables

TRAPPED = "WSS/.SS/..SSS../..S.S../......./.../... w"
CHAIN = ".../.../S..S.../..S.S../SSWS.SS/.S./... w"
DRAW = ".SS/S.S/.S..SSW/S.S...S/......./.../... w"
MIDDLE = "W.W/..S/.SSSS.S/SSSS.S./.S.SSSS/S.S/.SS s"




@given(seed=st.integers(0, 10**9))
def test_u10_compiled_moves_and_end_checks_match_the_model(seed: int) -> None:
    rules, sheep, wolves, side = random_board(random.Random(seed))
    ours = sorted(apply_move(sheep, wolves, m) for m in generate(rules, sheep, wolves, side))
    out_s, out_w, out_i = k.buffers(1 << 12)
    n = k.gen(tables(rules), sheep, wolves, side, out_s, out_w, out_i, k.scratch())
    assert sorted(zip(out_s[:n].tolist(), out_w[:n].tolist(), strict=True)) == ours
    state = UlvState.create(rules, sheep, wolves, side)
    code = int(k.status(tables(rules), sheep, wolves, side))
    assert code == {None: k.ONGOING, "wolves": k.WOLVES_WON, "sheep": k.SHEEP_WON}[state.result]


@pytest.mark.parametrize("setup", [13, 15, 17, 20])
def test_u10_compiled_perft_matches_the_model(setup: int) -> None:
    s = initial_state(UlvtaflOptions(setup=setup))
    assert [perft(s, d) for d in range(1, 5)] == [model_perft(s, d) for d in range(1, 5)]


def test_u10_u7_perft_with_repetitions_matches_the_model() -> None:
    """From a sparse position repetitions come within 4 plies; both count them as ends."""
    s = parse_position("..W/.../......./......./..S..SS/SSS/SSS w")
    assert [perft(s, d) for d in range(1, 6)] == [model_perft(s, d) for d in range(1, 6)]
    off = parse_position("..W/.../......./......./..S..SS/SSS/SSS w no-repetition-draw")
    assert perft(off, 5) == model_perft(off, 5) > perft(s, 5)


def test_u10_perft_of_the_start_is_6_78() -> None:
    s = initial_state(UlvtaflOptions())
    assert [perft(s, 1), perft(s, 2)] == [6, 78]


# ---- retrograde analysis against an independent value iteration --------------------------


def _value_iteration(root: UlvState) -> dict[tuple[int, int, int], tuple[str, int]]:
    """Values (winner, plies) of every position reachable from `root`, by rounds of plain
    iteration with the reference model (no shared code with the kernels): round r settles
    the positions whose value is decided at distance r (a win as soon as one move reaches a
    loss of the opponent; a loss once every move reaches a win of the opponent)."""
    seen: dict[tuple[int, int, int], UlvState] = {}
    todo = [root]
    while todo:
        s = todo.pop()
        key = (s.sheep, s.wolves, s.to_move)
        if key in seen:
            continue
        seen[key] = s
        if not s.is_terminal():
            for m in s.legal_moves():
                nxt = s.play(m)
                todo.append(UlvState.create(s.rules, nxt.sheep, nxt.wolves, nxt.to_move))
    value: dict[tuple[int, int, int], tuple[str, int]] = {}
    for key, s in seen.items():
        if s.result in ("wolves", "sheep"):
            value[key] = (s.result, 0)
    kids = {key: [(b[0], b[1], 1 - s.to_move) for b in
                  (apply_move(s.sheep, s.wolves, m) for m in s.legal_moves())]
            for key, s in seen.items() if key not in value}
    rounds = 0
    while True:  # round r fixes exactly the positions at distance r
        rounds += 1
        new: dict[tuple[int, int, int], tuple[str, int]] = {}
        for key, children in kids.items():
            if key in value:
                continue
            me = ("wolves", "sheep")[key[2]]
            known = [value.get(c) for c in children]
            if any(v is not None and v[0] == me for v in known):
                new[key] = (me, rounds)
            elif all(v is not None for v in known):
                new[key] = (known[0][0], rounds)  # type: ignore[index]
        if not new:
            break
        value.update(new)
    return value




@given(seed=st.integers(0, 10**9))
def test_u7_retrograde_values_and_distances_match_value_iteration(seed: int) -> None:
    """Every reachable position: the same winner (or draw) and the same distance."""
    root = small_position(seed, 3000)
    if root is None:
        return
    table = retro_solve(root, 3000)
    assert table is not None
    expected = _value_iteration(root)
    for i in range(table.size):
        key = int(table.keys[i])
        s, w, side = int(k.key_sheep(key)), int(k.key_wolves(key)), int(k.key_side(key))
        got = table.lookup(s, w, side)
        want = expected.get((s, w, side), ("draw", -1))
        assert got == want, (s, w, side)


# ---- the proof-number search against the retrograde values ---------------------------------


def _agree(root: UlvState, budget: int) -> tuple[str, dict[str, str]]:
    table = retro_solve(root, 100_000)
    assert table is not None
    value = table.value(root)[0]
    outcomes = {}
    for attacker, name in ((SHEEP, "sheep"), (WOLVES, "wolves")):
        search = ProofSearch(root, attacker, 18)
        outcomes[name] = search.run(budget)
        if outcomes[name] == "proved":
            assert value == name
        if outcomes[name] == "disproved":
            assert value != name
    forward = ProofSearch(root, SHEEP, 18, forward_only=True)
    if forward.run(budget) == "proved":
        assert value == "sheep"
    safe = ProofSearch(root, SHEEP, 18, safe_only=True, focus=2, profile="steps")
    if safe.run(budget) == "proved":
        assert value == "sheep"
    return value, outcomes


@given(seed=st.integers(0, 10**9))
def test_u7_proof_search_agrees_with_retrograde_analysis(seed: int) -> None:
    """Wherever both methods settle a position they give the same value."""
    root = small_position(seed, 100_000)
    if root is None:
        return
    _agree(root, 100_000)


def test_u7_proof_search_settles_most_small_positions() -> None:
    """Not vacuous: on 25 fixed positions the search settles each side's question for at
    least 80% of them, and sheep wins, wolf wins and draws all appear among them."""
    settled = total = 0
    values = set()
    for seed in range(25):
        root = small_position(seed, 100_000)
        if root is None:
            continue
        value, outcomes = _agree(root, 100_000)
        values.add(value)
        total += 2
        settled += sum(o in ("proved", "disproved") for o in outcomes.values())
    assert total >= 40 and settled >= 0.8 * total
    assert values == {"sheep", "wolves", "draw"}


# ---- hand-analysed positions -----------------------------------------------------------


def test_u5_a_wolf_that_cannot_avoid_being_trapped() -> None:
    """TRAPPED: the wolf's only move is c7-c6; d7-c7 then leaves it without a move, so the
    sheep win 2 plies from here. Both methods find it."""
    s = parse_position(TRAPPED)
    table = retro_solve(s, 3_000_000)
    assert table is not None and table.value(s) == ("sheep", 2)
    result = solve(s, retro_limit=0)
    assert result.value == "sheep" and result.best_move == "c7-c6"
    assert result.principal_line == ("c7-c6", "d7-c7")


def test_u5_a_capture_to_eight_sheep_wins_at_once() -> None:
    """CHAIN: ten sheep and a wolf that must capture; the five-sheep chains leave five, so
    the wolves win in one ply (the one-sheep capture c3xe1 would not end the game)."""
    s = parse_position(CHAIN)
    result = solve(s)
    assert result.value == "wolves" and result.best_move in ("c3xe3xe5xc5xc3xe1",
                                                              "c3xc5xe5xe3xc3xe1")
    assert result.principal_line == (result.best_move,)


def test_u7_a_draw_both_methods() -> None:
    """DRAW: retrograde analysis says neither side can force a win; each side's proof
    search disproves its own win, the disproofs pass the closure check, and a move the
    wolves' disproof keeps (it stays out of the sheep's reach) is a draw in the table."""
    s = parse_position(DRAW)
    table = retro_solve(s, 2_000_000)
    assert table is not None and table.value(s) == ("draw", -1)
    searches = {side: ProofSearch(s, side, 22) for side in (SHEEP, WOLVES)}
    assert all(search.run(3_000_000) == "disproved" for search in searches.values())
    keep = [m for m in s.legal_moves()
            if searches[SHEEP].settled(*apply_move(s.sheep, s.wolves, m), SHEEP, proof=False)]
    assert keep and all(table.value(s.play(m))[0] == "draw" for m in keep)


def test_solve_proves_a_two_wolf_middle_game_with_the_safe_search() -> None:
    """MIDDLE (ply 37 of the horizon game, 20 sheep, two wolves): the sheep's win is a wall
    that never offers a capture, which the full, forward-only and wolves' searches do not
    settle in 3M nodes; solve's safe search, focused near the wolves and started from the
    sheep's steps to a full paddock, proves it in under a third of them (unfocused it does
    not within them), and the value comes with a certificate the reference rules re-check
    (its proof size)."""
    s = parse_position(MIDDLE)
    without = solve(s, searches=("forward", "mover", "other"), max_nodes=3_000_000,
                    retro_limit=0, memory="8G")
    assert without.value == "unknown" and without.searches["sheep_safe_only"] == "not run"
    result = solve(s, max_nodes=3_000_000, retro_limit=0, memory="8G")
    assert result.value == "sheep" and result.searches["sheep_safe_only"] == "proved"
    # 812,227 nodes in all with the steps profile; 2,255,607 with the default mobility one
    assert result.searches["sheep"] == "open" and result.nodes < 1_000_000
    assert result.certificate is not None
    assert result.proof_size == check_certificate(s, "sheep", result.certificate)
    assert result.best_move is not None and result.principal_line[0] == result.best_move
    state, sheep_moves = s, 0
    for text in result.principal_line:  # the line's sheep never offer a capture
        mover = state.to_move
        state = state.play(next(m for m in state.legal_moves() if m.text() == text))
        if mover == SHEEP and not state.is_terminal():
            sheep_moves += 1
            assert not any(True for _ in wolf_captures(state.rules, state.sheep,
                                                       state.wolves)), text
    assert sheep_moves > 0


# ---- the budget contract -----------------------------------------------------------------


def test_solve_reports_unknown_when_the_budget_runs_out(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A node budget stops at that many nodes; a time budget is read between chunks of
    work (a fake clock advancing one second per reading stops a 3-second budget after a
    few chunks, whatever the machine's speed)."""
    s = initial_state(UlvtaflOptions(setup=13))
    result = solve(s, max_nodes=30_000, table_bits=16)
    assert result.value == "unknown" and result.best_move is None
    assert result.stopped == "max-nodes" and result.nodes <= 30_000 + 100
    data = result.to_json()
    assert data["value"] == "unknown" and data["distance"] is None and "frontier" in data
    mod = importlib.import_module("fleece.solver.ulvtafl.solve")
    clock = itertools.count()
    monkeypatch.setattr(mod.time, "perf_counter", lambda: float(next(clock)))
    timed = solve(initial_state(UlvtaflOptions()), timeout=3, retro_limit=0, table_bits=16)
    assert timed.value == "unknown" and timed.stopped == "timeout"
    assert 0 < timed.nodes <= 4 * mod.CHUNK_MAX


def test_solve_sizes_its_tables_from_the_memory_budget(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of the four proof searches gets a table of 2**22 entries when the budget holds
    them, else the largest that four fit in; a budget too small for four of the smallest,
    or a table size asked for that does not fit, is refused in one line."""
    mod = importlib.import_module("fleece.solver.ulvtafl.solve")
    from fleece.solver.ulvtafl.budget import BudgetError
    from fleece.solver.ulvtafl.prover import BUFFER_BYTES, ENTRY_BYTES

    seen: list[int] = []

    class Spy(ProofSearch):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            seen.append(self.table_bits)

    monkeypatch.setattr(mod, "ProofSearch", Spy)
    s = initial_state(UlvtaflOptions(setup=17))
    solve(s, max_nodes=10_000, retro_limit=0, memory="8G")
    assert seen == [22] * 4
    seen.clear()
    budget = 300 << 20
    solve(s, max_nodes=10_000, retro_limit=0, memory=budget)
    assert len(seen) == 4 and len(set(seen)) == 1
    bits = seen[0]
    assert 4 * (BUFFER_BYTES + (ENTRY_BYTES << bits)) <= budget
    assert 4 * (BUFFER_BYTES + (ENTRY_BYTES << (bits + 1))) > budget and bits < 22
    with pytest.raises(BudgetError, match="solving with 4 proof searches needs"):
        solve(s, max_nodes=10_000, retro_limit=0, memory="20M")
    with pytest.raises(BudgetError, match=r"tables of 2\*\*22 entries needs"):
        solve(s, max_nodes=10_000, retro_limit=0, memory=budget, table_bits=22)


def test_retrograde_reads_the_clock_in_every_phase(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a fake clock that counts its readings, a full run reads it N times (once per
    step of every phase: enumeration, predecessor lists, seeding, propagation); a deadline
    at half of that stops the work (RetroTimeout), one past N does not."""
    mod = importlib.import_module("fleece.solver.ulvtafl.search")
    from fleece.solver.ulvtafl.search import RetroTimeout

    position = parse_position(".S./.SS/.S.SSSW/.S..SS./......./.../... s")
    monkeypatch.setattr(mod, "RETRO_STEP", 50_000)

    def run(deadline: float) -> tuple[object, int]:
        clock = itertools.count()
        monkeypatch.setattr(mod.time, "perf_counter", lambda: float(next(clock)))
        try:
            table = retro_solve(position, 4_000_000, deadline=deadline)
        except RetroTimeout:
            table = None
        return table, next(clock)

    table, readings = run(1e18)
    assert table is not None and readings > 4 * 1_860_440 // 50_000
    assert run(readings // 2)[0] is None
    full = run(readings + 1)[0]
    assert full is not None and full.value(position) == ("sheep", 37)  # type: ignore[attr-defined]


def test_solve_of_a_finished_game_is_its_result() -> None:
    s = parse_position("SSS/SSS/..SSS../......./......./.../.W. w")
    result = solve(s)
    assert (result.value, result.distance, result.best_move) == ("sheep", 0, None)


def test_solve_json_has_the_documented_keys() -> None:
    data = solve(parse_position(TRAPPED)).to_json()
    assert {"value", "best_move", "nodes", "distance"} <= set(data)
    assert isinstance(data["nodes"], int) and data["value"] in ("sheep", "wolves", "draw")


# ---- the heuristic reply in play ---------------------------------------------------------


@given(seed=st.integers(0, 10**9))
def test_the_heuristic_reply_keeps_the_sheep_safe_and_the_wolves_threatening(
        seed: int) -> None:
    """With no solved move, the sheep play a move after which no wolf can capture whenever
    one exists, and among those one that goes forward the most; the wolves, with no
    capture, step to make a capture threat whenever a step makes one."""
    from fleece.solver.ulvtafl.policy import reply_move

    rules, sheep, wolves, side = random_board(random.Random(seed))
    state = UlvState.create(rules, sheep, wolves, side)
    if state.is_terminal():
        return
    moves = list(state.legal_moves())
    chosen = reply_move(state, None)
    assert chosen in moves

    def threats(move: Move) -> int:
        after = state.play(move)
        return sum(1 for _ in wolf_captures(after.rules, after.sheep, after.wolves))

    if side == SHEEP:
        safe = [m for m in moves if state.play(m).is_terminal() or threats(m) == 0]
        if safe:
            assert chosen in safe
            gain = max(rank_of(m.end) - rank_of(m.start) for m in safe)
            assert rank_of(chosen.end) - rank_of(chosen.start) == gain
    elif not any(m.capture for m in moves) and any(threats(m) for m in moves):
        assert threats(chosen) == max(threats(m) for m in moves) > 0
