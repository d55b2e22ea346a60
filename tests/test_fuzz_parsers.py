"""Every text parser under Hypothesis: the bundled inputs parse to what they say, and an edited
input (or random text from the format's alphabet plus hostile characters) either parses to a
valid result or fails with a ParseError that says where.

- Seeds: each unedited example, puzzle, record, position and deck spec parses to its known
  content, read off the file by hand (the rows of a chart, the wolves and moves of a record,
  the deck of a position), so a parser that refuses or garbles everything fails here.
- A valid result is checked again by other means: it survives its writer (`render_paste`,
  `match_record`, `to_options`, `format_evidence`, `format_position`, `spec()`, ...) and the
  parser unchanged, and keeps the model's invariants.
- A failure is a ParseError (never ValueError, KeyError, IndexError, RecursionError, nor a
  bare FleeceError) whose line lies inside the text (lines counted at `\\n` only, as
  rules.text.split_lines counts them) and whose column lies inside that line (tabs expanded
  to stops of 8, as the chart reader counts columns); one-line formats (options, deck specs,
  Ulvtafl positions) give the column, or line 1 when two options clash. Only an error about
  the whole text (nothing found, too long, a field of a JSON object, the card count of a
  whole card-game snapshot) may name no line.

The default profile tries a modest number of inputs per parser; the `ci` profile more.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fleece.rules.errors import ParseError
from fleece.rules.text import split_lines

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
PZ = ROOT / "puzzles"

HOSTILE = ["\u00a0", "\t", "\r", "\x0c", "\x0b", "\u2028", "\u2029", "\x85", "\x00", "\x1b",
           "\u200b", "\ufeff", "\u202e", "\u0663", "\uff11", "\u00b2", "\u212a", "\u0130",
           "9" * 30, "9" * 5000, "[" * 40, "-", "=", ":", ",", "*", "#", "?", "@", "/", "\n",
           "\r\n", " "]

#: An error that names no line must be about the whole text (nothing found, too long, the
#: cards of a whole card-game snapshot) or name a JSON field.
WHOLE_TEXT = re.compile(r"\bno\b|missing|empty|too long|too large|far too|more than|"
                        r"field '|not a fleece|quick play has a single game|JSON|"
                        r"do not add up|not a settled position|cards owed|needs",
                        re.IGNORECASE)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _seeds(*paths: Path) -> list[str]:
    return [_read(p) for p in paths]


@st.composite
def edited(draw: st.DrawFn, seeds: list[str], alphabet: str) -> str:
    """A seed text with a few random edits: insert, delete, replace or duplicate."""
    text = draw(st.sampled_from(seeds))
    pieces = st.one_of(st.sampled_from(HOSTILE), st.text(alphabet, min_size=1, max_size=4))
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        op = draw(st.integers(0, 3))
        if op == 0:
            text = text[:at] + draw(pieces) + text[at:]
        elif op == 1:
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        elif op == 2:
            text = text[:at] + draw(pieces) + text[at + 1:]
        else:
            end = min(len(text), at + draw(st.integers(1, 40)))
            text = text[:at] + text[at:end] * 2 + text[end:]
    return text


def inputs(seeds: list[str], alphabet: str) -> st.SearchStrategy[str]:
    """Edited seeds, and random text over the format's alphabet and hostile characters."""
    raw = st.lists(st.one_of(st.sampled_from(HOSTILE), st.text(alphabet, max_size=6)),
                   max_size=30).map("".join)
    return st.one_of(edited(seeds, alphabet), raw)


def located(exc: ParseError, text: str, *, lines: bool) -> None:
    """`exc` says where: a line inside `text` (with `lines`) and a column inside that line,
    or a column inside a one-line text; or it is about the whole text."""
    if lines and exc.line is not None:
        rows = split_lines(text)
        # one past the last line: the end of a text that ends with a newline
        assert 1 <= exc.line <= len(rows) + 1, (str(exc), text[:200])
        if exc.column is not None and exc.line <= len(rows):
            raw = text.split("\n")[exc.line - 1]  # with a CR at its end, if any
            width = len(raw.expandtabs(8))  # the chart reader counts tab stops
            assert 1 <= exc.column <= width + 1, (str(exc), text[:200])
        return
    if not lines and (exc.column is not None or exc.line == 1):
        # one line: the column, or line 1 for a value that clashes with another option
        assert exc.line in (None, 1), str(exc)
        assert exc.column is None or 1 <= exc.column <= len(text.expandtabs(8)) + 1, (
            str(exc), text[:200])
        return
    assert WHOLE_TEXT.search(exc.message), (str(exc), text[:200])


