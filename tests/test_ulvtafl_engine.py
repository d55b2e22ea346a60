"""The fast proof engine (solver/ulvtafl/engine.py, prover.py): its move generation, end
checks and hashes against the reference model, its values against retrograde analysis and
against the first engine, its proof store's certificates against the reference model, and
the library contract: budgets, checkpoints, bad input."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from helpers.ulvtafl_positions import random_board, small_position, small_solved
from hypothesis import given, settings
from hypothesis import strategies as st

from fleece.rules.errors import FleeceError
from fleece.rules.ulvtafl.game import (
    SHEEP,
    WOLVES,
    Rules,
    UlvState,
    UlvtaflOptions,
    apply_move,
    generate,
    initial_state,
    sheep_steps,
    wolf_captures,
)
from fleece.rules.ulvtafl.geometry import NUM_POINTS, PADDOCK
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.ulvtafl import engine as e
from fleece.solver.ulvtafl.budget import BudgetError, parse_memory
from fleece.solver.ulvtafl.certificate import (
    Certificate,
    bare,
    check_certificate,
    longest_line,
    proof_order,
)
from fleece.solver.ulvtafl.legacy import LegacyProofSearch
from fleece.solver.ulvtafl.prover import (
    BUFFER_BYTES,
    ENTRY_BYTES,
    CheckpointError,
    Prover,
    mirror_points,
    store_entries,
    table_bits_for,
)
from fleece.solver.ulvtafl.search import retro_solve


@given(seed=st.integers(0, 10**9))
def test_u10_engine_moves_ends_and_hashes_match_the_model(seed: int) -> None:
    """Every legal move's board (capture chains ending on one board are one child), the end
    status, the mobility's zero, and the incremental hashes equal fresh ones."""
    rules, sheep, wolves, side = random_board(random.Random(seed))
    boards = sorted({apply_move(sheep, wolves, m) for m in generate(rules, sheep, wolves, side)})
    g = e.geometry(rules)
    s, w = e.to_grid(sheep), e.to_grid(wolves)
    h, m = e.hash_of(e.Z, s, w, side)
    kid = e.kids()
    n = e.gen(g, e.Z, s, w, side, h, m, 0, kid, e.scratch(), False)
    got = sorted((e.from_grid(int(a)), e.from_grid(int(b))) for a, b in kid[:n, :2])
    assert got == boards
    for j in range(n):
        assert e.hash_of(e.Z, int(kid[j, e.K_S]), int(kid[j, e.K_W]), 1 - side) == \
            (kid[j, e.K_H], kid[j, e.K_M])
    result = UlvState.create(rules, sheep, wolves, side).result
    assert int(e.status(g, s, w, side)) == {None: 0, "wolves": 1, "sheep": 2}[result]
    assert (int(e.mobility(g, s, w, side)) == 0) == (not boards)
    # safe_only (sheep proofs with safe moves alone): the sheep moves after which no wolf
    # can jump, as the model's capture generator sees them
    n = e.gen(g, e.Z, s, w, side, h, m, 0, kid, e.scratch(), True)
    got = sorted((e.from_grid(int(a)), e.from_grid(int(b))) for a, b in kid[:n, :2])
    if side == SHEEP:
        boards = [b for b in boards if next(wolf_captures(rules, *b), None) is None]
    assert got == boards


