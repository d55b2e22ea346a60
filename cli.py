"""The `fleece` command: finds the command group, loads only that group's module, and turns
every error into one line and an exit status.

Groups come from the game registry (fleece.rules.registry: one per game) and from TOOLS
below. `fleece --help` lists them without importing any of them, so start-up costs little
more than the interpreter's own. Exit statuses: 0 done, 1 a result that is a failure (an
inconsistent chart, a failed check) or a search stopped by its budget with no answer (one
line `fleece: stopped: ...`), 2 bad input (always one line `fleece: error: ...` naming what
and where, never a traceback), 3 an internal error, 130 interrupted. Every message is
formatted by `message_line`: escaped, one line, at most MAX_MESSAGE characters.
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
        # A FleeceError may carry its own label and status (a search stopped by its budget
        # is `fleece: stopped: ...`, exit status 1); every other one is bad input.
        status = getattr(exc, "exit_status", EXIT_BAD_INPUT)
        return _say(getattr(exc, "label", "error"), str(exc), status)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            return 0
        name = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        return _say("error", f"{name}{exc.strerror or exc}", EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        sys.stderr.write("fleece: interrupted\n")
        return 130
    except Exception as exc:  # an internal bug: one line unless debugging is asked for
        if os.environ.get("FLEECE_DEBUG"):
            raise
        return _say("internal error", f"{type(exc).__name__}: {exc} (set FLEECE_DEBUG=1 for "
                    "a traceback)", EXIT_INTERNAL)


# ---- the one place messages are formatted --------------------------------------------------

MAX_MESSAGE = 300  # characters of one error line, `fleece: error: ` included
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
# Printable by Unicode's rules, yet drawn as nothing: Hangul fillers and the blank Braille cell.
_INVISIBLE = frozenset({0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800})


def escape(text: str) -> str:
    """`text` with every control, format, separator, combining or otherwise invisible
    character written as an escape (`\\n`, `\\x1b`, `\\u2028`), so a message is one
    visible line whatever a file name or a user's token contains."""
    import unicodedata

    out = []
    for ch in text:
        code = ord(ch)
        if ch == " " or (ch.isprintable() and code not in _INVISIBLE
                         and unicodedata.category(ch) not in ("Mn", "Me")):
            out.append(ch)
        elif ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif code < 0x100:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "".join(out)


def message_line(label: str, message: str) -> str:
    """`fleece: LABEL: MESSAGE` as one escaped line of at most MAX_MESSAGE characters."""
    line = f"fleece: {label}: {escape(message)}"
    if len(line) > MAX_MESSAGE:
        line = line[:MAX_MESSAGE - 3] + "..."
    return line


def _say(label: str, message: str, status: int) -> int:
    sys.stderr.write(message_line(label, message) + "\n")
    return status


def app() -> None:
    """The console script `fleece`."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    app()
