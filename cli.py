"""The `fleece` command: a Typer app whose groups come from the game registry
(fleece.rules.registry: one per game) and TOOLS below, each loaded only when named, and the
one place errors become one line and an exit status.

`fleece --help` lists the groups from the registry's one-line summaries without importing any
of them. Exit statuses: 0 done, 1 a result that is a failure (an inconsistent chart, a failed
check) or a search stopped by its budget with no answer (one line `fleece: stopped: ...`),
2 bad input or a bad command line (always one line `fleece: error: ...` naming what and
where, never a traceback or a usage box), 3 an internal error, 130 interrupted. Every message
is formatted by `message_line`: escaped, one line, at most MAX_MESSAGE characters.
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Annotated, Any

import typer
from typer._click import core as click
from typer._click import exceptions as errors
from typer._click.formatting import HelpFormatter
from typer.core import TyperGroup

from fleece import __version__
from fleece.rules.errors import FleeceError, Stopped
from fleece.rules.registry import GAMES

EXIT_OK, EXIT_RESULT, EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

# Command groups that are not games: name -> (module with `app`, one-line help).
TOOLS: dict[str, tuple[str, str]] = {
    "verify": ("fleece.commands.verify",
               "check a game's rules with Z3: invariants, rule gaps, claims, a report"),
    "serve": ("fleece.commands.serve",
              "the toolkit in a web page on this computer (localhost)"),
}


def groups() -> dict[str, tuple[str, str]]:
    """Every command group: name -> (module, one-line summary), games first."""
    found = {g.name: (g.commands, f"{g.title}: {g.summary}") for g in GAMES}
    found.update(TOOLS)
    return found


class LazyGroup(TyperGroup):
    """A group of a command module's Typer app whose commands are turned into Click commands
    only when named (Typer's own conversion reads every command's signature at once)."""

    def __init__(self, name: str, app: typer.Typer, context_settings: Any = None) -> None:
        help_text = app.info.help if isinstance(app.info.help, str) else None
        super().__init__(name=name, help=help_text, rich_markup_mode=None,
                         context_settings=context_settings)
        self.app = app

    def _entries(self) -> dict[str, Any]:
        """Name -> the app's CommandInfo or sub-app TyperInfo, in registration order."""
        entries: dict[str, Any] = {}
        for info in self.app.registered_commands:
            assert info.callback is not None
            entries[info.name or typer.main.get_command_name(info.callback.__name__)] = info
        for group in self.app.registered_groups:
            entries[str(group.name)] = group
        return entries

    def list_commands(self, ctx: click.Context) -> list[str]:
        """The commands and sub-groups, in the order the module registers them."""
        return list(self._entries())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The named command converted now (a sub-group stays lazy)."""
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        info = self._entries().get(cmd_name)
        if info is None:
            return None
        if isinstance(info, typer.models.TyperInfo):
            assert info.typer_instance is not None
            command: click.Command = LazyGroup(cmd_name, info.typer_instance)
        else:
            command = typer.main.get_command_from_info(
                info, pretty_exceptions_short=True, rich_markup_mode=None)
        self.commands[cmd_name] = command
        return command


class FleeceGroup(TyperGroup):
    """The top-level group: names and summaries from the registry, each group's module
    imported only when that group is asked for (so `fleece --help` imports no game)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every group name, in registry order, then the tools."""
        return list(groups())

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The group's Typer app as a command, its module imported now."""
        found = groups().get(cmd_name)
        if found is None:
            return None
        module: Any = importlib.import_module(found[0])
        if hasattr(module, "command"):  # built from the rest of the command line (verify)
            command: click.Command = module.command(ctx)
            command.name = cmd_name
            return command
        app_: typer.Typer = module.app
        if len(app_.registered_commands) == 1 and not app_.registered_groups:
            command = typer.main.get_command(app_)  # a group of one command (serve)
            command.name = cmd_name
            return command
        return LazyGroup(cmd_name, app_)

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """The group named by `args[0]`; a usage error listing the groups otherwise."""
        name = args[0]
        if name not in groups() and not ctx.resilient_parsing:
            what = "option" if name.startswith("-") else "command"
            raise errors.UsageError(f"unknown {what} '{name[:40]}' (choose from "
                                   f"{', '.join(groups())})", ctx)
        ctx.meta["fleece.args"] = args[1:]  # verify's options depend on its --game
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: HelpFormatter) -> None:
        """The groups with the registry's summaries (no group module is imported)."""
        with formatter.section("Commands"):
            formatter.write_dl([(name, text) for name, (_, text) in groups().items()])


