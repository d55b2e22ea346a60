"""The web app's jobs: functions run in the worker processes (web.pool), one module a game.
Each takes the library's request dataclass (fleece.api), calls the library as the command
line does, and returns plain data: `json`, the report's `to_json()` (what the command's
`--json` prints), and `display`, what the page shows besides (tables, board geometry, marks).

They import nothing of the web server. Input errors are the library's FleeceErrors, carrying
their field, line and column; the pool hands them to the server as they are.

Imports: fleece.web.jobs, fleece.api, fleece.solver and fleece.rules; nothing of the web
server, the command line or a web framework.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any


def cli_text(data: Any) -> str:
    """Exactly what a command's `--json` prints: the value indented, and a newline."""
    return json.dumps(data, indent=2) + "\n"


def for_api(fn: Any, *args: Any) -> str:
    """Run a job for its JSON twin and return the command's `--json` text. The text is made
    here, in the worker: an indented dump is pure-Python work of milliseconds that would
    otherwise hold the server's event loop."""
    result: dict[str, Any] = fn(*args)
    return cli_text(result["json"])


def for_page(fn: Any, *args: Any) -> dict[str, Any]:
    """Run a job for a page: its `json` and `display`, and `json_text` (what the page's JSON
    box shows), made in the worker as for_api makes it."""
    result: dict[str, Any] = fn(*args)
    result["json_text"] = cli_text(result["json"])
    return result


def exact(p: Fraction) -> str:
    """`57/219`, `0`, `1`: a probability as its exact fraction."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def pct(p: Fraction) -> str:
    """A probability as a percentage for a table: `.` for 0, `100%` for 1."""
    if p == 0:
        return "."
    if p == 1:
        return "100%"
    return f"{float(p) * 100:.1f}%"


def segments(no: int, line: str, marks: list[tuple[int, int, str]]) -> dict[str, Any]:
    """One line as segments {text, note}: marked spans carry their note (a whole-line mark
    under a cell mark keeps both notes on the cell)."""
    notes: list[list[str]] = [[] for _ in line]
    for start, end, note in marks:
        for j in range(start, min(end, len(line))):
            notes[j].append(note)
    out: list[dict[str, Any]] = []
    for j, ch in enumerate(line):
        note = "; ".join(notes[j])
        if out and out[-1]["note"] == note:
            out[-1]["text"] += ch
        else:
            out.append({"text": ch, "note": note})
    return {"no": no, "segments": out, "marked": bool(marks), "error": False}


def text_lines(text: str) -> list[str]:
    """A pasted text's lines as the page shows them (tabs expanded, no-break spaces plain)."""
    return [ln.replace("\u00a0", " ").expandtabs(8) for ln in text.splitlines()]


def mark_error(text: str, line: int | None, column: int | None, message: str
               ) -> list[dict[str, Any]] | None:
    """The text with the error's line marked (and its column, when known), or None when the
    error names no line."""
    if line is None:
        return None
    lines = text_lines(text) or [""]
    out = []
    for i, ln in enumerate(lines, start=1):
        marks: list[tuple[int, int, str]] = []
        if i == line:
            if column is not None and 1 <= column <= len(ln):
                marks = [(column - 1, column, message)]
            elif ln:
                marks = [(0, len(ln), message)]
        seg = segments(i, ln, marks)
        seg["error"] = i == line
        out.append(seg)
    if line > len(lines):
        out.append({"no": line, "segments": [{"text": " ", "note": message}], "marked": True,
                    "error": True})
    return out