def parsed_or_located(parse: Callable[[str], Any], check: Callable[[Any], None], text: str,
                      *, lines: bool = True) -> None:
    """`parse(text)` gives a result that passes `check`, or raises a located ParseError."""
    try:
        result = parse(text)
    except ParseError as exc:
        located(exc, text, lines=lines)
        return
    check(result)


FUZZ = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])

CHART_SEEDS = _seeds(EX / "mutton" / "helppage.txt", EX / "mutton" / "typo.txt",
                     EX / "mutton" / "wolf-ate-wolf.txt", PZ / "mutton" / "hard" / "001.txt")
CHART_ABC = "ABCDEFGHIJKLMNOPQRSTUVWXYZxwe+. */-0123456789SheepRoundScore:()tobea"
RECORD_SEEDS = _seeds(*sorted((EX / "mutton").glob("*.rec")))
RECORD_ABC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefg0123456789:-,=# sparserandommirrorwolvespassgame"
WOOF_SEEDS = _seeds(*sorted((EX / "woof").glob("*.txt")), PZ / "woof" / "hard" / "002.txt")
WOOF_ABC = "seatsdeckmehandlooksawaskdogtargetsheepwolfhunter?@*q12345678yesnobasicexpert #"
JSON_SEEDS = _seeds(EX / "mutton" / "passed.json", EX / "mutton" / "no-reveal.json",
                    PZ / "mutton" / "easy" / "001.json", PZ / "woof" / "easy" / "001.json")
JSON_ABC = '{}[]":,0123456789.-etruefalsnl\\ABCDxw+ anim'
OPTION_SEEDS = ["-size=4 -num_sheep=26 -num_wolves=4 -berserk -reveal -no_remove -rifle",
                "-size=5 -num_sheep=16 -quick=11 -shotgun -words=ABCD,EFGH"]
OPTION_ABC = "-=_sizenumheepwolvsbrkrvalmoqucktgfdABCDEFGH,0123456789 "
DECK_SEEDS = ["wolf", "mccord", "pairs:13", "1*2,2*2,3*2,4*2", "fence*8,crook*2,wisc*4",
              "a*2,b*2"]
DECK_ABC = "wolfmccordpairs:0123456789*,fencecrooksheepwisc-_ "
ULV_RECORD_SEEDS = _seeds(*sorted((EX / "ulvtafl").glob("*.rec")))

# ---- re-checks of a valid result ----------------------------------------------------------


def chart_summary(chart: Any) -> tuple[str, str, list[tuple[int, str, str]]]:
    """(animals, one mark per animal: . alive, x dead sheep, w dead wolf, d dead, e escaped;
    the rows as (round, victim, runners))."""
    marks = {"alive": ".", "dead sheep": "x", "dead wolf": "w", "dead": "d",
             "escaped wolf": "e"}
    return (chart.animals, "".join(marks[s.value] for s in chart.status),
            [(r.round, r.victim, "".join(sorted(r.runners))) for r in chart.rows])


def check_chart(chart: Any) -> None:
    """A chart is consistent and survives render_paste -> parse_chart (board and score too)."""
    from fleece.rules.mutton.chart import parse_chart, render_paste

    assert 2 <= len(chart.animals) <= 26 and len(chart.status) == len(chart.animals)
    for row in chart.rows:
        assert row.victim in chart.animals and row.victim not in row.runners
        assert row.runners <= set(chart.animals)
        assert chart.status_of(row.victim).dead
    again = parse_chart(render_paste(chart), reveal=chart.reveal)
    assert again == chart and again.to_json() == chart.to_json()


def check_problem(problem: Any) -> None:
    """A problem's chart is valid and its wolves fit the animals."""
    check_chart(problem.chart)
    assert 1 <= problem.num_wolves <= len(problem.animals)


