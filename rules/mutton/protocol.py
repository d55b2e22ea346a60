"""Mutton as a game of the shared protocol (rules.protocol): players, options and text formats.

The state is `GameState` itself. Its text forms are the ones players already use: a move is
pbmserv notation (M28), a position is a game record (the options line, then every move,
the Wolf's secret choice included), the Farmer's observation is the pbmserv page (board, score
line and tracking chart, M25), and the Wolf, who knows everything, observes the record.
"""

from __future__ import annotations

import random

from fleece.rules.errors import ParseError
from fleece.rules.mutton.chart import farmer_chart, render_paste
from fleece.rules.mutton.game import FARMER, GameState, Phase
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.layout import random_layout
from fleece.rules.mutton.moves import Move, PlaceCells, PlaceRandom, Side, format_move, parse_move
from fleece.rules.mutton.options import ALPHABET, MAX_ANIMALS, MuttonOptions, Weapon
from fleece.rules.mutton.record import format_record, parse_record, replay
from fleece.rules.mutton.simulate import random_move


class MuttonGame:
    """The `Game` object of Mutton (docs/rules.md section 1)."""

    name = "mutton"

    def players(self, options: MuttonOptions) -> tuple[str, ...]:
        """Player 0 is the Farmer, player 1 the Wolf (rules.mutton.game.FARMER, WOLF)."""
        return ("Farmer", "Wolf")

    def default_options(self) -> MuttonOptions:
        """The server's defaults: size 4, 26 animals, 4 wolves, rifle, reveal, berserk."""
        return MuttonOptions()

    def random_options(self, rng: random.Random) -> MuttonOptions:
        """A random valid variant: any board size, animal and wolf count and option flags,
        sometimes quick play or a small dictionary (M1-M23)."""
        size = rng.choice([2, 3, 3, 4, 4, 4, 5, 6, 8])
        cells = len(board(size))
        n = rng.randint(2, min(MAX_ANIMALS, cells))
        k = rng.randint(1, n // 2)
        letters = ALPHABET[:n]
        dictionary = None
        if rng.random() < 0.1:
            words = {frozenset(rng.sample(letters, k)) for _ in range(rng.randint(1, 4))}
            dictionary = frozenset(words)
        return MuttonOptions(
            size=size, num_sheep=n, num_wolves=k, berserk=rng.random() < 0.7,
            reveal=rng.random() < 0.6, remove=rng.random() < 0.3, escape=rng.random() < 0.3,
            weapon=Weapon.SHOTGUN if rng.random() < 0.25 else Weapon.RIFLE,
            quick_play=rng.randint(1, 12) if rng.random() < 0.2 else None,
            dictionary=dictionary)

    def new_initial_state(self, options: MuttonOptions | None = None) -> GameState:
        """An empty board waiting for the Farmer's placement."""
        return GameState.new(options or MuttonOptions())

    def random_move(self, state: GameState, rng: random.Random) -> Move:
        """A random legal move (rules.mutton.simulate: a kill's runners are placed at random
        without listing the millions of placements; the Farmer passes, snipes, rarely goes
        berserk)."""
        move = random_move(state, rng)
        if isinstance(move, PlaceRandom):  # listed as the cell list it stands for
            move = PlaceCells(random_layout(state.rules.size, state.rules.num_sheep, move.seed))
        return move

    def length_bound(self, options: MuttonOptions) -> int:
        """M24: every round removes an animal (a kill or an escape, or after a Wolf pass the
        Farmer's compulsory shot), so a game has at most num_sheep rounds of two moves, after
        the placement and the Wolf's choice."""
        return 2 + 2 * options.num_sheep

    def move_text(self, state: GameState, move: Move) -> str:
        """pbmserv notation (M28)."""
        return format_move(move)

    def parse_move(self, state: GameState, text: str) -> Move:
        """pbmserv notation; a lone letter is an escape on the Wolf's turn, a shot on the
        Farmer's, and `pass` is the mover's pass."""
        side: Side | None = None
        if state.phase not in (Phase.PLACE, Phase.CHOOSE, Phase.OVER):
            side = state.to_move
        return parse_move(text, state.board, side)

    def position_text(self, state: GameState) -> str:
        """The game's record: the options line and every move (M28)."""
        if state.mirror_of is not None:
            raise ValueError("the second game of a match is written as the match's record")
        return format_record(state.rules, [list(state.history)])

    def parse_position(self, text: str) -> GameState:
        """Replay a one-game record (ParseError with the line of a bad or illegal move)."""
        record = parse_record(text)
        if len(record.games) != 1:
            raise ParseError("a position is one game; this record holds two")
        return replay(record).current

    def observation(self, state: GameState, player: int) -> str:
        """The Farmer sees the pbmserv page (board, score, chart); the Wolf sees it all."""
        if player == FARMER:
            return render_paste(farmer_chart(state))
        return self.position_text(state)


MUTTON = MuttonGame()
