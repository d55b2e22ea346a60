"""`fleece verify [--game NAME] ...`: run a game's verification (fleece.verify.<game>) and write
its report; a gate for CI: exit status 1 when the report is not ok (a check failed, an outcome
was UNKNOWN, or a rules gap of the variant under test was not accepted with --accept).

The options every game shares are here (--accept, --section, --timeout, reports, --json); a
game's own options (Mutton's board size, animals, flags) come from its command module
(`verify_options(parser)` and `verify_config(args, package)` in fleece.commands.<game>), found
through the registry, so a new game plugs in without editing this file. --section and
--timeout apply when the game's VerifyConfig has the fields `sections` and `timeout_ms`;
--accept checks IDs against the package's `GAPS` when it exports one.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import sys
from pathlib import Path
from typing import Any

from fleece.commands.base import (
    EXIT_OK,
    EXIT_RESULT,
    Parser,
    console,
    echo,
    int_in,
    print_json,
)
from fleece.rules.errors import ParseError
from fleece.rules.registry import GAMES, GameEntry, entry

DEFAULT_GAME = "mutton"

ACCEPT_HELP = (
    "accept a rules gap of the variant under test by its ID (repeatable), so it no longer "
    "fails the run; the report still lists it. An ID this game can never report is an error "
    "(exit 2: most likely a typo). An ID it can report but this run did not find is only a "
    "warning: a typo cannot make a run pass, since the real gap still fails it, and the same "
    "CI line may serve variants or --section choices where that gap does not arise.")


def _game_in(argv: list[str]) -> str:
    """The --game value of a command line (before argparse sees it), default mutton."""
    for i, word in enumerate(argv):
        if word == "--game" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--game="):
            return word.split("=", 1)[1]
    return DEFAULT_GAME


def _verifiable(name: str) -> GameEntry:
    game = entry(name)
    if game.verify is None:
        have = ", ".join(g.name for g in GAMES if g.verify is not None)
        raise ParseError(f"--game {game.name}: {game.title} has no verification yet "
                         f"(games with one: {have})")
    return game


def _gap_id_arg(text: str) -> str:
    """argparse type of --accept: a well-formed gap ID, upper-cased."""
    from fleece.verify.result import gap_id

    try:
        return gap_id(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def build(parser: Parser, argv: list[str]) -> None:
    """The shared options, then the chosen game's own."""
    game = _verifiable(_game_in(argv))
    assert game.verify is not None
    package: Any = importlib.import_module(game.verify)
    names = ", ".join(g.name for g in GAMES if g.verify is not None)
    sections = [k for k, _ in package.SECTIONS]
    known: dict[str, str] = dict(getattr(package, "GAPS", {}))
    parser.description = (
        f"Check {game.title}'s rules: Z3 proofs of invariants, rule gaps, claims, a "
        "cross-check of the Python model, and a report. Exit status 0 when every check is "
        "as expected, 1 when a check failed, a solver answer stayed UNKNOWN, or a rules gap "
        "of the variant under test was not accepted.")
    if known:
        parser.epilog = f"rules gaps --game {game.name} can report:\n" + "\n".join(
            f"  {gid}: {text}" for gid, text in known.items())
    parser.add_argument("--game", default=DEFAULT_GAME, help=f"game to verify ({names})")
    parser.add_argument("--quick", action="store_true",
                        help="representative subset (CI, tests)")
    parser.add_argument("--accept", metavar="GAP-ID", action="append", default=[],
                        type=_gap_id_arg, help=ACCEPT_HELP)
    parser.add_argument("--section", metavar="KEY", action="append", default=[],
                        choices=sections,
                        help=f"run only this section (repeatable; {', '.join(sections)})")
    parser.add_argument("--timeout", metavar="SECONDS", type=int_in(1, 86_400),
                        help="budget of each solver query (retried once with 4 times as "
                             "much before it counts as UNKNOWN); default 60")
    parser.add_argument("--report", metavar="DIR", default="reports",
                        help="directory for the markdown and JSON reports (a file there that "
                             "fleece verify did not write is replaced only with --force)")
    parser.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    parser.add_argument("--force", action="store_true",
                        help="replace an existing --junit FILE, or report files fleece verify "
                             "did not write")
    parser.add_argument("--json", action="store_true",
                        help="print the report as JSON instead of the summary")
    importlib.import_module(game.commands).verify_options(parser)
    parser.set_defaults(handler=run)


def _configure(config: Any, args: argparse.Namespace, name: str) -> Any:
    """Apply the shared --section and --timeout to the game's VerifyConfig."""
    fields = {f.name for f in dataclasses.fields(config)} \
        if dataclasses.is_dataclass(config) else set()
    changes: dict[str, Any] = {}
    if args.section:
        if "sections" not in fields:
            raise ParseError(f"--section: --game {name} always runs every section")
        changes["sections"] = frozenset(args.section)
    if args.timeout is not None:
        if "timeout_ms" not in fields:
            raise ParseError(f"--timeout: --game {name} takes no solver budget")
        changes["timeout_ms"] = args.timeout * 1000
    return dataclasses.replace(config, **changes) if changes else config


def run(args: argparse.Namespace) -> int:
    """Run the verification of --game, apply --accept, write the reports; 1 unless ok."""
    game = _verifiable(args.game)
    commands: Any = importlib.import_module(game.commands)
    assert game.verify is not None
    package: Any = importlib.import_module(game.verify)
    known: dict[str, str] = dict(getattr(package, "GAPS", {}))
    accepts = list(dict.fromkeys(args.accept))
    strange = [a for a in accepts if known and a not in known]
    if strange:
        raise ParseError(f"--accept {strange[0]}: --game {game.name} never reports this gap "
                         f"(known: {', '.join(known)})")
    config = _configure(commands.verify_config(args, package), args, game.name)
    from fleece.verify.report import check_targets, summary_table, write_reports

    report_dir = Path(args.report)
    junit = Path(args.junit) if args.junit else None
    if junit is not None and junit.is_dir():
        raise ParseError(f"--junit {args.junit}: is a directory, expected a file name")
    if junit is not None and not junit.parent.is_dir():  # refused now, not after the run
        raise ParseError(f"--junit {args.junit}: the folder {junit.parent} does not exist")
    check_targets(game.name, report_dir, junit, args.force)  # refuse before a long run
    err = console(stderr=True)
    rep = package.run(config, progress=err.is_terminal).with_accepted(accepts)
    write_reports(rep, report_dir, junit, args.force)
    for a in rep.unmatched_accepts():
        sys.stderr.write(f"fleece: warning: --accept {a}: no such gap was found in this run "
                         "(listed in the report)\n")
    if args.json:
        print_json(rep.to_json())
        return EXIT_OK if rep.ok else EXIT_RESULT
    console().print(summary_table(rep))
    for r in rep.unexpected():
        echo(f"FAILED {r.ident}: {r.outcome}, expected {r.expected}: {r.detail}"[:300])
    for r in rep.unknowns():
        echo(f"UNKNOWN {r.ident}: {r.detail}"[:300])
    for g in rep.gaps():
        echo(("accepted " if g.accepted else "") + g.line())
    paths = rep.paths(report_dir)
    echo(f"{rep.verdict()}; report: {paths[0]} (+ .json)"
         + (f", JUnit: {args.junit}" if args.junit else ""))
    return EXIT_OK if rep.ok else EXIT_RESULT
