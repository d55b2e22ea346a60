"""Ulvtafl reference model (docs/rules.md section 3): geometry, setups, moves, captures, ends,
options, repetition, illegal-move reasons, and perft against an independent brute force."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.errors import IllegalMoveError, RulesError
from fleece.rules.ulvtafl.game import (
    SHEEP,
    WOLVES,
    Move,
    Rules,
    UlvIllegalMove,
    UlvState,
    UlvtaflOptions,
    initial_state,
    perft,
)
from fleece.rules.ulvtafl.geometry import (
    BY_NAME,
    DIAGONAL_POINTS,
    NAMES,
    NUM_POINTS,
    PADDOCK,
    mask,
    named,
    rank_of,
    segments,
)
from fleece.rules.ulvtafl.notation import parse_move, parse_position

# ---- an independent brute force, written from docs/rules.md U1, U3, U4, U8, U10 -----------------


def _exists(f: int, r: int) -> bool:
    return 0 <= f <= 6 and 1 <= r <= 7 and (2 <= f <= 4 or 3 <= r <= 5)


def _joined(a: tuple[int, int], b: tuple[int, int], rules: Rules) -> bool:
    """U1/U8: orthogonal neighbours, or diagonal neighbours through odd file+rank points."""
    df, dr = b[0] - a[0], b[1] - a[1]
    if not (_exists(*a) and _exists(*b)) or max(abs(df), abs(dr)) != 1:
        return False
    if df and dr:
        return not rules.orthogonal and (a[0] + a[1]) % 2 == 1
    return True


Board = frozenset[tuple[int, int]]


def _brute_moves(rules: Rules, sheep: Board, wolves: Board,
                 side: int) -> list[tuple[Board, Board]]:
    """Successor boards, one per move (U10), by coordinates only."""
    dirs = [(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
    out = []
    occupied = sheep | wolves
    if side == SHEEP:
        for p in sheep:
            for dx, dy in dirs:
                q = (p[0] + dx, p[1] + dy)
                if dy < 0 or not _joined(p, q, rules) or q in occupied:
                    continue
                if dx and dy and rules.sheep_orthogonal:
                    continue
                out.append((sheep - {p} | {q}, wolves))
        return out
    chains: list[tuple[Board, Board]] = []

    def jump(at: tuple[int, int], sh: Board, others: Board, depth: int) -> None:
        more = False
        for dx, dy in dirs:
            over, to = (at[0] + dx, at[1] + dy), (at[0] + 2 * dx, at[1] + 2 * dy)
            if over in sh and _joined(at, over, rules) and _joined(over, to, rules) \
                    and to not in sh and to not in others:
                more = True
                jump(to, sh - {over}, others, depth + 1)
        if not more and depth > 0:
            chains.append((sh, others | {at}))

    for w in wolves:
        jump(w, sheep, wolves - {w}, 0)
    if chains:
        return chains
    for w in wolves:
        for dx, dy in dirs:
            q = (w[0] + dx, w[1] + dy)
            if not _joined(w, q, rules) or q in occupied:
                continue
            if dx and dy and rules.wolf_diagonal_captures_only:
                continue
            out.append((sheep, wolves - {w} | {q}))
    return out


def _brute_over(rules: Rules, sheep: Board, wolves: Board, side: int) -> bool:
    """U10's end checks: fewer than 9 sheep, full paddock, no move."""
    paddock = {(f, r) for f in (2, 3, 4) for r in (5, 6, 7)}
    return (len(sheep) < 9 or paddock <= (sheep | wolves)
            or not _brute_moves(rules, sheep, wolves, side))


def _brute_perft(rules: Rules, sheep: Board, wolves: Board, side: int,
                 depth: int) -> int:
    if depth == 0:
        return 1
    if _brute_over(rules, sheep, wolves, side):
        return 0
    return sum(_brute_perft(rules, s, w, 1 - side, depth - 1)
               for s, w in _brute_moves(rules, sheep, wolves, side))


def _coords(m: int) -> Board:
    return frozenset(("abcdefg".index(NAMES[p][0]), int(NAMES[p][1])) for p in range(33)
                     if m >> p & 1)


# ---- geometry and setups ---------------------------------------------------------------


