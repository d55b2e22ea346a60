"""Matches between robots, refereed by the rules model, and paired comparisons of two robots
on the same side.

`play_match(MatchRequest(...))` plays N single games, a Farmer robot against a Wolf robot.
Game i draws everything from the seed sequence (seed, i): the layout (the rulebook's sparse
layout when the board allows it, else a random one), the wolves (uniformly at random: the
same for every robot, so two runs with one seed are paired game by game), and each robot's
own seed. Every robot move goes through `GameState.play`; an illegal one raises BotError (a
robot bug, never silently fixed). A progress callback hears each finished game; a stop flag
(checked between games) or Ctrl-C (KeyboardInterrupt) ends the match early, and the result
holds the games finished so far (`stopped`).

A game's score is the Wolf's points (M20: dead sheep, plus 3 per escaped wolf): the sheep lost.
The Farmer wins a game when the score stays under the win target: the quick-play target of the
rules (M22), else the rulebook's quick-play target, 11 (a game of a two-game match has no winner
of its own).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fleece.rules.errors import FleeceError, IllegalMoveError
from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.moves import (
    ChooseWolves,
    Move,
    Placement,
    PlaceRandom,
    PlaceSparse,
    Side,
    format_move,
)
from fleece.rules.mutton.options import QUICK_PLAY_TARGET, MuttonOptions
from fleece.rules.mutton.record import format_record
from fleece.solver.mutton.bots.base import Bot, random_wolves
from fleece.solver.mutton.bots.registry import check_bot, check_rules, make_bot
from fleece.solver.mutton.bots.stats import Estimate

MAX_GAMES = 100_000
MAX_PLIES = 2_000  # far beyond any game (M24: every round kills or passes, then a shot)
LAYOUTS = ("sparse", "random")
# Named rule sets with their layouts: pbmserv's defaults from the rulebook's sparse layout, and
# the closest fleece rules to boardspace.net's game (one game, quick play to the rulebook's 11,
# a set-up of the player's choosing, here random).
RULE_SETS: dict[str, tuple[MuttonOptions, str]] = {
    "pbmserv default": (MuttonOptions(), "sparse"),
    "boardspace-like": (MuttonOptions(quick_play=11), "random"),
}


class BotError(RuntimeError):
    """A robot returned an illegal move or a game did not end: a bug in the robot."""


@dataclass(frozen=True)
class MatchRequest:
    """What to play: robots by name, the number of games, the seed, the rules, the layout
    (`sparse` falls back to `random` where the sparse layout does not exist)."""

    farmer: str
    wolf: str
    games: int
    seed: int = 0
    rules: MuttonOptions = field(default_factory=MuttonOptions)
    layout: str = "sparse"

    def check(self) -> None:
        """One-line FleeceErrors for a bad request (robot names, game count, rules)."""
        check_bot(self.farmer, "--farmer")
        check_bot(self.wolf, "--wolf")
        if not 1 <= self.games <= MAX_GAMES:
            raise FleeceError(f"--games: must be in 1..{MAX_GAMES}, got {self.games}")
        if not 0 <= self.seed < 2**63:
            raise FleeceError(f"--seed: must be in 0..2**63-1, got {self.seed}")
        if self.layout not in LAYOUTS:
            raise FleeceError(f"--layout: unknown layout {self.layout!r} (known: "
                              f"{', '.join(LAYOUTS)})")
        check_rules(self.rules, "--rules")


@dataclass(frozen=True)
class GameResult:
    """One finished game: its number and seeds, the wolves, the score (sheep lost), the plies
    (moves after the set-up), the winner, and the record (`fleece mutton replay` reads it)."""

    index: int
    wolves: str
    score: int
    plies: int
    farmer_won: bool
    stalled: bool
    record: str

    def to_json(self) -> dict[str, Any]:
        """The game as JSON."""
        return {"index": self.index, "wolves": self.wolves, "sheep_lost": self.score,
                "plies": self.plies, "winner": "farmer" if self.farmer_won else "wolf",
                "stalled": self.stalled, "record": self.record}


@dataclass(frozen=True)
class MatchResult:
    """The games of a match (possibly stopped early) and their statistics."""

    request: MatchRequest
    games: tuple[GameResult, ...]
    stopped: bool = False
    seconds: float = 0.0

    @property
    def win_target(self) -> int:
        """The score from which the Wolf wins a game (module docstring)."""
        q = self.request.rules.quick_play
        return QUICK_PLAY_TARGET if q is None else q

    @property
    def sheep_lost(self) -> Estimate:
        """Mean sheep lost per game with its 95% interval."""
        return Estimate.of([g.score for g in self.games])

    @property
    def plies(self) -> Estimate:
        """Mean moves per game."""
        return Estimate.of([g.plies for g in self.games])

    @property
    def farmer_wins(self) -> int:
        """Games the Farmer won."""
        return sum(g.farmer_won for g in self.games)

    @property
    def wolf_wins(self) -> int:
        """Games the Wolf won."""
        return len(self.games) - self.farmer_wins

    def to_json(self, records: bool = True) -> dict[str, Any]:
        """`{"games", "farmer", "wolf", "sheep_lost": {"mean", "ci95"}, "farmer_wins",
        "wolf_wins", "plies": {"mean"}}`, the request's other fields, and per-game records."""
        r = self.request
        out: dict[str, Any] = {
            "games": len(self.games), "farmer": r.farmer, "wolf": r.wolf,
            "sheep_lost": self.sheep_lost.to_json(), "farmer_wins": self.farmer_wins,
            "wolf_wins": self.wolf_wins, "plies": self.plies.to_json(),
            "requested": r.games, "stopped": self.stopped, "seed": r.seed,
            "rules": r.rules.to_options(), "layout": r.layout,
            "win_target": self.win_target, "seconds": round(self.seconds, 3),
        }
        if records:
            out["records"] = [g.to_json() for g in self.games]
        return out