def check_match(match: Any) -> None:
    """A replayed match survives match_record -> parse_record -> replay move for move."""
    from fleece.rules.mutton.record import match_record, parse_record, replay

    again = replay(parse_record(match_record(match)))
    assert again.rules == match.rules
    assert [g.history for g in again.games] == [g.history for g in match.games]
    assert again.games == match.games


def check_rules(rules: Any) -> None:
    """A rule set survives to_options -> parse_options."""
    from fleece.rules.mutton.options import parse_options

    assert parse_options(rules.to_options(), line=1) == rules
    assert 1 <= rules.num_wolves <= rules.num_sheep // 2


def check_json(value: Any) -> None:
    """A JSON value survives json.dumps -> load_json."""
    from fleece.rules.text import load_json

    assert load_json(json.dumps(value)) == value


def check_puzzle(spec: Any) -> None:
    """A Mutton puzzle's chart is valid and its wolves fit."""
    check_chart(spec.chart)
    assert 1 <= spec.wolves <= len(spec.chart.animals) // 2


def check_evidence(ev: Any) -> None:
    """Evidence survives format_evidence -> load_evidence."""
    from fleece.rules.woof.evidence import format_evidence, load_evidence

    assert 4 <= ev.players <= 8
    assert load_evidence(format_evidence(ev)) == ev


def check_woof_puzzle(result: Any) -> None:
    """A Woof puzzle: valid evidence and a question about a seat of its table (0: wolves)."""
    ev, question, _grade, _ident = result
    check_evidence(ev)
    assert question == 0 or 1 <= question <= ev.table.seats


def check_deck(deck: Any) -> None:
    """A deck survives spec() -> parse_deck and has cards."""
    from fleece.rules.cards.deck import parse_deck

    assert parse_deck(deck.spec()) == deck and deck.size == sum(deck.counts) >= 1


def card_position_checks() -> list[tuple[Callable[[str], Any], Callable[[Any], str]]]:
    """(parse, format) for the War, herd and Concentration positions."""
    from fleece.rules.cards import concentration, herd, war

    return [(m.parse_position, m.format_position)  # type: ignore[attr-defined]
            for m in (war, herd, concentration)]


def check_ulvtafl_position(state: Any) -> None:
    """A Ulvtafl position survives position_text -> parse_position."""
    from fleece.rules.ulvtafl.notation import parse_position, position_text

    again = parse_position(position_text(state))
    assert again == state and 1 <= state.wolves.bit_count() <= 2


def check_ulvtafl_game(result: Any) -> None:
    """A replayed Ulvtafl record survives format_record (and Record.text) -> parse_record ->
    replay, state for state."""
    from fleece.rules.ulvtafl.record import format_record, parse_record, replay

    record, states = result
    moves = [m for m, _, _ in record.moves]
    assert len(states) == len(moves) + 1
    assert replay(parse_record(format_record(states[0], moves))) == states
    assert replay(parse_record(record.text())) == states

# ---- the seeds parse to their known content -----------------------------------------------

HELP_PAGE = ("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "...x...x.x........x...x...",
             [(1, "H", "FJV"), (2, "J", "CDS"), (3, "W", "DFLNZ")])


def test_seed_charts_parse_to_their_rows() -> None:
    """Read off the files: the help page has D H J S W dead and three rows (round 1: H eaten,
    F J V ran); typo.txt is the same chart with C shown dead as well (no row kills C, which
    the solver reports, not the reader); wolf-ate-wolf.txt has twelve rows, K and O dead
    wolves, and row 12 is O eaten by a wolf with G and M running."""
    from fleece.rules.mutton.chart import parse_chart

    helppage, typo, wolf_ate_wolf = (parse_chart(t) for t in CHART_SEEDS[:3])
    assert chart_summary(helppage) == HELP_PAGE
    assert (helppage.score, helppage.to_beat) == (5, 10) and helppage.board is not None
    assert helppage.board.animals["A"].name == "a1"
    assert chart_summary(typo) == (HELP_PAGE[0], "..xx...x.x........x...x...", HELP_PAGE[2])
    assert (typo.score, typo.to_beat, typo.board) == (6, 10, None)
    _, marks, rows = chart_summary(wolf_ate_wolf)
    assert marks == "x..x.x.x.xwx..wxxxx.xxxxxx" and len(rows) == 12
    assert rows[0] == (1, "U", "GMOP") and rows[-1] == (12, "O", "GM")
    assert wolf_ate_wolf.score == 16 and wolf_ate_wolf.to_beat is None
    for chart in (helppage, typo, wolf_ate_wolf):
        check_chart(chart)


