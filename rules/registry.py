"""The registry of games: one entry per game names everything the toolkit builds for it.

An entry is data: the game's name and docs/rules.md section, and the dotted names of its rules
`Game` objects (one, or several for a family such as the Wolf! card games), its command-line
group, its solver package and its verification package.
`fleece.cli` builds its game groups from this table, `fleece verify --game NAME` dispatches
through it, and the conformance test plays every game listed. Nothing here imports a solver:
the names are resolved by whoever needs them (`load`), when they need them, which also keeps
start-up fast. Adding a game = one entry here + its packages (see CONTRIBUTING.md).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from fleece.rules.errors import ParseError


@dataclass(frozen=True)
class GameEntry:
    """One game of the toolkit.

    `games` are `module:attribute` of its rules `Game` objects (rules.protocol); `commands` the
    module whose Typer `app` is its command-line group; `solver` its solver package (exports
    `solve`); `verify` its verification package (exports `SECTIONS` and `run`), or None while
    it has none; `clauses` the clause-ID prefixes of its docs/rules.md section."""

    name: str
    title: str
    summary: str
    section: int
    clauses: tuple[str, ...]
    games: tuple[str, ...]
    commands: str
    solver: str
    verify: str | None


GAMES: tuple[GameEntry, ...] = (
    GameEntry(
        name="mutton", title="Mutton",
        summary="hidden wolves on a hex board: charts, records, exact deductions, puzzles",
        section=1, clauses=("M", "C"),
        games=("fleece.rules.mutton.protocol:MUTTON",),
        commands="fleece.commands.mutton",
        solver="fleece.solver.mutton",
        verify="fleece.verify.mutton",
    ),
    GameEntry(
        name="woof", title="Woof!!",
        summary="hidden characters at the table: evidence files, exact beliefs, puzzles",
        section=2, clauses=("W",),
        games=("fleece.rules.woof.protocol:WOOF",),
        commands="fleece.commands.woof",
        solver="fleece.solver.woof",
        verify="fleece.verify.woof",
    ),
    GameEntry(
        name="ulvtafl", title="Ulvtafl",
        summary="wolves and sheep on the 33-point cross: boards, records, perft, exact solver",
        section=3, clauses=("U",),
        games=("fleece.rules.ulvtafl.protocol:ULVTAFL",),
        commands="fleece.commands.ulvtafl",
        solver="fleece.solver.ulvtafl",
        verify="fleece.verify.ulvtafl",
    ),
    GameEntry(
        name="cards", title="Wolf! card games",
        summary="War, McCord's herd game, Concentration: exact analysis, Monte Carlo, verify",
        section=4, clauses=("K",),
        games=("fleece.rules.cards.war:WAR", "fleece.rules.cards.herd:HERD",
               "fleece.rules.cards.concentration:CONCENTRATION"),
        commands="fleece.commands.cards",
        solver="fleece.solver.cards",
        verify="fleece.verify.cards",
    ),
)


def names() -> tuple[str, ...]:
    """The registered game names, in registry order."""
    return tuple(g.name for g in GAMES)


def entry(name: str) -> GameEntry:
    """The entry of a game by name (case-insensitive); ParseError listing the known names."""
    wanted = name.strip().lower()
    for g in GAMES:
        if g.name == wanted:
            return g
    raise ParseError(f"unknown game {name!r} (known: {', '.join(names())})")


def load(ref: str) -> Any:
    """Resolve `package.module` or `package.module:attribute` to the module or attribute."""
    module, _, attr = ref.partition(":")
    obj: Any = importlib.import_module(module)
    return getattr(obj, attr) if attr else obj


def all_game_refs() -> tuple[str, ...]:
    """Every rules `Game` reference of every entry, in registry order."""
    return tuple(ref for g in GAMES for ref in g.games)
