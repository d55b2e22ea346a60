"""Reading what the Farmer knows from text: a pbmserv paste, a whole game record, or JSON.

`problem_from_text` recognises the kind of input from its first meaningful line and hands it to
the matching reader; every reader returns a `Problem` (solver.mutton.problem).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from fleece.rules.errors import FleeceError, ParseError
from fleece.rules.mutton.chart import Chart, ChartRow, Status, parse_chart
from fleece.rules.mutton.diagram import BoardPicture
from fleece.rules.mutton.geometry import board as board_of_size
from fleece.rules.mutton.options import ALPHABET
from fleece.solver.mutton.problem import Problem, problem_from_chart
from fleece.solver.mutton.record_view import record_problem


def problem_from_text(text: str, wolves: int | None = None, *, reveal: bool = True,
                      escaped: str = "", dictionary: frozenset[frozenset[str]] | None = None,
                      passed: bool = False) -> Problem:
    """A problem from any accepted input: a pasted chart, a full game record (its first line
    is the options line `-size=...`), or JSON (an object; see `problem_from_json`)."""
    kind = detect_input(text)
    if kind == "record":
        if passed or escaped or not reveal:
            raise FleeceError("--passed, --escaped and --no-reveal are for pasted charts: a "
                              "game record already says all of that")
        return problem_from_record(text, dictionary=dictionary, wolves=wolves)
    if kind == "json":
        return problem_from_json(text, wolves=wolves, reveal=reveal, escaped=escaped,
                                 dictionary=dictionary, passed=passed)
    chart = parse_chart(text, reveal=reveal, escaped=escaped)
    return problem_from_chart(chart, 4 if wolves is None else wolves, escaped=escaped,
                              dictionary=dictionary, passed=passed)


def detect_input(text: str) -> str:
    """`record`, `json` or `chart`, from the first meaningful line."""
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].replace("\u00a0", " ").strip()
        if not line:
            continue
        if line.startswith(("{", "[")):
            return "json"
        low = line.lower()
        first = low.split()[0]
        if first.startswith("-") and ("=" in first or first.lstrip("-") in _FLAG_WORDS):
            return "record"
        if first in ("mutton", "challenge"):
            return "record"
        return "chart"
    return "chart"


_FLAG_WORDS = {"reveal", "no_reveal", "berserk", "no_berserk", "remove", "no_remove", "escape",
               "no_escape", "rifle", "shotgun", "quick"}


def problem_from_record(text: str, *, dictionary: frozenset[frozenset[str]] | None = None,
                        wolves: int | None = None) -> Problem:
    """A problem from a full game record (rules.mutton.record): the Farmer's view of the last
    game in it, with every Wolf turn's public position (D9, Wolf model). The record's secret
    wolves line is used only to replay the moves and to reveal identities exactly when the
    rules make them public."""
    return record_problem(text, dictionary=dictionary, wolves=wolves)


# ---- JSON input ------------------------------------------------------------------------------

_STATUS_BY_VALUE = {s.value: s for s in Status}


def problem_from_json(text: str, *, wolves: int | None = None, reveal: bool = True,
                      escaped: str = "", dictionary: frozenset[frozenset[str]] | None = None,
                      passed: bool = False) -> Problem:
    """A problem from JSON: the object `fleece mutton chart --json` prints (`animals`,
    `reveal`, `status`, `rows`, optional `board`, `score`, `to_beat`), the same under a
    `chart` key (puzzle files), or an object with a `paste` string (a pbmserv chart) or a
    `record` string; optional keys `wolves`, `escaped`, `passed` supply the options
    (command-line options win when given)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid JSON: {exc.msg}", line=exc.lineno, column=exc.colno) from None
    if not isinstance(data, dict):
        raise ParseError("the JSON input must be an object")
    k = wolves if wolves is not None else data.get("wolves", data.get("num_wolves"))
    if k is not None and not isinstance(k, int):
        raise ParseError("'wolves' must be a whole number")
    if "record" in data:
        rec = data["record"]
        if not isinstance(rec, str):
            raise ParseError("'record' must be a string")
        return problem_from_record(rec, dictionary=dictionary, wolves=k)
    esc = escaped or str(data.get("escaped", ""))
    was_passed = passed or bool(data.get("passed", False))
    rev = reveal and bool(data.get("reveal", True))
    if "paste" in data:
        paste = data["paste"]
        if not isinstance(paste, str):
            raise ParseError("'paste' must be a string")
        chart = parse_chart(paste, reveal=rev)
    elif isinstance(data.get("chart"), dict):  # e.g. a puzzle file: {"wolves": 4, "chart": ...}
        inner = data["chart"]
        chart = chart_from_json(inner, reveal=rev and bool(inner.get("reveal", True)))
    else:
        chart = chart_from_json(data, reveal=rev)
    return problem_from_chart(chart, 4 if k is None else k, escaped=esc, dictionary=dictionary,
                              passed=was_passed)


def chart_from_json(data: dict[str, Any], *, reveal: bool = True) -> Chart:
    """Rebuild a Chart from `Chart.to_json()` output, checking it as the paste reader would."""
    from fleece.rules.mutton.chart import render_chart, render_paste

    animals = data.get("animals")
    if not isinstance(animals, str) or not 2 <= len(animals) <= 26 \
            or animals != ALPHABET[:len(animals)]:
        raise ParseError("'animals' must be the letters A, B, ... (2..26 of them)")
    status_in = data.get("status", {})
    if not isinstance(status_in, dict):
        raise ParseError("'status' must be an object letter -> status")
    status: list[Status] = []
    for a in animals:
        val = status_in.get(a, "alive")
        st = _STATUS_BY_VALUE.get(val)
        if st is None:
            raise ParseError(f"unknown status {val!r} for {a} (known: "
                             f"{', '.join(sorted(_STATUS_BY_VALUE))})")
        if not reveal and st in (Status.DEAD_SHEEP, Status.DEAD_WOLF):
            st = Status.DEAD
        status.append(st)
    rows: list[ChartRow] = []
    for i, r in enumerate(data.get("rows", [])):
        try:
            rows.append(ChartRow(int(r["round"]), str(r["victim"]),
                                 frozenset(str(x) for x in r["runners"])))
        except (KeyError, TypeError, ValueError):
            raise ParseError(f"row {i + 1}: expected round, victim and runners") from None
    chart = Chart(animals, tuple(status), tuple(rows), reveal=reveal)
    # Re-read through the pbmserv reader, which checks rows, victims and runners.
    text = render_chart(chart)
    board_in = data.get("board")
    if board_in is not None:
        try:
            size = int(board_in["size"])
            b = board_of_size(size)
            pos = {str(a): b.cell(str(c)) for a, c in board_in.get("animals", {}).items()}
            corpses = frozenset(b.cell(str(c)) for c in board_in.get("corpses", []))
        except (KeyError, TypeError, ValueError) as exc:
            raise ParseError(f"bad 'board': {exc}") from None
        score = data.get("score")
        to_beat = data.get("to_beat")
        chart = Chart(animals, tuple(status), tuple(rows), reveal=reveal,
                      board=BoardPicture(size, pos, corpses),
                      score=score if isinstance(score, int) else None,
                      to_beat=to_beat if isinstance(to_beat, int) else None)
        text = render_paste(chart)
    elif isinstance(data.get("score"), int):
        chart = replace(chart, score=data["score"], to_beat=data.get("to_beat"))
        text = render_paste(chart)
    try:
        return parse_chart(text, reveal=reveal)
    except ParseError as exc:
        raise ParseError(f"the JSON chart is not valid: {exc.message}") from None
