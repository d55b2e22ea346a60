"""Reading untrusted text the same way in every parser: lines, whole numbers, JSON.

- `split_lines`: only `\\n` and `\\r\\n` end a line, so line numbers agree with what editors
  show (str.splitlines also breaks at form feeds, U+2028 and other separators).
- `whole_number`: ASCII digits only, with a digit limit, so no other script's digits and no
  Python int-conversion limit ever reach a parser's caller.
- `decode_text`: bytes to text (a UTF-8 BOM is dropped; invalid UTF-8 is a located error),
  `MAX_INPUT_BYTES` the size cap every reader applies.
- `load_json` with depth, size and number limits, and the typed field readers `json_*`
  whose errors name the field (`'chart.rows[2].round' must be a whole number, got a string`).
- `quote`: a short, bounded rendering of a user's token for an error message.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TypeVar

from fleece.rules.errors import ParseError

MAX_INPUT_BYTES = 10 * 1024 * 1024  # largest text file or standard input fleece reads
MAX_JSON_DEPTH = 32  # nesting of arrays and objects; fleece's own JSON needs 4
MAX_JSON_DIGITS = 30  # digits of a JSON number
DEFAULT_MAX_DIGITS = 9  # digits of a whole number in a text format (counts, seeds, rounds)

T = TypeVar("T")


# ---- lines and tokens --------------------------------------------------------------------------


def split_lines(text: str) -> list[str]:
    """The lines of `text`: only `\\n` and `\\r\\n` break lines (a final line break does not
    start an empty line); every other character, U+2028 and form feed included, stays in its
    line for the parser to accept or refuse."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def quote(token: str, limit: int = 30) -> str:
    """`'token'` for an error message, cut to `limit` characters (`'abc...'`)."""
    short = token if len(token) <= limit else token[:limit] + "..."
    return f"'{short}'"


def is_ascii_digits(text: str) -> bool:
    """True when `text` is one or more of the ASCII digits 0-9 (no sign, no underscore, no
    other script's digits)."""
    return bool(text) and text.isascii() and text.isdigit()


def whole_number(text: str, what: str, *, lo: int | None = None, hi: int | None = None,
                 max_digits: int = DEFAULT_MAX_DIGITS, line: int | None = None,
                 column: int | None = None) -> int:
    """A whole number written with ASCII digits only, within [lo, hi]; ParseError naming
    `what` and the place otherwise (never Python's int-conversion limit)."""
    if not is_ascii_digits(text):
        raise ParseError(f"{what} must be a whole number (digits 0-9), got {quote(text)}",
                         line=line, column=column)
    if len(text.lstrip("0")) > max_digits:
        raise ParseError(f"{what} has {len(text)} digits: far too large", line=line,
                         column=column)
    value = int(text)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"{lo}..{hi}" if lo is not None and hi is not None else \
            f"at least {lo}" if lo is not None else f"at most {hi}"
        raise ParseError(f"{what} must be {span}, got {value}", line=line, column=column)
    return value


# ---- bytes to text ------------------------------------------------------------------------------


def decode_text(data: bytes, source: str | None = None) -> str:
    """UTF-8 text of `data` (a leading BOM dropped); ParseError naming the line and column of
    the first invalid byte, or when `data` is larger than MAX_INPUT_BYTES."""
    if len(data) > MAX_INPUT_BYTES:
        raise ParseError(f"larger than {MAX_INPUT_BYTES // (1024 * 1024)} MB: not a fleece "
                         "input", source=source)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        before = data[:exc.start]
        line = before.count(b"\n") + 1
        start = before.rfind(b"\n") + 1
        column = len(before[start:].decode("utf-8", "replace")) + 1
        raise ParseError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})", line=line,
                         column=column, source=source) from None


# ---- JSON ----------------------------------------------------------------------------------------


def _json_depth_ok(text: str, limit: int) -> tuple[bool, int]:
    """(False, offset) at the first bracket nested deeper than `limit` (strings skipped)."""
    depth = 0
    in_string = False
    escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return False, i
        elif ch in "]}":
            depth -= 1
    return True, -1


