"""The `fleece` command line: a thin Typer layer that parses options, calls the packages and
formats their results. Heavy libraries (z3, python-constraint) are imported inside the commands
that need them so that start-up stays fast.

Errors: bad input (fleece's typed errors, unreadable files) prints one line `fleece: error: ...`
naming what and where, and exits with status 2; never a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import typer

from rules.errors import FleeceError, ParseError

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


class _App(typer.Typer):
    """Typer app that turns fleece's typed errors into a one-line message and exit status 2."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except FleeceError as exc:
            _die(str(exc))
        except OSError as exc:
            name = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            _die(f"{name}{exc.strerror or exc}")
        except KeyboardInterrupt:
            sys.stderr.write("fleece: interrupted\n")
            sys.exit(130)
        except Exception as exc:  # an internal bug: one line unless debugging is asked for
            if os.environ.get("FLEECE_DEBUG"):
                raise
            sys.stderr.write(
                f"fleece: internal error: {type(exc).__name__}: {exc} "
                "(set FLEECE_DEBUG=1 for a traceback)\n"
            )
            sys.exit(EXIT_INTERNAL)


def _die(message: str) -> None:
    sys.stderr.write(f"fleece: error: {message}\n")
    sys.exit(EXIT_BAD_INPUT)


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
    """Write a file atomically (temporary file then rename); refuse to overwrite without force."""
    from rules.io import atomic_write

    atomic_write(Path(path), text, overwrite=force)


app = _App(
    name="fleece",
    help="Solve, generate and verify 'wolf in sheep's clothing' deduction games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
mutton_app = typer.Typer(help="Mutton: board, game records, tracking charts.", no_args_is_help=True)
app.add_typer(mutton_app, name="mutton")

# ---- mutton commands -------------------------------------------------------------------------
# Engineers: read CONTRIBUTING.md first (edit only your own block here, commit only your own
# paths by name, never README/pyproject/.ci, lazy z3/constraint imports).

# ---- woof commands ---------------------------------------------------------------------------

# ---- verify ----------------------------------------------------------------------------------


if __name__ == "__main__":  # pragma: no cover
    app()