Progress = Callable[[int, int, GameResult], None]


def game_seeds(seed: int, index: int) -> tuple[int, int, int, int]:
    """(layout, wolves, Farmer robot, Wolf robot) seeds of game `index` of a match."""
    from numpy.random import SeedSequence

    a, b, c, d = (int(x) for x in SeedSequence([seed, index]).generate_state(4, "uint64"))
    return a, b, c, d


def placement(rules: MuttonOptions, layout: str, seed: int) -> Placement:
    """The game's layout: sparse when asked and defined (size 4, 26 animals), else random."""
    if layout == "sparse" and rules.size == 4 and rules.num_sheep == 26:
        return PlaceSparse()
    return PlaceRandom(seed % 10**18)


BotFactory = Callable[[MuttonOptions, int], Bot]


def play_game(request: MatchRequest, index: int, farmer_bot: BotFactory | None = None,
              wolf_bot: BotFactory | None = None) -> GameResult:
    """Game `index` of a match (see the module docstring). `farmer_bot` / `wolf_bot` build
    the robots instead of the request's names (a robot with other settings, for studies);
    they are called with the rules and the robot's seed."""
    import random

    rules = request.rules
    s_layout, s_wolves, s_farmer, s_wolf = game_seeds(request.seed, index)
    farmer = (farmer_bot(rules, s_farmer) if farmer_bot is not None
              else make_bot(request.farmer, Side.FARMER, rules, s_farmer))
    wolf = (wolf_bot(rules, s_wolf) if wolf_bot is not None
            else make_bot(request.wolf, Side.WOLF, rules, s_wolf))
    choose: ChooseWolves = random_wolves(rules, random.Random(s_wolves))
    state = GameState.new(rules)
    moves: list[Move] = [placement(rules, request.layout, s_layout), choose]
    for m in moves:
        state = state.play(m)
    plies = 0
    while not state.over:
        bot = farmer if state.to_move is Side.FARMER else wolf
        move = bot.move(state)
        try:
            state = state.play(move)
        except IllegalMoveError as exc:
            raise BotError(f"the {bot.name} {bot.side.value} robot played the illegal move "
                           f"{format_move(move)!r} in game {index} of seed {request.seed}: "
                           f"{exc}") from None
        plies += 1
        if plies > MAX_PLIES:
            raise BotError(f"game {index} of seed {request.seed} did not end in {MAX_PLIES} "
                           "moves")
    record = format_record(rules, [list(state.history)])
    target = rules.quick_play if rules.quick_play is not None else QUICK_PLAY_TARGET
    return GameResult(index, choose.letters, state.score, plies, state.score < target,
                      state.stalled, record)


def play_match(request: MatchRequest, progress: Progress | None = None,
               stop: Callable[[], bool] | None = None) -> MatchResult:
    """Play the games of a request (module docstring)."""
    request.check()
    start = time.perf_counter()
    games: list[GameResult] = []
    stopped = False
    try:
        for i in range(request.games):
            if stop is not None and stop():
                stopped = True
                break
            games.append(play_game(request, i))
            if progress is not None:
                progress(len(games), request.games, games[-1])
    except KeyboardInterrupt:
        stopped = True
    return MatchResult(request, tuple(games), stopped, time.perf_counter() - start)


# ---- paired comparisons -------------------------------------------------------------------


@dataclass(frozen=True)
class PairedResult:
    """Two robots on one side against the same opponent, game by game on the same seeds
    (same layouts, same wolves): each match, and the per-game difference of sheep lost
    (first minus second)."""

    side: Side
    first: MatchResult
    second: MatchResult

    @property
    def difference(self) -> Estimate:
        """Mean of (sheep lost with the first robot - with the second), paired by game."""
        n = min(len(self.first.games), len(self.second.games))
        return Estimate.of([self.first.games[i].score - self.second.games[i].score
                            for i in range(n)])

    @property
    def stopped(self) -> bool:
        """True when the comparison was stopped early."""
        return self.first.stopped or self.second.stopped

    def to_json(self, records: bool = False) -> dict[str, Any]:
        """Both matches and the paired difference."""
        return {"side": self.side.value.lower(), "first": self.first.to_json(records),
                "second": self.second.to_json(records),
                "difference": self.difference.to_json(), "stopped": self.stopped}


def paired_match(side: Side, first: str, second: str, opponent: str, games: int, seed: int = 0,
                 rules: MuttonOptions | None = None, layout: str = "sparse",
                 progress: Progress | None = None, stop: Callable[[], bool] | None = None
                 ) -> PairedResult:
    """Play `first` and `second` on `side` against `opponent`, game i of each on the same
    seed (interleaved, so a stop leaves both with the same games)."""
    r = rules or MuttonOptions()

    def request(bot: str) -> MatchRequest:
        if side is Side.FARMER:
            return MatchRequest(bot, opponent, games, seed, r, layout)
        return MatchRequest(opponent, bot, games, seed, r, layout)

    a, b = request(first), request(second)
    a.check()
    b.check()
    start = time.perf_counter()
    ga: list[GameResult] = []
    gb: list[GameResult] = []
    stopped = False
    try:
        for i in range(games):
            if stop is not None and stop():
                stopped = True
                break
            one = play_game(a, i)
            two = play_game(b, i)
            ga.append(one)
            gb.append(two)
            if progress is not None:
                progress(i + 1, games, two)
    except KeyboardInterrupt:
        stopped = True
    took = time.perf_counter() - start
    return PairedResult(side, MatchResult(a, tuple(ga), stopped, took),
                        MatchResult(b, tuple(gb), stopped, took))