def test_seed_puzzle_parses_to_its_header_and_chart() -> None:
    """puzzles/mutton/hard/001.txt: 4 wolves, the 'certain' question, grade hard, five rows
    (round 1: M eaten, B I Q ran)."""
    from fleece.solver.puzzles.mutton.formats import parse_puzzle

    spec = parse_puzzle(CHART_SEEDS[3])
    assert (spec.wolves, spec.question.value, spec.grade.label, spec.ident) == (  # type: ignore[union-attr]
        4, "certain", "hard", "mutton-hard-001")
    _, marks, rows = chart_summary(spec.chart)
    assert marks == "......x....xx...x.x......." and len(rows) == 5
    assert rows[0] == (1, "M", "BIQ")


def test_seed_records_replay_to_their_games() -> None:
    """The records' wolves and move counts, counted in the files; illegal.rec stops at its
    line 12 (J sent next to the victim B, M9); wolf-pass.rec: E eaten and sheep I shot make
    2 points (its comment)."""
    from fleece.rules.mutton.record import parse_record, replay

    names = [p.name for p in sorted((EX / "mutton").glob("*.rec"))]
    got = {}
    for name, text in zip(names, RECORD_SEEDS, strict=True):
        if name == "illegal.rec":
            with pytest.raises(ParseError, match=r"J cannot run to d4.*\(M9\)") as caught:
                replay(parse_record(text))
            assert (caught.value.line, caught.value.column) == (12, 1)
            continue
        match = replay(parse_record(text))
        check_match(match)
        got[name] = [("".join(sorted(g.wolves)), len(g.history) - 2, g.over)
                     for g in match.games]
    assert got == {
        "match-sparse.rec": [("DEMR", 40, True), ("AHJL", 34, True)],
        "no-reveal-escape.rec": [("ORY", 8, False)],
        "quick-shotgun.rec": [("EKM", 26, True)],
        "wolf-pass.rec": [("AMNO", 3, False)],
    }
    assert replay(parse_record(RECORD_SEEDS[names.index("wolf-pass.rec")])).current.score == 2


def test_seed_option_lines_parse_to_their_rule_sets() -> None:
    from fleece.rules.mutton.options import MuttonOptions, Weapon, parse_options

    default_like, quick = (parse_options(t, line=1) for t in OPTION_SEEDS)
    assert default_like == MuttonOptions(size=4, num_sheep=26, num_wolves=4, berserk=True,
                                   reveal=True, remove=False, weapon=Weapon.RIFLE)
    assert (quick.size, quick.num_sheep, quick.num_wolves, quick.quick_play) == (5, 16, 4, 11)
    assert quick.weapon is Weapon.SHOTGUN
    assert quick.dictionary == {frozenset("ABCD"), frozenset("EFGH")}
    for rules in (default_like, quick):
        check_rules(rules)


def test_seed_json_inputs_parse_to_their_fields() -> None:
    """passed.json: the Wolf passed, 4 wolves, 10 rows; no-reveal.json: identities hidden,
    4 rows; the puzzle twins give the same chart as their text files."""
    from fleece.solver.mutton.inputs import problem_from_json
    from fleece.solver.puzzles.mutton.formats import parse_puzzle, puzzle_from_json
    from fleece.solver.puzzles.woof.formats import parse_puzzle as woof_puzzle

    passed = problem_from_json(JSON_SEEDS[0])
    assert passed.passed and passed.num_wolves == 4 and len(passed.chart.rows) == 10
    assert passed.chart.board is not None and passed.chart.score == 13
    hidden = problem_from_json(JSON_SEEDS[1])
    assert not hidden.reveal and len(hidden.chart.rows) == 4
    assert chart_summary(hidden.chart)[1] == "..d......d..d.....d......d"
    for problem in (passed, hidden):
        check_problem(problem)
    twin = puzzle_from_json(JSON_SEEDS[2])
    assert twin == parse_puzzle(_read(PZ / "mutton" / "easy" / "001.txt"))
    woof = woof_puzzle(JSON_SEEDS[3])
    assert woof == woof_puzzle(_read(PZ / "woof" / "easy" / "001.txt"))
    check_woof_puzzle(woof)


