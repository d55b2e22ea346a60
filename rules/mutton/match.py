"""A Mutton match: two games with roles swapped, or one quick-play game (M21-M22)."""

from __future__ import annotations

from dataclasses import dataclass

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.moves import Move
from fleece.rules.mutton.options import MuttonOptions


@dataclass(frozen=True)
class Match:
    """Players `players[0]` and `players[1]`; the first is the Wolf in game 1, the second in
    game 2. With quick play there is only game 1."""

    rules: MuttonOptions
    games: tuple[GameState, ...]
    players: tuple[str, str] = ("Player 1", "Player 2")

    @classmethod
    def new(cls, rules: MuttonOptions | None = None,
            players: tuple[str, str] = ("Player 1", "Player 2")) -> Match:
        """A match whose first game waits for the Farmer's placement."""
        r = rules or MuttonOptions()
        return cls(r, (GameState.new(r),), players)

    @property
    def number_of_games(self) -> int:
        """1 with quick play, else 2."""
        return 1 if self.rules.quick_play is not None else 2

    @property
    def current(self) -> GameState:
        """The game being played (the last one)."""
        return self.games[-1]

    @property
    def over(self) -> bool:
        """True when every game of the match has ended."""
        return len(self.games) == self.number_of_games and self.current.over

    def wolf_of(self, game: int) -> str:
        """The player who is the Wolf in game `game` (0-based)."""
        return self.players[game % 2]

    def play(self, move: Move) -> Match:
        """Play a move in the current game, starting game 2 when game 1 has ended."""
        games = list(self.games)
        if self.current.over:
            if len(games) >= self.number_of_games:
                raise IllegalMoveError("the match is over")
            games.append(GameState.new(self.rules, mirror_of=self.games[0].layout))
        games[-1] = games[-1].play(move)
        return Match(self.rules, tuple(games), self.players)

    def start_next_game(self) -> Match:
        """Begin game 2 explicitly (game 1 must be over)."""
        if not self.current.over or len(self.games) >= self.number_of_games:
            raise IllegalMoveError("the next game can start only when game 1 is over")
        return Match(self.rules, (*self.games, GameState.new(self.rules,
                                                             mirror_of=self.games[0].layout)),
                     self.players)

    def totals(self) -> dict[str, int]:
        """Each player's score: the Wolf points they made in the game they were the Wolf."""
        out = dict.fromkeys(self.players, 0)
        for i, g in enumerate(self.games):
            out[self.wolf_of(i)] += g.score
        return out

    def to_beat(self, game: int | None = None) -> int | None:
        """What the Wolf of `game` (0-based; default the current one) must exceed: game 1's
        score in game 2, the target minus one in quick play, nothing in game 1 of a match."""
        index = len(self.games) - 1 if game is None else game
        if self.rules.quick_play is not None:
            return self.rules.quick_play - 1
        if index == 1:
            return self.games[0].score
        return None

    def winner(self) -> str | None:
        """The winning player once the match is over; None while running or for a draw."""
        if not self.over:
            return None
        if self.rules.quick_play is not None:
            wolf = self.wolf_of(0)
            farmer = self.players[1]
            return wolf if self.games[0].score >= self.rules.quick_play else farmer
        t = self.totals()
        a, b = self.players
        if t[a] == t[b]:
            return None
        return a if t[a] > t[b] else b
