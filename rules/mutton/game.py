"""Mutton game state, legal move generation and move application (M6-M24).

`GameState` is immutable: `state.play(move)` returns the next state or raises
`IllegalMoveError` saying why (the old state is untouched by construction). Legal moves are
generated lazily because their number explodes (a kill with six runners and thirty free cells
has 30*29*...*25 placements; a berserk volley is any subset of the living animals):
`legal_kills()` lists each kill with its runners and free cells, `legal_moves()` iterates
every complete move, and `count_legal_moves()` counts them with exact arithmetic.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.geometry import Board, Cell, board
from fleece.rules.mutton.layout import check_cells, random_layout, sparse_layout
from fleece.rules.mutton.moves import (
    Berserk,
    ChooseWolves,
    Escape,
    FarmerMove,
    FarmerPass,
    Kill,
    Move,
    PlaceCells,
    Placement,
    PlaceMirror,
    PlaceRandom,
    PlaceSparse,
    Run,
    Shoot,
    Side,
    WolfMove,
    WolfPass,
)
from fleece.rules.mutton.options import MuttonOptions
from fleece.rules.protocol import TERMINAL, ChanceFree

ESCAPE_POINTS = 3  # M12
FARMER, WOLF = 0, 1  # player indices of the game protocol (rules.protocol)


class Phase(Enum):
    """What the game waits for next."""

    PLACE = "place"  # the Farmer places the animals
    CHOOSE = "choose"  # the Wolf secretly picks the wolves
    WOLF = "wolf"  # Wolf move of a round
    FARMER = "farmer"  # Farmer move of a round
    OVER = "over"


class Fate(Enum):
    """What became of an animal."""

    ALIVE = "alive"
    EATEN = "eaten"  # killed by the Wolf (M8)
    SHOT = "shot"  # shot by the Farmer (M13)
    DEVOURED = "devoured"  # a sheep eaten after a failed berserk volley (M15)
    ESCAPED = "escaped"  # a wolf that escaped (M12)


@dataclass(frozen=True, slots=True)
class KillRecord:
    """One row of the Farmer's chart: the round, the victim and every animal that ran (M25)."""

    round: int
    victim: str
    runners: frozenset[str]


@dataclass(frozen=True, slots=True)
class KillOption:
    """A legal kill before the runners are placed: who dies, who must run, where they may go."""

    victim: str
    runners: tuple[str, ...]
    free_cells: tuple[Cell, ...]

    @property
    def placements(self) -> int:
        """Number of distinct runner placements: free!/(free-runners)!."""
        return math.perm(len(self.free_cells), len(self.runners))