def test_seed_evidence_parses_to_its_table_and_facts() -> None:
    """Seats, point of view and the number of fact lines (hand, look, saw, ask), counted in
    the files; the puzzle asks about seat 1."""
    from fleece.rules.woof.evidence import load_evidence
    from fleece.solver.puzzles.woof.formats import parse_puzzle

    names = [p.name for p in sorted((EX / "woof").glob("*.txt"))] + ["hard/002.txt"]
    got = {}
    for name, text in zip(names, WOOF_SEEDS, strict=True):
        ev = load_evidence(text)
        check_evidence(ev)
        got[name] = (ev.players, ev.me, len(ev.facts), len(ev.deck))
    assert got == {"basic8.txt": (8, 3, 16, 16), "contradiction.txt": (5, 1, 5, 10),
                   "dummy4.txt": (4, 2, 10, 10), "expert6.txt": (6, 1, 14, 12),
                   "rulebook5.txt": (5, 4, 5, 10), "hard/002.txt": (4, 3, 4, 10)}
    assert parse_puzzle(WOOF_SEEDS[-1])[1:] == (1, parse_puzzle(WOOF_SEEDS[-1])[2],
                                                "woof-hard-002")


def test_seed_decks_parse_to_their_cards() -> None:
    from fleece.rules.cards.deck import parse_deck

    sizes = {spec: (parse_deck(spec).size, parse_deck(spec).counts) for spec in DECK_SEEDS}
    assert sizes["mccord"][0] == 52
    assert sorted(sizes["mccord"][1]) == [2, 4, 4, 8, 8, 8, 8, 10]  # K3's copies per kind
    assert sizes["wolf"][0] == 52 and sizes["pairs:13"] == (26, (2,) * 13)
    assert sizes["1*2,2*2,3*2,4*2"] == (8, (2, 2, 2, 2))
    assert sizes["fence*8,crook*2,wisc*4"][0] == 14 and sizes["a*2,b*2"] == (4, (2, 2))
    for spec in DECK_SEEDS:
        check_deck(parse_deck(spec))


def test_seed_positions_parse_to_their_content() -> None:
    """examples/ulvtafl: chain.txt has 5 legal wolf moves, all captures; trapped.txt's wolf
    has the one move c7-c6; endgame.txt has the sheep to move;
    full-game.rec ends in a sheep win after 134 moves, illegal.rec stops at line 7 (U3).
    war-cycle.txt deals 1 1 4 2 | 3 4 3 2 of pairs:4 (the file comments say so). Counted on
    the boards, draw.txt and endgame.txt have 10 sheep each (their comments say 12 and 11)."""
    from fleece.rules.cards.war import parse_position as war_position
    from fleece.rules.ulvtafl.notation import parse_position
    from fleece.rules.ulvtafl.record import parse_record, replay

    def board(name: str) -> Any:
        text = _read(EX / "ulvtafl" / name)
        state = parse_position("\n".join(ln for ln in split_lines(text)
                                         if not ln.startswith("#")))
        check_ulvtafl_position(state)
        return state

    chain = board("chain.txt")
    assert chain.to_move == 0 or chain.to_move == 1
    moves = [m.text() for m in chain.legal_moves()]
    assert len(moves) == 5 and all("x" in m for m in moves)
    assert "c3xe3xe5xc5xc3xe1" in moves
    assert [m.text() for m in board("trapped.txt").legal_moves()] == ["c7-c6"]
    assert board("draw.txt").sheep.bit_count() == 10
    endgame = board("endgame.txt")
    assert endgame.sheep.bit_count() == 10 and endgame.current_player() == 1
    full = replay(parse_record(_read(EX / "ulvtafl" / "full-game.rec")))
    assert len(full) == 135 and full[-1].result == "sheep"
    with pytest.raises(ParseError, match="U3") as caught:
        replay(parse_record(_read(EX / "ulvtafl" / "illegal.rec")))
    assert caught.value.line == 7
    war = war_position(_read(EX / "cards" / "war-cycle.txt"))
    assert war.options.deck.spec() == "1*2,2*2,3*2,4*2" and war.piles == (
        (0, 0, 3, 1), (2, 3, 2, 1))


