"""Typed errors shared by every game model and front end: bad input, illegal moves, budgets.

An error is a value: besides its message it carries where it points, in library terms -
`field` (the request field or option it concerns: `escaped`, `engine`, `max_states`),
`value` (the text that was refused), `source`, `line` and `column` (1-based, in a text
input), `limit` (a budget or bound that was passed). Each front end names these its own way
(the command line writes `--escaped`, a web form `escaped`); nobody parses a message to find
where it points. `str(error)` is the message with its location in the text (`source, line L,
column C: ...`), as the command line prints it.
"""

from __future__ import annotations

from collections.abc import Callable


class FleeceError(Exception):
    """Base class of every error fleece reports to a user as a one-line message."""

    def __init__(self, message: str, *, field: str | None = None, value: str | None = None,
                 line: int | None = None, column: int | None = None,
                 source: str | None = None, limit: object = None) -> None:
        self.message = message
        self.field = field
        self.value = value
        self.line = line
        self.column = column
        self.source = source
        self.limit = limit
        super().__init__(message)

    def where(self, name: Callable[[str], str] | None = None) -> str:
        """Where the error points: `source, line L, column C` (the parts known), or the field
        as `name` writes it (and the refused value) when the error concerns a field; ''."""
        parts = []
        if self.source is not None:
            parts.append(self.source)
        elif self.field is not None and name is not None:
            parts.append(name(self.field) + (f" {self.value}" if self.value is not None
                                             else ""))
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        return ", ".join(parts)

    def text(self, name: Callable[[str], str] = str) -> str:
        """The one-line message with its location, the field written by `name` (the command
        line passes `--max-states` for `max_states`, the web the field itself)."""
        where = self.where(name)
        return f"{where}: {self.message}" if where else self.message

    def __str__(self) -> str:
        return self.text()

    def located(self, source: str) -> FleeceError:
        """The same error naming the file, field or stream (`-`) its text came from."""
        copy = self.__class__.__new__(self.__class__)
        copy.__dict__.update(self.__dict__)
        Exception.__init__(copy, self.message)
        copy.source = source
        return copy

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled with every field (errors cross the web's worker boundary)."""
        return (_rebuild, (self.__class__, self.__dict__.copy()))


def _rebuild(cls: type[FleeceError], state: dict[str, object]) -> FleeceError:
    error = cls.__new__(cls)
    error.__dict__.update(state)
    Exception.__init__(error, state.get("message", ""))
    return error


class RulesError(FleeceError, ValueError):
    """A rule-set option is out of range or inconsistent (for example 30 sheep)."""


class IllegalMoveError(FleeceError):
    """A move that the rules do not allow in the current state; the state is left unchanged."""


class ParseError(FleeceError, ValueError):
    """Malformed text input, with its location (source, 1-based line and column) when known."""

    def __init__(self, message: str, *, line: int | None = None, column: int | None = None,
                 source: str | None = None, field: str | None = None,
                 value: str | None = None) -> None:
        super().__init__(message, line=line, column=column, source=source, field=field,
                         value=value)


class BudgetExceeded(FleeceError):
    """A computation would pass a size budget the caller set (`limit` of `what`: deals,
    chain states, positions): refused before or while it runs, since the budget is part of
    the request. `field` names the request field that sets the budget (`max_states`)."""

    def __init__(self, what: str, limit: int, *, field: str | None = None,
                 detail: str | None = None) -> None:
        self.what = what
        message = detail or f"more than {limit} {what}"
        super().__init__(message, field=field, limit=limit)

    def text(self, name: Callable[[str], str] = str) -> str:
        """The message and, when a request field sets the budget, which one to raise."""
        return self.message + (f" (raise {name(self.field)})" if self.field else "")


class Stopped(FleeceError):
    """A search stopped by its time budget before it had an answer: neither a result nor bad
    input (the command line prints `fleece: stopped: ...` and exits with status 1)."""