def test_u1_u8_the_cross_has_33_points_and_17_diagonal_points() -> None:
    """U1/U8: 7x7 less the four 2x2 corners = 49 - 16 = 33 points; odd file+rank: 17."""
    assert NUM_POINTS == 33 == sum(_exists(f, r) for f in range(7) for r in range(1, 8))
    assert len(DIAGONAL_POINTS) == 17
    assert {NAMES[p] for p in DIAGONAL_POINTS} >= {"d4", "c1", "e1", "c7", "e7"}
    assert "a1" not in BY_NAME and "b2" not in BY_NAME and "d4" in BY_NAME


def test_u1_line_segments_match_the_independent_definition() -> None:
    """Every segment of the model joins points the brute force calls joined, and back."""
    for rules in (Rules(), Rules(orthogonal=True)):
        ours = {frozenset((NAMES[p], NAMES[q])) for p, q in segments(not rules.orthogonal)}
        pts = [(f, r) for f in range(7) for r in range(1, 8) if _exists(f, r)]
        theirs = {frozenset(("abcdefg"[a[0]] + str(a[1]), "abcdefg"[b[0]] + str(b[1])))
                  for a in pts for b in pts if a < b and _joined(a, b, rules)}
        assert ours == theirs
    # Orthogonal segments by hand: ranks 1, 2, 6, 7 hold 3 points (2 segments each) and ranks
    # 3-5 hold 7 (6 each): 4*2 + 3*6 = 26 along the ranks, and 26 along the files by symmetry.
    assert len(segments(False)) == 2 * (4 * 2 + 3 * 6) == 52


def test_u2_u8_paddock_is_nine_points() -> None:
    assert named("c5", "d5", "e5", "c6", "d6", "e6", "c7", "d7", "e7") == PADDOCK
    assert PADDOCK.bit_count() == 9


@pytest.mark.parametrize(("setup", "sheep", "wolves"),
                         [(20, 20, ("c7", "e7")), (13, 13, ("d7",)), (15, 15, ("d7",)),
                          (17, 17, ("d7",))])
def test_u9_setups(setup: int, sheep: int, wolves: tuple[str, ...]) -> None:
    """U9: sheep counts, default wolf points, wolves to move first (U2)."""
    s = initial_state(UlvtaflOptions(setup=setup))
    assert s.sheep.bit_count() == sheep and s.wolves == named(*wolves)
    assert s.to_move == WOLVES and not s.is_terminal()


def test_u9_u6_wolf_start_anywhere_and_bad_options_refused() -> None:
    assert initial_state(UlvtaflOptions(setup=13, wolves=("d4",))).wolves == named("d4")
    for bad in (dict(setup=14), dict(setup=13, wolves=("a3",)),
                dict(setup=13, wolves=("d4", "d5")), dict(setup=20, wolves=("d4", "d5")),
                dict(setup=13, wolves=("z9",))):
        with pytest.raises(RulesError):
            UlvtaflOptions(**bad)  # type: ignore[arg-type]


# ---- perft -------------------------------------------------------------------------------


def test_u10_perft_from_the_start_is_6_then_78() -> None:
    """U10's two published numbers."""
    s = initial_state(UlvtaflOptions())
    assert [perft(s, 1), perft(s, 2)] == [6, 78]


@pytest.mark.parametrize("setup", [20, 13])
def test_u10_deeper_perft_matches_an_independent_brute_force(setup: int) -> None:
    """perft(3) and perft(4) of the model equal those of the coordinate brute force above
    (no repetition is possible within 4 plies of these starts: every sheep move there is
    forward, hence irreversible)."""
    s = initial_state(UlvtaflOptions(setup=setup))
    sh, wo = _coords(s.sheep), _coords(s.wolves)
    for d in (3, 4):
        assert perft(s, d) == _brute_perft(s.rules, sh, wo, WOLVES, d)


@given(seed=st.integers(0, 10**6))
def test_u3_u4_u10_moves_match_the_brute_force_on_random_positions(seed: int) -> None:
    """Legal moves (as successor boards, with multiplicity) agree with the brute force under
    random movement options, both sides, 1 or 2 wolves."""
    rng = random.Random(seed)
    rules = Rules(orthogonal=rng.random() < 0.25, wolf_diagonal_captures_only=rng.random() < 0.3,
                  sheep_orthogonal=rng.random() < 0.3)
    pts = rng.sample(range(33), rng.randint(10, 24))
    nw = rng.choice([1, 2])
    sheep, wolves = mask(pts[nw:]), mask(pts[:nw])
    side = rng.choice([WOLVES, SHEEP])
    from fleece.rules.ulvtafl.game import apply_move, generate

    ours = sorted((_coords(s), _coords(w)) for s, w in
                  (apply_move(sheep, wolves, m) for m in generate(rules, sheep, wolves, side)))
    key = lambda b: (sorted(b[0]), sorted(b[1]))  # noqa: E731
    theirs = _brute_moves(rules, _coords(sheep), _coords(wolves), side)
    assert sorted(ours, key=key) == sorted(theirs, key=key)


