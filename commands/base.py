"""What every command module shares: exit statuses, fleece's strict readers of option values
(Typer `parser=` functions), reading and writing the user's files, and printing results.

Each command module is a `typer.Typer()` app whose commands are short typed functions: build
the `fleece.api` request from the options, call the API, print, return the exit status.
Errors are raised (FleeceError from the library, typer.BadParameter from a reader) and
printed as one line by fleece.cli.main.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from fleece.api.values import MAX_SECONDS, parse_seconds, whole
from fleece.rules.errors import ParseError, Stopped

__all__ = ["MAX_SECONDS", "parse_seconds", "whole"]

def new_app(help: str) -> typer.Typer:
    """A command group: plain help text (no rich boxes), no completion options of its own
    (the top level has them); named without a command it is a usage error."""
    return typer.Typer(help=help, rich_markup_mode=None,
                       add_completion=False, pretty_exceptions_enable=False)


EXIT_OK = 0
EXIT_RESULT = 1  # an inconsistent position, a failed check, a stopped search: a result
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130  # stopped by Ctrl-C; a command may print what it has first

def finish(ok: bool) -> int:
    """The end of a command whose result may be a failure (an inconsistent chart, a failed
    check, a search without an answer): exit status 0, or typer.Exit(1), which Typer's own
    runner and fleece.cli.main both turn into exit status 1."""
    if not ok:
        raise typer.Exit(EXIT_RESULT)
    return EXIT_OK


# ---- option values ------------------------------------------------------------------------

def int_in(lo: int | None = None, hi: int | None = None) -> Callable[[Any], int]:
    """A Typer `parser=` for a whole number in [lo, hi] (see `whole`): Typer's own int type
    calls int(), which takes `1_000`, `+4` and other scripts' digits."""

    def convert(text: Any) -> int:
        if isinstance(text, int):  # a default value, already a number
            return text
        try:
            return whole(str(text), lo, hi)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None

    convert.__name__ = "N"
    return convert


def seconds_in(limit: float = MAX_SECONDS, *, strip: bool = False) -> Callable[[Any], float]:
    """A Typer `parser=` for a positive number of seconds up to `limit`."""

    def convert(text: Any) -> float:
        if isinstance(text, float | int):
            return float(text)
        try:
            return parse_seconds(str(text), limit, strip=strip)
        except ValueError as exc:
            raise typer.BadParameter(str(exc)) from None

    convert.__name__ = "seconds"
    return convert


E = TypeVar("E", bound=Enum)


def choice(enum: type[E]) -> dict[str, Any]:
    """The Typer option settings of an enum's choices: the values as the metavar, completion
    of them, and a reader that takes any case and refuses anything else in fleece's words
    (`'sideways' is not one of winner-first, loser-first, random`, as the web says it)."""
    values = [str(e.value) for e in enum]

    def convert(text: Any) -> E:
        if isinstance(text, enum):
            return text
        low = str(text).strip().lower()
        for e in enum:
            if e.value == low:
                return e
        raise typer.BadParameter(f"{str(text)[:30]!r} is not one of {', '.join(values)}")

    convert.__name__ = enum.__name__
    return {"parser": convert, "metavar": "[" + "|".join(values) + "]",
            "autocompletion": names(*values)}


def names(*choices: str) -> Callable[[str], list[str]]:
    """A Typer `autocompletion=`: the choices that start with what was typed."""

    def complete(incomplete: str) -> list[str]:
        return [c for c in choices if c.startswith(incomplete)]

    return complete


ENGINE_HELP = "fast | csp | smt"
complete_engine = names("fast", "csp", "smt")
complete_deck = names("wolf", "pairs:")


def engine_name(text: Any) -> str:
    """A Typer `parser=` for --engine: the name as given (the library checks it and says
    which engines there are, naming the option)."""
    return str(text)


# ---- puzzle packs ----------------------------------------------------------------------------

PackOut = Annotated[str, typer.Option(
    help="folder for NNN.txt, NNN.json, NNN.solution.txt", show_default=False)]
PackCount = Annotated[int, typer.Option(parser=int_in(1, 10_000), help="how many puzzles")]
PackGrade = Annotated[str, typer.Option(help="easy | medium | hard",
                                        autocompletion=names("easy", "medium", "hard"))]
PackSeed = Annotated[int, typer.Option(parser=int_in(0),
                                       help="seed: the same seed gives the same puzzles")]
PackForce = Annotated[bool, typer.Option(
    "--force", help="replace a pack already in --out (other files are never touched)")]
PackJson = Annotated[bool, typer.Option("--json", help="print what was written as JSON")]


def generate_pack(what: str, unit: str, request: Any, generate: Any, json: bool) -> int:
    """Generate a puzzle pack with a progress bar (`what` puzzles, attempts in `unit`s) and
    say what was written."""
    from fleece.solver.puzzles.core import Grade
    from fleece.solver.puzzles.pool import progress_bar

    label = f"{Grade.parse(request.grade).label} {what}"
    with progress_bar(label, request.count, unit) as progress:
        report = generate(request, progress)
    if json:
        print_json(report)
    else:
        echo(f"wrote {report.count} {report.grade} {what} to {report.out}")
    return EXIT_OK


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


def write_output(path: str, text: str, *, force: bool, what: str = "") -> None:
    """Write a file atomically (temporary file then rename, honouring the umask); refuse to
    overwrite without force, and a folder that does not exist (no silent mkdir); then say on
    standard error what was written."""
    from fleece.rules.io import atomic_write

    atomic_write(Path(path), text, overwrite=force, make_parents=False)
    note(f"wrote {path}" + (f" ({what})" if what else ""))


def note(text: str) -> None:
    """A line for the user on standard error (standard output stays the result)."""
    sys.stderr.write(f"fleece: {text}\n")


def echo(text: str = "", *, end: str = "\n") -> None:
    """Print to standard output."""
    sys.stdout.write(text + end)


def print_json(data: Any) -> None:
    """Print one JSON document (indented) to standard output: a report's `to_json()`."""
    import json

    echo(json.dumps(data.to_json() if hasattr(data, "to_json") else data, indent=2))


@contextmanager
def stopped_as_json(json: bool) -> Iterator[None]:
    """With --json, a search stopped by its budget still prints one JSON object on standard
    output (`{"stopped": true, "reason": ..., "limit": ...}`) before its one-line message."""
    try:
        yield
    except Stopped as exc:
        if json:
            from fleece.api.report import StoppedReport

            limit = exc.limit if isinstance(exc.limit, int | float) else None
            print_json(StoppedReport(reason=exc.message, limit=limit))
        raise


@contextmanager
def progress_bar(label: str, total: int | None, unit: str) -> Iterator[Callable[[int], None]]:
    """A transient rich progress bar on standard error when it is a terminal (rich is loaded
    only then); `tick(done)` updates it."""
    if not sys.stderr.isatty():
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed} " + unit),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM stops long work the way Ctrl-C does (a search ends cleanly and saves its
    checkpoint): runs started in the background, where Ctrl-C cannot reach them, are
    stopped with `kill`. Only the main thread can set a signal handler."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)
