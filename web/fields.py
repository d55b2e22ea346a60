"""A request's input as typed values: a JSON object (the API) or a submitted form (the pages),
read with strict types and sizes, refusing anything else in one line.

JSON: text is a string, a whole number is an int (never a bool or a float), a flag is a bool,
a list of points is a list of strings; null means "not given". Forms: every value is text; a
checkbox is on when present; an empty number field means "not given". Unknown fields, repeated
fields, oversized bodies and text are refused, as the command line refuses unknown options.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl

from fleece.api.values import whole
from fleece.rules.errors import FleeceError

MAX_BODY = 256 * 1024  # bytes of one request body
MAX_TEXT = 100_000  # characters of one text field (a chart, an evidence file)
MAX_FIELDS = 64
MAX_INT = 10**18


class BadRequest(FleeceError):
    """A request whose fields are malformed: status 400 (`status` 413 when it is too big)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _show(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value)
    cut = text[:20]
    return repr(cut) + ("..." if len(text) > 20 else "")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise BadRequest(f"field {k[:30]!r} given twice")
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise BadRequest(f"invalid JSON: {name} is not a number")


class Fields:
    """The fields of one request; the readers return typed values or raise BadRequest."""

    def __init__(self, data: dict[str, Any], *, form: bool) -> None:
        self.data = data
        self.form = form
        self.used: set[str] = set()

    @classmethod
    def from_json(cls, body: bytes) -> Fields:
        """A JSON object body."""
        if not body.strip():
            return cls({}, form=False)
        try:
            data = json.loads(body.decode("utf-8"), object_pairs_hook=_no_duplicates,
                              parse_constant=_no_constant)
        except UnicodeDecodeError as exc:
            raise BadRequest(f"the body is not UTF-8 text (byte {exc.start})") from None
        except json.JSONDecodeError as exc:
            raise BadRequest(f"invalid JSON: line {exc.lineno}, column {exc.colno}: "
                             f"{exc.msg}") from None
        except RecursionError:
            raise BadRequest("invalid JSON: nested too deeply") from None
        except ValueError as exc:  # e.g. an integer past Python's digit limit
            raise BadRequest(f"invalid JSON: {str(exc)[:80]}") from None
        if not isinstance(data, dict):
            raise BadRequest("the body must be a JSON object of fields")
        if len(data) > MAX_FIELDS:
            raise BadRequest(f"too many fields ({len(data)})")
        return cls(data, form=False)

    @classmethod
    def from_form(cls, body: bytes, repeatable: Iterable[str] = ()) -> Fields:
        """An `application/x-www-form-urlencoded` body; `repeatable` fields collect lists."""
        try:
            text = body.decode("ascii")
            pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=False,
                              encoding="utf-8", errors="strict", max_num_fields=MAX_FIELDS)
        except UnicodeDecodeError:
            raise BadRequest("the form is not URL-encoded UTF-8 text") from None
        except ValueError:
            raise BadRequest(f"too many form fields (at most {MAX_FIELDS})") from None
        many = set(repeatable)
        data: dict[str, Any] = {}
        for k, v in pairs:
            if k in many:
                data.setdefault(k, []).append(v)
            elif k in data:
                raise BadRequest(f"field {k[:30]!r} given twice")
            else:
                data[k] = v
        return cls(data, form=True)

    def _get(self, name: str) -> Any:
        self.used.add(name)
        return self.data.get(name)

    def check_known(self, ignore: Iterable[str] = ()) -> None:
        """Refuse fields no reader asked for (a misspelt option is an error, not a no-op)."""
        extra = sorted(set(self.data) - self.used - set(ignore))
        if extra:
            known = ", ".join(sorted(self.used)) or "none"
            raise BadRequest(f"unknown field {extra[0][:30]!r} (known: {known})")

    def text(self, name: str, *, required: bool = False, limit: int = MAX_TEXT,
             strip_cr: bool = True) -> str | None:
        """A text field (at most `limit` characters); None when absent."""
        value = self._get(name)
        if value is None or (self.form and value == "" and not required):
            if required:
                raise BadRequest(f"{name}: missing (a text)")
            return None if value is None else ""
        if not isinstance(value, str):
            raise BadRequest(f"{name}: expected text, got {_show(value)}")
        if len(value) > limit:
            raise BadRequest(f"{name}: too long ({len(value)} characters, at most {limit})",
                             413)
        if "\x00" in value:
            raise BadRequest(f"{name}: contains a NUL character")
        return value.replace("\r\n", "\n") if strip_cr else value

    def whole(self, name: str, lo: int | None = None, hi: int | None = None,
              default: int | None = None) -> int | None:
        """A whole number in [lo, hi] (ASCII digits in a form; an int, not a bool, in JSON)."""
        value = self._get(name)
        if value is None or (self.form and value == ""):
            return default
        if self.form:
            text = value
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise BadRequest(f"{name}: expected a whole number, got {_show(value)}")
            if value < 0 or value > MAX_INT:
                text = str(value) if abs(value) < 10**30 else "a huge number"
                raise BadRequest(f"{name}: {text[:30]} is out of range")
            text = str(value)
        try:
            return whole(text, lo, hi)
        except ValueError as exc:
            raise BadRequest(f"{name}: {exc}") from None

    def flag(self, name: str) -> bool:
        """A yes/no field: a JSON bool, or a form checkbox (present and not 'off')."""
        value = self._get(name)
        if value is None:
            return False
        if self.form:
            if value in ("", "on", "1", "true", "yes"):
                return True
            if value in ("off", "0", "false", "no"):
                return False
            raise BadRequest(f"{name}: expected on or off, got {_show(value)}")
        if not isinstance(value, bool):
            raise BadRequest(f"{name}: expected true or false, got {_show(value)}")
        return value

    def choice(self, name: str, options: tuple[str, ...], default: str | None = None
               ) -> str | None:
        """One of `options` (case-insensitive)."""
        value = self._get(name)
        if value is None or (self.form and value == ""):
            return default
        if not isinstance(value, str) or value.strip().lower() not in options:
            raise BadRequest(f"{name}: {_show(value)} is not one of {', '.join(options)}")
        return value.strip().lower()

    def seconds(self, name: str, hi: float, default: float | None = None) -> float | None:
        """A positive number of seconds, at most `hi`."""
        value = self._get(name)
        if value is None or (self.form and value == ""):
            return default
        if self.form:
            t = str(value).strip()
            head, _, frac = t.partition(".")
            if not t.isascii() or not head.isdigit() or (frac and not frac.isdigit()) \
                    or len(t) > 12:
                raise BadRequest(f"{name}: {_show(value)} is not a number of seconds")
            number = float(t)
        else:
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise BadRequest(f"{name}: expected a number of seconds, got {_show(value)}")
            number = float(value)
        if not 0 < number <= hi:
            raise BadRequest(f"{name}: {number:g} is out of range (0 < seconds <= {hi:g})")
        return number

    def words(self, name: str, limit: int = 8) -> list[str]:
        """A list of short strings (repeated form fields, or a JSON list of strings)."""
        value = self._get(name)
        if value is None:
            return []
        items = value if isinstance(value, list) else None
        if items is None or not all(isinstance(v, str) for v in items):
            raise BadRequest(f"{name}: expected a list of strings")
        if len(items) > limit or any(len(v) > 40 for v in items):
            raise BadRequest(f"{name}: at most {limit} short strings")
        return [v for v in items if v != ""] if self.form else list(items)
