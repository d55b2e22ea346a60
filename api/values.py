"""Readers of option values shared by the command line and the web: whole numbers in ASCII
digits within a range, and numbers of seconds. Python's int() would take `1_000`, `+4` and
other scripts' digits; these readers take exactly what a user means by a number."""

from __future__ import annotations

MAX_DIGITS = 18  # whole numbers on the command line stay far below this


def whole(text: str, lo: int | None = None, hi: int | None = None) -> int:
    """A whole number written with ASCII digits only (no sign, underscore or other script),
    within [lo, hi]; ValueError saying what is wrong."""
    if not text or not text.isascii() or not text.isdigit():
        raise ValueError(f"{text[:20]!r} is not a whole number")
    if len(text.lstrip("0")) > MAX_DIGITS:
        raise ValueError(f"{text[:20]}... is far too large")
    value = int(text)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        span = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise ValueError(f"{value} is out of range ({span})")
    return value


MAX_SECONDS = 7 * 86400


def parse_seconds(text: str, limit: float, *, strip: bool = False) -> float:
    """A positive number of seconds up to `limit` (ASCII digits with an optional decimal
    fraction; surrounding blanks allowed with `strip`), else ValueError in one line: the one
    reader of every seconds option."""
    t = text.strip() if strip else text
    whole_part, _, frac = t.partition(".")
    if not t.isascii() or not whole_part.isdigit() or (frac and not frac.isdigit()):
        raise ValueError(f"{text[:20]!r} is not a number of seconds")
    if len(whole_part.lstrip("0")) > 7 or len(frac) > 6:
        raise ValueError(f"{t[:20]}{'...' if len(t) > 20 else ''} "
                         "is far too large or too precise a number of seconds")
    value = float(t)
    if not 0 < value <= limit:
        raise ValueError(f"{t} is out of range (0 < seconds <= {limit:g})")
    return value
