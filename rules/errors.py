"""Typed errors shared by every game model: bad input and illegal moves."""

from __future__ import annotations


class FleeceError(Exception):
    """Base class of every error fleece reports to a user as a one-line message."""


class RulesError(FleeceError, ValueError):
    """A rule-set option is out of range or inconsistent (for example 30 sheep)."""


class IllegalMoveError(FleeceError):
    """A move that the rules do not allow in the current state; the state is left unchanged."""


class ParseError(FleeceError, ValueError):
    """Malformed text input, with its location (source, 1-based line and column) when known."""

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        source: str | None = None,
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.source = source
        super().__init__(self.__str__())

    def located(self, source: str) -> ParseError:
        """Return the same error naming the file (or `-`) it came from."""
        return ParseError(self.message, line=self.line, column=self.column, source=source)

    def __str__(self) -> str:
        where = []
        if self.source is not None:
            where.append(self.source)
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.column is not None:
            where.append(f"column {self.column}")
        return f"{', '.join(where)}: {self.message}" if where else self.message
