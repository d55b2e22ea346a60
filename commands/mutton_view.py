"""How `fleece mutton solve` shows an analysis in the terminal: the summary, the table of
probabilities, certain facts with their reasons, the advice and the shaded board.

The report is written through a small `Out` interface: `RichOut` draws it with rich (colour
in a terminal), `PlainOut` writes the very same characters without importing rich when rich
would print no colour (output not a terminal). PlainOut refuses (NotPlain) any text rich
would transform - markup other than the report's own tags, emoji codes, control or
non-ASCII characters, a table wider than the console - and the report is then drawn by rich."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from fleece.rules.mutton.diagram import render_board
from fleece.solver.mutton.advice import Advice
from fleece.solver.mutton.analysis import fraction_text, rounds_run, status_text
from fleece.solver.mutton.explain import Reason
from fleece.solver.mutton.facts import join_letters
from fleece.solver.mutton.problem import Problem
from fleece.solver.mutton.solution import Solution

#: A table column: header, justify ("left" or "right"), no_wrap.
Column = tuple[str, str, bool]
#: A run of board text and its rich style (None: unstyled).
Piece = tuple[str, str | None]


def _shade(p: Fraction) -> str:
    """A background colour from pale (0) to deep red (1)."""
    x = float(p)
    r = 255
    g = int(235 - 185 * x)
    b = int(225 - 185 * x)
    return f"rgb({r},{g},{b})"


class NotPlain(Exception):
    """The report holds something rich would not print as it is: draw it with rich."""


class RichOut:
    """The report drawn by a rich Console."""

    styled = True  # board pieces carry their colours

    def __init__(self, console: Any) -> None:
        self.console = console

    def line(self, markup: str) -> None:
        """One line of rich markup."""
        self.console.print(markup, soft_wrap=True)

    def table(self, columns: Sequence[Column], rows: Sequence[tuple[list[str], str]]) -> None:
        """A table (no outer edge, bold header); each row has its cells and its style."""
        from rich.table import Table

        table = Table(show_edge=False, header_style="bold")
        for header, justify, no_wrap in columns:
            if justify == "right":
                table.add_column(header, justify="right")
            elif no_wrap:
                table.add_column(header, no_wrap=True)
            else:
                table.add_column(header)
        for cells, style in rows:
            table.add_row(*cells, style=style)
        self.console.print(table)

    def pieces(self, line: Sequence[Piece]) -> None:
        """One line of styled pieces (the shaded board)."""
        from rich.text import Text

        t = Text()
        for text, style in line:
            if style is None:
                t.append(text)
            else:
                t.append(text, style=style)
        self.console.print(t)


#: The markup tags the report itself writes; "[/]" closes the last one opened.
_TAGS = ("[bold]", "[bold red]", "[dim]")


def _check(text: str) -> None:
    """Refuse text that rich would print differently: control, tab or non-ASCII characters,
    a backslash or square bracket (markup), an emoji code (`:name:`)."""
    if not (text.isascii() and text.isprintable()) or "[" in text or "\\" in text:
        raise NotPlain(text[:40])
    # rich's emoji codes match `:\S*?:`: two colons with no white space between them (in
    # printable ASCII, the space is the only white space).
    if any(" " not in between for between in text.split(":")[1:-1]):
        raise NotPlain(text[:40])


def _strip_markup(markup: str) -> str:
    """The text of a line of the report's own markup, as rich prints it without colour."""
    out = []
    depth = 0
    i = 0
    while True:
        j = markup.find("[", i)
        if j < 0:
            out.append(markup[i:])
            break
        out.append(markup[i:j])
        if markup.startswith("[/]", j):
            if depth == 0:
                raise NotPlain(markup[:40])  # rich refuses a closing tag with nothing open
            depth -= 1
            i = j + 3
            continue
        tag = next((t for t in _TAGS if markup.startswith(t, j)), None)
        if tag is None:
            raise NotPlain(markup[:40])
        depth += 1
        i = j + len(tag)
    text = "".join(out)
    _check(text)
    return text


def console_width() -> int | None:
    """The width a rich Console would take here (COLUMNS, else the first terminal among
    standard input, output and error, else 80), or None where rich would do more (Windows,
    a COLUMNS of 0 or not in ASCII digits)."""
    if sys.platform == "win32":
        return None
    columns = os.environ.get("COLUMNS")
    if columns is not None and columns.isdigit():
        return int(columns) if columns.isascii() and int(columns) > 0 else None
    width = 0
    for fd in (0, 1, 2):
        try:
            width = os.get_terminal_size(fd)[0]
        except (AttributeError, ValueError, OSError):
            continue
        break
    return width or 80


