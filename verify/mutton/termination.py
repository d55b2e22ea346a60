"""M24: every game ends, with the longest possible game in rounds per variant; and the standard
"game need not end" gap (MUTTON-NO-END) when a variant's rules would allow an endless game.

Proof: the `rank` obligations of the invariant proofs show that kills, escapes, shots and
volleys lower the living count, a Wolf pass sets the flag that forbids the Farmer's pass, and
passes change nothing else; so every round removes at least one living animal, and a game not
over has a hidden wolf alive. Round r therefore starts with at most N-r+1 living animals and
at least one: a game lasts at most N rounds (N = num_sheep). A witness game of the Python
model with one death per round, the last wolf dying last, shows the bound is reached; the
same play lets the Farmer pass whenever the model under test allows it, so a model that lets
a game run on (a repeated position, or more moves than the bound allows) is caught with the
play as its witness. The expectation is PROVED for every variant: docs/rules.md M24 says every game
ends. A repeated position in a variant whose rank lemmas are refuted is a rules gap
(MUTTON-NO-END) for the variant under test; with the lemmas proved it is a model bug (FAILED).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.moves import (
    ChooseWolves,
    FarmerPass,
    Kill,
    Move,
    PlaceRandom,
    Run,
    Shoot,
    WolfPass,
)
from fleece.rules.mutton.options import MuttonOptions
from fleece.verify.mutton.ids import NO_END_GAP
from fleece.verify.result import (
    FAILED,
    NO_END,
    PROVED,
    REFUTED,
    UNKNOWN,
    CheckResult,
    RulesGap,
    gap_found,
)

BASIS = "docs/rules.md M24: every game ends (a claim to be proved)"
CLAUSES = ("M7", "M11", "M14", "M19", "M24")


def _farmer_may_pass(state: GameState) -> bool:
    """The model under test accepts a Farmer pass here."""
    try:
        state.play(FarmerPass())
    except IllegalMoveError:
        return False
    return True


def _greedy_move(state: GameState, rng: random.Random) -> Move:
    """One death per round: the Wolf eats a sheep when it can (a wolf only while another wolf
    is left), the Farmer passes whenever the model allows it (after a kill) and otherwise
    shoots a sheep (after a Wolf pass)."""
    if state.phase is Phase.WOLF:
        kills = state.legal_kills()
        sheep = [k for k in kills if k.victim not in state.wolves]
        pick = sheep or kills
        if not pick:
            return WolfPass()
        k = rng.choice(pick)
        dest = rng.sample(k.free_cells, len(k.runners))
        return Kill(k.victim, tuple(Run(a, c) for a, c in zip(k.runners, dest, strict=True)))
    if _farmer_may_pass(state):
        return FarmerPass()
    shots = state.shot_options()
    sheep = [s for s in shots if s.victim not in state.wolves]
    s = rng.choice(sheep or shots)
    dest = rng.sample(s.free_cells, len(s.runners))
    return Shoot(s.victim, tuple(Run(a, c) for a, c in zip(s.runners, dest, strict=True)))


def position_key(state: GameState) -> tuple[object, ...]:
    """What the rules can see of a position (not the move count or history): two equal keys
    in one game mean the play can repeat forever."""
    return (state.positions, state.fates, state.corpses, state.wolves, state.phase,
            state.wolf_passed, state.berserk_used)


@dataclass(frozen=True)
class EndlessPlay:
    """A play of the model under test that need not end: the position after move
    `first_seen` recurs after move `repeated` (a cycle), or the play passed `limit` moves
    (unbounded; `repeated` is None then)."""

    state: GameState
    first_seen: int | None
    repeated: int | None
    limit: int

    def describe(self) -> str:
        """One line: the cycle or the unbounded play."""
        if self.repeated is not None:
            return (f"the position after move {self.first_seen} recurs after move "
                    f"{self.repeated}: the play can cycle forever")
        return f"the game has not ended after {self.limit} moves"


def _play_one(state: GameState, rng: random.Random, limit: int
              ) -> tuple[GameState, EndlessPlay | None]:
    """Play the greedy strategy to the end; an EndlessPlay when a position repeats or the
    play passes `limit` moves."""
    seen: dict[tuple[object, ...], int] = {position_key(state): len(state.history)}
    while not state.over:
        if len(state.history) > limit:
            return state, EndlessPlay(state, None, None, limit)
        state = state.play(_greedy_move(state, rng))
        key = position_key(state)
        if key in seen:
            return state, EndlessPlay(state, seen[key], len(state.history), limit)
        seen[key] = len(state.history)
    return state, None


def witness_game(rules: MuttonOptions, tries: int = 20, seed: int = 5,
                 model: type[GameState] = GameState
                 ) -> tuple[int, GameState | None, EndlessPlay | None]:
    """The longest game found by the one-death-per-round strategy over random layouts, and
    the first play that need not end, if the model under test allows one."""
    rng = random.Random(seed)
    best: tuple[int, GameState | None] = (0, None)
    limit = 2 * (2 * rules.num_sheep + 2) + 10  # moves: placement, wolves, 2 per round
    for _ in range(tries):
        state = model.new(rules).play(PlaceRandom(rng.randrange(10**6)))
        state = state.play(ChooseWolves("".join(sorted(rng.sample(rules.letters,
                                                                   rules.num_wolves)))))
        state, endless = _play_one(state, rng, limit)
        if endless is not None:
            return best[0], best[1], endless
        if state.round > best[0]:
            best = (state.round, state)
        if best[0] == rules.num_sheep:
            break
    return best[0], best[1], None


def _record(state: GameState) -> str:
    from fleece.rules.mutton.record import format_record

    return format_record(state.rules, [list(state.history)])


def termination(rules: MuttonOptions, rank: str, rank_detail: str,
                model: type[GameState] = GameState, under_test: bool = False) -> CheckResult:
    """The M24 check for one variant. `rank` is the status of the variant's rank lemmas
    (PROVED, REFUTED or UNKNOWN); `under_test` marks the variant whose gaps gate (a no-end
    gap there is a RulesGap the user may accept; elsewhere it is a refutation of M24)."""
    from fleece.rules.mutton.moves import format_move

    t0 = time.perf_counter()
    n = rules.num_sheep
    name = rules.to_options().replace(" ", "")
    title = f"M24: every game ends within {n} rounds ({rules.to_options()})"
    try:
        rounds, game, endless = witness_game(rules, model=model)
    except IllegalMoveError as exc:
        return CheckResult(
            section="termination", name=name, title=title, outcome=FAILED, expected=PROVED,
            clauses=CLAUSES, basis=BASIS,
            detail=f"the Python model refused a move it listed as legal: {exc}",
            seconds=time.perf_counter() - t0)
    if endless is not None:
        record = _record(endless.state)
        hist = endless.state.history
        moves = " ".join(format_move(m) for m in hist)
        if endless.first_seen is not None and endless.repeated is not None:
            cycle = " ".join(format_move(m) for m in hist[endless.first_seen:endless.repeated])
            moves = (f"'{cycle}' repeats forever after the play "
                     + " ".join(format_move(m) for m in hist[:endless.first_seen]))
        if rank == PROVED:
            outcome, detail = FAILED, (
                f"the Python model plays a game that need not end ({endless.describe()}), "
                f"but the Z3 rank lemmas prove M24 for these rules ({rank_detail}): the "
                "model breaks a rule M24 rests on (M11, M14)")
        elif rank == UNKNOWN:
            outcome, detail = UNKNOWN, (
                f"undecided: the rank lemmas are not decided ({rank_detail}) and the Python "
                f"model plays a game that need not end ({endless.describe()})")
        elif under_test:
            gap = RulesGap(NO_END_GAP, NO_END, "M24",
                           f"a game that need not end: {endless.describe()}",
                           moves, rules.to_options(), record, "fleece mutton replay FILE")
            return gap_found("termination", name, title, gap, clauses=CLAUSES, basis=BASIS,
                             detail=f"the rank lemmas are refuted ({rank_detail}) and "
                                    f"{endless.describe()}",
                             seconds=time.perf_counter() - t0)
        else:
            outcome, detail = REFUTED, (
                f"the rank lemmas are refuted ({rank_detail}) and {endless.describe()}")
        return CheckResult(
            section="termination", name=name, title=title, outcome=outcome, expected=PROVED,
            clauses=CLAUSES, basis=BASIS, detail=detail, witness=moves,
            seconds=time.perf_counter() - t0, data={"record": record})
    tight = rounds == n
    if rank == UNKNOWN:
        outcome = UNKNOWN
    elif rank == REFUTED:
        outcome = REFUTED  # the argument does not go through (no endless play found either)
    elif rounds > n:
        outcome = FAILED  # a game longer than the proved bound: the models disagree
    else:
        outcome = PROVED
    moves = " ".join(format_move(m) for m in game.history[2:]) if game else ""
    return CheckResult(
        section="termination", name=name, title=title, outcome=outcome, expected=PROVED,
        clauses=CLAUSES, basis=BASIS,
        detail=(("undecided: " if outcome == UNKNOWN else "")
                + f"bound {n} rounds from the Z3 rank lemmas ({rank_detail}); witness game of "
                f"{rounds} rounds " + ("reaches it" if tight else "(bound not shown tight)")),
        witness=(f"{format_move(game.history[0])} {format_move(game.history[1])} {moves}"
                 if game else ""),
        seconds=time.perf_counter() - t0,
        data={"bound": n, "witness_rounds": rounds, "tight": tight})
