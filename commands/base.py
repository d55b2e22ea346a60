"""What every command module shares: argument parsing that reports errors in one line, typed
option values, and reading and writing the user's files.

Commands are plain argparse: each command module has `build(parser)`, which adds its
subcommands, each with a handler `handler(args) -> int` (the exit status). argparse is in the
standard library and imports in a few milliseconds, so the command line starts fast; heavy
modules are imported inside the handlers that need them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from fleece.rules.errors import FleeceError, ParseError

Handler = Callable[[argparse.Namespace], int]

EXIT_OK = 0
EXIT_RESULT = 1  # an inconsistent position, a failed check: a result, not an error
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


class UsageError(FleeceError):
    """A command line that does not parse: unknown option, missing or malformed value."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a UsageError (one line, exit status 2) instead of a
    usage text, and whose subcommands are parsers of the same kind."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Raise instead of printing usage and exiting."""
        raise UsageError(f"{self.prog}: {message}")

    def commands(self, title: str = "commands") -> Commands:
        """The subcommands of this parser."""
        action = self.add_subparsers(title=title, metavar="COMMAND", parser_class=Parser)
        action.required = True
        return Commands(action)


class Commands:
    """Adds subcommands: `add(name, handler, help)` returns the new command's parser."""

    def __init__(self, action: Any) -> None:
        self._action = action

    def add(self, name: str, handler: Handler | None, help: str,
            description: str | None = None) -> Parser:
        """A subcommand; `handler` None makes a group (give it `.commands()`)."""
        parser: Parser = self._action.add_parser(name, help=help,
                                                 description=description or help)
        if handler is not None:
            parser.set_defaults(handler=handler)
        return parser


# ---- option values ------------------------------------------------------------------------

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


def int_in(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An argparse `type` for a whole number in [lo, hi] (see `whole`)."""

    def convert(text: str) -> int:
        try:
            return whole(text, lo, hi)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = "whole number"
    return convert


def choice(*names: str) -> Callable[[str], str]:
    """An argparse `type` accepting one of `names` (case-insensitive)."""

    def convert(text: str) -> str:
        low = text.strip().lower()
        if low not in names:
            raise argparse.ArgumentTypeError(
                f"{text[:30]!r} is not one of {', '.join(names)}")
        return low

    convert.__name__ = "choice"
    return convert


# ---- files ---------------------------------------------------------------------------------


def read_input(path: str) -> tuple[str, str]:
    """Read a FILE argument (or `-` for standard input); return (text, name for messages)."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    p = Path(path)
    if p.is_dir():
        raise ParseError("is a directory, expected a text file", source=path)
    try:
        return p.read_text(encoding="utf-8-sig"), path
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 text (byte {exc.start})", source=path) from None


def write_output(path: str, text: str, *, force: bool) -> None:
    """Write a file atomically (temporary file then rename); refuse to overwrite without
    force."""
    from fleece.rules.io import atomic_write

    atomic_write(Path(path), text, overwrite=force)


def echo(text: str = "", *, end: str = "\n") -> None:
    """Print to standard output."""
    sys.stdout.write(text + end)


def print_json(data: object) -> None:
    """Print one JSON document (indented) to standard output."""
    import json

    echo(json.dumps(data, indent=2))


def console(*, stderr: bool = False, **kwargs: Any) -> Any:
    """A rich Console (rich is imported only by commands that print tables or bars)."""
    from rich.console import Console

    return Console(stderr=stderr, **kwargs)
