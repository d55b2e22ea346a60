"""Ulvtafl puzzles: the pure-Python solver against the compiled one and a naive search, the
greedy player's reading of moves, the grade table, generation (sound by the independent
check, the same seed gives the same puzzles whatever the workers), the check catching every
false claim, the files (round trip, line and column errors), and playing a puzzle."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest
from helpers.scaling import examples
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from fleece.rules.errors import FleeceError, ParseError
from fleece.rules.ulvtafl.game import (
    SHEEP,
    SIDE_NAMES,
    WOLVES,
    Move,
    Rules,
    UlvState,
)
from fleece.rules.ulvtafl.geometry import BY_NAME, NUM_POINTS, mask, named
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.puzzles.ulvtafl import (
    UlvGrade,
    UlvPuzzle,
    best_move,
    check,
    generate,
    hint,
    parse_puzzle,
    parse_puzzles,
    puzzle_json,
    render_puzzle,
    render_puzzles,
    render_solution,
    step,
    values_for,
)
from fleece.solver.puzzles.ulvtafl.analysis import bare, main_line, value, winning_moves
from fleece.solver.puzzles.ulvtafl.grading import Features
from fleece.solver.puzzles.ulvtafl.plausible import read_moves
from fleece.solver.puzzles.ulvtafl.reference import mirror, reference_values
from fleece.solver.ulvtafl.search import retro_solve

# Small positions (fewer than 2,000 reachable) whose facts the tests below establish.
SHEEP_13 = "SSS/SSS/SS.S.../..W..../......./.../... s"  # sheep win in 13, only b5-c5
WOLVES_3 = "SSS/SSS/S..S.S./.....W./......./.../... w"  # wolves win in 3, only f4-e5
GIVES_13 = "SSS/SSS/SSS.W.S/......./......./.../... s"  # sheep win in 13 by g5-f5, a sacrifice
MANY_7 = "SSS/SSS/S.SS.../...W.../......./.../... s"  # sheep win in 7, three first moves win
DRAWN = "SSS/SSS/S...SS./....W../......./.../... w"  # neither side can force a win


@cache
def ref(text: str) -> object:
    found = reference_values(parse_position(text), 100_000)
    assert found is not None
    return found


@cache
def puzzle(text: str) -> UlvPuzzle:
    """The puzzle of a position as the generator states it (compiled values)."""
    from fleece.solver.puzzles.ulvtafl.analysis import features

    state = parse_position(text)
    table = values_for(state)
    line = main_line(table, state)
    f = features(table, state, line)
    return UlvPuzzle(text, f.plies, tuple(m.text() for m in line), f.grade, f.unique_line)


# ---- the second method -------------------------------------------------------------------


def _board(rng: random.Random) -> UlvState:
    """A random position near the end of a game: nine to eleven sheep, most of them on the
    paddock arm, one or two wolves (small reachable sets)."""
    arm = [p for p in range(NUM_POINTS) if BY_NAME["c6"] <= p]
    band = [p for p in range(NUM_POINTS) if p < BY_NAME["c6"] and p >= BY_NAME["a4"]]
    on_arm = rng.randint(5, 6)
    sheep = mask(rng.sample(arm, on_arm)) | mask(rng.sample(band, rng.randint(9, 10) - on_arm))
    free = [p for p in range(NUM_POINTS) if not sheep >> p & 1]
    rules = Rules(orthogonal=rng.random() < 0.2, sheep_orthogonal=rng.random() < 0.2,
                  wolf_diagonal_captures_only=rng.random() < 0.2)
    return UlvState.create(rules, sheep, mask(rng.sample(free, rng.choice((1, 2)))),
                           rng.choice((WOLVES, SHEEP)))


@settings(max_examples=examples(8))
@given(st.integers(0, 10**9))
def test_u7_pure_python_values_match_the_compiled_retrograde(seed: int) -> None:
    """U7, U10: every position the pure-Python method solves has the value and distance of
    the compiled retrograde analysis (two implementations sharing no code), and its mirror
    image has the same value."""
    state = _board(random.Random(seed))
    compiled = retro_solve(state, 20_000)
    assume(compiled is not None)
    assert compiled is not None
    ours = reference_values(state, 20_000)
    assert ours is not None and 2 * ours.size >= compiled.size >= ours.size
    image = UlvState.create(state.rules, mirror(state.sheep), mirror(state.wolves),
                            state.to_move)
    mirrored = retro_solve(image, 20_000)
    assert mirrored is not None and mirrored.size == compiled.size
    for (sheep, wolves, side) in ours.index:  # one of each mirror pair, reachable or not
        got = ours.lookup(sheep, wolves, side)
        pair = ((sheep, wolves, side), (mirror(sheep), mirror(wolves), side))
        found = [table.lookup(*p) for table in (compiled, mirrored) for p in pair]
        assert got is not None and found.count(got) >= 2, (got, found)
        assert set(found) <= {got, None}


@given(st.integers(0, (1 << NUM_POINTS) - 1))
def test_u1_mirror_is_the_reflection_in_the_d_file(m: int) -> None:
    """U1, U8: a4 <-> g4, c1 <-> e1, b5 <-> f5; the d file stays; twice is the identity."""
    assert mirror(named("a4", "c1", "b5", "d7", "d4")) == named("g4", "e1", "f5", "d7", "d4")
    assert mirror(mirror(m)) == m and mirror(m).bit_count() == m.bit_count()


def test_a_position_and_its_image_are_solved_once() -> None:
    state = parse_position(SHEEP_13)
    ours, compiled = reference_values(state, 10_000), retro_solve(state, 10_000)
    assert ours is not None and compiled is not None
    assert (ours.size, compiled.size) == (861, 1701)  # 21 own images, 840 reachable pairs


def _wins_within(state: UlvState, side: str, plies: int) -> bool:
    """Naive minimax over the reference model: can `side` force a won end within `plies`?"""
    if state.is_terminal():
        return state.result == side
    if plies == 0:
        return False
    kids = (bare(state.play(m)) for m in state.legal_moves())
    if SIDE_NAMES[state.to_move] == side:
        return any(_wins_within(k, side, plies - 1) for k in kids)
    return all(_wins_within(k, side, plies - 1) for k in kids)


@pytest.mark.parametrize("text", [WOLVES_3, MANY_7, "SSS/SSS/S.SS.../......./..W..../.../... s"])
def test_u7_distances_are_the_least_forced_win(text: str) -> None:
    """The distance of a won position is the least number of plies in which its winner can
    force the win, by plain bounded minimax (a third method)."""
    state = parse_position(text)
    winner, plies = ref(text).lookup(state.sheep, state.wolves, state.to_move)  # type: ignore[attr-defined]
    assert _wins_within(state, winner, plies)
    assert not _wins_within(state, winner, plies - 1)


def test_golden_values() -> None:
    """Hand analysis of WOLVES_3 (nine sheep, so one capture wins for the wolves): no wolf
    jump exists now, so no win in 1; f4-e5 threatens both e5xg5 and e5xc5, and no sheep move
    guards both, so the wolves win in 3. LAST_POINT: d5-c5 would fill the last paddock point,
    but d5 empties another; b5-c5 fills it at once: the sheep win in 1."""
    state = parse_position(WOLVES_3)
    assert ref(WOLVES_3).lookup(state.sheep, state.wolves, WOLVES) == ("wolves", 3)  # type: ignore[attr-defined]
    last = parse_position("SSS/SSS/SS.SS../..W..../......./.../... s")
    table = reference_values(last, 100_000)
    assert table is not None and table.lookup(last.sheep, last.wolves, SHEEP) == ("sheep", 1)
    assert reference_values(last, 3) is None  # over the limit


# ---- the greedy player's reading, the grade table -------------------------------------


def test_read_moves() -> None:
    kinds = {k.move.text(): k for k in read_moves(parse_position(WOLVES_3))}
    assert kinds["f4-e5"].threat and kinds["f4-e5"].plausible  # e5xg5 and e5xc5 threatened
    assert not kinds["f4-g4"].threat and not kinds["f4-g4"].plausible
    gives = {k.move.text(): k for k in read_moves(parse_position(GIVES_13))}
    assert gives["g5-f5"].gives and not gives["g5-f5"].plausible  # e5xg5 follows
    assert gives["c5-d5"].hems and gives["c5-d5"].gives and not gives["c5-d5"].plausible
    many = {k.move.text(): k for k in read_moves(parse_position(MANY_7))}
    assert not many["c5-b5"].fills and many["c5-b5"].words() == "quiet"  # out of the paddock
    sheep = {k.move.text(): k for k in read_moves(parse_position(SHEEP_13))}
    assert sheep["b5-c5"].fills and sheep["b5-c5"].hems and sheep["b5-c5"].plausible


def test_grade_table() -> None:
    def grade(plies: int, decoys: int = 0, quiet: bool = False, sac: bool = False) -> str:
        f = Features(plies, 5, tuple(f"a{i}" for i in range(decoys)), quiet, sac, False)
        return f"{f.points}:{f.grade.label}"

    assert grade(3) == "1:easy"
    assert grade(5, decoys=1) == "3:medium"
    assert grade(3, decoys=5) == "4:medium"  # at most 3 tempting moves count
    assert grade(7, quiet=True) == "5:medium"
    assert grade(9, quiet=True) == "6:hard"
    assert grade(11, decoys=1, sac=True) == "8:hard"
    assert grade(19) == "9:expert"
    assert UlvGrade.parse(" Expert ") is UlvGrade.EXPERT
    with pytest.raises(FleeceError, match="easy, medium, hard or expert"):
        UlvGrade.parse("brutal")


def test_features_of_known_puzzles() -> None:
    p = puzzle(GIVES_13)
    assert p.plies == 13 and p.solution[:2] == ("g5-f5", "e5xg5")
    feats = check(p).features
    assert feats is not None and feats.sacrifice and not feats.quiet
    assert puzzle(WOLVES_3).unique_line is True
    assert puzzle(WOLVES_3).grade is UlvGrade.EASY


# ---- generation -------------------------------------------------------------------------


def test_generated_puzzles_are_sound_by_the_independent_check() -> None:
    for grade in (UlvGrade.EASY, UlvGrade.EXPERT):
        for p in generate(grade, 2, seed=5):
            v = check(p)
            assert v.sound, v.reasons
            assert (v.winner, v.plies, v.grade) == (p.side, p.plies, grade.label)
            assert v.solution == p.solution and len(v.winning_first_moves) == 1
            assert p.ident.startswith(f"ulvtafl-{grade.label}-")


def test_same_seed_same_puzzles_with_one_or_two_workers() -> None:
    one = generate(UlvGrade.MEDIUM, 3, seed=9)
    assert generate(UlvGrade.MEDIUM, 3, seed=9, workers=2) == one
    assert len({p.position for p in one}) == 3


def test_generate_reports_what_it_could_not_find() -> None:
    with pytest.raises(FleeceError, match=r"only 0 expert Ulvtafl puzzles found in 1 attempts"):
        generate(UlvGrade.EXPERT, 1, seed=1, max_attempts=1)
    with pytest.raises(FleeceError, match="within"):
        generate(UlvGrade.EXPERT, 50, seed=1, budget=0.0)


# ---- the check --------------------------------------------------------------------------


def test_check_a_sound_puzzle() -> None:
    p = puzzle(SHEEP_13)
    v = check(p)
    assert v.sound and v.reason is None
    data = v.to_json()
    assert {k: data[k] for k in ("position", "winner", "plies", "solution", "grade",
                                 "sound")} == {
        "position": SHEEP_13, "winner": "sheep", "plies": 13, "solution": list(p.solution),
        "grade": p.grade.label if p.grade else None, "sound": True}
    assert v.winning_first_moves == ("b5-c5",)
    assert v.lines()[-1] == "result: sound"


@pytest.mark.parametrize(("change", "reason"), [
    (lambda p: replace(p, plies=15), "N is not exact: the sheep win in 13 plies, not 15"),
    (lambda p: replace(p, solution=p.solution[:-1]), "the line stops after 12 moves"),
    (lambda p: replace(p, solution=("d5-e5", *p.solution[1:])),
     "move 1 (d5-e5) does not win fastest: after it, a draw"),
    (lambda p: replace(p, solution=(*p.solution[:1], "c4-d4", *p.solution[2:])),
     "move 2 (c4-d4) is not the longest defence"),
    (lambda p: replace(p, solution=(*p.solution[:1], "c4-c6", *p.solution[2:])),
     "move 2 (c4-c6) is illegal"),
    (lambda p: replace(p, grade=UlvGrade.EASY), "grade: the puzzle says easy"),
    (lambda p: replace(p, unique_line=True), "unique line: the puzzle says yes"),
])
def test_check_names_each_false_claim(change: object, reason: str) -> None:
    v = check(change(puzzle(SHEEP_13)))  # type: ignore[operator]
    assert not v.sound
    assert any(reason in r for r in v.reasons), v.reasons


def test_check_several_winners_a_draw_and_a_finished_game() -> None:
    v = check(UlvPuzzle(MANY_7, 7, ()))
    assert not v.sound and v.winning_first_moves == ("a5-b5", "c5-b5", "d5-e5")
    assert v.reasons == ("3 first moves win: a5-b5 c5-b5 d5-e5",
                         "solution line wrong: the puzzle gives no solution")
    assert len(v.solution) == 7 and v.solution[0] == "a5-b5"  # a right line is shown
    v = check(UlvPuzzle(DRAWN, 5, ("e4-d4",)))
    assert not v.sound and v.winner == "draw" and v.plies is None and v.solution == ()
    assert v.reasons == ("not a win: a draw with best play",)
    over = "WSS/SSS/..SSS../..S.S../......./.../... w"  # the wolf on c7 has no move
    v = check(UlvPuzzle(over, 1, ()))
    assert not v.sound and "the game is already over" in v.reasons[0]
    v = check(puzzle(SHEEP_13), limit=100)
    assert not v.sound and v.reasons == ("too large to check: more than 100 positions are "
                                         "reachable",)


# ---- files ------------------------------------------------------------------------------

_PRINTABLE = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF,
                                   blacklist_categories=("Cc", "Cs", "Zl", "Zp")),
                     max_size=30).map(str.strip).filter(lambda s: s.isprintable())


@st.composite
def puzzles(draw: st.DrawFn) -> UlvPuzzle:
    """Any puzzle value a file can hold (not necessarily sound)."""
    points = draw(st.permutations(range(NUM_POINTS)))
    nw = draw(st.integers(1, 2))
    ns = draw(st.integers(0, 20))
    rules = Rules(*draw(st.tuples(st.booleans(), st.booleans(), st.booleans(), st.booleans())))
    state = UlvState.create(rules, mask(points[nw:nw + ns]), mask(points[:nw]),
                            draw(st.sampled_from((WOLVES, SHEEP))))
    moves = []
    for _ in range(draw(st.integers(0, 12))):
        path = draw(st.lists(st.integers(0, NUM_POINTS - 1), min_size=2, max_size=4))
        capture = len(path) > 2 or draw(st.booleans())
        moves.append(Move(tuple(path), capture).text())
    return UlvPuzzle(position_text(state), draw(st.integers(1, 10_000)), tuple(moves),
                     draw(st.none() | st.sampled_from(list(UlvGrade))),
                     draw(st.none() | st.booleans()), draw(_PRINTABLE), draw(_PRINTABLE))


@given(puzzles(), puzzles())
def test_files_round_trip(p: UlvPuzzle, q: UlvPuzzle) -> None:
    assert parse_puzzle(render_puzzle(p)) == p
    assert parse_puzzle(puzzle_json(p)) == p
    assert parse_puzzles(render_puzzles([p, q])) == [p, q]
    assert parse_puzzles("[" + puzzle_json(p) + "," + puzzle_json(q) + "]") == [p, q]


@given(puzzles(), st.data())
def test_damaged_files_give_parse_errors_only(p: UlvPuzzle, data: st.DataObject) -> None:
    """Any edit of a puzzle file (text or JSON) reads back or is a located ParseError."""
    for text in (render_puzzle(p), puzzle_json(p)):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 12))
        junk = data.draw(st.text(max_size=6))
        try:
            parse_puzzles(text[:at] + junk + text[at + cut:], "f")
        except ParseError as exc:
            assert exc.source == "f" and exc.message


def test_solution_line_may_continue_on_indented_lines() -> None:
    p = puzzle(SHEEP_13)
    text = render_puzzle(p).replace(" " + p.solution[5] + " ", "\n   " + p.solution[5] + "\n\t")
    assert parse_puzzle(text) == p


GOOD = ("Position: SSS/SSS/SS.S.../..W..../......./.../... s\n"
        "Claim: sheep to move and win in 13 plies\n")


@pytest.mark.parametrize(("text", "line", "column", "words"), [
    ("# only a comment\n", 1, None, "no puzzle"),
    (GOOD + "Colour: blue\n", 3, 1, "unknown key 'Colour'"),
    (GOOD + "claim: sheep to move and win in 3 plies\n", 3, 1, "a second 'claim:' line"),
    (GOOD + "no key here\n", 3, 1, "expected a 'Key: value' line"),
    (GOOD.replace("SS.S...", "SS.X..."), 1, 22, "'X' at d5: expected S, W or ."),
    (GOOD.replace(" s\n", " s | b5-c5\n"), 1, 53, "no move history"),
    (GOOD.replace("sheep to", "wolves to"), 2, 8, "the claim names the wolves"),
    (GOOD.replace("13 plies", "13 moves"), 2, 8, "the claim must read"),
    (GOOD.replace("13 plies", "0 plies"), 2, 33, "must be 1..10000"),
    (GOOD + "Solution: b5-c5 c4-c3\n  a5-b5 c3xh9\n", 4, 12, "'c3xh9' is not a move"),
    (GOOD + "Solution: b5-c5 c4-c3 b5+c5\n", 3, 25, "'b5+c5' is not a move"),
    (GOOD + "   b5-c5\n", 3, 1, "continues only a 'Solution:' line"),
    (GOOD + "Grade: brutal\n", 3, 8, "unknown grade"),
    (GOOD + "Unique: maybe\n", 3, 9, "yes or no"),
    ("Claim: sheep to move and win in 3 plies\n", 1, None, "no 'Position:' line"),
    (GOOD + "---\nPosition: W/ s\nClaim: wolves to move and win in 1 ply\n", 4, 11,
     "a board has 7 ranks"),
    (GOOD + "---\nPosition: W/ s\n", 4, None, "no 'Claim:' line"),
])
def test_bad_text_is_a_parse_error_with_line_and_column(text: str, line: int,
                                                        column: int | None, words: str) -> None:
    with pytest.raises(ParseError) as info:
        parse_puzzles(text, "p.txt")
    err = info.value
    assert words in err.message and err.source == "p.txt"
    assert (err.line, err.column) == (line, column), str(err)


@pytest.mark.parametrize(("edit", "words"), [
    ({"game": "woof"}, "not a fleece Ulvtafl puzzle"),
    ({"position": "SSS/SSS/SS.S.../..W..../......./.../... x"},
     "field 'position', column 41: side to move 'x'"),
    ({"side": "wolves"}, "field 'side' must be the side to move of the position, sheep"),
    ({"plies": "13"}, "field 'plies' must be a whole number"),
    ({"solution": ["b5-c5", "c4-z3"]}, "field 'solution[1]', column 4"),
    ({"grade": "brutal"}, "field 'grade': unknown grade"),
    ({"claim": "sheep to move and win in 3 plies"}, "field 'claim' says"),
    ({"unique_line": "yes"}, "field 'unique_line' must be true or false"),
])
def test_bad_json_names_the_field(edit: dict[str, object], words: str) -> None:
    import json

    data = json.loads(puzzle_json(puzzle(SHEEP_13)))
    data.update(edit)
    with pytest.raises(ParseError, match=None) as info:
        parse_puzzle(json.dumps(data))
    assert words in str(info.value)


def test_solution_file_explains_the_line() -> None:
    text = render_solution(puzzle(GIVES_13))
    assert ("  1. g5-f5        sheep   the only winning move; takes a move from the wolves, "
            "gives a sheep; 12 plies to go") in text
    assert "  2. e5xg5        wolves  the longest defence; takes 1 sheep; 11 plies to go" in text
    assert " 12. f4-f5        wolves  the longest defence; 1 ply to go" in text
    assert "; the sheep win: all 9 paddock points are occupied (U5)" in text
    assert "Grade: hard (8 points: 6 more moves to find, a sacrifice (+2))" in text


# ---- playing a puzzle -------------------------------------------------------------------


def test_best_move_hint_and_steps() -> None:
    p = puzzle(SHEEP_13)
    table = values_for(p.state())
    state = p.state()
    assert best_move(table, state) == parse_move("b5-c5")
    h = hint(table, state)
    assert h is not None and (h.move, h.piece, h.plies) == ("b5-c5", "b5", 13)
    after = bare(state.play(parse_move("b5-c5")))
    reply = best_move(table, after)  # the longest defence: 11 plies left after it
    assert reply is not None and value(table, bare(after.play(reply))) == ("sheep", 11)
    good = step(p, [], "b5-c5", table)
    assert good.ok and good.still_wins and good.fastest and good.reply == p.solution[1]
    assert good.plies_left == 11 and good.moves == p.solution[:2]
    bad = step(p, [], "d5-e5", table)
    assert bad.ok and not bad.still_wins and "throws the win away" in bad.message
    illegal = step(p, [], "b5-b4", table)
    assert not illegal.ok and "backward" in (illegal.error or "")
    state = p.state()
    for i in range(0, len(p.solution), 2):  # the defence answers as the solution does
        s = step(p, list(p.solution[:i]), p.solution[i], table)
        assert s.ok and s.still_wins and s.moves == p.solution[:i + 2]
    assert s.result == "sheep" and s.reply is None
    wolves = puzzle(WOLVES_3)
    h = hint(values_for(wolves.state()), wolves.state())
    assert h is not None and h.move == "f4-e5" and h.threat_moves == ("e5xg5", "e5xc5")
    assert h.threat == "it threatens to win at once with e5xg5, e5xc5"
    sac = hint(values_for(parse_position(GIVES_13)), parse_position(GIVES_13))
    assert sac is not None and sac.threat.startswith("a sacrifice")
    assert len(winning_moves(table, state)) == 1