def plain_output() -> bool:
    """Whether rich would print no colour and no box substitutes to standard output: it is
    not a terminal (and TTY_COMPATIBLE or FORCE_COLOR do not say it is), its encoding is
    UTF-8 and this is no notebook or IDLE."""
    env = os.environ
    if env.get("TTY_COMPATIBLE", "") == "1" or env.get("FORCE_COLOR", "") != "":
        return False
    if "ipykernel" in sys.modules or "idlelib" in sys.modules:
        return False
    out = sys.stdout
    encoding = (getattr(out, "encoding", None) or "utf-8").lower()
    if not encoding.startswith("utf"):
        return False
    if env.get("TTY_COMPATIBLE", "") == "0":
        return True
    isatty = getattr(out, "isatty", None)
    try:
        return isatty is not None and not isatty()
    except ValueError:
        return True


class PlainOut:
    """The report as rich prints it without colour, collected as text (no rich import)."""

    styled = False  # board pieces need no colours

    def __init__(self, width: int) -> None:
        self.width = width
        self.parts: list[str] = []

    def line(self, markup: str) -> None:
        """One line of the report's markup, tags removed."""
        self.parts.append(_strip_markup(markup) + "\n")

    def table(self, columns: Sequence[Column], rows: Sequence[tuple[list[str], str]]) -> None:
        """rich's HEAVY_HEAD table without outer edges, each column as wide as its widest
        cell plus one space each side; refused when wider than the console or empty."""
        if not rows:
            raise NotPlain("empty table")
        cells = [[header for header, _, _ in columns]] + [list(r) for r, _ in rows]
        for row in cells:
            if len(row) != len(columns):
                raise NotPlain("ragged table")
            for cell in row:
                _check(cell)
                if cell != cell.strip(" "):  # rich trims a justified cell's outer spaces
                    raise NotPlain(cell[:40])
        widths = [max(len(row[i]) for row in cells) for i in range(len(columns))]
        if sum(widths) + 3 * len(columns) - 1 > self.width:
            raise NotPlain("table wider than the console")

        def render(row: list[str], bar: str) -> str:
            out = []
            for cell, width, (_, justify, _) in zip(row, widths, columns, strict=True):
                out.append(" " + (cell.rjust(width) if justify == "right"
                                  else cell.ljust(width)) + " ")
            return bar.join(out) + "\n"

        self.parts.append(render(cells[0], "\u2503"))
        self.parts.append("\u2547".join("\u2501" * (w + 2) for w in widths) + "\n")
        self.parts.extend(render(row, "\u2502") for row in cells[1:])

    def pieces(self, line: Sequence[Piece]) -> None:
        """One line of pieces, without their styles."""
        text = "".join(text for text, _ in line)
        _check(text)
        self.parts.append(text + "\n")

    def text(self) -> str:
        """Everything written so far."""
        return "".join(self.parts)


def board_lines(problem: Problem, solution: Solution, styled: bool = True
                ) -> list[list[Piece]]:
    """The pbmserv board with living animals shaded by P(wolf), beside the same board showing
    P(wolf) in tenths (W = certain wolf, - = cleared, 0-9 otherwise); `styled` False leaves
    out the shading (every style None), for output without colour."""
    pic = problem.board
    assert pic is not None
    left = render_board(pic.size, pic.animals, pic.corpses).splitlines()
    digits: dict[str, str] = {}
    styles: dict[str, str | None] = {}
    for a in pic.animals:
        p = solution.probability(a)
        digits[a] = "W" if p == 1 else "-" if p == 0 else str(min(9, int(p * 10)))
        styles[a] = f"bold black on {_shade(p)}" if styled else None
    width = max(len(line) for line in left) + 4
    out = []
    for line in left:
        t: list[Piece] = []
        for ch in line:
            if "A" <= ch <= "Z" and ch in pic.animals:
                t.append((ch, styles[ch]))
            else:
                t.append((ch, None))
        t.append((" " * (width - len(line)), None))
        for ch in line:
            if "A" <= ch <= "Z" and ch in pic.animals:
                t.append((digits[ch], styles[ch]))
            else:
                t.append((ch, None))
        out.append(t)
    return out


def plain_report(problem: Problem, solution: Solution, advice: Advice | None,
                 why: list[Reason]) -> str | None:
    """The report as text when rich would print it without colour and exactly as written
    (see PlainOut); None when it must be drawn by rich."""
    if not plain_output():
        return None
    width = console_width()
    if width is None:
        return None
    out = PlainOut(width)
    try:
        write_report(problem, solution, advice, why, out)
    except NotPlain:
        return None
    return out.text()


def print_report(problem: Problem, solution: Solution, advice: Advice | None,
                 why: list[Reason], console: Any) -> None:
    """The human report drawn by a rich Console."""
    write_report(problem, solution, advice, why, RichOut(console))