# ---- moves, captures, ends -------------------------------------------------------------


def _random_state(seed: int, nsheep: tuple[int, int] = (9, 20)) -> UlvState:
    rng = random.Random(seed)
    pts = rng.sample(range(33), rng.randint(*nsheep) + 1)
    return UlvState.create(Rules(), mask(pts[1:]), mask(pts[:1]), rng.choice([0, 1]))


@given(seed=st.integers(0, 10**6))
def test_u3_sheep_step_sideways_or_forward_along_lines(seed: int) -> None:
    s = _random_state(seed)
    if s.is_terminal() or s.to_move != SHEEP:
        return
    for m in s.legal_moves():
        assert not m.capture and len(m.path) == 2
        assert rank_of(m.end) in (rank_of(m.start), rank_of(m.start) + 1)
        assert not (s.sheep | s.wolves) >> m.end & 1


@given(seed=st.integers(0, 10**6))
def test_u4_capture_is_mandatory_and_chains_are_maximal(seed: int) -> None:
    s = _random_state(seed)
    if s.is_terminal():
        return
    s = UlvState.create(s.rules, s.sheep, s.wolves, WOLVES)
    if s.is_terminal():
        return
    moves = list(s.legal_moves())
    if any(m.capture for m in moves):
        assert all(m.capture for m in moves)
        for m in moves:
            after = s.play(m)
            assert after.sheep.bit_count() == s.sheep.bit_count() - (len(m.path) - 1)
            if not after.is_terminal() or after.result != "wolves":
                again = UlvState.create(s.rules, after.sheep, after.wolves, WOLVES)
                assert not any(c.capture and c.start == m.end for c in again.legal_moves())


def test_u10_a_chain_may_land_on_its_own_start_point() -> None:
    """U10: the wolf leaves c3 empty, so c3xe3xe5xc5xc3xe1 is one legal chain."""
    s = parse_position(".../.../S..S.../..S.S../SSWS.SS/.S./... w")
    texts = sorted(m.text() for m in s.legal_moves())
    assert texts == sorted(["c3xe3xe5xc5xc3xe1", "c3xe3xc1", "c3xc5xe5xe3xc3xe1",
                            "c3xc5xe5xe3xc1", "c3xe1"])
    after = s.play(parse_move("c3xe3xe5xc5xc3xe1"))
    assert after.sheep.bit_count() == 10 - 5 and after.result == "wolves"


def test_u5_u10_end_checks_run_in_order() -> None:
    """Fewer than 9 sheep beats a full paddock; a full paddock beats having no move."""
    # 8 sheep + 1 wolf fill the paddock: first check wins -> wolves
    s = parse_position("SSS/SSS/..SSW../......./......./.../... s")
    assert s.result == "wolves" and "fewer than 9" in s.reason
    # 9 sheep fill the paddock and the wolf has no move: the paddock check comes first
    s = parse_position("SSS/SSS/..SSS../......./......./.../.W. w")
    assert s.result == "sheep" and "paddock" in s.reason


def test_u5_wolves_fill_the_paddock_too() -> None:
    """U5: a wolf sitting in the paddock counts as filling it (8 sheep + 1 wolf with 9
    sheep on the board)."""
    s = parse_position("SSS/SSW/..SSS../......./......./.../..S w")
    assert s.result == "sheep"


def test_u5_a_trapped_wolf_loses_and_stuck_sheep_lose() -> None:
    trapped = parse_position("WSS/.SS/..SSS../..S.S../......./.../... w")
    assert [m.text() for m in trapped.legal_moves()] == ["c7-c6"]
    after = trapped.play(parse_move("c7-c6")).play(parse_move("d7-c7"))
    assert after.result == "sheep" and "wolves have no legal move" in after.reason
    stuck = parse_position("SSS/SSS/SSW..WS/......./......./.../... s")
    assert stuck.result == "wolves" and "sheep have no legal move" in stuck.reason