@given(seed=st.integers(0, 10**9), radius=st.integers(1, 3), safe=st.booleans())
def test_focus_keeps_every_sheep_move_near_a_wolf_and_a_few_tempo_moves(
        seed: int, radius: int, safe: bool) -> None:
    """The focused sheep moves (Prover focus): every legal move that starts or ends within
    `radius` king steps of a wolf (distance computed here from the points' coordinates),
    and of the others exactly min(FOCUS_FAR, how many) forward moves and min(1, how many)
    sideways ones; nothing else. With `safe` the same among the safe moves."""
    from fleece.rules.ulvtafl.geometry import COORDS, points_of
    from fleece.solver.ulvtafl.prover import FOCUS_FAR

    rules, sheep, wolves, _ = random_board(random.Random(seed))
    wolf_at = [COORDS[p] for p in points_of(wolves)]

    def close(p: int) -> bool:
        f, r = COORDS[p]
        return any(max(abs(f - g), abs(r - q)) <= radius for g, q in wolf_at)

    near: set[tuple[int, int]] = set()
    far: dict[bool, set[tuple[int, int]]] = {True: set(), False: set()}
    for move in generate(rules, sheep, wolves, SHEEP):
        board = apply_move(sheep, wolves, move)
        if safe and next(wolf_captures(rules, *board), None) is not None:
            continue
        start, end = move.path[0], move.path[-1]
        if close(start) or close(end):
            near.add(board)
        else:
            far[COORDS[end][1] > COORDS[start][1]].add(board)
    g = e.geometry(rules)
    s, w = e.to_grid(sheep), e.to_grid(wolves)
    h, m = e.hash_of(e.Z, s, w, SHEEP)
    kid = e.kids()
    n = e.gen(g, e.Z, s, w, SHEEP, h, m, 0, kid, e.scratch(), safe, radius, FOCUS_FAR)
    got = [(e.from_grid(int(a)), e.from_grid(int(b))) for a, b in kid[:n, :2]]
    assert len(got) == len(set(got))
    kept = set(got)
    assert near <= kept
    assert kept <= near | far[True] | far[False]
    assert len(kept & far[True]) == min(FOCUS_FAR, len(far[True]))
    assert len(kept & far[False]) == min(1, len(far[False]))
    # radius 0 is no focus: every move
    n = e.gen(g, e.Z, s, w, SHEEP, h, m, 0, kid, e.scratch(), safe, 0, FOCUS_FAR)
    assert n == len(near) + len(far[True]) + len(far[False])


@given(seed=st.integers(0, 10**9))
def test_u1_mirror_images_share_a_table_key(seed: int) -> None:
    """A position and its left-right mirror image have the same key; the mirror of the
    mirror is the position."""
    _, sheep, wolves, side = random_board(random.Random(seed))
    ms, mw = mirror_points(sheep), mirror_points(wolves)
    assert (mirror_points(ms), mirror_points(mw)) == (sheep, wolves)
    a = e.hash_of(e.Z, e.to_grid(sheep), e.to_grid(wolves), side)
    b = e.hash_of(e.Z, e.to_grid(ms), e.to_grid(mw), side)
    assert e.canon(*a) == e.canon(*b)


def _steps_from(rules: Rules, point: int) -> dict[int, int]:
    """Sheep steps from `point` to every point one sheep reaches alone on the board
    (breadth-first over the reference model's sheep moves)."""
    dist = {point: 0}
    todo = [point]
    for p in todo:
        for move in sheep_steps(rules, 1 << p, 0):
            if move.end not in dist:
                dist[move.end] = dist[p] + 1
                todo.append(move.end)
    return dist


@given(seed=st.integers(0, 10**9))
def test_pad_steps_counts_the_sheep_steps_to_every_empty_paddock_point(seed: int) -> None:
    """The steps profile's distance: for each empty paddock point the steps of the nearest
    sheep alone on the board (9 for a point no sheep reaches), summed."""
    rules, sheep, wolves, _ = random_board(random.Random(seed))
    reach = [_steps_from(rules, p) for p in range(NUM_POINTS) if sheep >> p & 1]
    want = 0
    for p in range(NUM_POINTS):
        if PADDOCK >> p & 1 and not (sheep | wolves) >> p & 1:
            want += min([r[p] for r in reach if p in r], default=9)
    got = e.pad_steps(e.geometry(rules), e.to_grid(sheep), e.to_grid(wolves))
    assert got == want


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**9))
def test_u7_engine_agrees_with_retrograde_analysis_and_its_proofs_check(seed: int) -> None:
    """Wherever the engine settles a position, retrograde analysis (no shared code) gives
    that value; every proof yields a certificate the reference model accepts."""
    solved = small_solved(seed, 100_000)
    if solved is None:
        return
    root, value = solved
    for attacker in (SHEEP, WOLVES):
        prover = Prover(root, attacker, table_bits=16)
        outcome = prover.run(nodes=200_000)
        name = ("wolves", "sheep")[attacker]
        if outcome == "proved":
            assert value == name
            cert = prover.certificate()
            assert cert is not None and check_certificate(root, name, cert) > 0
        if outcome == "disproved":
            assert value != name


