"""Reading a request's body before any model sees it: the size cap, UTF-8, and a JSON parse
stricter than FastAPI's own (a repeated key, NaN or Infinity, a number past Python's digit
limit are refused, where `json.loads` lets the last key win and reads NaN); or a submitted
form as its fields. Every refusal is a BadRequest: one line, status 400 (413 past the cap).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import parse_qsl

from starlette.requests import Request

from fleece.rules.errors import FleeceError

MAX_BODY = 256 * 1024  # bytes of one request body
MAX_FIELDS = 64  # fields of one JSON object or form


class BadRequest(FleeceError):
    """A request whose body or fields are malformed: status 400 (`status` 413 when it is
    too big)."""

    def __init__(self, message: str, status: int = 400, *, field: str | None = None) -> None:
        super().__init__(message, field=field)
        self.status = status

    def text(self, name: Any = str) -> str:
        """The message as it is (a body error names its field itself)."""
        return self.message


async def read_body(request: Request) -> bytes:
    """The request body, refused (413) past MAX_BODY bytes without reading the rest."""
    too_large = BadRequest(f"the body is too large (at most {MAX_BODY} bytes)", 413)
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared[:12]) > MAX_BODY):
        raise too_large
    chunks = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > MAX_BODY:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise BadRequest(f"field {k[:30]!r} given twice", field=k[:30])
        out[k] = v
    return out


def _no_constant(name: str) -> Any:
    raise BadRequest(f"invalid JSON: {name} is not a number")


def parse_json_object(body: bytes) -> dict[str, Any]:
    """A JSON object body (no body at all is `{}`; white space alone is not JSON): UTF-8, no
    repeated key, no NaN, at most MAX_FIELDS fields."""
    if not body:
        return {}
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
    return data


def parse_form(body: bytes, repeatable: Iterable[str] = ()) -> dict[str, str | list[str]]:
    """An `application/x-www-form-urlencoded` body: each field's text, `repeatable` fields
    as lists; a field given twice otherwise is refused."""
    try:
        text = body.decode("ascii")
        pairs = parse_qsl(text, keep_blank_values=True, strict_parsing=False,
                          encoding="utf-8", errors="strict", max_num_fields=MAX_FIELDS)
    except UnicodeDecodeError:
        raise BadRequest("the form is not URL-encoded UTF-8 text") from None
    except ValueError:
        raise BadRequest(f"too many form fields (at most {MAX_FIELDS})") from None
    many = set(repeatable)
    data: dict[str, str | list[str]] = {}
    for k, v in pairs:
        if k in many:
            listed = data.setdefault(k, [])
            assert isinstance(listed, list)
            listed.append(v)
        elif k in data:
            raise BadRequest(f"field {k[:30]!r} given twice", field=k[:30])
        else:
            data[k] = v
    return data