@dataclass(frozen=True)
class GameState(ChanceFree):
    """A whole game position, immutable. Animals are addressed by letter (`A`..).

    It implements the game protocol (rules.protocol): players 0 = Farmer, 1 = Wolf; no chance
    (a random layout is the Farmer's move `random=SEED`); `returns()` pays at the end:
    (-score, score) in a game of a match, (+1, -1) / (-1, +1) for the winner of quick play."""

    rules: MuttonOptions
    positions: tuple[Cell | None, ...]
    fates: tuple[Fate, ...]
    corpses: frozenset[Cell] = frozenset()
    wolves: frozenset[str] = frozenset()
    phase: Phase = Phase.PLACE
    round: int = 0
    wolf_passed: bool = False
    berserk_used: bool = False
    stalled: bool = False  # the Farmer had to shoot but no shot was legal (shotgun only)
    kills: tuple[KillRecord, ...] = ()
    history: tuple[Move, ...] = ()
    layout: tuple[Cell, ...] | None = None
    mirror_of: tuple[Cell, ...] | None = field(default=None, compare=False)

    # ---- construction --------------------------------------------------------------------

    @classmethod
    def new(cls, rules: MuttonOptions | None = None, *, mirror_of: tuple[Cell, ...] | None = None
            ) -> GameState:
        """An empty board waiting for the Farmer's placement. `mirror_of` is the first game's
        layout when this is the second game of a match (enables `mirror`)."""
        r = rules or MuttonOptions()
        n = r.num_sheep
        return cls(rules=r, positions=(None,) * n, fates=(Fate.ALIVE,) * n,
                   mirror_of=mirror_of)

    # ---- basic queries -------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The board geometry of this game's size."""
        return board(self.rules.size)

    @property
    def letters(self) -> str:
        """All animal letters."""
        return self.rules.letters

    def index(self, letter: str) -> int:
        """Index of an animal letter; IllegalMoveError for a letter not in this game."""
        i = ord(letter) - 65
        if len(letter) != 1 or not 0 <= i < self.rules.num_sheep:
            raise IllegalMoveError(
                f"there is no animal {letter!r} (animals are {self.letters[0]}..{self.letters[-1]})"
            )
        return i

    def position(self, letter: str) -> Cell | None:
        """Where an animal stands, or None when it is dead, escaped or not placed."""
        return self.positions[self.index(letter)]

    def fate(self, letter: str) -> Fate:
        """What became of an animal."""
        return self.fates[self.index(letter)]

    def is_alive(self, letter: str) -> bool:
        """True while an animal is alive on the board."""
        return self.fates[self.index(letter)] is Fate.ALIVE

    def living(self) -> tuple[str, ...]:
        """Letters of the living animals."""
        return tuple(a for a, f in zip(self.letters, self.fates, strict=True) if f is Fate.ALIVE)

    def animal_cells(self) -> dict[str, Cell]:
        """Map of animal letter -> cell, for the animals on the board."""
        return {a: c for a, c in zip(self.letters, self.positions, strict=True) if c is not None}

    def occupant(self) -> dict[Cell, str]:
        """Map of occupied cell -> animal letter."""
        return {c: a for a, c in self.animal_cells().items()}

    def hidden_wolves(self) -> frozenset[str]:
        """Wolves alive on the board (M19: the game ends when there are none)."""
        return frozenset(w for w in self.wolves if self.is_alive(w))

    def is_wolf(self, letter: str) -> bool:
        """True when the animal is one of the Wolf's chosen wolves."""
        return letter in self.wolves

    @property
    def to_move(self) -> Side | None:
        """Who moves next (None when the game is over)."""
        if self.phase in (Phase.PLACE, Phase.FARMER):
            return Side.FARMER
        if self.phase in (Phase.CHOOSE, Phase.WOLF):
            return Side.WOLF
        return None

    @property
    def over(self) -> bool:
        """True when the game has ended (M19, M15)."""
        return self.phase is Phase.OVER

    # ---- game protocol (rules.protocol) ----------------------------------------------------

    def current_player(self) -> int:
        """FARMER (placement, Farmer moves), WOLF (choice of wolves, Wolf moves) or TERMINAL."""
        side = self.to_move
        if side is None:
            return TERMINAL
        return FARMER if side is Side.FARMER else WOLF

    def is_terminal(self) -> bool:
        """True once the game is over."""
        return self.over

    def returns(self) -> tuple[Fraction, ...]:
        """(Farmer, Wolf) payoffs once the game is over, else zeros (see the class doc)."""
        if not self.over:
            return (Fraction(0), Fraction(0))
        if self.rules.quick_play is not None:
            won = self.score >= self.rules.quick_play
            return (Fraction(-1), Fraction(1)) if won else (Fraction(1), Fraction(-1))
        return (Fraction(-self.score), Fraction(self.score))

    # ---- score (M20, M22) ----------------------------------------------------------------

    def dead_sheep(self) -> int:
        """Sheep that died in any way (eaten, shot, devoured after berserk)."""
        return sum(
            1 for a, f in zip(self.letters, self.fates, strict=True)
            if f in (Fate.EATEN, Fate.SHOT, Fate.DEVOURED) and a not in self.wolves
        )

    def escaped_wolves(self) -> int:
        """Wolves that escaped (M12)."""
        return sum(1 for f in self.fates if f is Fate.ESCAPED)

    @property
    def score(self) -> int:
        """The Wolf's score: one per dead sheep plus the escape bonus (M20)."""
        return self.dead_sheep() + ESCAPE_POINTS * self.escaped_wolves()

    def wolf_wins_quick_play(self) -> bool | None:
        """Quick play (M22): True/False once the game is over, None otherwise or in a match."""
        if self.rules.quick_play is None or not self.over:
            return None
        return self.score >= self.rules.quick_play

    # ---- geometry helpers ----------------------------------------------------------------

    def _living_neighbours(self, cell: Cell, occ: dict[Cell, str]) -> list[str]:
        return sorted(occ[n] for n in self.board.neighbours(cell) if n in occ)

    def _free_cells_around(self, centre: Cell, occ: dict[Cell, str], runners: set[str]
                           ) -> tuple[Cell, ...]:
        """Cells a runner from `centre` may take (M9): no animal other than a runner, no
        corpse, not the centre, not adjacent to the centre."""
        b = self.board
        near = b.neighbours(centre)
        out: list[Cell] = []
        for c in b.cells:
            if c == centre or c in near or c in self.corpses:
                continue
            who = occ.get(c)
            if who is not None and who not in runners:
                continue
            out.append(c)
        return tuple(out)

    def _option_for(self, victim: str, occ: dict[Cell, str]) -> KillOption:
        cell = self.positions[self.index(victim)]
        assert cell is not None
        runners = self._living_neighbours(cell, occ)
        return KillOption(victim, tuple(runners), self._free_cells_around(cell, occ, set(runners)))

    # ---- Wolf moves (M8-M12) -------------------------------------------------------------

    def kill_candidates(self) -> list[KillOption]:
        """Every victim next to a living hidden wolf, placeable or not (for rule-gap checks)."""
        if self.phase is not Phase.WOLF:
            return []
        occ = self.occupant()
        hidden = self.hidden_wolves()
        out = []
        for victim in self.living():
            cell = self.positions[self.index(victim)]
            assert cell is not None
            if any(occ.get(n) in hidden for n in self.board.neighbours(cell)):
                out.append(self._option_for(victim, occ))
        return out

    def legal_kills(self) -> list[KillOption]:
        """Kills whose runners can all be placed (M10), in letter order of the victim."""
        return [k for k in self.kill_candidates() if len(k.runners) <= len(k.free_cells)]

    def isolated_animals(self) -> frozenset[str]:
        """Living animals with no living neighbour (the ones that could escape, M12)."""
        occ = self.occupant()
        return frozenset(a for c, a in occ.items() if not self._living_neighbours(c, occ))

    def escapes(self) -> list[str]:
        """Hidden wolves with no living neighbour, when the escape option is on (M12)."""
        if self.phase is not Phase.WOLF or not self.rules.escape:
            return []
        return sorted(self.hidden_wolves() & self.isolated_animals())

    # ---- Farmer moves (M13-M17) ----------------------------------------------------------

    def farmer_must_shoot(self) -> bool:
        """After a Wolf pass the Farmer may not pass (M14)."""
        return self.phase is Phase.FARMER and self.wolf_passed

    def berserk_available(self) -> bool:
        """Berserk is allowed by the rules and not yet used (M13, C2)."""
        return (self.phase is Phase.FARMER and self.rules.berserk_allowed
                and not self.berserk_used and len(self.living()) >= 2)

    def shot_options(self) -> list[KillOption]:
        """Single shots the Farmer can fire; with the shotgun, each with its runners (M17)."""
        if self.phase is not Phase.FARMER:
            return []
        occ = self.occupant()
        out = []
        for target in self.living():
            if self.rules.shotgun:
                opt = self._option_for(target, occ)
                if len(opt.runners) <= len(opt.free_cells):
                    out.append(opt)
            else:
                out.append(KillOption(target, (), ()))
        return out

    # ---- all legal moves -----------------------------------------------------------------

    def legal_moves(self) -> Iterator[Move]:
        """Every complete legal move, lazily. Placements are listed as `sparse`, `mirror` and
        every explicit cell list; `random=SEED` is accepted by `play` as shorthand for the
        cell list it draws, so it is not listed again."""
        if self.phase is Phase.PLACE:
            r = self.rules
            if r.size == 4 and r.num_sheep == 26:
                yield PlaceSparse()
            if self.mirror_of is not None:
                yield PlaceMirror()
            for cells in itertools.permutations(self.board.cells, r.num_sheep):
                yield PlaceCells(cells)
        elif self.phase is Phase.CHOOSE:
            yield from (ChooseWolves(w) for w in self._wolf_choices())
        elif self.phase is Phase.WOLF:
            kills = self.legal_kills()
            for k in kills:
                for dest in itertools.permutations(k.free_cells, len(k.runners)):
                    yield Kill(k.victim, tuple(Run(a, c) for a, c in zip(k.runners, dest,
                                                                         strict=True)))
            for w in self.escapes():
                yield Escape(w)
            if not kills:
                yield WolfPass()
        elif self.phase is Phase.FARMER:
            if not self.wolf_passed:
                yield FarmerPass()
            for s in self.shot_options():
                for dest in itertools.permutations(s.free_cells, len(s.runners)):
                    yield Shoot(s.victim, tuple(Run(a, c) for a, c in zip(s.runners, dest,
                                                                          strict=True)))
            if self.berserk_available():
                alive = self.living()
                for size in range(2, len(alive) + 1):
                    for combo in itertools.combinations(alive, size):
                        yield Berserk(combo)

    def count_legal_moves(self) -> int:
        """The exact number of moves `legal_moves()` yields, computed without listing them."""
        if self.phase is Phase.WOLF:
            kills = self.legal_kills()
            return sum(k.placements for k in kills) + len(self.escapes()) + (0 if kills else 1)
        if self.phase is Phase.FARMER:
            n = 0 if self.wolf_passed else 1
            n += sum(s.placements for s in self.shot_options())
            if self.berserk_available():
                alive = len(self.living())
                n += 2 ** alive - 1 - alive
            return n
        if self.phase is Phase.PLACE:
            r = self.rules
            special = (r.size == 4 and r.num_sheep == 26) + (self.mirror_of is not None)
            return special + math.perm(len(self.board), r.num_sheep)
        if self.phase is Phase.CHOOSE:
            if self.rules.dictionary is None:
                return math.comb(self.rules.num_sheep, self.rules.num_wolves)
            return sum(1 for _ in self._wolf_choices())
        return 0

    def _wolf_choices(self) -> Iterator[str]:
        """The wolf sets the Wolf may choose (M6, M23), as sorted letter strings."""
        r = self.rules
        if r.dictionary is None:
            for combo in itertools.combinations(self.letters, r.num_wolves):
                yield "".join(combo)
            return
        pool = frozenset(self.letters)
        yield from sorted("".join(sorted(w)) for w in r.dictionary
                          if len(w) == r.num_wolves and w <= pool)

    # ---- applying moves ------------------------------------------------------------------

    def play(self, move: Move) -> GameState:
        """The state after `move`; IllegalMoveError (with the reason) when it is not legal."""
        match move:
            case PlaceSparse() | PlaceRandom() | PlaceMirror() | PlaceCells():
                return self._place(move)
            case ChooseWolves():
                return self._choose(move)
            case Kill() | Escape() | WolfPass():
                return self._wolf(move)
            case Shoot() | Berserk() | FarmerPass():
                return self._farmer(move)
        raise IllegalMoveError(f"not a Mutton move: {move!r}")

    def _expect(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            if self.phase is Phase.OVER:
                raise IllegalMoveError(f"the game is over; no {what} is possible")
            expected = {
                Phase.PLACE: "the Farmer's placement",
                Phase.CHOOSE: "the Wolf's choice of wolves (wolves=...)",
                Phase.WOLF: "a Wolf move",
                Phase.FARMER: "a Farmer move",
            }[self.phase]
            raise IllegalMoveError(f"{what} is not possible now: waiting for {expected}")

    def _place(self, move: Placement) -> GameState:
        self._expect(Phase.PLACE, "a placement")
        r = self.rules
        b = self.board
        if isinstance(move, PlaceSparse):
            cells = sparse_layout(r.size, r.num_sheep)
        elif isinstance(move, PlaceRandom):
            cells = random_layout(r.size, r.num_sheep, move.seed)
        elif isinstance(move, PlaceMirror):
            if self.mirror_of is None:
                raise IllegalMoveError("mirror is only possible in the second game of a match")
            cells = self.mirror_of
        else:
            cells = move.cells
        check_cells(b, cells, r.num_sheep)
        return replace(self, positions=tuple(cells), phase=Phase.CHOOSE, layout=tuple(cells),
                       history=(*self.history, move))

    def _choose(self, move: ChooseWolves) -> GameState:
        self._expect(Phase.CHOOSE, "choosing wolves")
        letters = move.letters
        for a in letters:
            self.index(a)
        if len(set(letters)) != self.rules.num_wolves:
            raise IllegalMoveError(
                f"the Wolf must choose {self.rules.num_wolves} distinct wolves, got '{letters}'"
            )
        if not self.rules.allows_wolf_set(letters):
            raise IllegalMoveError(f"'{letters}' is not a word of the dictionary (M23)")
        return replace(self, wolves=frozenset(letters), phase=Phase.WOLF, round=1,
                       history=(*self.history, move))

    def _wolf(self, move: WolfMove) -> GameState:
        self._expect(Phase.WOLF, "a Wolf move")
        if isinstance(move, WolfPass):
            if self.legal_kills():
                raise IllegalMoveError("the Wolf may not pass while a legal kill exists (M11)")
            return replace(self, phase=Phase.FARMER, wolf_passed=True,
                           history=(*self.history, move))._after_move()
        if isinstance(move, Escape):
            if not self.rules.escape:
                raise IllegalMoveError("escape is not allowed: the escape option is off (M12)")
            a = move.animal
            self.index(a)
            if a not in self.hidden_wolves():
                raise IllegalMoveError(f"{a} is not a living wolf, so it cannot escape")
            if a not in self.escapes():
                raise IllegalMoveError(f"{a} cannot escape: it has a living neighbour (M12)")
            i = self.index(a)
            state = replace(
                self,
                positions=_set(self.positions, i, None),
                fates=_set(self.fates, i, Fate.ESCAPED),
                phase=Phase.FARMER,
                wolf_passed=False,
                history=(*self.history, move),
            )
            return state._after_move()
        victim = move.victim
        vi = self.index(victim)
        if self.fates[vi] is not Fate.ALIVE:
            raise IllegalMoveError(f"{victim} is not alive")
        occ = self.occupant()
        vcell = self.positions[vi]
        assert vcell is not None
        hidden = self.hidden_wolves()
        if not any(occ.get(n) in hidden for n in self.board.neighbours(vcell)):
            raise IllegalMoveError(f"{victim} is not next to a living wolf (M8)")
        option = self._option_for(victim, occ)
        new_positions = self._check_runs(option, move.runs, "kill")
        new_positions[vi] = None
        corpses = self.corpses if self.rules.corpses_removed else self.corpses | {vcell}
        state = replace(
            self,
            positions=tuple(new_positions),
            fates=_set(self.fates, vi, Fate.EATEN),
            corpses=corpses,
            phase=Phase.FARMER,
            wolf_passed=False,
            kills=(*self.kills, KillRecord(self.round, victim, frozenset(option.runners))),
            history=(*self.history, move),
        )
        return state._after_move()

    def _check_runs(self, option: KillOption, runs: tuple[Run, ...], what: str
                    ) -> list[Cell | None]:
        """Validate runner destinations against M9/M10; return the new position list."""
        need = set(option.runners)
        given = [r.animal for r in runs]
        if len(option.runners) > len(option.free_cells):
            raise IllegalMoveError(
                f"the {what} of {option.victim} is not legal: {len(option.runners)} runners but "
                f"only {len(option.free_cells)} free cells away from it (M10)"
            )
        if len(set(given)) != len(given):
            raise IllegalMoveError(f"a runner is moved twice in the {what} of {option.victim}")
        missing = sorted(need - set(given))
        extra = sorted(set(given) - need)
        if extra:
            raise IllegalMoveError(
                f"{', '.join(extra)} {'is' if len(extra) == 1 else 'are'} not next to "
                f"{option.victim}, so cannot run"
            )
        if missing:
            raise IllegalMoveError(
                f"every neighbour of {option.victim} must run: {', '.join(missing)} "
                f"{'is' if len(missing) == 1 else 'are'} not moved (M9)"
            )
        free = set(option.free_cells)
        targets = [r.to for r in runs]
        if len(set(targets)) != len(targets):
            raise IllegalMoveError("two runners are sent to the same cell (M9)")
        positions = list(self.positions)
        for r in runs:
            if r.to not in free:
                raise IllegalMoveError(
                    f"{r.animal} cannot run to {r.to.name}: {self._why_not_free(option, r.to)}"
                )
            positions[self.index(r.animal)] = r.to
        return positions

    def _why_not_free(self, option: KillOption, cell: Cell) -> str:
        centre = self.positions[self.index(option.victim)]
        assert centre is not None
        if cell not in self.board:
            return "not on the board"
        if cell == centre:
            return "that is the victim's own cell"
        if self.board.adjacent(cell, centre):
            return f"it is next to {option.victim} (M9)"
        if cell in self.corpses:
            return "a corpse lies there"
        who = self.occupant().get(cell)
        return f"{who} stands there" if who else "it is not free"

    def _farmer(self, move: FarmerMove) -> GameState:
        self._expect(Phase.FARMER, "a Farmer move")
        if isinstance(move, FarmerPass):
            if self.wolf_passed:
                raise IllegalMoveError("after a Wolf pass the Farmer must shoot (M14)")
            return replace(self, history=(*self.history, move))._next_round()
        if isinstance(move, Berserk):
            if not self.rules.berserk_allowed:
                why = "the shotgun has one barrel (M17)" if self.rules.shotgun else \
                    "the berserk option is off"
                raise IllegalMoveError(f"berserk is not allowed: {why}")
            if self.berserk_used:
                raise IllegalMoveError("berserk can be used only once per game (C2)")
            if len(move.targets) < 2:
                raise IllegalMoveError("a berserk volley shoots two or more animals")
            if len(set(move.targets)) != len(move.targets):
                raise IllegalMoveError("an animal is shot twice in the volley")
            fates = list(self.fates)
            positions = list(self.positions)
            bodies = set(self.corpses)
            for t in move.targets:
                i = self.index(t)
                if fates[i] is not Fate.ALIVE:
                    raise IllegalMoveError(f"{t} is not alive, so it cannot be shot")
                fates[i] = Fate.SHOT
                cell = positions[i]
                assert cell is not None
                bodies.add(cell)
                positions[i] = None
            if self.rules.corpses_removed:
                bodies = set(self.corpses)
            survivors = any(fates[self.index(w)] is Fate.ALIVE for w in self.wolves)
            if survivors:  # M15: the surviving wolves eat every remaining sheep
                for i, a in enumerate(self.letters):
                    if fates[i] is Fate.ALIVE and a not in self.wolves:
                        fates[i] = Fate.DEVOURED
                        positions[i] = None
            return replace(self, fates=tuple(fates), positions=tuple(positions),
                           corpses=frozenset(bodies), berserk_used=True, phase=Phase.OVER,
                           history=(*self.history, move))
        target = move.target
        ti = self.index(target)
        if self.fates[ti] is not Fate.ALIVE:
            raise IllegalMoveError(f"{target} is not alive, so it cannot be shot")
        tcell = self.positions[ti]
        assert tcell is not None
        if self.rules.shotgun:
            option = self._option_for(target, self.occupant())
            positions = self._check_runs(option, move.runs, "shotgun blast")
        else:
            if move.runs:
                raise IllegalMoveError("only a shotgun makes animals run (M17)")
            positions = list(self.positions)
        positions[ti] = None
        corpses = self.corpses if self.rules.corpses_removed else self.corpses | {tcell}
        state = replace(self, positions=tuple(positions), fates=_set(self.fates, ti, Fate.SHOT),
                        corpses=corpses, history=(*self.history, move))
        state = state._after_move()
        return state if state.over else state._next_round()

    def _after_move(self) -> GameState:
        """End the game when no hidden wolf is left (M19); stall when the Farmer cannot obey
        M14 (possible only with the shotgun, where a blast can be unplaceable)."""
        if not self.hidden_wolves():
            return replace(self, phase=Phase.OVER)
        if self.phase is Phase.FARMER and self.wolf_passed and not self.shot_options() \
                and not self.berserk_available():
            return replace(self, phase=Phase.OVER, stalled=True)
        return self

    def _next_round(self) -> GameState:
        return replace(self, phase=Phase.WOLF, round=self.round + 1, wolf_passed=False)


def _set(values: tuple[object, ...], i: int, value: object) -> tuple:  # type: ignore[type-arg]
    out = list(values)
    out[i] = value
    return tuple(out)
