"""The plain writer of `fleece mutton solve` (commands/mutton_view.py, PlainOut) prints exactly
the characters rich would print, byte for byte.

`fleece mutton solve` skips importing rich when rich would print no colour (output not a
terminal): PlainOut then writes the report itself, and refuses (NotPlain) anything rich would
transform, which sends the report back to rich. The tests force each path and compare:
- every bundled Mutton input (examples/mutton/*, the puzzle texts under puzzles/mutton/) run
  through the command line with each solve option that changes the report (--no-reveal,
  --wolves, --passed, --dictionary, where the input takes it), at console widths where the
  table fits and where it does not: the plain path's output equals the rich path's;
- generated charts and simulated game records (with boards, the Wolf model, advice and
  inconsistent charts): `plain_report` equals rich's `print_report`, or refuses;
- generated calls of the writer's primitives (markup lines with stray brackets, emoji codes,
  control and non-ASCII characters; tables with odd cells, too wide or empty; board pieces):
  PlainOut's text equals RichOut's whenever PlainOut does not refuse.
"""

from __future__ import annotations

import io
import os
import random
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, event, given, settings
from hypothesis import strategies as st
from mutton_strategies import chart_problems as mutton_charts
from rich.console import Console
from scaling import examples

from fleece.cli import main
from fleece.commands import mutton_view
from fleece.commands.mutton_view import (
    Column,
    NotPlain,
    Piece,
    PlainOut,
    RichOut,
    plain_report,
    print_report,
)
from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.options import RuleSet, Weapon
from fleece.rules.mutton.record import format_record
from fleece.rules.mutton.simulate import FarmerPolicy, random_move
from fleece.solver.mutton import analyse, problem_from_record
from fleece.solver.mutton.problem import Problem

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p for p in (ROOT / "examples" / "mutton").iterdir() if p.is_file())
PUZZLES = sorted(p for p in (ROOT / "puzzles" / "mutton").rglob("*.txt")
                 if not p.name.endswith(".solution.txt"))  # answers, not solve inputs
WORDS = ROOT / "examples" / "mutton" / "words.txt"

#: Environment variables by which rich (and plain_output) would choose colour or a width.
RICH_ENV = ("FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR", "TTY_INTERACTIVE", "COLUMNS",
            "JUPYTER_COLUMNS", "JUPYTER_LINES")

# ---- the command line, each path forced -----------------------------------------------------

