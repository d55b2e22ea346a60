"""The registry of games: one entry per game names everything the toolkit builds for it.

An entry is data: the game's name and RULES.md section, and the dotted names of its rules
`Game` objects (one, or several for a family such as the Wolf! card games), its command-line
group, its solver package and its verification package.
`fleece.cli` builds its game groups from this table, `fleece verify --game NAME` dispatches
through it, and the conformance test plays every game listed. Nothing here imports a solver:
the names are resolved by whoever needs them (`load`), when they need them, which also keeps
start-up fast. Adding a game = one entry here + its packages (see CONTRIBUTING.md).
"""

from __future__ import annotations

import importlib

from fleece.rules.errors import ParseError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from typing import Any


#: GameEntry's fields, in order.
_FIELDS = ("name", "title", "summary", "section", "clauses", "games", "commands", "solver",
           "verify", "engines")


class GameEntry:
    """One game of the toolkit.

    `games` are `module:attribute` of its rules `Game` objects (rules.protocol); `commands` the
    module whose `build(parser)` adds its command-line group; `solver` its solver package
    (exports `solve`); `verify` its verification package (exports `SECTIONS` and `run`), or
    None while it has none; `clauses` the clause-ID prefixes of its RULES.md section.

    An immutable value with keyword fields, equality, hash and repr as a frozen dataclass
    has, written out: `fleece --help` reads this table, and importing dataclasses (which
    imports inspect, ast, dis, tokenize) would cost it more than the rest of its imports."""

    __slots__ = _FIELDS

    name: str
    title: str
    summary: str
    section: int
    clauses: tuple[str, ...]
    games: tuple[str, ...]
    commands: str
    solver: str
    verify: str | None
    engines: tuple[str, ...]

    def __init__(self, name: str, title: str, summary: str, section: int,
                 clauses: tuple[str, ...], games: tuple[str, ...], commands: str, solver: str,
                 verify: str | None, engines: tuple[str, ...] = ()) -> None:
        values = (name, title, summary, section, clauses, games, commands, solver, verify,
                  engines)
        for field, value in zip(_FIELDS, values, strict=True):
            object.__setattr__(self, field, value)

    def _values(self) -> tuple[object, ...]:
        """The fields in order (for equality, hash and repr)."""
        return tuple(getattr(self, field) for field in _FIELDS)

    def __setattr__(self, field: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {field!r} (GameEntry is immutable)")

    def __delattr__(self, field: str) -> None:
        raise AttributeError(f"cannot delete field {field!r} (GameEntry is immutable)")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, GameEntry)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{f}={v!r}" for f, v in zip(_FIELDS, self._values(), strict=True))
        return f"GameEntry({fields})"

    def __reduce__(self) -> tuple[type[GameEntry], tuple[object, ...]]:
        """Copies and pickles are made through __init__ (the fields cannot be assigned)."""
        return (GameEntry, self._values())


GAMES: tuple[GameEntry, ...] = (
    GameEntry(
        name="mutton", title="Mutton",
        summary="hidden wolves on a hex board: charts, records, exact deductions, puzzles",
        section=1, clauses=("M", "C"),
        games=("fleece.rules.mutton.protocol:MUTTON",),
        commands="fleece.commands.mutton",
        solver="fleece.solver.mutton",
        verify="fleece.verify.mutton",
        engines=("fast", "csp", "smt"),
    ),
    GameEntry(
        name="woof", title="Woof!!",
        summary="hidden characters at the table: evidence files, exact beliefs, puzzles",
        section=2, clauses=("W",),
        games=("fleece.rules.woof.protocol:WOOF",),
        commands="fleece.commands.woof",
        solver="fleece.solver.woof",
        verify="fleece.verify.woof",
        engines=("fast", "csp", "smt"),
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


def load_games(name: str) -> tuple[Any, ...]:
    """The rules `Game` objects of a registered entry."""
    return tuple(load(ref) for ref in entry(name).games)


def all_game_refs() -> tuple[str, ...]:
    """Every rules `Game` reference of every entry, in registry order."""
    return tuple(ref for g in GAMES for ref in g.games)