def test_u7_both_engines_settle_the_same_positions_the_same_way() -> None:
    """The new engine and the first one (independent code paths) agree on 20 fixed
    positions, and the new one settles at least as many."""
    new_settled = old_settled = 0
    for seed in range(20):
        root = small_position(seed, 100_000)
        if root is None:
            continue
        for attacker in (SHEEP, WOLVES):
            prover = Prover(root, attacker, table_bits=18)
            prover.run(nodes=300_000)
            new = prover.outcome()  # "open" when the budget ran out
            old = LegacyProofSearch(root, attacker, 18).run(300_000)
            if "open" not in (new, old):
                assert new == old, (seed, attacker)
            new_settled += new != "open"
            old_settled += old != "open"
    assert new_settled >= old_settled > 20


def test_u7_the_17_sheep_start_is_a_sheep_win_with_a_checked_certificate() -> None:
    """The engine proves the 17-sheep start (the committed report's value) and its proof
    store gives a certificate the reference model re-checks, with no repair needed."""
    start = initial_state(UlvtaflOptions(setup=17))
    prover = Prover(start, SHEEP, table_bits=20)
    assert prover.run(nodes=20_000_000) == "proved"
    cert = prover.store_certificate()
    assert cert is not None
    assert check_certificate(start, "sheep", cert) >= len(cert) > 50


@pytest.mark.parametrize("settled_first", [False, True])
def test_a_full_bucket_gives_up_its_smallest_subtree(settled_first: bool) -> None:
    """Replacement by subtree size: a new key in a full bucket evicts the entry with least
    work, a settled entry's work counting 4 times plus 64: a settled leaf goes before a
    large open subtree, and a small open entry before a settled one of like work. The old
    rule (settled first, kept to measure) evicts the open subtree instead."""
    flag = int(settled_first)
    tt = e.table(1 << 4)
    ctr = np.zeros(8, dtype=np.int64)
    keys = [k for k in range(2, 9000) if (k >> 1) & 15 & ~1 == 6][:4]
    settled = e.tt_store(tt, keys[0], 0, e.INF + 3, 1, 0, ctr, flag)
    open_ = e.tt_store(tt, keys[1], 40, 7, 5_000, 0, ctr, flag)
    assert {settled, open_} == {6, 7} and ctr[4] == 2
    slot = e.tt_store(tt, keys[2], 1, 1, 1, 0, ctr, flag)
    assert slot == (open_ if settled_first else settled)
    assert e.tt_probe(tt, keys[1]) == (-1 if settled_first else open_)
    assert e.tt_probe(tt, keys[0]) == (settled if settled_first else -1)
    assert ctr[4] == 2
    again = e.tt_store(tt, keys[2], 0, 2, 20, 0, ctr, flag)  # settled now, work 21
    assert again == slot and tt[slot, 3] & e.WORK_MASK == 21  # work adds up on one key
    fresh = e.table(1 << 4)  # a settled entry of work 21 counts 148: an open 100 goes
    kept = e.tt_store(fresh, keys[0], e.INF + 5, 0, 21, 0, ctr, flag)
    small = e.tt_store(fresh, keys[1], 3, 9, 100, 0, ctr, flag)
    assert e.tt_store(fresh, keys[3], 1, 1, 1, 0, ctr, flag) == small
    assert e.tt_probe(fresh, keys[0]) == kept


def test_a_full_table_keeps_its_open_subtrees_and_still_proves() -> None:
    """On a table of 2**14 entries (the 17-sheep proof takes a hundred times as many
    nodes), replacement by subtree size proves the start with a certificate the model
    re-checks; keeping settled entries first fills the table with settled leaves,
    evicts the open path again and again and stays open."""
    start = initial_state(UlvtaflOptions(setup=17))
    prover = Prover(start, SHEEP, table_bits=14)
    assert prover.run(nodes=6_000_000) == "proved"
    assert prover.fill == 1.0 and prover.nodes > 100 * len(prover.tt)
    cert = prover.certificate()
    assert cert is not None and check_certificate(start, "sheep", cert) > 50
    old = Prover(start, SHEEP, table_bits=14, settled_first=True)
    old.run(nodes=6_000_000)
    assert old.outcome() == "open"