def write_report(problem: Problem, solution: Solution, advice: Advice | None,
                 why: list[Reason], out: RichOut | PlainOut) -> None:
    """The human report: summary, table, certain facts with reasons, advice, board."""
    k = problem.num_wolves
    chart = problem.chart
    reveal = "reveal" if problem.reveal else "no_reveal"
    src = {"record": "game record", "chart": "chart", "json": "JSON"}.get(problem.source,
                                                                          problem.source)
    words = next((f for f in problem.facts if f.key == "dictionary"), None)
    dictionary = f", {len(words.words or ())} dictionary words" if words is not None else ""
    out.line(f"[bold]Mutton {src}[/]: {len(problem.animals)} animals, {k} wolves, "
             f"{reveal}, {len(chart.rows)} kill{'s' if len(chart.rows) != 1 else ''}"
             f"{', the Wolf passed this turn' if problem.passed else ''}{dictionary}; "
             f"engine {solution.engine}")
    for note in problem.notes:
        out.line(f"note: {note}")
    if not solution.consistent:
        out.line(f"[bold red]Inconsistent:[/] no set of {k} wolves fits this chart. "
                 "These facts contradict each other (each one is needed for the "
                 "contradiction):")
        for i, f in enumerate(solution.core, 1):
            out.line(f"  {i}. {f.text}  [dim]({f.key}; {f.clause})[/]")
        out.line("A typo in the paste? Check these rows and marks, and the options "
                 "(--wolves, --no-reveal, --escaped).")
        return
    n = solution.count
    out.line(f"[bold]{n}[/] consistent wolf set{'s' if n != 1 else ''} "
             "(uniform prior: each equally likely)")
    model = solution.model
    show_model = model is not None and model.available
    columns: list[Column] = [("animal", "left", False), ("status", "left", True),
                             ("ran in rounds", "left", False), ("P(wolf)", "right", False),
                             ("exact", "right", False)]
    if show_model:
        columns.append(("P, Wolf model", "right", False))
    runs = rounds_run(problem)
    rows = []
    for a in problem.animals:
        p = solution.probability(a)
        style = "bold red" if p == 1 else "dim" if p == 0 else ""
        cells = [a, status_text(problem, a), " ".join(str(r) for r in runs[a]),
                 f"{float(p):.3f}", fraction_text(p)]
        if show_model:
            assert model is not None
            cells.append(f"{float(model.probability(a)):.3f}")
        rows.append((cells, style))
    out.table(columns, rows)
    if model is not None:
        if model.available:
            out.line("Wolf model: the record's likelihood if the Wolf picks a uniformly "
                     "random legal kill and runner placement (solver/mutton/model.py), "
                     f"over the {model.sets} consistent sets.")
        else:
            out.line(f"Wolf model: {model.skipped or 'the record is impossible under it'}")
    new_wolves = set(solution.new_certain_wolves)
    new_cleared = set(solution.new_cleared)
    wolf_reasons = sorted((r for r in why if r.wolf and r.letter in new_wolves),
                          key=lambda r: r.letter)
    sheep_reasons = sorted((r for r in why if not r.wolf and r.letter in new_cleared),
                           key=lambda r: r.letter)
    known_wolves = [a for a in solution.certain_wolves if a not in new_wolves]
    if wolf_reasons:
        out.line("[bold]Certain wolves[/]")
        for r in wolf_reasons:
            out.line(f"  [bold red]{r.letter}[/]: {r.text}")
    if known_wolves:
        out.line(f"Known wolves: {join_letters(known_wolves)} (top row)")
    if sheep_reasons:
        out.line("[bold]Cleared[/] (a wolf in no consistent set)")
        for r in sheep_reasons:
            out.line(f"  {r.letter}: {r.text}")
    if not wolf_reasons and not sheep_reasons:
        out.line("No new certain fact beyond the top row.")
    if advice is not None and advice.best_shot is not None:
        write_advice(advice, out)
    if problem.board is not None:
        out.line("[bold]Board[/] (shaded by P(wolf); right: tenths, W certain, - cleared)")
        for line in board_lines(problem, solution, out.styled):
            out.pieces(line)


def print_advice(advice: Advice, console: Any) -> None:
    """The advice paragraph, drawn by a rich Console."""
    write_advice(advice, RichOut(console))


def write_advice(advice: Advice, out: RichOut | PlainOut) -> None:
    """The advice paragraph."""
    p = advice.best_probability
    out.line("[bold]Advice[/]")
    exact = fraction_text(p)
    tie = ""
    if len(advice.tied) > 1:
        tie = (f"; tied with {join_letters(list(advice.tied[1:]))} "
               f"(tie rule: {advice.tie_rule})")
    out.line(f"  Best single shot: [bold]{advice.best_shot}[/] "
             f"(P(wolf) = {float(p):.3f}{' = ' + exact if exact else ''}){tie}")
    b = advice.berserk_set
    lo, hi = advice.living_wolves
    wolves = f"{lo}" if lo == hi else f"{lo} to {hi}"
    if advice.sheep_cost_worst == 0:
        cost = "no sheep"
    else:
        exp = advice.sheep_cost_expected
        cost = (f"{advice.sheep_cost_worst} sheep" if lo == hi else
                f"at most {advice.sheep_cost_worst} sheep, {float(exp):.2f} expected")
    out.line(f"  Berserk set: {', '.join(b)} ({len(b)} animal{'s' if len(b) != 1 else ''}"
             f"; {wolves} living wolves among them): going berserk on it wins for sure "
             f"and costs {cost} (if berserk is allowed and unused, M13).")