class FleeceApp(typer.Typer):
    """The Typer app; calling it (the console script `fleece`, `python -m fleece`) runs
    `main`, which prints every error as one line."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        sys.exit(main())


app = FleeceApp(
    cls=FleeceGroup,
    help="Solve, generate and verify 'wolf in sheep's clothing' deduction games. Run "
         "'fleece COMMAND --help' for a command's own options.",
    no_args_is_help=True,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        sys.stdout.write(f"fleece {__version__}\n")
        raise typer.Exit(EXIT_OK)


@app.callback()
def root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_version, is_eager=True,
        help="print the version and exit")] = False,
) -> None:
    """Solve, generate and verify 'wolf in sheep's clothing' deduction games. Run
    'fleece COMMAND --help' for a command's own options."""


def command() -> click.Command:
    """The `fleece` command as Click runs it (for tests: typer.testing.CliRunner)."""
    return typer.main.get_command(app)


def run(argv: list[str]) -> int:
    """Parse `argv` (without the program name) and run the command; the exit status."""
    for word in argv:
        if "\0" in word:
            raise errors.UsageError(f"argument {word[:40]!r} contains a NUL character")
    status = command().main(args=argv, prog_name="fleece", standalone_mode=False)
    if status == EXIT_INTERRUPTED:  # Typer turns Ctrl-C into Exit(130)
        sys.stderr.write("fleece: interrupted\n")
    return int(status or 0)


def cli_name(field: str) -> str:
    """A library field as the command line names it: `max_states` -> `--max-states`."""
    return "--" + field.replace("_", "-")


def usage_text(exc: errors.UsageError) -> str:
    """A usage error as one line: the command, the option and what is wrong."""
    path = exc.ctx.command_path if exc.ctx is not None else "fleece"
    if isinstance(exc, errors.BadParameter) and not isinstance(exc, errors.MissingParameter) \
            and exc.param is not None:
        hint = "/".join(exc.param.opts) if exc.param.opts else (exc.param.name or "")
        return f"{path}: {hint}: {exc.message}"
    message = exc.format_message()
    if message == "Missing command." and exc.ctx is not None \
            and isinstance(exc.ctx.command, TyperGroup):
        message = f"missing command (choose from " \
                  f"{', '.join(exc.ctx.command.list_commands(exc.ctx))})"
    message = message[:1].lower() + message[1:]
    return message if path == "fleece" else f"{path}: {message}"


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (errors become one line on stderr)."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        return run(args)
    except errors.NoArgsIsHelpError as exc:  # a group named without a command: its help
        assert exc.ctx is not None
        sys.stdout.write(exc.ctx.get_help() + "\n")
        return EXIT_OK
    except errors.UsageError as exc:
        return _say("error", usage_text(exc), EXIT_BAD_INPUT)
    except errors.ClickException as exc:
        return _say("error", exc.format_message(), EXIT_BAD_INPUT)
    except typer.Abort:
        return _say("error", "aborted", EXIT_BAD_INPUT)
    except Stopped as exc:
        return _say("stopped", exc.text(cli_name), EXIT_RESULT)
    except FleeceError as exc:
        return _say("error", exc.text(cli_name), EXIT_BAD_INPUT)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            return EXIT_OK
        name = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        return _say("error", f"{name}{exc.strerror or exc}", EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        sys.stderr.write("fleece: interrupted\n")
        return EXIT_INTERRUPTED
    except Exception as exc:  # an internal bug: one line unless debugging is asked for
        if os.environ.get("FLEECE_DEBUG"):
            raise
        return _say("internal error", f"{type(exc).__name__}: {exc} (set FLEECE_DEBUG=1 for "
                    "a traceback)", EXIT_INTERNAL)


# ---- the one place messages are formatted --------------------------------------------------

MAX_MESSAGE = 300  # characters of one error line, `fleece: error: ` included
def message_line(label: str, message: str) -> str:
    """`fleece: LABEL: MESSAGE` as one escaped line of at most MAX_MESSAGE characters."""
    from fleece.rules.text import escape  # only when there is an error to print

    line = f"fleece: {label}: {escape(message)}"
    if len(line) > MAX_MESSAGE:
        line = line[:MAX_MESSAGE - 3] + "..."
    return line


def _say(label: str, message: str, status: int) -> int:
    sys.stderr.write(message_line(label, message) + "\n")
    return status


if __name__ == "__main__":  # pragma: no cover
    app()