#: Option sets that change the report; inputs that refuse one (a record given --no-reveal,
#: a chart without a board given --passed) are left out by `runs` below.
OPTIONS: tuple[tuple[str, ...], ...] = (
    (), ("--no-reveal",), ("--wolves", "3"), ("--wolves", "5"), ("--passed",),
    ("--dictionary", str(WORDS)),
)
WIDTHS = ("200", "80", "50")


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """`fleece ARGV` in this process: exit status, standard output and error."""
    capsys.readouterr()
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_every_bundled_input_plain_equals_rich(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """For every bundled input, option set and width: the report printed by the plain writer
    equals the report rich prints when the plain writer is switched off (plain_report
    returning None), and the plain writer is really used wherever the table fits."""
    for name in RICH_ENV:
        monkeypatch.delenv(name, raising=False)
    real = mutton_view.plain_report
    taken: list[bool] = []

    def spy(*args: Any) -> str | None:
        text = real(*args)
        taken.append(text is not None)
        return text

    def refuse(*args: Any) -> None:
        return None

    compared: dict[tuple[str, ...], int] = dict.fromkeys(OPTIONS, 0)
    plain = 0
    for path in EXAMPLES + PUZZLES:
        if path == WORDS:
            continue
        # every width for the examples; the puzzles (one table shape) at the default width
        widths = WIDTHS if path in EXAMPLES else ("80",)
        for options in OPTIONS:
            argv = ["mutton", "solve", str(path), *options]
            for width in widths:
                monkeypatch.setenv("COLUMNS", width)
                monkeypatch.setattr(mutton_view, "plain_report", spy)
                taken.clear()
                first = run_cli(argv, capsys)
                if first[0] == 2:  # bad input for this option (both paths never print)
                    assert first[1] == "" and first[2].startswith("fleece: error: "), argv
                    assert taken == []
                    break
                monkeypatch.setattr(mutton_view, "plain_report", refuse)
                second = run_cli(argv, capsys)
                assert first == second, (argv, width)
                assert len(taken) == 1
                compared[options] += 1
                plain += taken[0]
                if width != "50":  # the report's table fits: the fast path must be taken
                    assert taken[0], (argv, width)
    # each option set changed a report somewhere (--passed: the pastes with a board)
    assert min(compared.values()) >= 3, compared
    assert sum(compared.values()) >= 150 and plain >= 140, (compared, plain)


def test_helppage_takes_the_plain_path_through_a_pipe(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    """The start-up benchmark's command prints through the plain writer when its output is
    not a terminal, and without importing rich (checked in a fresh interpreter)."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in RICH_ENV}
    code = ("import sys; from fleece.cli import main; s = main(['mutton', 'solve', "
            "'examples/mutton/helppage.txt']); sys.stdout.flush(); "
            "sys.stderr.write(str(any(m.startswith('rich') for m in sys.modules))); "
            "sys.exit(s)")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0 and done.stderr == "False", done.stderr
    for name in RICH_ENV:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(mutton_view, "plain_report", lambda *args: None)
    status, out, _ = run_cli(["mutton", "solve", str(ROOT / "examples/mutton/helppage.txt")],
                             capsys)
    assert status == 0 and out == done.stdout


# ---- generated reports ----------------------------------------------------------------------


@contextmanager
def plain_environment(width: int) -> Iterator[None]:
    """COLUMNS set to `width`, no colour forced, standard output a UTF-8 pipe (not a
    terminal): the conditions in which plain_report writes the report itself."""
    saved = {name: os.environ.pop(name, None) for name in RICH_ENV}
    stdout = sys.stdout
    os.environ["COLUMNS"] = str(width)
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdout = stdout
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def rich_text(draw: Callable[[Any], None], width: int) -> str:
    """What `draw(console)` prints on a rich Console made as the command line makes it
    (commands/base.py console(highlight=False, soft_wrap=True)), COLUMNS=width, to a pipe."""
    buf = io.StringIO()
    saved = {name: os.environ.pop(name, None) for name in RICH_ENV}
    os.environ["COLUMNS"] = str(width)
    try:
        draw(Console(file=buf, highlight=False, soft_wrap=True))
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return buf.getvalue()


def check_report(problem: Problem, width: int) -> None:
    """plain_report's text, when it gives one, equals rich's print_report byte for byte."""
    result = analyse(problem, "fast")
    why = list(result.reasons)
    with plain_environment(width):
        plain = plain_report(problem, result.solution, result.advice, why)
    rich = rich_text(lambda c: print_report(problem, result.solution, result.advice, why, c),
                     width)
    event("plain" if plain is not None else "refused: drawn by rich")
    event("consistent" if result.consistent else "inconsistent")
    if plain is not None:
        assert plain == rich


def chart_problems() -> st.SearchStrategy[Problem]:
    """Random charts of 3-26 animals with up to 8 runners a round and 6 wolves (dictionaries
    only up to 12 animals)."""
    return mutton_charts(min_animals=3, max_animals=26, max_runners=8, max_wolves=6,
                         max_word_animals=12)


@settings(max_examples=examples(60))
@given(chart_problems(), st.sampled_from([20, 40, 60, 80, 120, 200]))
def test_generated_charts_plain_equals_rich(problem: Problem, width: int) -> None:
    """Random charts: the plain report equals rich's, or the plain writer refuses."""
    check_report(problem, width)


@settings(max_examples=examples(30))
@given(st.integers(0, 10**6), st.integers(2, 30), st.sampled_from([60, 80, 100, 200]))
def test_simulated_records_plain_equals_rich(seed: int, moves: int, width: int) -> None:
    """Game records of random play (a board, the Wolf model's column, advice, passes):
    the plain report equals rich's, or the plain writer refuses."""
    rng = random.Random(seed)
    n = rng.randint(6, 14)
    rules = RuleSet(size=rng.choice([3, 3, 4]), num_sheep=n,
                    num_wolves=min(n // 2, rng.choice([1, 2, 3, 4])), reveal=rng.random() < 0.5,
                    escape=rng.random() < 0.5, remove=rng.random() < 0.5,
                    weapon=rng.choice([Weapon.RIFLE, Weapon.SHOTGUN]))
    state = GameState.new(rules)
    for _ in range(moves):
        if state.over:
            break
        state = state.play(random_move(state, rng, FarmerPolicy()))
    problem = problem_from_record(format_record(rules, [list(state.history)]))
    check_report(problem, width)


# ---- the writer's primitives ----------------------------------------------------------------

#: Pieces of text chosen to trip the writer: rich markup (the report's own tags and others),
#: escapes, emoji codes, control, tab, box and non-ASCII characters, doubled spaces.
TRICKY = ["[", "]", "\\", "[/]", "[bold]", "[bold red]", "[dim]", "[red]", "[/bold]",
          ":smile:", ":x", ": :", "\t", "\x1b", "\n", "\u00e9", "\u2503", "  ", " ", "::"]
plain_text = st.text(alphabet="abcXYZ ,;()-=/.0123456789", max_size=10)
#: Mostly harmless text, a tricky piece now and then (else PlainOut would nearly always refuse).
fragment = st.integers(0, 11).flatmap(lambda i: st.sampled_from(TRICKY) if i == 0 else plain_text)
texts = st.lists(fragment, max_size=4).map("".join)
#: Text with a tricky piece more often, for single lines.
#: Emoji codes rich replaces (":smile:" -> a face) and look-alikes it keeps.
EMOJI = [":smile:", ":x:", ":heart:", ":wolf:", ":sheep:", ":nope:", ":a b:"]
line_texts = st.lists(st.one_of(plain_text, st.sampled_from(TRICKY), st.sampled_from(EMOJI)),
                      max_size=3).map("".join)


@st.composite
def markup_lines(draw: st.DrawFn) -> str:
    """A line in the shape of the report's markup: text with tags, closed or not."""
    parts = [draw(line_texts)]
    for _ in range(draw(st.integers(0, 3))):
        parts += [draw(st.sampled_from(["[bold]", "[bold red]", "[dim]"])), draw(line_texts),
                  draw(st.sampled_from(["[/]", ""])), draw(line_texts)]
    return "".join(parts)


HEADERS = ("animal", "status", "ran in rounds", "P(wolf)", "exact", "P, Wolf model")


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[Column], list[tuple[list[str], str]]]:
    """The report's table shape (5 or 6 columns, the same justification) with random cells
    (plain, tricky or long) and row styles; possibly empty."""
    ncol = draw(st.sampled_from([5, 6]))
    columns: list[Column] = [(h, "right" if i >= 3 else "left", i == 1)
                             for i, h in enumerate(HEADERS[:ncol])]
    words = st.lists(st.text(alphabet="ab-", min_size=1, max_size=7), max_size=5).map(" ".join)
    padded = st.tuples(st.sampled_from(["", " ", "  "]), words,
                       st.sampled_from(["", " ", "  "])).map("".join)  # rich trims these
    cell = st.integers(0, 23).flatmap(
        lambda i: texts if i == 0 else padded if i == 1 else words if i % 2
        else st.text("abc01.-/", max_size=12))
    rows = draw(st.lists(st.tuples(st.lists(cell, min_size=ncol, max_size=ncol),
                                   st.sampled_from(["", "dim", "bold red"])), min_size=1,
                         max_size=4))
    return columns, [(list(c), s) for c, s in rows]


pieces = st.lists(st.tuples(texts, st.sampled_from([None, "bold black on rgb(255,200,200)"])),
                  max_size=5)
WIDTHS_DRAWN = st.sampled_from([5, 20, 40, 60, 80, 100, 200])
#: Each test below draws one call (a report is a sequence of independent calls): few refusals,
#: and no shrinking - a failing call is small already, and is reported within seconds.
FUZZ = settings(max_examples=examples(150),
                phases=(Phase.explicit, Phase.reuse, Phase.generate))


def same_as_rich(call: Callable[[RichOut | PlainOut], None], width: int) -> None:
    """PlainOut's text for `call` equals what RichOut prints through a rich Console of the
    same width, unless PlainOut refuses (NotPlain)."""
    out = PlainOut(width)
    try:
        call(out)
    except NotPlain:
        event("refused: drawn by rich")
        return
    event("plain")
    assert out.text() == rich_text(lambda c: call(RichOut(c)), width)


@FUZZ
@given(markup_lines(), WIDTHS_DRAWN)
def test_writer_lines_plain_equals_rich(markup: str, width: int) -> None:
    """A line of markup (the report's tags, stray brackets, emoji codes, odd characters):
    no wrapping (soft_wrap), tags removed, or refused."""
    same_as_rich(lambda out: out.line(markup), width)


@FUZZ
@given(tables(), WIDTHS_DRAWN, st.integers(-1, 1), st.booleans())
def test_writer_tables_plain_equals_rich(
        table: tuple[list[Column], list[tuple[list[str], str]]], width: int, offset: int,
        near: bool) -> None:
    """A table in the report's shape; half the consoles are within a column of the table's
    own width (where rich starts to wrap or squeeze it)."""
    columns, rows = table
    if near and rows:
        cells = [[h for h, _, _ in columns]] + [r for r, _ in rows]
        natural = sum(max(len(r[i]) for r in cells) for i in range(len(columns))) \
            + 3 * len(columns) - 1
        width = max(1, natural + offset)
    same_as_rich(lambda out: out.table(columns, rows), width)


@FUZZ
@given(pieces, WIDTHS_DRAWN)
def test_writer_pieces_plain_equals_rich(line: list[Piece], width: int) -> None:
    """A line of board pieces, styled or not."""
    same_as_rich(lambda out: out.pieces(line), width)


def test_plain_writer_refusals_are_rich_changes() -> None:
    """Worked examples of what rich changes, so PlainOut must refuse: an emoji code, a
    markup tag that is not the report's, a table wider than the console, an empty table."""
    def rich_line(markup: str) -> str:
        return rich_text(lambda c: RichOut(c).line(markup), 80)

    assert rich_line("a :smile: b") != "a :smile: b\n"
    assert rich_line("[red]x[/] y") == "x y\n"
    for markup in ("a :smile: b", "[red]x[/] y", "x [/]", "tab\there", "caf\u00e9"):
        with pytest.raises(NotPlain):
            PlainOut(80).line(markup)
    assert PlainOut(80).line("a: b :c") is None  # a space between the colons: no emoji code
    columns: list[Column] = [("animal", "left", False), ("P(wolf)", "right", False)]
    with pytest.raises(NotPlain):
        PlainOut(80).table(columns, [])
    padded = [(["A", "b "], "")]  # rich drops the outer space of a right-justified cell
    assert "     b \n" in rich_text(lambda c: RichOut(c).table(columns, padded), 80)
    with pytest.raises(NotPlain):
        PlainOut(80).table(columns, padded)
    wide = [(["A", "x" * 60], "")]
    PlainOut(73).table(columns, wide)  # 6 + 60 + 3 * 2 - 1 = 71 columns: fits
    with pytest.raises(NotPlain):
        PlainOut(70).table(columns, wide)


def test_exact_fractions_are_shown_up_to_twelve_characters() -> None:
    """The table's `exact` column: whole numbers and fractions of at most 12 characters,
    nothing for longer ones (the float column still shows them)."""
    from fractions import Fraction

    from fleece.solver.mutton.analysis import fraction_text

    assert fraction_text(Fraction(57, 73)) == "57/73" and fraction_text(Fraction(1)) == "1"
    assert fraction_text(Fraction(0)) == "0"
    assert fraction_text(Fraction(12345, 123457)) == "12345/123457"  # 12 characters
    assert fraction_text(Fraction(12345, 1234567)) == ""  # 13
