"""What every report of the library API shares: `to_json()` from the dataclass's fields.

A report's fields are the keys of its JSON object, in order, with JSON-ready values (numbers,
strings, lists, dicts). A key that a result does not have (the unsat core of a consistent
chart) is a field left at ABSENT, which `to_json()` leaves out. Fields whose metadata says
`json=False` carry the library values behind a report (for text and page views) and are not
part of the JSON object.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

R = TypeVar("R", bound="Report")


class _Absent:
    """The value of a report field whose key this result does not have."""

    _instance: _Absent | None = None

    def __new__(cls) -> _Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ABSENT"

    def __reduce__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


def detail(default: Any = None) -> Any:
    """A field holding library values behind a report, not part of its JSON object."""
    return field(default=default, compare=False, repr=False, metadata={"json": False})


@dataclass(frozen=True, kw_only=True)
class Report:
    """Base of every report: `to_json()` is its fields (ABSENT ones left out) in order."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this report (what the command's `--json` prints)."""
        out: dict[str, Any] = {}
        for f in fields(self):
            if not f.metadata.get("json", True):
                continue
            value = getattr(self, f.name)
            if value is not ABSENT:
                out[f.name] = value
        return out

    @classmethod
    def json_keys(cls) -> tuple[str, ...]:
        """Every key the JSON object can have, in order."""
        return tuple(f.name for f in fields(cls) if f.metadata.get("json", True))

    @classmethod
    def from_json(cls: type[R], data: Mapping[str, Any], **details: Any) -> R:
        """The report of a JSON object made by the solver (`details`: the json=False fields).
        A key the report does not declare is a bug (TypeError), so the two cannot drift."""
        extra = [k for k in data if k not in cls.json_keys()]
        if extra:
            raise TypeError(f"{cls.__name__} has no field for the keys {extra}")
        return cls(**data, **details)


@dataclass(frozen=True, kw_only=True)
class StoppedReport(Report):
    """A search stopped by its time budget before it had an answer (exit status 1): what a
    command's `--json` prints then, so that every result is one JSON object."""

    stopped: bool = True
    reason: str
    limit: float | int | None = None