def test_proofs_the_table_lost_come_back_from_the_proof_store() -> None:
    """A proof is never searched twice: with the table wiped after the 17-sheep proof, the
    search reads every proved child from the store and settles the root again in one
    node, with the same height (plies to the win) as before."""
    start = initial_state(UlvtaflOptions(setup=17))
    prover = Prover(start, SHEEP, table_bits=20)
    assert prover.run(nodes=20_000_000) == "proved"
    height = prover.height(start)
    assert height is not None and height > 10
    nodes = prover.nodes
    prover.tt[:] = 0
    assert prover.run(nodes=1_000_000) == "proved"
    assert prover.nodes == nodes + 1
    assert prover.height(start) == height
    cert = prover.certificate()
    assert cert is not None and check_certificate(start, "sheep", cert) > 50
    prover.prm[e.P_NO_STORE] = 1  # the same wipe without reading the store: a search
    prover.tt[:] = 0
    assert prover.run(nodes=20_000_000) == "proved"
    assert prover.nodes > nodes + 10_000


def test_the_proof_store_keeps_a_proof_whose_home_slot_starts_a_long_run() -> None:
    """A proved position whose home slot begins a run of 500 taken slots is still recorded
    and found (a run that long occurs at two thirds full in a store of tens of millions);
    a full store says it had no room (-1) rather than dropping the proof silently."""
    ps = np.zeros((1 << 12, 2), dtype=np.int64)
    key = (1000 << 5) | 7
    for i in range(500):
        ps[1000 + i, 0] = (i + 1) << 20  # other keys, homed elsewhere
    assert e.store_add(ps, key, 41, 3) == 1
    assert e.store_ordinal(ps, key) == 41
    assert e.store_add(ps, key, 99, 3) == 0 and e.store_ordinal(ps, key) == 41
    full = np.ones((1 << 10, 2), dtype=np.int64)
    assert e.store_add(full, key, 5, 1) == -1 and e.store_ordinal(full, key) == -1


def test_a_retargeted_search_keeps_what_its_table_proved() -> None:
    """After the 17-sheep proof, the same search retargeted at a position inside that proof
    (a wolf reply and the sheep's answer) has it proved without a node, and its certificate
    from there checks; another rule set is refused in one line."""
    start = initial_state(UlvtaflOptions(setup=17))
    prover = Prover(start, SHEEP, table_bits=20)
    assert prover.run(nodes=20_000_000) == "proved"
    cert = prover.certificate()
    assert cert is not None
    reply = next(iter(start.legal_moves()))
    inner = start.play(reply)
    inner = inner.play(parse_move(cert[position_text(bare(inner))]))
    nodes = prover.nodes
    prover.retarget(inner)
    assert prover.run(nodes=1_000_000) == "proved" and prover.nodes == nodes
    inner_cert = prover.certificate()
    assert inner_cert is not None and len(inner_cert) < len(cert)
    assert check_certificate(inner, "sheep", inner_cert) > 0
    other = initial_state(UlvtaflOptions(setup=17, rules=Rules(sheep_orthogonal=True)))
    with pytest.raises(FleeceError, match="keeps its rule set") as info:
        prover.retarget(other)
    assert info.value.field == "position"