# ---- fuzzing ------------------------------------------------------------------------------


@FUZZ
@given(inputs(CHART_SEEDS, CHART_ABC))
def test_fuzz_chart_reader(text: str) -> None:
    from fleece.rules.mutton.chart import parse_chart

    parsed_or_located(parse_chart, check_chart, text)
    parsed_or_located(lambda t: parse_chart(t, reveal=False, escaped="AB"), check_chart, text)


@FUZZ
@given(inputs(CHART_SEEDS + RECORD_SEEDS + JSON_SEEDS, CHART_ABC + RECORD_ABC))
def test_fuzz_mutton_inputs_any_kind(text: str) -> None:
    """What `mutton solve` and `mutton chart` read: paste, puzzle text, record or JSON."""
    from fleece.solver.mutton.inputs import chart_from_text, problem_from_text

    parsed_or_located(problem_from_text, check_problem, text)
    parsed_or_located(chart_from_text, check_chart, text)


@FUZZ
@given(inputs(RECORD_SEEDS, RECORD_ABC))
def test_fuzz_record_reader_and_replay(text: str) -> None:
    from fleece.rules.mutton.record import parse_record, replay

    parsed_or_located(lambda t: replay(parse_record(t)), check_match, text)


@FUZZ
@given(inputs(OPTION_SEEDS, OPTION_ABC))
def test_fuzz_options_line(text: str) -> None:
    from fleece.rules.mutton.options import parse_options

    parsed_or_located(lambda t: parse_options(t, line=1), check_rules, text, lines=False)


@FUZZ
@given(inputs(JSON_SEEDS, JSON_ABC))
def test_fuzz_json_readers(text: str) -> None:
    from fleece.rules.text import load_json
    from fleece.solver.mutton.inputs import problem_from_json
    from fleece.solver.puzzles.mutton.formats import puzzle_from_json
    from fleece.solver.puzzles.woof.formats import parse_puzzle

    parsed_or_located(load_json, check_json, text)
    parsed_or_located(problem_from_json, check_problem, text)
    parsed_or_located(puzzle_from_json, check_puzzle, text)
    if text.lstrip().startswith("{"):
        parsed_or_located(parse_puzzle, check_woof_puzzle, text)


@FUZZ
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
                    lambda kids: st.lists(kids, max_size=4)
                    | st.dictionaries(st.sampled_from(
                        ["animals", "status", "rows", "round", "victim", "runners", "board",
                         "size", "corpses", "score", "to_beat", "wolves", "reveal", "passed",
                         "paste", "record", "chart", "escaped", "A", "B"]), kids, max_size=5),
                    max_leaves=20))
def test_fuzz_json_structures_of_every_type(data: object) -> None:
    """Any JSON value in any field: a typed error naming the field, or a valid problem."""
    from fleece.solver.mutton.inputs import problem_from_json

    parsed_or_located(problem_from_json, check_problem, json.dumps(data))
    parsed_or_located(problem_from_json, check_problem,
                      json.dumps({"animals": "ABCD", "chart": data}))


@FUZZ
@given(inputs(WOOF_SEEDS, WOOF_ABC))
def test_fuzz_woof_evidence(text: str) -> None:
    from fleece.rules.woof.evidence import load_evidence

    parsed_or_located(load_evidence, check_evidence, text)


@FUZZ
@given(inputs(_seeds(*sorted((PZ / "mutton" / "medium").glob("00[1-4].txt")),
                     *sorted((PZ / "woof" / "medium").glob("00[1-4].txt")),
                     *sorted((PZ / "mutton" / "medium").glob("00[1-2].solution.txt"))),
              CHART_ABC + WOOF_ABC + "PuzzleGradeWolvesQuestionWhatisWhoareAnswer"))
def test_fuzz_puzzle_files(text: str) -> None:
    from fleece.solver.puzzles.mutton.formats import parse_puzzle as mutton_puzzle
    from fleece.solver.puzzles.mutton.formats import parse_solution_answer
    from fleece.solver.puzzles.woof.formats import parse_puzzle as woof_puzzle
    from fleece.solver.puzzles.woof.formats import solution_answer

    def letters(answer: Any) -> None:
        assert all(len(a) == 1 and "A" <= a <= "Z" for a in answer)

    parsed_or_located(mutton_puzzle, check_puzzle, text)
    parsed_or_located(woof_puzzle, check_woof_puzzle, text)
    parsed_or_located(parse_solution_answer, letters, text)
    answer = solution_answer(text)
    assert answer is None or answer in (line.split(":", 1)[1].strip() for line in
                                        split_lines(text) if ":" in line) or answer == ""


