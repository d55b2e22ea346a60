"""The web API's typed requests and responses, as pydantic models.

A request model is strict (`true` is no number, `"yes"` no flag), frozen and refuses unknown
fields; its limits are `Field(...)` constraints, so the OpenAPI schema states them, and
`to_request()` gives the library's request dataclass (fleece.api). A JSON body is read by
fleece's own reader first (web.body: cap, UTF-8, repeated keys, NaN) and validated in
pydantic's JSON mode; a page's form is turned into the same model (web.models.from_form), so
a form and the API refuse the same values with the same one-line messages.

A response model is made from an api report dataclass (its JSON fields, in order; a key the
report may lack is optional): the schema of what the command line's `--json` prints.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Awaitable, Callable, Mapping
from typing import Annotated, Any, Literal, TypeVar

from annotated_types import Ge, Gt, Le
from fastapi.exceptions import RequestValidationError
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic_core import PydanticCustomError
from starlette.requests import Request

from fleece.api.report import ABSENT
from fleece.api.values import parse_seconds, whole
from fleece.web.body import BadRequest, parse_json_object, read_body

MAX_TEXT = 100_000  # characters of one text field (a chart, an evidence file)
MAX_INT = 10**18


def _no_nul(text: str) -> str:
    if "\x00" in text:
        raise PydanticCustomError("nul_character", "contains a NUL character")
    return text.replace("\r\n", "\n")


# Text fields: at most so many characters, no NUL, CRLF read as LF.
Text = Annotated[str, Field(max_length=MAX_TEXT), AfterValidator(_no_nul)]
ShortText = Annotated[str, Field(max_length=2000), AfterValidator(_no_nul)]
Line = Annotated[str, Field(max_length=200), AfterValidator(_no_nul)]
Word = Annotated[str, Field(max_length=40), AfterValidator(_no_nul)]


class RequestModel(BaseModel):
    """Base of every request model: strict types, frozen, unknown fields refused."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    def to_request(self, *args: Any, **kwargs: Any) -> Any:
        """The library's request dataclass of this body (some take the request's context:
        the budget, the puzzle)."""
        raise NotImplementedError


class ErrorBody(BaseModel):
    """Every refusal: one line saying what and where (`field: what is wrong`)."""

    error: str


M = TypeVar("M", bound=RequestModel)


# ---- one-line messages -------------------------------------------------------------------


