"""Terminal output of the commands' human reports: a report is built as a Document (lines of
styled spans and tables) and drawn with rich when standard output is a terminal (colour,
boxes, wrapped to the window), or written as plain text otherwise (piped, redirected, in a
test): aligned columns, no colour, no line ever wrapped. rich is imported only to draw."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

#: A run of text and its rich style (None: unstyled).
Span = tuple[str, str | None]


@dataclass(frozen=True)
class Column:
    """A table column: its header and whether its cells are right-justified."""

    header: str
    right: bool = False


@dataclass(frozen=True)
class Table:
    """A table: columns, rows of cells each with a row style, an optional title."""

    columns: tuple[Column, ...]
    rows: tuple[tuple[tuple[str, ...], str | None], ...]
    title: str | None = None


@dataclass
class Document:
    """A human report: lines of spans and tables, in order."""

    blocks: list[tuple[Span, ...] | Table] = field(default_factory=list)

    def line(self, *spans: Span | str) -> None:
        """A line of spans; a plain string is an unstyled span."""
        self.blocks.append(tuple((s, None) if isinstance(s, str) else s for s in spans))

    def styled(self, text: str, style: str) -> None:
        """A line in one style."""
        self.blocks.append(((text, style),))

    def table(self, columns: Sequence[Column], rows: Sequence[tuple[Sequence[str], str | None]],
              title: str | None = None) -> None:
        """A table."""
        self.blocks.append(Table(tuple(columns),
                                 tuple((tuple(cells), style) for cells, style in rows), title))


def plain_table(table: Table) -> list[str]:
    """A table as aligned text: the header, a rule, the rows (two spaces between columns)."""
    cells = [[c.header for c in table.columns]] + [list(r) for r, _ in table.rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(table.columns))]

    def render(row: list[str]) -> str:
        out = [cell.rjust(w) if col.right else cell.ljust(w)
               for cell, w, col in zip(row, widths, table.columns, strict=True)]
        return "  ".join(out).rstrip()

    lines = [table.title] if table.title else []
    lines.append(render(cells[0]))
    lines.append("  ".join("-" * w for w in widths))
    lines.extend(render(row) for row in cells[1:])
    return lines


def plain(doc: Document) -> str:
    """The report as plain text."""
    out: list[str] = []
    for block in doc.blocks:
        if isinstance(block, Table):
            out.extend(plain_table(block))
        else:
            out.append("".join(text for text, _ in block))
    return "\n".join(out) + "\n" if out else ""


def draw(doc: Document, console: object) -> None:
    """The report drawn by a rich Console."""
    from rich.table import Table as RichTable
    from rich.text import Text

    con: object = console
    for block in doc.blocks:
        if isinstance(block, Table):
            table = RichTable(title=block.title, title_justify="left", show_edge=False,
                              header_style="bold")
            for col in block.columns:
                table.add_column(col.header, justify="right" if col.right else "left")
            for cells, style in block.rows:
                table.add_row(*cells, style=style or "")
            con.print(table)  # type: ignore[attr-defined]
        else:
            text = Text()
            for part, style in block:
                text.append(part, style=style or "")
            con.print(text, soft_wrap=True)  # type: ignore[attr-defined]


def terminal() -> bool:
    """Whether standard output is a terminal (then reports are drawn with rich)."""
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return bool(isatty is not None and isatty())
    except ValueError:
        return False


def show(doc: Document) -> None:
    """Print a report: rich on a terminal, plain text otherwise."""
    if terminal():
        from rich.console import Console

        draw(doc, Console(highlight=False))
    else:
        sys.stdout.write(plain(doc))