def test_restricted_sheep_moves_prove_or_fail_never_disprove(tmp_path: Path) -> None:
    """`safe_only` and `forward_only` searches claim a proof (checked) or fail, and a
    checkpoint of one resumes only as the same restriction."""
    from fleece.api import ulvtafl as api

    for workers in (1, 2):
        both = api.prove(api.ProveRequest(setup=20, safe_only=True, forward_only=True,
                                          max_nodes=2_000_000, memory="64M",
                                          workers=workers))
        assert both.outcome == "failed" and both.certificate_positions is None
        assert both.nodes < 1_000_000
    with pytest.raises(FleeceError, match="only the sheep"):
        api.prove(api.ProveRequest(setup=13, side="wolves", safe_only=True))
    state = initial_state(UlvtaflOptions(setup=15))
    prover = Prover(state, SHEEP, table_bits=12, safe_only=True)
    prover.run(nodes=5_000)
    prover.save(tmp_path / "ck")
    with pytest.raises(CheckpointError, match="safe-only is True"):
        Prover.load(tmp_path / "ck", safe_only=False)
    assert Prover.load(tmp_path / "ck", safe_only=True).safe_only
    with pytest.raises(CheckpointError, match="the mobility profile"):
        Prover.load(tmp_path / "ck", profile="paddock")
    with pytest.raises(CheckpointError, match="focus 0 there"):
        Prover.load(tmp_path / "ck", focus=1)
    with pytest.raises(FleeceError, match="only the sheep"):
        api.prove(api.ProveRequest(setup=13, side="wolves", focus=1))
    for radius in (-1, 7):
        with pytest.raises(FleeceError, match="focus radius must be 0") as info:
            Prover(state, SHEEP, table_bits=12, focus=radius)
        assert info.value.field == "focus"
    with pytest.raises(FleeceError, match="not a profile") as info:
        api.prove(api.ProveRequest(setup=13, profile="greedy"))
    assert info.value.field == "profile"


# a position 29 plies before the end of the horizon game (reports/ulvtafl-horizon.md)
HORIZON_37 = "W.W/..S/.SSSS.S/SSSS.S./.S.SSSS/S.S/.SS s"


def test_a_focused_search_proves_with_a_fraction_of_the_nodes(tmp_path: Path) -> None:
    """Focus 1 proves the sheep's win in a position of the horizon game within 400,000
    nodes, where the safe-only search alone is still open after them; the certificate
    checks with the reference rules, and the checkpoint keeps the focus."""
    state = parse_position(HORIZON_37)
    plain = Prover(state, SHEEP, table_bits=18, safe_only=True)
    assert plain.run(nodes=400_000) == "max-nodes"
    focused = Prover(state, SHEEP, table_bits=18, safe_only=True, focus=1)
    assert focused.restricted
    assert focused.run(nodes=400_000) == "proved"
    cert = focused.certificate()
    assert cert is not None and check_certificate(bare(state), "sheep", cert) > 0
    focused.save(tmp_path / "ck")
    assert Prover.load(tmp_path / "ck", focus=1).focus == 1


def test_the_steps_profile_proves_a_focused_search_in_fewer_nodes() -> None:
    """The sheep's steps to a full paddock as initial numbers: the focused proof of a
    horizon position takes fewer nodes than with the mobility or paddock profile (about
    240,000 against 360,000 and 370,000), and its certificate checks."""
    state = parse_position(HORIZON_37)
    nodes = {}
    for profile in ("mobility", "paddock", "steps"):
        prover = Prover(state, SHEEP, table_bits=18, safe_only=True, focus=2, profile=profile)
        assert prover.run(nodes=3_000_000) == "proved"
        nodes[profile] = prover.nodes
    cert = prover.certificate()
    assert cert is not None and check_certificate(bare(state), "sheep", cert) > 0
    assert nodes["steps"] * 4 < min(nodes["mobility"], nodes["paddock"]) * 3


# ---- budgets, checkpoints, bad input --------------------------------------------------------


def test_node_budget_stops_the_search_in_nodes() -> None:
    prover = Prover(initial_state(UlvtaflOptions(setup=20)), SHEEP, table_bits=16)
    assert prover.run(nodes=250_000) == "max-nodes"
    assert 250_000 <= prover.nodes < 250_000 + 2_000


def test_time_budget_is_read_between_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fake clock that advances one second per reading: a 3-second budget stops after
    a handful of chunks, whatever the machine's speed."""
    import fleece.solver.ulvtafl.prover as mod

    clock = iter(range(10**6))
    monkeypatch.setattr(mod.time, "perf_counter", lambda: float(next(clock)))
    prover = Prover(initial_state(UlvtaflOptions(setup=20)), SHEEP, table_bits=16)
    assert prover.run(seconds=3) == "timeout"
    assert 0 < prover.nodes <= 3 * mod.CHUNK