@FUZZ
@given(inputs(DECK_SEEDS, DECK_ABC))
def test_fuzz_card_deck_specs(text: str) -> None:
    from fleece.rules.cards.deck import parse_deck

    parsed_or_located(parse_deck, check_deck, text, lines=False)


def _card_positions() -> list[str]:
    """Position texts of the herd game and Concentration after a few seeded random moves."""
    import random

    from fleece.rules.cards.concentration import CONCENTRATION
    from fleece.rules.cards.concentration import format_position as conc_text
    from fleece.rules.cards.herd import HERD
    from fleece.rules.cards.herd import format_position as herd_text

    out = []
    for game, fmt in ((HERD, herd_text), (CONCENTRATION, conc_text)):
        rng = random.Random(7)
        state: Any = game.new_initial_state(game.default_options())
        for _ in range(12):
            if state.is_terminal():
                break
            state = state.play(game.random_move(state, rng))
        out.append(fmt(state))
    return out


@pytest.mark.parametrize(("game", "line", "old", "new"), [
    ("war", 5, "deal 1 1 4 2", "deal 1 1 4 9"),
    ("herd", 4, "hand fence*2,sheep3*1", "hand fence*2,sheep4*1"),
    ("concentration", 2, "layout sheep1", "layout heep1"),
    ("concentration", 3, "removed A5 B9", "removed A5 Q9"),
    ("concentration", 7, "pairs 1", "pairs x"),
    ("concentration", 3, "removed A5 B9", "removed A5 C4"),
])
def test_card_position_errors_name_their_line(game: str, line: int, old: str, new: str
                                              ) -> None:
    """One bad word in a War, herd or Concentration snapshot: the error names its line."""
    from fleece.rules.cards import concentration, herd, war

    texts = {"war": _read(EX / "cards" / "war-cycle.txt"), "herd": _card_positions()[0],
             "concentration": _card_positions()[1]}
    parse = {"war": war.parse_position, "herd": herd.parse_position,
             "concentration": concentration.parse_position}[game]
    text = texts[game]
    parse(text)
    assert text.count(old) == 1
    with pytest.raises(ParseError) as caught:
        parse(text.replace(old, new))
    assert caught.value.line == line, str(caught.value)
    assert old in split_lines(text)[line - 1]


def test_seed_card_positions_round_trip() -> None:
    """The herd and Concentration snapshots after 12 seeded moves read back to themselves."""
    seeds = _card_positions()
    for (parse, fmt), text in zip(card_position_checks()[1:], seeds, strict=True):
        assert fmt(parse(text)) == text


@FUZZ
@given(inputs(_seeds(*sorted((EX / "ulvtafl").glob("*.txt")), *sorted((EX / "cards")
                     .glob("*.txt"))) + _card_positions(), "SW./ ws0123456789abcdefgx-=#"))
def test_fuzz_ulvtafl_positions_and_card_positions(text: str) -> None:
    from fleece.rules.ulvtafl.notation import parse_position

    body = "\n".join(line for line in split_lines(text) if not line.startswith("#"))
    parsed_or_located(parse_position, check_ulvtafl_position, body, lines=False)
    for parse, fmt in card_position_checks():
        parsed_or_located(parse, lambda s, parse=parse, fmt=fmt: _same(parse, fmt, s), text)


def _same(parse: Callable[[str], Any], fmt: Callable[[Any], str], state: Any) -> None:
    again = parse(fmt(state))
    assert again == state and fmt(again) == fmt(state)


@FUZZ
@given(inputs(ULV_RECORD_SEEDS, "abcdefg1234567-x=setup20 #\n"))
def test_fuzz_ulvtafl_records(text: str) -> None:
    from fleece.rules.ulvtafl.record import parse_record, replay

    def read(t: str) -> Any:
        record = parse_record(t)
        return record, replay(record)

    parsed_or_located(read, check_ulvtafl_game, text)
