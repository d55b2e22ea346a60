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

from fleece.rules.errors import FleeceError, ParseError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any, NoReturn

Handler = Callable[[argparse.Namespace], int]

EXIT_OK = 0
EXIT_RESULT = 1  # an inconsistent position, a failed check: a result, not an error
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


class UsageError(FleeceError):
    """A command line that does not parse: unknown option, missing or malformed value."""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help as written: a literal `%` in a help text ("95% intervals") is shown as it is
    instead of breaking argparse's %-formatting (which made `-h` an internal error)."""

    def _expand_help(self, action: argparse.Action) -> str:
        try:
            return super()._expand_help(action)
        except (ValueError, TypeError, KeyError):
            return self._get_help_string(action) or ""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are a UsageError (one line, exit status 2) instead of a
    usage text, and whose subcommands are parsers of the same kind."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        self._checking = False
        super().__init__(*args, **kwargs)

    # argparse makes a help formatter for each add_argument (to check the metavar) and for
    # add_subparsers (to name the subcommands' prog); a formatter without a width asks the
    # terminal for one, importing shutil (and with it fnmatch, bz2, lzma). Neither use
    # depends on the width, so a command line that prints no help never asks.

    def add_argument(self, *args: Any, **kwargs: Any) -> Any:
        """argparse's add_argument; its metavar check formats with a fixed width."""
        self._checking = True
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._checking = False

    def _get_formatter(self) -> argparse.HelpFormatter:
        if self._checking:  # the metavar check: _format_args reads no width
            formatter: Any = self.formatter_class  # argparse's formatters all take a width
            return formatter(prog=self.prog, width=80)  # type: ignore[no-any-return]
        return super()._get_formatter()

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Refuse a NUL character in any argument first (no file name can hold one; a real
        command line cannot carry one, but main(argv) called from Python can)."""
        for word in args or ():
            if isinstance(word, str) and "\0" in word:
                raise UsageError(f"{self.prog}: argument {word[:40]!r} contains a NUL "
                                 "character")
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        """Raise instead of printing usage and exiting."""
        raise UsageError(f"{self.prog}: {message}")

    def commands(self, title: str = "commands") -> Commands:
        """The subcommands of this parser."""
        kwargs: dict[str, Any] = {}
        if (self.usage is None and not self._get_positional_actions()
                and self.prog == self.prog.strip() and "\n" not in self.prog):
            # what argparse would compute: the usage of this parser without its options and
            # with no positional argument, is the prog alone (formatted at any width)
            kwargs["prog"] = self.prog
        action = self.add_subparsers(title=title, metavar="COMMAND", parser_class=Parser,
                                     **kwargs)
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


MAX_SECONDS = 7 * 86400


def parse_seconds(text: str, limit: float, *, strip: bool = False) -> float:
    """A positive number of seconds up to `limit` (ASCII digits with an optional decimal
    fraction; surrounding blanks allowed with `strip`), else an ArgumentTypeError in one
    line: the one reader of every seconds option."""
    t = text.strip() if strip else text
    whole_part, _, frac = t.partition(".")
    if not t.isascii() or not whole_part.isdigit() or (frac and not frac.isdigit()):
        raise argparse.ArgumentTypeError(f"{text[:20]!r} is not a number of seconds")
    if len(whole_part.lstrip("0")) > 7 or len(frac) > 6:
        raise argparse.ArgumentTypeError(f"{t[:20]}{'...' if len(t) > 20 else ''} "
                                         "is far too large or too precise a number of seconds")
    value = float(t)
    if not 0 < value <= limit:
        raise argparse.ArgumentTypeError(f"{t} is out of range (0 < seconds <= {limit:g})")
    return value


def seconds(text: str) -> float:
    """An argparse `type` for a positive number of seconds (ASCII digits with an optional
    decimal fraction, at most a week)."""
    return parse_seconds(text, MAX_SECONDS)


LISTING_BUDGET = 15.0  # seconds: the csp and smt engines list every answer; fast has no limit


def solve_budget(engine: str, timeout: float | None) -> tuple[float | None, str]:
    """The time limit of a solve (`--timeout`, else LISTING_BUDGET for the listing engines,
    else none) and the hint a user reads when it runs out."""
    other = "" if engine == "fast" else "; --engine fast is exact at any size"
    if timeout is not None:
        return timeout, f"try a larger --timeout{other}"
    if engine == "fast":
        return None, ""
    return LISTING_BUDGET, (f"the {engine} engine stops after {LISTING_BUDGET:g} s unless "
                            f"--timeout says otherwise{other}")


def add_timeout(parser: argparse.ArgumentParser) -> None:
    """The `--timeout SECONDS` option of a solve command."""
    parser.add_argument("--timeout", type=seconds, default=None, metavar="SECONDS",
                        help="stop with no answer after this many seconds (exit status 1; "
                             f"default: no limit for fast, {LISTING_BUDGET:g} for csp and smt)")


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
    """Read a FILE argument (or `-` for standard input); return (text, name for messages).

    Files and standard input are read the same way: as bytes, at most MAX_INPUT_BYTES (more
    is an error, so `/dev/zero` cannot exhaust memory), then decoded as UTF-8 with an
    optional BOM (invalid UTF-8 is an error naming its line and column)."""
    from fleece.rules.text import MAX_INPUT_BYTES, decode_text

    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream (a test harness): the same limits on its text
            text = sys.stdin.read(MAX_INPUT_BYTES + 1)
            data = text.encode("utf-8", "surrogatepass") if len(text) <= MAX_INPUT_BYTES \
                else b"\0" * (MAX_INPUT_BYTES + 1)
        else:
            data = stream.read(MAX_INPUT_BYTES + 1)
        name = "<stdin>"
    else:
        p = Path(path)
        if p.is_dir():
            raise ParseError("is a directory, expected a text file", source=path)
        with p.open("rb") as handle:
            data = handle.read(MAX_INPUT_BYTES + 1)
        name = path
    return decode_text(data, name), name


def write_output(path: str, text: str, *, force: bool) -> None:
    """Write a file atomically (temporary file then rename); refuse to overwrite without
    force, and refuse a folder that does not exist (no silent mkdir)."""
    from fleece.rules.io import atomic_write

    atomic_write(Path(path), text, overwrite=force, make_parents=False)


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
