"""`fleece verify [--game NAME] ...`: run a game's verification (fleece.verify.<game>) and write
its report; exit status 1 when any check has an unexpected outcome.

The options every game shares are here; a game's own options (Mutton's board size, animals,
flags) come from its command module (`verify_options(parser)` and `verify_config(args, quick)`
in fleece.commands.<game>), found through the registry, so a new game plugs in without
editing this file.
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path
from typing import Any

from fleece.commands.base import EXIT_OK, EXIT_RESULT, Parser, console, echo
from fleece.rules.errors import FleeceError, ParseError
from fleece.rules.registry import GAMES, GameEntry, entry

DEFAULT_GAME = "mutton"


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


def build(parser: Parser, argv: list[str]) -> None:
    """The shared options, then the chosen game's own."""
    game = _verifiable(_game_in(argv))
    names = ", ".join(g.name for g in GAMES if g.verify is not None)
    parser.description = (f"Check {game.title}'s rules: Z3 proofs of invariants, rule gaps, "
                          "claims, a cross-check of the Python model, and a report.")
    parser.add_argument("--game", default=DEFAULT_GAME, help=f"game to verify ({names})")
    parser.add_argument("--quick", action="store_true",
                        help="representative subset (CI, tests)")
    parser.add_argument("--report", metavar="DIR", default="reports",
                        help="directory for the markdown and JSON reports")
    parser.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    parser.add_argument("--force", action="store_true",
                        help="overwrite an existing --junit FILE")
    importlib.import_module(game.commands).verify_options(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run the verification of --game and write the reports."""
    game = _verifiable(args.game)
    commands: Any = importlib.import_module(game.commands)
    assert game.verify is not None
    package: Any = importlib.import_module(game.verify)
    config = commands.verify_config(args, package)
    from fleece.verify.report import summary_table, write_reports

    junit = Path(args.junit) if args.junit else None
    if junit is not None and junit.exists() and not args.force:
        raise FleeceError(f"{args.junit}: already exists (use --force to overwrite)")
    err = console(stderr=True)
    rep = package.run(config, progress=err.is_terminal)
    write_reports(rep, Path(args.report), junit, args.force)
    console().print(summary_table(rep))
    for r in rep.failures():
        echo(f"FAILED {r.ident}: {r.outcome}, expected {r.expected}: {r.detail}")
    paths = rep.paths(Path(args.report))
    echo(f"report: {paths[0]} (+ .json)" + (f", JUnit: {args.junit}" if args.junit else ""))
    return EXIT_OK if rep.ok else EXIT_RESULT
