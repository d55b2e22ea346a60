"""The one state API every game of fleece implements (after OpenSpiel's), and its defaults.

States are immutable values of the game's core model. A state says who moves
(`current_player`: a player index, `CHANCE` when a deal or a shuffle decides, `TERMINAL` at
the end), lists its legal moves lazily, and `play(move)` returns the next state, raising the
game's typed `IllegalMoveError` (a `FleeceError`) with the reason otherwise; the old state is
never changed. Chance nodes give each outcome's exact probability and can sample one.

As in python-chess, text lives apart from the core model: the `Game` object (players, rule
options, the initial state) also holds the formats. Moves and positions print and parse as
exact inverses: `game.parse_move(s, game.move_text(s, m)) == m` and
`game.parse_position(game.position_text(s)) == s`. Where information is hidden,
`game.observation(s, player)` is the text that player knows (Mutton's Farmer chart, a Woof!!
seat's evidence file).

The conformance test (tests/test_conformance.py) plays random games of every registered game
and checks all of this, so a new game gets it for free.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from fractions import Fraction
from itertools import islice
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

CHANCE = -1  # `current_player()` when chance (a deal, a shuffle, a random pick) moves next
TERMINAL = -2  # `current_player()` once the game is over

MoveT = TypeVar("MoveT")
MoveT_co = TypeVar("MoveT_co", covariant=True)
OptionsT = TypeVar("OptionsT")
StateT = TypeVar("StateT", bound="State[Any]")


@runtime_checkable
class State(Protocol[MoveT]):
    """An immutable position of one game."""

    def current_player(self) -> int:
        """The index of the player to move (into `Game.players(options)`), CHANCE or
        TERMINAL."""
        ...

    def is_terminal(self) -> bool:
        """True once the game is over (then there is no legal move)."""
        ...

    def is_chance_node(self) -> bool:
        """True when chance decides the next move (`legal_moves` lists the outcomes)."""
        ...

    def legal_moves(self) -> Iterator[MoveT]:
        """Every legal move (or chance outcome), lazily, each once, in a fixed order."""
        ...

    def count_legal_moves(self) -> int:
        """The exact number of moves `legal_moves()` yields (cheap where listing is not)."""
        ...

    def chance_probability(self, move: MoveT) -> Fraction:
        """The exact probability of a chance outcome (0 for one that cannot happen here)."""
        ...

    def sample_chance(self, rng: random.Random) -> MoveT:
        """A chance outcome drawn with its probability."""
        ...

    def play(self, move: MoveT) -> Self:
        """The state after `move`; IllegalMoveError saying why when it is not legal here."""
        ...

    def returns(self) -> tuple[Fraction, ...]:
        """Each player's payoff as the game defines it (see the game's docs); all zero before
        the end in games that pay only at the end."""
        ...


class Game(Protocol[StateT, OptionsT]):
    """A game: its players, rule options, initial state, and the text formats of its states."""

    name: str

    def players(self, options: OptionsT) -> tuple[str, ...]:
        """The players' names under these options (player i of `current_player`)."""
        ...

    def default_options(self) -> OptionsT:
        """The rule options of the standard game."""
        ...

    def random_options(self, rng: random.Random) -> OptionsT:
        """Valid rule options drawn at random, for tests that cover variants."""
        ...

    def new_initial_state(self, options: OptionsT | None = None) -> StateT:
        """The state before the first move (default options when None)."""
        ...

    def move_text(self, state: StateT, move: Any) -> str:
        """A move of `state` in the game's notation."""
        ...

    def parse_move(self, state: StateT, text: str) -> Any:
        """Read a move in the context of `state` (the exact inverse of `move_text`);
        ParseError when the text is not a move."""
        ...

    def position_text(self, state: StateT) -> str:
        """The whole state as text, hidden parts included."""
        ...

    def parse_position(self, text: str) -> StateT:
        """Read `position_text` back; ParseError naming the line when malformed."""
        ...

    def observation(self, state: StateT, player: int) -> str:
        """What `player` knows at `state`, as text in the game's own format."""
        ...

    def random_move(self, state: StateT, rng: random.Random) -> Any:
        """A random legal move of the player to move (for simulations and tests; need not be
        uniform, since some games have millions of moves)."""
        ...

    def length_bound(self, options: OptionsT) -> int | None:
        """A proved upper bound on the number of moves of a game (chance included), or None
        when the rules alone do not end every game (then a repetition or turn-limit option
        does, and the game's docs say which)."""
        ...


class ChanceFree:
    """Defaults for a game without chance: no chance node and no chance outcomes."""

    def is_chance_node(self) -> bool:
        """Never: the players make every move."""
        return False

    def chance_probability(self, move: object) -> Fraction:
        """Always 0: there is no chance outcome."""
        return Fraction(0)

    def sample_chance(self, rng: random.Random) -> Any:
        """There is nothing to sample."""
        raise ValueError("this game has no chance node")


def uniform_legal_move(state: State[MoveT], rng: random.Random) -> MoveT:
    """A uniformly random legal move, by index into `legal_moves()` (for games whose move
    lists are small; a game with millions of moves samples in its own `random_move`)."""
    n = state.count_legal_moves()
    if n == 0:
        raise ValueError("no legal move: the game is over")
    return next(islice(state.legal_moves(), rng.randrange(n), None))
