"""Reading what the Farmer knows from text: a pbmserv paste, a whole game record, or JSON.

`problem_from_text` recognises the kind of input from its first meaningful line and hands it to
the matching reader; every reader returns a `Problem` (solver.mutton.problem).
"""

from __future__ import annotations

import re
from typing import Any

from fleece.rules.errors import FleeceError, ParseError
from fleece.rules.mutton.chart import Chart, chart_from_json, parse_chart
from fleece.rules.text import (
    in_field,
    json_bool,
    json_dict,
    json_int,
    json_object,
    json_str,
    json_strings,
    json_type,
    load_json,
    quote,
    split_lines,
)
from fleece.solver.mutton.problem import Problem, problem_from_chart

__all__ = ["chart_from_json", "chart_from_text", "detect_input", "problem_from_json",
           "problem_from_record", "problem_from_text", "puzzle_chart"]


def problem_from_text(text: str, wolves: int | None = None, *, reveal: bool = True,
                      escaped: str = "", dictionary: frozenset[frozenset[str]] | None = None,
                      passed: bool = False) -> Problem:
    """A problem from any accepted input: a pasted chart, a full game record (its first line
    is the options line `-size=...`), a Mutton puzzle text (header lines `Puzzle:`,
    `Wolves:`, ... before the chart) or JSON (an object; see `problem_from_json`)."""
    kind = detect_input(text)
    if kind == "record":
        if passed or escaped or not reveal:
            given = [n for n, on in (("passed", passed), ("escaped", bool(escaped)),
                                     ("no_reveal", not reveal)) if on]
            raise FleeceError("is for pasted charts: a game record already says all of that",
                              field=given[0])
        return problem_from_record(text, dictionary=dictionary, wolves=wolves)
    if kind == "json":
        return problem_from_json(text, wolves=wolves, reveal=reveal, escaped=escaped,
                                 dictionary=dictionary, passed=passed)
    if kind == "puzzle":
        chart, k = puzzle_chart(text, reveal=reveal)
        return problem_from_chart(chart, k if wolves is None else wolves, escaped=escaped,
                                  dictionary=dictionary, passed=passed)
    chart = parse_chart(text, reveal=reveal, escaped=escaped)
    return problem_from_chart(chart, 4 if wolves is None else wolves, escaped=escaped,
                              dictionary=dictionary, passed=passed)


def chart_from_text(text: str, *, reveal: bool = True) -> Chart:
    """The chart of any input `problem_from_text` accepts (what `fleece mutton chart` prints):
    a paste, a puzzle text, JSON, or a record (the Farmer's chart of its last game)."""
    kind = detect_input(text)
    if kind == "record":
        if not reveal:
            raise FleeceError("is for pasted charts: a game record already says it",
                              field="no_reveal")
        from fleece.solver.mutton.public_record import record_problem

        return record_problem(text).chart
    if kind == "json":
        data = json_object(load_json(text), "")
        _json_wolves(data, None)
        if "record" in data:
            if not reveal:
                raise FleeceError("is for pasted charts: a game record already says it",
                                  field="no_reveal")
            from fleece.solver.mutton.public_record import record_problem

            try:
                return record_problem(_json_record(data)).chart
            except ParseError as exc:
                raise in_field(exc, "record") from None
        return _json_chart(data, reveal)
    if kind == "puzzle":
        return puzzle_chart(text, reveal=reveal)[0]
    return parse_chart(text, reveal=reveal)


def puzzle_chart(text: str, *, reveal: bool = True) -> tuple[Chart, int]:
    """The chart and the number of wolves of a Mutton puzzle text."""
    from fleece.rules.mutton.chart import render_chart
    from fleece.solver.puzzles.mutton.formats import parse_puzzle

    spec = parse_puzzle(text)
    if reveal:
        return spec.chart, spec.wolves
    return parse_chart(render_chart(spec.chart), reveal=False), spec.wolves


_PUZZLE_HEAD_RE = re.compile(r" *(puzzle|grade|wolves|question) *:", re.IGNORECASE | re.ASCII)


def detect_input(text: str) -> str:
    """`record`, `json`, `puzzle` or `chart`, from the first meaningful line (blank lines
    and `#` comments skipped)."""
    for raw in split_lines(text):
        line = raw.split("#", 1)[0].replace("\u00a0", " ").strip(" \t")
        if not line:
            continue
        if line.startswith(("{", "[")):
            return "json"
        if _PUZZLE_HEAD_RE.match(line):
            return "puzzle"
        first = line.lower().split(" ")[0]
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
    """A problem from a full game record (rules.mutton.record): the Farmer's knowledge of the last
    game in it, with every Wolf turn's public position (D9, Wolf model). The record's secret
    wolves line is used only to replay the moves and to reveal identities exactly when the
    rules make them public."""
    from fleece.solver.mutton.public_record import record_problem

    return record_problem(text, dictionary=dictionary, wolves=wolves)


# ---- JSON input ------------------------------------------------------------------------------