def _show(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**30:
        return "a huge number"
    if isinstance(value, str):
        return repr(value[:20]) + ("..." if len(value) > 20 else "")
    text = json.dumps(value, default=str)
    return text[:20] + ("..." if len(text) > 20 else "")


def _bounds(model: type[BaseModel] | None, name: str) -> str:
    """A field's range as `lo..hi` (or `at least lo`), read from its constraints."""
    if model is None or name not in model.model_fields:
        return ""
    lo: Any = None
    hi: Any = None
    for m in model.model_fields[name].metadata:
        if isinstance(m, Ge):
            lo = m.ge
        elif isinstance(m, Gt):
            lo = f"more than {m.gt}"
        elif isinstance(m, Le):
            hi = m.le
    if hi is None:
        return f" (at least {lo})" if lo is not None else ""
    return f" ({lo}..{hi})"


def _choices(model: type[BaseModel] | None, name: str) -> list[str]:
    if model is None or name not in model.model_fields:
        return []
    annotation = model.model_fields[name].annotation
    for arg in (annotation, *typing.get_args(annotation)):
        if typing.get_origin(arg) is Literal:
            return [str(a) for a in typing.get_args(arg)]
    return []


def error_message(error: Mapping[str, Any], model: type[BaseModel] | None = None) -> str:
    """One pydantic (or FastAPI) validation error as the one line the web shows:
    `field: what is wrong`."""
    loc = [p for p in error.get("loc", ()) if p not in ("body", "query", "path")]
    name = str(loc[0]) if loc else ""
    where = name + "".join(f" item {int(p) + 1}" if isinstance(p, int) else f".{p}"
                           for p in loc[1:])
    kind = error.get("type", "")
    value = error.get("input")
    ctx = error.get("ctx") or {}
    if kind == "missing":
        return f"{where}: missing"
    if kind == "extra_forbidden":
        known = ", ".join(model.model_fields) if model is not None else ""
        return f"unknown field {name[:30]!r}" + (f" (known: {known})" if known else "")
    if kind in ("string_type", "string_unicode"):
        return f"{where}: expected text, got {_show(value)}"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"{where}: expected a whole number, got {_show(value)}"
    if kind in ("bool_type", "bool_parsing"):
        return f"{where}: expected true or false, got {_show(value)}"
    if kind in ("float_type", "float_parsing", "finite_number"):
        return f"{where}: expected a number, got {_show(value)}"
    if kind in ("tuple_type", "list_type"):
        return f"{where}: expected a list of strings"
    if kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        shown = _show(value) if not isinstance(value, int | float) or abs(value) >= 10**30 \
            else f"{value:g}" if isinstance(value, float) else str(value)
        return f"{where}: {shown.strip(chr(39))} is out of range{_bounds(model, name)}"
    if kind == "string_too_long":
        length = len(value) if isinstance(value, str) else "?"
        return f"{where}: too long ({length} characters, at most {ctx.get('max_length')})"
    if kind == "too_long":
        return f"{where}: at most {ctx.get('max_length')} items"
    if kind == "literal_error":
        options = _choices(model, name) or [str(ctx.get("expected", ""))]
        return f"{where}: {_show(value)} is not one of {', '.join(options)}"
    if kind == "json_invalid":
        return f"invalid JSON: {ctx.get('error', error.get('msg', ''))}"
    msg = str(error.get("msg", "is not valid"))
    return f"{where}: {msg[:1].lower()}{msg[1:]}" if where else msg


def refused(exc: ValidationError, model: type[BaseModel]) -> RequestValidationError:
    """A model's ValidationError as FastAPI's RequestValidationError, each error carrying its
    one-line message (`fleece_message`) worded with the model's fields and limits."""
    errors = [{**e, "loc": ("body", *e["loc"]), "fleece_message": error_message(e, model)}
              for e in exc.errors(include_url=False)]
    return RequestValidationError(errors)


def first_message(exc: RequestValidationError) -> str:
    """The one line of a RequestValidationError: its first error's message."""
    errors = list(exc.errors())
    if not errors:
        return "invalid request"
    first = errors[0]
    return str(first.get("fleece_message") or error_message(first))


# ---- reading a model -----------------------------------------------------------------------


def from_json(model: type[M], body: bytes) -> M:
    """The model of a JSON body (after fleece's strict parse); RequestValidationError."""
    parse_json_object(body)
    try:
        return model.model_validate_json(body if body.strip() else b"{}")
    except ValidationError as exc:
        raise refused(exc, model) from None


def json_body(model: type[M]) -> Callable[[Request], Awaitable[M]]:
    """A dependency reading the request's JSON body as `model`."""

    async def read(request: Request) -> M:
        return from_json(model, await read_body(request))

    read.__name__ = f"read_{model.__name__}"
    return read


def body_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI `requestBody` of a JSON route whose body a dependency reads; a body whose
    fields all have defaults may be left out (an empty body is `{}`)."""
    required = any(f.is_required() for f in model.model_fields.values())
    return {"requestBody": {"required": required, "content": {"application/json": {
        "schema": model.model_json_schema(ref_template="#/components/schemas/{model}")}}}}


def _kind(annotation: Any) -> Any:
    """The type a form's text becomes: int, float, bool, tuple or str."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and args:
        return _kind(args[0])
    if typing.get_origin(annotation) is Annotated:
        return _kind(args[0])
    if typing.get_origin(annotation) is tuple:
        return tuple
    if typing.get_origin(annotation) is Literal:
        return type(typing.get_args(annotation)[0])
    return annotation


def form_values(model: type[BaseModel], form: Mapping[str, str | list[str]]
                ) -> dict[str, Any]:
    """A form's text fields as the model's types (an empty field is not given; a checkbox is
    on when present; numbers in ASCII digits); BadRequest naming the field otherwise."""
    out: dict[str, Any] = {}
    for name, raw in form.items():
        field = model.model_fields.get(name)
        if field is None:
            out[name] = raw
            continue
        kind = _kind(field.annotation)
        if kind is tuple:
            items = raw if isinstance(raw, list) else [raw]
            out[name] = tuple(v for v in items if v != "")
            continue
        if isinstance(raw, list):
            raise BadRequest(f"field {name!r} given twice", field=name)
        if kind is bool:
            if raw in ("", "on", "1", "true", "yes"):
                out[name] = True
            elif raw in ("off", "0", "false", "no"):
                out[name] = False
            else:
                raise BadRequest(f"{name}: expected on or off, got {_show(raw)}", field=name)
            continue
        if raw == "":
            continue
        try:
            if kind is int:
                out[name] = whole(raw.strip())
            elif kind is float:
                out[name] = parse_seconds(raw, float(MAX_INT), strip=True)
            else:
                out[name] = raw
        except ValueError as exc:
            raise BadRequest(f"{name}: {exc}", field=name) from None
    return out


def from_form(model: type[M], form: Mapping[str, str | list[str]],
              ignore: tuple[str, ...] = ()) -> M:
    """The model of a page's form (`ignore`: the page's own fields, such as `action`)."""
    values = form_values(model, {k: v for k, v in form.items() if k not in ignore})
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        raise refused(exc, model) from None


# ---- response models -------------------------------------------------------------------------


def report_model(report: type[Any], name: str) -> type[BaseModel]:
    """The response model of an api report dataclass: its JSON fields in order, each with
    its type; a field whose key a result may lack (ABSENT) is optional."""
    hints = typing.get_type_hints(report)
    fields: dict[str, Any] = {}
    for f in dataclasses.fields(report):
        if not f.metadata.get("json", True):
            continue
        if f.default is ABSENT:
            fields[f.name] = (hints[f.name], Field(default=None, description=(
                "absent when the result has no such key")))
        elif f.default is not dataclasses.MISSING:
            fields[f.name] = (hints[f.name], Field(default=f.default))
        else:
            fields[f.name] = (hints[f.name], ...)
    doc = (report.__doc__ or "").strip()
    built: type[BaseModel] = create_model(name, __config__=ConfigDict(extra="forbid"),
                                          __doc__=doc, **fields)
    return built