def test_a_run_searches_in_steps_of_its_step_and_stops_on_its_event() -> None:
    """run(step=N) is the search of step(N) calls to the end (the same nodes to the
    proof: each step restarts from the root, so the step is part of the search); a set
    `stop` event ends a run before its first step, and a step of zero is refused."""
    import threading

    state = initial_state(UlvtaflOptions(setup=17))
    by_hand = Prover(state, SHEEP, table_bits=20)
    while by_hand.outcome() == "open":
        by_hand.step(250_000)
    run = Prover(state, SHEEP, table_bits=20)
    assert run.run(step=250_000) == "proved"
    assert run.nodes == by_hand.nodes
    stop = threading.Event()
    stop.set()
    stopped = Prover(state, SHEEP, table_bits=16)
    assert stopped.run(nodes=1_000_000, stop=stop) == "interrupted"
    assert stopped.nodes == 0
    with pytest.raises(BudgetError, match="the step"):
        Prover(state, SHEEP, table_bits=12).run(step=0)

def test_memory_budget_sizes_the_table_and_refuses_what_cannot_fit() -> None:
    state = initial_state(UlvtaflOptions(setup=13))
    small = Prover(state, SHEEP, memory="64M")
    assert small.tt.nbytes + small.ps.nbytes <= 64 << 20
    with pytest.raises(BudgetError, match="memory budget"):
        Prover(state, SHEEP, memory="1M")
    with pytest.raises(BudgetError, match=r"needs .* more than the memory budget"):
        retro_solve(state, 200_000_000, memory="4G")
    for bad in ("0", "-1G", "lots", ""):
        with pytest.raises(BudgetError):
            parse_memory(bad)
    with pytest.raises(BudgetError):
        Prover(state, SHEEP, table_bits=12).run(nodes=0)
    with pytest.raises(BudgetError):
        Prover(state, SHEEP, table_bits=12).run(seconds=0)


def test_checkpoint_resumes_the_same_search(tmp_path: Path) -> None:
    """A search saved and resumed reaches exactly the state of one run straight through
    (the same nodes, the same root numbers): the table and counters come back whole."""
    state = initial_state(UlvtaflOptions(setup=15))
    straight = Prover(state, SHEEP, table_bits=16)
    straight.run(nodes=400_000)
    first = Prover(state, SHEEP, table_bits=16)
    first.run(nodes=200_000, checkpoint=tmp_path / "ck")
    again = Prover.load(tmp_path / "ck", state=state, attacker=SHEEP)
    again.run(nodes=200_000)
    assert again.nodes == straight.nodes
    assert again.root_numbers() == straight.root_numbers()
    assert np.array_equal(again.tt, straight.tt)