# Fields of a JSON input: a chart (Chart.to_json), the problem's options, a puzzle's JSON twin.
_JSON_FIELDS = frozenset({
    "animals", "reveal", "status", "rows", "board", "score", "to_beat",
    "wolves", "num_wolves", "escaped", "passed", "paste", "record", "chart", "comment",
    "format", "version", "game", "id", "grade", "question", "question_text", "chart_text",
})


def problem_from_json(text: str, *, wolves: int | None = None, reveal: bool = True,
                      escaped: str = "", dictionary: frozenset[frozenset[str]] | None = None,
                      passed: bool = False) -> Problem:
    """A problem from JSON: the object `fleece mutton chart --json` prints (`animals`,
    `reveal`, `status`, `rows`, optional `board`, `score`, `to_beat`), the same under a
    `chart` key (puzzle files), or an object with a `paste` string (a pbmserv chart) or a
    `record` string; optional keys `wolves`, `escaped`, `passed` supply the options
    (command-line options win when given). Types are strict (`"reveal": "false"` is an
    error, not true) and every error names its field; an error inside the `paste` or `record`
    text names the field and the line inside it."""
    data = json_object(load_json(text), "")
    k = _json_wolves(data, wolves)
    if "record" in data:
        try:
            return problem_from_record(_json_record(data), dictionary=dictionary, wolves=k)
        except ParseError as exc:
            raise in_field(exc, "record") from None
    chart = _json_chart(data, reveal)
    esc_in = data.get("escaped", "")
    esc = escaped or _letters(esc_in if isinstance(esc_in, str) else "".join(esc_in))
    was_passed = json_bool(data, "passed", default=False) or passed
    return problem_from_chart(chart, 4 if k is None else k, escaped=esc, dictionary=dictionary,
                              passed=was_passed)


def _json_wolves(data: dict[str, Any], wolves: int | None) -> int | None:
    """Check the JSON input's fields and their types; the number of wolves (`wolves` wins
    when given)."""
    unknown = sorted(set(data) - _JSON_FIELDS)
    if unknown:
        raise ParseError(f"unknown field {quote(unknown[0])} (known: "
                         f"{', '.join(sorted(_JSON_FIELDS))})")
    sources = [key for key in ("record", "paste", "chart", "animals") if key in data]
    if len(sources) != 1:
        raise ParseError("the JSON input needs exactly one of 'animals' (a chart), 'chart', "
                         "'paste' or 'record'" + (f", got {', '.join(sources)}" if sources
                                                  else ""))
    for key in ("comment", "id", "grade", "question", "question_text", "chart_text"):
        json_str(data, key, default=None)
    if "format" in data or "game" in data or "version" in data:  # a puzzle's JSON twin
        if json_str(data, "format", default="") != "fleece-puzzle" or \
                json_str(data, "game", default="") != "mutton":
            bad = "format" if json_str(data, "format", default="") != "fleece-puzzle" else "game"
            raise ParseError(f"not a Mutton input: field '{bad}' of a puzzle twin must be "
                             f"'{'fleece-puzzle' if bad == 'format' else 'mutton'}'",
                             field=bad)
        json_int(data, "version", default=1, lo=1, hi=1)
    json_bool(data, "passed", default=False)
    json_bool(data, "reveal", default=True)
    escaped = data.get("escaped", "")
    if isinstance(escaped, list):
        json_strings(escaped, "escaped")
    elif not isinstance(escaped, str):
        raise ParseError(f"field 'escaped' must be a string of letters, got {json_type(escaped)}")
    k = json_int(data, "wolves", default=None, lo=1, hi=13)
    k2 = json_int(data, "num_wolves", default=None, lo=1, hi=13)
    if k is not None and k2 is not None and k != k2:
        raise ParseError(f"fields 'wolves' ({k}) and 'num_wolves' ({k2}) disagree")
    if wolves is not None:
        return wolves
    found: int | None = k if k is not None else k2
    return found


def _json_record(data: dict[str, Any]) -> str:
    rec: str = json_str(data, "record")
    for key in ("escaped", "passed", "reveal"):
        if key in data:
            raise ParseError(f"field {quote(key)} is for charts: a 'record' already says it")
    return rec


def _json_chart(data: dict[str, Any], reveal: bool) -> Chart:
    """The chart of a JSON input that is not a record (`paste`, `chart` or the chart itself)."""
    rev = json_bool(data, "reveal", default=True) and reveal
    if "paste" in data:
        paste = json_str(data, "paste")
        try:
            return parse_chart(paste, reveal=rev)
        except ParseError as exc:
            raise in_field(exc, "paste") from None
    if "chart" in data:  # e.g. a puzzle file: {"wolves": 4, "chart": ...}
        inner = json_dict(data, "chart")
        inner_rev = json_bool(inner, "reveal", "chart", default=True)
        return chart_from_json(inner, reveal=rev and inner_rev, path="chart")
    return chart_from_json(data, reveal=rev)


def _letters(text: str) -> str:
    """`G,K` or `GK` -> `GK` (the `escaped` field)."""
    letters = "".join(ch for ch in text if ch not in " ,")
    for ch in letters:
        if not "A" <= ch <= "Z":
            raise ParseError(f"field 'escaped': {quote(ch)} is not an animal letter")
    return letters