def _location(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _no_constant(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-").lstrip("0")) > MAX_JSON_DIGITS:
        raise ValueError(f"a number with {len(text)} digits is far too large")
    return int(text)


def _bounded_float(text: str) -> float:
    if len(text) > MAX_JSON_DIGITS + 10:
        raise ValueError(f"a number of {len(text)} characters is far too long")
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large for a number")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key {quote(key)} appears twice in one object")
        out[key] = value
    return out


def load_json(text: str, *, source: str | None = None, depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON input strictly: at most `depth` nested arrays/objects, MAX_INPUT_BYTES of
    text, numbers of at most MAX_JSON_DIGITS digits, no NaN/Infinity, no repeated key.
    Every failure is a ParseError with the line and column (never a RecursionError)."""
    import json  # here, not at the top: reading a pasted chart needs no JSON (start-up)

    if len(text) > MAX_INPUT_BYTES:
        raise ParseError("JSON text larger than 10 MB", source=source)
    ok, at = _json_depth_ok(text, depth)
    if not ok:
        line, column = _location(text, at)
        raise ParseError(f"JSON nested deeper than {depth} levels", line=line, column=column,
                         source=source)
    try:
        return json.loads(text, parse_int=_bounded_int, parse_float=_bounded_float,
                          parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise ParseError(f"invalid JSON: {exc.msg}", line=exc.lineno, column=exc.colno,
                         source=source) from None
    except (ValueError, RecursionError) as exc:
        raise ParseError(f"invalid JSON: {exc}", source=source) from None


# ---- typed JSON fields ---------------------------------------------------------------------


class _Missing:
    """Marks a field without a default (required)."""


MISSING: Any = _Missing()


def json_type(value: object) -> str:
    """The JSON name of a value's type, for messages (`a string`, `true`, `a number`)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _field(data: dict[str, Any], key: str, path: str, default: Any,
           check: Callable[[Any], bool], want: str) -> Any:
    name = f"{path}.{key}" if path else key
    if key not in data or (data[key] is None and default is not MISSING):
        if default is MISSING:
            raise ParseError(f"missing field {quote(name, 40)} ({want})")
        return default
    value = data[key]
    if not check(value):
        raise ParseError(f"field {quote(name, 40)} must be {want}, got {json_type(value)}")
    return value


def json_object(value: Any, name: str) -> dict[str, Any]:
    """`value` when it is a JSON object, else a ParseError naming `name`."""
    if not isinstance(value, dict):
        what = quote(name, 40) if name else "the JSON input"
        raise ParseError(f"{what} must be an object, got {json_type(value)}")
    return value


def json_int(data: dict[str, Any], key: str, path: str = "", *, default: Any = MISSING,
             lo: int | None = None, hi: int | None = None) -> Any:
    """An integer field (a boolean is not a number), within [lo, hi]."""
    value = _field(data, key, path, default,
                   lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number")
    if isinstance(value, int) and not isinstance(value, bool) and (
            (lo is not None and value < lo) or (hi is not None and value > hi)):
            name = f"{path}.{key}" if path else key
            span = f"{lo}..{hi}" if lo is not None and hi is not None else \
                f"at least {lo}" if lo is not None else f"at most {hi}"
            raise ParseError(f"field {quote(name, 40)} must be {span}, got {value}")
    return value


def json_bool(data: dict[str, Any], key: str, path: str = "", *, default: Any = MISSING) -> Any:
    """A boolean field (true or false; "false" is a string, not a boolean)."""
    return _field(data, key, path, default, lambda v: isinstance(v, bool), "true or false")


def json_str(data: dict[str, Any], key: str, path: str = "", *, default: Any = MISSING) -> Any:
    """A string field."""
    return _field(data, key, path, default, lambda v: isinstance(v, str), "a string")


def json_list(data: dict[str, Any], key: str, path: str = "", *, default: Any = MISSING) -> Any:
    """A list field."""
    return _field(data, key, path, default, lambda v: isinstance(v, list), "a list")


def json_dict(data: dict[str, Any], key: str, path: str = "", *, default: Any = MISSING) -> Any:
    """An object field."""
    return _field(data, key, path, default, lambda v: isinstance(v, dict), "an object")


def json_strings(values: Sequence[Any], name: str) -> list[str]:
    """Every element of a list is a string (ParseError naming `name[i]`)."""
    for i, v in enumerate(values):
        if not isinstance(v, str):
            raise ParseError(f"field {quote(f'{name}[{i}]', 40)} must be a string, got "
                             f"{json_type(v)}")
    return list(values)


def shifted(exc: ParseError, column: int, line: int | None = None) -> ParseError:
    """An error from parsing a piece of text that starts at `column` (1-based) of a line:
    the same error with its column counted on that line, and that line's number."""
    return ParseError(exc.message, line=line, column=(exc.column or 1) + column - 1)


def in_field(exc: ParseError, name: str) -> ParseError:
    """An error inside text embedded in a JSON string field, naming the field: `field 'paste',
    line 2, column 9: ...` (the line and column count inside the field's text)."""
    where = [f"field {quote(name, 40)}"]
    if exc.line is not None:
        where.append(f"line {exc.line}")
    if exc.column is not None:
        where.append(f"column {exc.column}")
    return ParseError(f"{', '.join(where)}: {exc.message}", source=exc.source)


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Printable by Unicode's rules, yet drawn as nothing: Hangul fillers and the blank Braille cell.
_INVISIBLE = frozenset({0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800})


def escape(text: str) -> str:
    """`text` with every control, format, separator, combining or otherwise invisible
    character written as an escape (`\\n`, `\\x1b`, `\\u2028`), so a message is one
    visible line whatever a file name or a user's token contains."""
    import unicodedata

    out = []
    for ch in text:
        code = ord(ch)
        if ch == " " or (ch.isprintable() and code not in _INVISIBLE
                         and unicodedata.category(ch) not in ("Mn", "Me")):
            out.append(ch)
        elif ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "".join(out)