def test_a_checkpoint_resumed_with_more_memory_grows_and_keeps_every_entry(
        tmp_path: Path) -> None:
    """Resumed with more memory, a search takes the table and store a fresh one with that
    memory would: every saved entry is found there with its numbers, work and fingerprint,
    every proof with its ordinal and height, the fill counters count them, and the grown
    search goes on to a proof whose certificate the reference rules accept."""
    state = initial_state(UlvtaflOptions(setup=17))
    small = Prover(state, SHEEP, table_bits=14)
    small.run(nodes=200_000, checkpoint=tmp_path / "ck")
    assert small.outcome() == "open" and small.fill > 0.9
    memory = BUFFER_BYTES + (ENTRY_BYTES << 20)
    grown = Prover.load(tmp_path / "ck", state=state, attacker=SHEEP, memory=memory)
    assert grown.table_bits == 20 == table_bits_for(memory)
    assert len(grown.ps) == store_entries(20, memory) > len(small.ps)
    assert grown.nodes == small.nodes
    kept = small.tt[small.tt[:, 0] != 0]
    assert len(kept) == int(grown.ctr[4]) == np.count_nonzero(grown.tt[:, 0])
    for row in kept:
        assert np.array_equal(grown.tt[e.tt_probe(grown.tt, int(row[0]))], row)
    proofs = small.ps[small.ps[:, 0] != 0]
    assert len(proofs) == int(grown.ctr[7]) == np.count_nonzero(grown.ps[:, 0]) > 0
    for key, value in proofs:
        assert grown.ps[e.store_slot(grown.ps, int(key)), 1] == value
    saved = (tmp_path / "ck" / "search.npz").read_bytes()
    broken = tmp_path / "broken"
    broken.mkdir()
    flipped = bytearray(saved)
    flipped[len(flipped) // 3] ^= 0xFF  # inside the table: its CRC fails once streamed
    (broken / "search.npz").write_bytes(bytes(flipped))
    with pytest.raises(CheckpointError, match="corrupt"):
        Prover.load(broken, memory=memory)
    same = Prover.load(tmp_path / "ck", memory=BUFFER_BYTES + (ENTRY_BYTES << 14))
    assert same.table_bits == 14 and np.array_equal(same.tt, small.tt)
    assert grown.run(nodes=20_000_000) == "proved"
    strategy = grown.certificate()
    assert strategy is not None
    assert check_certificate(state, "sheep", strategy) > len(strategy) > 100


def test_checkpoints_refuse_overwrites_corruption_and_other_searches(tmp_path: Path) -> None:
    state = initial_state(UlvtaflOptions(setup=15))
    prover = Prover(state, SHEEP, table_bits=12)
    prover.run(nodes=5_000)
    folder = tmp_path / "ck"
    prover.save(folder)
    saved = (folder / "search.npz").read_bytes()
    with pytest.raises(CheckpointError, match="already there"):
        prover.save(folder)
    assert (folder / "search.npz").read_bytes() == saved
    with pytest.raises(CheckpointError, match="not of this position"):
        Prover.load(folder, state=initial_state(UlvtaflOptions(setup=13)))
    with pytest.raises(CheckpointError, match="a search for a sheep win"):
        Prover.load(folder, attacker=WOLVES)
    other_rules = UlvtaflOptions(setup=15, rules=Rules(sheep_orthogonal=True))
    with pytest.raises(CheckpointError, match="not of this position or rule set"):
        Prover.load(folder, state=initial_state(other_rules))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "search.npz").write_bytes(saved[: len(saved) // 2])
    with pytest.raises(CheckpointError) as info:
        Prover.load(broken)
    assert "\n" not in str(info.value) and "corrupt" in str(info.value)
    flipped = bytearray(saved)
    flipped[len(flipped) // 2] ^= 0xFF
    (broken / "search.npz").write_bytes(bytes(flipped))
    with pytest.raises(CheckpointError, match="corrupt"):
        Prover.load(broken)
    with pytest.raises(CheckpointError, match="no checkpoint"):
        Prover.load(tmp_path / "nowhere")


def test_epsilon_is_the_searchs_own_and_its_checkpoint_keeps_it(tmp_path: Path) -> None:
    """The default epsilon is 1/4 (the same search as asking for it); another one is
    another search (here 1/8 proves the 17-sheep start in other nodes); a checkpoint
    resumes only with its own epsilon, and an epsilon that is not a multiple of 1/64 from
    0 to 4 is refused in one line."""
    state = initial_state(UlvtaflOptions(setup=17))
    nodes = {}
    for epsilon in (None, 0.25, 0.125):
        prover = (Prover(state, SHEEP, table_bits=20) if epsilon is None
                  else Prover(state, SHEEP, table_bits=20, epsilon=epsilon))
        assert prover.run() == "proved"
        nodes[epsilon] = prover.nodes
    assert nodes[None] == nodes[0.25] != nodes[0.125]
    eighth = Prover(state, SHEEP, table_bits=12, epsilon=0.125)
    eighth.run(nodes=5_000)
    eighth.save(tmp_path / "ck")
    assert Prover.load(tmp_path / "ck", epsilon=0.125).epsilon == 0.125
    assert Prover.load(tmp_path / "ck").prm[e.P_EPS] == 8
    with pytest.raises(CheckpointError, match=r"epsilon 0\.125 there"):
        Prover.load(tmp_path / "ck", epsilon=0.25)
    for bad in (0.3, -0.125, 4.5, float("nan")):
        with pytest.raises(FleeceError, match="multiple of 1/64") as info:
            Prover(state, SHEEP, table_bits=12, epsilon=bad)
        assert info.value.field == "epsilon"


@pytest.mark.parametrize("text", [
    "SSS/SSS/SSSSSSS/SSSSSSS/SSSSSSS/SSS/SSW w",  # 32 sheep
    "WWW/.../......./SSSSSSS/SSSSSSS/SSS/SSS w",  # three wolves
    "W.W/.../......./SSSSSSS/SSSSSSS/SSS/SS w",  # a short rank
])
def test_bad_positions_are_one_line_errors(text: str) -> None:
    with pytest.raises(FleeceError) as info:
        parse_position(text)
    assert "\n" not in str(info.value)


def test_a_wolf_on_a_sheep_is_refused() -> None:
    with pytest.raises(FleeceError, match="both a sheep and a wolf"):
        UlvState.create(Rules(), 0b111111111, 0b1, WOLVES)


# ply 36 of the horizon game: the wolves' d6-e7 here gives HORIZON_37
HORIZON_36 = "W../.WS/.SSSS.S/SSSS.S./.S.SSSS/S.S/.SS w"


def _focused(state: UlvState, bits: int = 18) -> Prover:
    """The focused sheep search with the steps profile, on a small table."""
    return Prover(state, SHEEP, table_bits=bits, safe_only=True, focus=2, profile="steps")


def test_a_seeded_certificate_counts_as_proved_and_a_proof_runs_through_it() -> None:
    """Prover.seed records a certificate's proof (children before parents, each with its
    height: the root's is the longest line's plies): a search of its root is proved at
    once, and a search of an earlier position proves through it with a certificate that
    the reference rules accept from that position. A certificate of the other side or of
    other rules is refused."""
    state = parse_position(HORIZON_37)
    first = _focused(state)
    assert first.run(nodes=3_000_000) == "proved"
    strategy = first.certificate()
    assert strategy is not None
    cert = Certificate(bare(state), "sheep", strategy)
    order = proof_order(cert.root, "sheep", strategy)
    assert len(order) == check_certificate(cert.root, "sheep", strategy)
    assert order[-1] == (state.sheep, state.wolves, SHEEP,
                         longest_line(cert.root, "sheep", strategy)[0])
    again = _focused(state)
    assert again.seed(cert) == len(order)
    assert again.seed(cert) == 0  # every position is already recorded
    assert again.run(nodes=3_000_000) == "proved" and again.nodes < 100
    before = parse_position(HORIZON_36)
    plain, seeded = _focused(before, bits=20), _focused(before, bits=20)
    seeded.seed(cert)
    assert plain.run(nodes=8_000_000) == seeded.run(nodes=8_000_000) == "proved"
    assert seeded.nodes < plain.nodes  # about 4.7M against 6.2M
    through = seeded.certificate()
    assert through is not None and check_certificate(before, "sheep", through) > 0
    with pytest.raises(FleeceError, match="cannot seed"):
        Prover(state, WOLVES, table_bits=12).seed(cert)
    other = initial_state(UlvtaflOptions(setup=17, rules=Rules(orthogonal=True)))
    with pytest.raises(FleeceError, match="other rules"):
        Prover(other, SHEEP, table_bits=12).seed(cert)


@pytest.mark.parametrize("memory", ["10M", "40M", "64M", "100M"])
def test_the_proof_store_takes_the_memory_the_table_leaves(memory: str) -> None:
    """Within a memory budget the store is the largest power of two that fits beside the
    table (never less than a quarter of the table): the whole search fits the budget, a
    store twice as large would not, and the store's size does not change the search."""
    budget = parse_memory(memory)
    prover = Prover(parse_position(HORIZON_37), SHEEP, memory=memory, safe_only=True,
                    focus=2, profile="steps")
    bits = table_bits_for(budget)
    rows = prover.ps.shape[0]
    assert rows == store_entries(bits, budget) >= (1 << bits) // 4
    assert rows & (rows - 1) == 0
    assert BUFFER_BYTES + prover.tt.nbytes + prover.ps.nbytes <= budget
    assert BUFFER_BYTES + prover.tt.nbytes + 2 * prover.ps.nbytes > budget
    small = Prover(parse_position(HORIZON_37), SHEEP, table_bits=bits, safe_only=True,
                   focus=2, profile="steps")
    assert small.ps.shape[0] == max(1 << 10, (1 << bits) // 4)
    assert prover.run(nodes=3_000_000) == small.run(nodes=3_000_000)
    assert prover.nodes == small.nodes and prover.root_numbers() == small.root_numbers()
    info = prover.progress_info()
    assert 0 < info["store_fill"] == round(int(prover.ctr[7]) / rows, 4) <= 1
