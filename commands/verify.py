"""`fleece verify [--game NAME] ...`: check a game's rules (fleece.api.verify), a gate for CI:
exit status 1 when the report is not ok (a check failed, an outcome was UNKNOWN, or a rules gap
of the variant under test was not accepted with --accept).

The options every game shares are here; a game's own options (Mutton's board size, Woof!!'s
Dog target, ...) are the parameters of `verify_options` in its command module, found through
the registry, so a new game plugs in without editing this file. The command for a game is
built when its --game is known (fleece.cli reads it from the command line first).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from typing import Annotated, Any

import typer

from fleece.api import verify as api
from fleece.commands.base import (
    echo,
    finish,
    int_in,
    new_app,
    note,
    print_json,
)

DEFAULT_GAME = "mutton"

ACCEPT_HELP = (
    "accept a rules gap of the variant under test by its ID (repeatable), so it no longer "
    "fails the run; the report still lists it. An ID this game can never report is an error "
    "(exit 2: most likely a typo). An ID it can report but this run did not find is only a "
    "warning: a typo cannot make a run pass, since the real gap still fails it, and the same "
    "CI line may serve variants or --section choices where that gap does not arise.")


def game_in(argv: list[str]) -> str:
    """The --game value of a command line (read before the command is built), default
    mutton."""
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--game" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--game="):
            return word.split("=", 1)[1]
    return DEFAULT_GAME


def _game_names() -> list[str]:
    from fleece.rules.registry import GAMES

    return [g.name for g in GAMES if g.verify is not None]


def shared(
    game: Annotated[str, typer.Option(
        help="game to verify (mutton, woof, ulvtafl, cards)",
        autocompletion=lambda incomplete: [n for n in _game_names()
                                           if n.startswith(incomplete)])] = DEFAULT_GAME,
    quick: Annotated[bool, typer.Option("--quick",
                                        help="representative subset (CI, tests)")] = False,
    accept: Annotated[list[str] | None, typer.Option(
        metavar="GAP-ID", show_default=False, help=ACCEPT_HELP)] = None,
    section: Annotated[list[str] | None, typer.Option(
        metavar="KEY", show_default=False, help="run only this section (repeatable)")] = None,
    timeout: Annotated[int | None, typer.Option(
        parser=int_in(1, 86_400), metavar="SECONDS", show_default=False,
        help="budget of each solver query (retried once with 4 times as much before it "
             "counts as UNKNOWN); default 60")] = None,
    report: Annotated[str | None, typer.Option(
        metavar="DIR", show_default=False,
        help="write verification[-GAME].md and .json into this existing folder (nothing is "
             "written without it)")] = None,
    junit: Annotated[str | None, typer.Option(metavar="FILE", show_default=False,
                                              help="write JUnit XML")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="replace existing report or JUnit files")] = False,
    json: Annotated[bool, typer.Option(
        "--json", help="print the report as JSON instead of the summary")] = False,
) -> dict[str, Any]:
    """The options every game's verification shares."""
    return {"game": game, "quick": quick, "accept": tuple(accept or ()),
            "section": tuple(section or ()), "timeout": timeout, "report": report,
            "junit": junit, "force": force, "json": json}


def command_for(argv: list[str]) -> Any:
    """The `fleece verify` command of the game `argv` names: the shared options, then the
    game's own (its module's `verify_options` parameters)."""
    from fleece.rules.registry import GAMES

    game = api.verifiable(game_in(argv))
    module: Any = importlib.import_module(game.commands)
    own = inspect.signature(module.verify_options, eval_str=True).parameters
    common = inspect.signature(shared, eval_str=True).parameters
    params = [*common.values(), *own.values()]

    def run(**options: Any) -> int:
        kwargs = shared(**{k: options.pop(k) for k in common})
        return verify(kwargs, module.verify_options(**options))

    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params}
    run.__doc__ = (
        f"Check {game.title}'s rules: Z3 proofs of invariants, rule gaps, claims, a "
        "cross-check of the Python model, and a report. Exit status 0 when every check is as "
        "expected, 1 when a check failed, a solver answer stayed UNKNOWN, or a rules gap of "
        f"the variant under test was not accepted. Games: "
        f"{', '.join(g.name for g in GAMES if g.verify is not None)}; "
        f"'fleece verify --game NAME --help' lists a game's own options. Sections: "
        f"{', '.join(api.sections(game.name))}.")
    known = api.known_gaps(game.name)
    epilog = None
    if known:
        epilog = f"Rules gaps --game {game.name} can report: " + "; ".join(
            f"{gid}: {text}" for gid, text in known.items())
    app = new_app("check a game's rules")
    app.command("verify", epilog=epilog)(run)
    return typer.main.get_command(app)


def verify(options: dict[str, Any], variant: Any) -> int:
    """Run the verification, print the summary (or --json), and return 1 unless ok."""
    json = options.pop("json")
    request = api.VerifyRequest(variant=variant, **options)
    report = api.verify_game(request, progress=sys.stderr.isatty())
    rep = report.report
    for a in rep.unmatched_accepts():
        sys.stderr.write(f"fleece: warning: --accept {a}: no such gap was found in this run "
                         "(listed in the report)\n")
    if json:
        print_json(report)
        return finish(rep.ok)
    for path in report.written:
        note(f"wrote {path}")
    from fleece.commands.output import Column, Document, show

    doc = Document()
    m = rep.meta
    rows = []
    for s in rep.summary():
        gaps = f"{s.gaps} ({s.accepted} acc.)" if s.gaps else "0"
        rows.append(([rep.section_title(s.section), str(s.checks), str(s.ok), str(s.refuted),
                      gaps, str(s.unknown), f"{s.seconds:.1f}"],
                     None if s.ok == s.checks else "bold red"))
    qualifier = "" if request.game == DEFAULT_GAME else f" --game {request.game}"
    doc.table([Column("section"), *[Column(c, right=True) for c in (
        "checks", "ok", "exp. refuted", "gaps", "unknown", "seconds")]], rows,
        title=f"fleece verify{qualifier}: {m.get('options')} ({m.get('mode')}, "
              f"{rep.seconds:.1f} s)")
    show(doc)
    for r in rep.unexpected():
        echo(f"FAILED {r.ident}: {r.outcome}, expected {r.expected}: {r.detail}"[:300])
    for r in rep.unknowns():
        echo(f"UNKNOWN {r.ident}: {r.detail}"[:300])
    for g in rep.gaps():
        echo(("accepted " if g.accepted else "") + g.line())
    echo(rep.verdict())
    return finish(rep.ok)


def command(ctx: Any) -> Any:
    """The command `fleece verify` is without a --game: the default game's (for help and
    completion; fleece.cli builds the named game's when it runs)."""
    args = ctx.meta.get("fleece.args", []) if ctx is not None else []
    return command_for(list(args))
