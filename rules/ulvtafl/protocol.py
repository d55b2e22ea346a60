"""Ulvtafl as a game of the shared protocol (rules.protocol): players, options, text.

Player 0 is the wolves (they move first, U2), player 1 the sheep. A move is U8 notation, a
position is U8's position string (with rule words and the reversible history U7 needs), and
both players see everything, so the observation is the position string.
"""

from __future__ import annotations

import random

from fleece.rules.errors import ParseError
from fleece.rules.ulvtafl.game import Move, Rules, UlvState, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.geometry import NAMES, SETUP_SHEEP
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text


class UlvtaflGame:
    """The `Game` object of Ulvtafl (docs/rules.md section 3)."""

    name = "ulvtafl"

    def players(self, options: UlvtaflOptions) -> tuple[str, ...]:
        """The wolves (player 0, first to move) and the sheep (player 1)."""
        return ("wolves", "sheep")

    def default_options(self) -> UlvtaflOptions:
        """20 sheep against 2 wolves on c7 and e7, diagonals, repetition draws (U2, U9)."""
        return UlvtaflOptions()

    def random_options(self, rng: random.Random) -> UlvtaflOptions:
        """Any setup, sometimes a wolf on a random free point, any movement rules (U6)."""
        setup = rng.choice([13, 15, 17, 20])
        wolves: tuple[str, ...] | None = None
        if setup != 20 and rng.random() < 0.5:
            free = [p for p in range(len(NAMES)) if not SETUP_SHEEP[setup] >> p & 1]
            wolves = (NAMES[rng.choice(free)],)
        rules = Rules(orthogonal=rng.random() < 0.2,
                      wolf_diagonal_captures_only=rng.random() < 0.3,
                      sheep_orthogonal=rng.random() < 0.3,
                      repetition_draw=rng.random() < 0.8)
        return UlvtaflOptions(setup=setup, wolves=wolves, rules=rules)

    def new_initial_state(self, options: UlvtaflOptions | None = None) -> UlvState:
        """The setup's start position (U9)."""
        return initial_state(options or UlvtaflOptions())

    def move_text(self, state: UlvState, move: Move) -> str:
        """U8 notation: `d3-d4`, `d5xd3xf3`."""
        return move.text()

    def parse_move(self, state: UlvState, text: str) -> Move:
        """U8 notation (legality is checked by `play`)."""
        if len(text) > 200:
            raise ParseError("move text too long")
        return parse_move(text)

    def position_text(self, state: UlvState) -> str:
        """U8's position string."""
        return position_text(state)

    def parse_position(self, text: str) -> UlvState:
        """Read U8's position string."""
        return parse_position(text)

    def observation(self, state: UlvState, player: int) -> str:
        """Nothing is hidden: both sides see the position string."""
        return position_text(state)

    def random_move(self, state: UlvState, rng: random.Random) -> Move:
        """A uniformly random legal move."""
        moves = list(state.legal_moves())
        if not moves:
            raise ValueError("no legal move: the game is over")
        return moves[rng.randrange(len(moves))]

    def length_bound(self, options: UlvtaflOptions) -> int | None:
        """None: sideways sheep moves and wolf steps can repeat forever; U7's repetition
        rule (the option `repetition_draw`, on by default) is what ends such games."""
        return None


ULVTAFL = UlvtaflGame()