def test_u6_movement_options() -> None:
    """U6: orthogonal board, wolf diagonals only to capture, sheep never diagonal."""
    s = initial_state(UlvtaflOptions(setup=13, wolves=("d4",)))
    diag = {"c3", "e3", "c5", "e5"}
    assert diag & {NAMES[m.end] for m in s.legal_moves()} == {"c5", "e5"}
    s = initial_state(UlvtaflOptions(setup=13, wolves=("d4",),
                              rules=Rules(wolf_diagonal_captures_only=True)))
    assert not diag & {NAMES[m.end] for m in s.legal_moves()}
    s = parse_position("..W/.../......./...S.../SS...SS/SSS/SSS s sheep-orthogonal")
    assert {m.text() for m in s.legal_moves() if m.start == BY_NAME["d4"]} == \
        {"d4-c4", "d4-e4", "d4-d5"}
    s = parse_position("..W/.../......./...S.../SS...SS/SSS/SSS s")
    assert {m.text() for m in s.legal_moves() if m.start == BY_NAME["d4"]} == \
        {"d4-c4", "d4-e4", "d4-d5", "d4-c5", "d4-e5"}
    s = parse_position("..W/.../......./...S.../SS...SS/SSS/SSS s orthogonal")
    assert {m.text() for m in s.legal_moves() if m.start == BY_NAME["d4"]} == \
        {"d4-c4", "d4-e4", "d4-d5"}


def test_u6_diagonal_capture_allowed_when_steps_are_not() -> None:
    """wolf-diagonal-captures-only still lets a wolf jump along a diagonal."""
    s = parse_position(".../.../..W..../...S.../.....SS/SSS/SSS w "
                       "wolf-diagonal-captures-only")
    assert [m.text() for m in s.legal_moves()] == ["c5xe3"]


def test_u7_a_repeated_position_is_a_draw_unless_the_option_is_off() -> None:
    start = parse_position("..W/.../......./......./..S..SS/SSS/SSS w")
    line = ["e7-e6", "c3-b3", "e6-e7", "b3-c3"]
    s = start
    for t in line:
        s = s.play(parse_move(t))
    assert s.result == "draw" and "repeated" in s.reason
    s = parse_position("..W/.../......./......./..S..SS/SSS/SSS w no-repetition-draw")
    for t in line:
        s = s.play(parse_move(t))
    assert s.result is None


def test_u3_u4_illegal_moves_say_why() -> None:
    """U3/U4 reasons, exactly: the issue's example first."""
    s = parse_position(".W./.../......./...S.../SS...SS/SSS/SSS s")
    with pytest.raises(UlvIllegalMove) as err:
        s.play(parse_move("d4-d3"))
    assert str(err.value) == "d4-d3: sheep may not move backward (U3)"
    cases = [
        (".W./.../......./...S.../SS...SS/SSS/SSS s", "d4-d6", "not joined by a line (U1)"),
        (".W./.../......./...S.../SS...SS/SSS/SSS s", "d7-d6", "d7 is a wolf"),
        (".W./.../...S.../...S.../SS...SS/SSS/SSS s", "d4-d5", "d5 is occupied (U3)"),
        (".../.../...W.../...S.../SS...SS/SSS/SSS w", "d5-c5", "must capture"),
        (".../.../...W.../...S.../SS.S.SS/SSS/SSS w", "d5xd3", "d3 is occupied (U4)"),
        (".../.../...W.../...S.../SS...SS/SSS/S.S w", "d5xd3", "must go on"),
        (".W./.../......./...S.../SS...SS/SSS/SSS s", "d4xd6", "sheep cannot capture"),
    ]
    for pos, move, why in cases:
        with pytest.raises(IllegalMoveError, match=re.escape(why)):
            parse_position(pos).play(parse_move(move))


def test_u10_a_finished_game_has_no_moves() -> None:
    s = parse_position("SSS/SSS/..SSS../......./......./.../.W. w")
    assert s.is_terminal() and list(s.legal_moves()) == [] and perft(s, 1) == 0
    with pytest.raises(IllegalMoveError, match="game is over"):
        s.play(Move((BY_NAME["d1"], BY_NAME["d2"])))
