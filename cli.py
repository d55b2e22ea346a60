"""The `fleece` command: finds the command group, loads only that group's module, and turns
every error into one line and an exit status.

Groups come from the game registry (fleece.rules.registry: one per game) and from TOOLS
below. `fleece --help` lists them without importing any of them, so start-up costs little
more than the interpreter's own. Exit statuses: 0 done, 1 a result that is a failure (an
inconsistent chart, a failed check), 2 bad input (always one line `fleece: error: ...`
naming what and where, never a traceback), 3 an internal error, 130 interrupted.
"""

from __future__ import annotations

import os
import sys

from fleece import __version__
from fleece.commands.base import (
    EXIT_BAD_INPUT,
    EXIT_INTERNAL,
    Parser,
    UsageError,
)
from fleece.rules.errors import FleeceError
from fleece.rules.registry import GAMES

# Command groups that are not games: name -> (module with build(parser), one-line help).
TOOLS: dict[str, tuple[str, str]] = {
    "verify": ("fleece.commands.verify",
               "check a game's rules with Z3: invariants, rule gaps, claims, a report"),
    "serve": ("fleece.commands.serve",
              "the toolkit in a web page on this computer (localhost)"),
}

HELP_HEAD = """usage: fleece COMMAND ...

Solve, generate and verify 'wolf in sheep's clothing' deduction games.
"""


def _groups() -> dict[str, tuple[str, str]]:
    groups = {g.name: (g.commands, f"{g.title}: {g.summary}") for g in GAMES}
    groups.update(TOOLS)
    return groups


def overview() -> str:
    """The top-level help: every group with its one-line summary."""
    groups = _groups()
    width = max(len(n) for n in groups) + 2
    lines = [HELP_HEAD, "commands:"]
    lines += [f"  {name:<{width}}{text}" for name, (_, text) in groups.items()]
    lines += ["", "options:", "  -h, --help    show this help and exit",
              "  --version     print the version and exit", "",
              "Run 'fleece COMMAND --help' for a command's own options."]
    return "\n".join(lines) + "\n"


def run(argv: list[str]) -> int:
    """Parse `argv` (without the program name) and run the command; the exit status."""
    if not argv or argv[0] in ("-h", "--help"):
        sys.stdout.write(overview())
        return 0
    if argv[0] == "--version":
        sys.stdout.write(f"fleece {__version__}\n")
        return 0
    groups = _groups()
    name = argv[0]
    if name not in groups:
        what = "option" if name.startswith("-") else "command"
        raise UsageError(f"unknown {what} '{name[:40]}' (choose from {', '.join(groups)})")
    import importlib

    module = importlib.import_module(groups[name][0])
    parser = Parser(prog=f"fleece {name}", description=groups[name][1])
    module.build(parser, argv[1:])
    try:
        args = parser.parse_args(argv[1:])
    except SystemExit as exc:  # --help printed its text
        return int(exc.code or 0)
    status: int = args.handler(args)
    return status


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (errors become one line on stderr)."""
    args = sys.argv[1:] if argv is None else argv
    try:
        return run(args)
    except FleeceError as exc:
        return _error(str(exc))
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            return 0
        name = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        return _error(f"{name}{exc.strerror or exc}")
    except KeyboardInterrupt:
        sys.stderr.write("fleece: interrupted\n")
        return 130
    except Exception as exc:  # an internal bug: one line unless debugging is asked for
        if os.environ.get("FLEECE_DEBUG"):
            raise
        sys.stderr.write(f"fleece: internal error: {type(exc).__name__}: {exc} "
                         "(set FLEECE_DEBUG=1 for a traceback)\n")
        return EXIT_INTERNAL


def _error(message: str) -> int:
    sys.stderr.write(f"fleece: error: {message}\n")
    return EXIT_BAD_INPUT


def app() -> None:
    """The console script `fleece`."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    app()
