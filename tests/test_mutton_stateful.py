"""Random legal matches under random rule options, with every invariant checked after every
step (OpenSpiel-style simulation tests as a Hypothesis RuleBasedStateMachine).

Invariants (docs/rules.md clause in brackets): one animal or corpse per cell; animals conserved
(living + dead + escaped); runners end on empty cells away from the corpse [M9]; the killer ran
[M26]; the score equals the dead sheep plus escape and berserk points, tallied here move by
move, independently of GameState.score [M12, M15, M20]; the game ends within num_sheep + 1
rounds [M24]; the emitted record replays to the same state [M28]; every chart row has a true
wolf among its runners [M25-M26]. Illegal moves raise IllegalMoveError and change nothing.
"""

from __future__ import annotations

import random

from hypothesis import event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.chart import Status, farmer_chart
from fleece.rules.mutton.game import Fate, GameState, Phase
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.match import Match
from fleece.rules.mutton.moves import (
    Berserk,
    Escape,
    FarmerPass,
    Kill,
    Move,
    PlaceMirror,
    Run,
    Shoot,
    WolfPass,
)
from fleece.rules.mutton.options import QUICK_PLAY_TARGET, MuttonOptions, Weapon
from fleece.rules.mutton.record import match_record, replay_text
from fleece.rules.mutton.simulate import FarmerPolicy, random_move


@st.composite
def rule_sets(draw: st.DrawFn) -> MuttonOptions:
    """Any valid server option combination, sizes 2..8."""
    size = draw(st.integers(2, 8))
    cells = 3 * size * (size - 1) + 1
    sheep = draw(st.integers(2, min(26, cells)))
    return MuttonOptions(
        size=size,
        num_sheep=sheep,
        num_wolves=draw(st.integers(1, sheep // 2)),
        berserk=draw(st.booleans()),
        reveal=draw(st.booleans()),
        remove=draw(st.booleans()),
        escape=draw(st.booleans()),
        weapon=draw(st.sampled_from(Weapon)),
        quick_play=draw(st.sampled_from([None, None, QUICK_PLAY_TARGET, 3])),
    )


class MuttonMachine(RuleBasedStateMachine):
    """Plays one match; the tally below is the test's own bookkeeping of the Wolf's points."""

    match: Match
    tally: list[int]

    @initialize(rules=rule_sets(), p_pass=st.sampled_from([0.0, 0.5, 0.9]))
    def start(self, rules: MuttonOptions, p_pass: float) -> None:
        self.match = Match.new(rules)
        self.tally = [0]
        self.policy = FarmerPolicy(p_pass=p_pass, p_berserk=0.05)

    @property
    def state(self) -> GameState:
        return self.match.current

    @rule(seed=st.integers(0, 2**32 - 1), mirror=st.booleans())
    def step(self, seed: int, mirror: bool) -> None:
        """Play one random legal move; start game 2 when game 1 is over; once the match is
        over, check its result (one always-enabled rule keeps every example useful)."""
        if self.match.over:
            event("a whole match was played")
            assert self.match.winner() in (None, *self.match.players)
            return
        if self.state.over:
            event("game 1 ended")
            self.match = self.match.start_next_game()
            self.tally.append(0)
            return
        before = self.state
        move: Move = random_move(before, random.Random(seed), self.policy)
        if mirror and before.phase is Phase.PLACE and before.mirror_of is not None:
            move = PlaceMirror()
        self.match = self.match.play(move)
        self._check_transition(before, move, self.state)

    @rule(seed=st.integers(0, 2**32 - 1))
    def illegal_move_changes_nothing(self, seed: int) -> None:
        if self.state.over:
            return
        s = self.state
        rng = random.Random(seed)
        b = s.board
        dead = [a for a, f in zip(s.letters, s.fates, strict=True) if f is not Fate.ALIVE]
        candidates: list[Move] = [WolfPass() if s.phase is Phase.FARMER else FarmerPass()]
        if dead:
            candidates.append(Shoot(rng.choice(dead)))
        if s.phase is Phase.WOLF:
            kills = s.legal_kills()
            if kills:
                k = rng.choice(kills)
                centre = s.position(k.victim)
                assert centre is not None
                near = sorted(b.neighbours(centre))
                bad = tuple(Run(a, rng.choice(near)) for a in k.runners)  # adjacent: illegal
                candidates.append(Kill(k.victim, bad))
                if len(k.runners) > 1:  # leave one runner behind
                    candidates.append(Kill(k.victim, tuple(
                        Run(a, c) for a, c in zip(k.runners[1:], k.free_cells, strict=False))))
            else:
                candidates.append(Escape(s.letters[0]) if not s.rules.escape else WolfPass())
        if s.phase is Phase.FARMER and s.wolf_passed:
            candidates.append(FarmerPass())
        if s.phase is Phase.FARMER and not s.rules.berserk_allowed and len(s.living()) >= 2:
            candidates.append(Berserk(tuple(s.living()[:2])))
        legal_pass = s.phase is Phase.WOLF and not s.legal_kills()
        # A snapshot that does not share objects with the state: its record and its fields as
        # text (comparing the state with itself could not fail).
        snapshot = (match_record(self.match), repr(s.positions), repr(s.fates),
                    repr(sorted(s.corpses)), s.phase, s.round, s.wolf_passed, s.berserk_used)
        for move in candidates:
            if isinstance(move, WolfPass) and legal_pass:
                continue
            try:
                s.play(move)
            except IllegalMoveError as exc:
                assert str(exc)
            else:
                raise AssertionError(f"illegal move accepted: {move!r} in phase {s.phase}")
            assert (match_record(self.match), repr(s.positions), repr(s.fates),
                    repr(sorted(s.corpses)), s.phase, s.round, s.wolf_passed,
                    s.berserk_used) == snapshot

    def _check_transition(self, before: GameState, move: Move, after: GameState) -> None:
        b = board(before.rules.size)
        wolves = before.wolves
        if isinstance(move, (Kill, Shoot)) and (isinstance(move, Kill) or move.runs):
            target = move.victim if isinstance(move, Kill) else move.target
            centre = before.position(target)
            assert centre is not None
            occupied_before = before.occupant()
            runners = {a for c, a in occupied_before.items() if b.adjacent(c, centre)}
            assert {r.animal for r in move.runs} == runners
            for r in move.runs:
                dest = after.position(r.animal)
                assert dest == r.to
                assert dest != centre and not b.adjacent(dest, centre)
                assert dest not in before.corpses
                assert occupied_before.get(dest) in (None, *runners)
        if isinstance(move, Kill):
            assert any(r.animal in before.hidden_wolves() for r in move.runs), "killer ran"
            self.tally[-1] += move.victim not in wolves
        elif isinstance(move, Shoot):
            self.tally[-1] += move.target not in wolves
        elif isinstance(move, Escape):
            self.tally[-1] += 3
        elif isinstance(move, Berserk):
            self.tally[-1] += sum(t not in wolves for t in move.targets)
            if any(after.fate(w) is Fate.ALIVE for w in wolves):  # M15
                self.tally[-1] += sum(1 for a in before.living()
                                      if a not in wolves and a not in move.targets)
            assert after.over

    @invariant()
    def one_thing_per_cell_and_conservation(self) -> None:
        if not hasattr(self, "match"):
            return
        s = self.state
        placed = [c for c in s.positions if c is not None]
        assert len(placed) == len(set(placed))
        assert not set(placed) & s.corpses
        assert all(c in s.board for c in placed)
        if s.phase is not Phase.PLACE:
            alive = [f is Fate.ALIVE for f in s.fates]
            assert alive == [c is not None for c in s.positions]
        counts = {f: s.fates.count(f) for f in Fate}
        assert sum(counts.values()) == s.rules.num_sheep
        if s.rules.corpses_removed:
            assert not s.corpses
        else:
            dead_on_board = counts[Fate.EATEN] + counts[Fate.SHOT]
            assert len(s.corpses) == dead_on_board

    @invariant()
    def score_matches_independent_tally(self) -> None:
        if not hasattr(self, "match"):
            return
        for g, t in zip(self.match.games, self.tally, strict=True):
            assert g.score == t

    @invariant()
    def game_ends_in_time(self) -> None:
        if not hasattr(self, "match"):
            return
        s = self.state
        assert s.round <= s.rules.num_sheep + 1
        if s.over:
            assert not s.hidden_wolves() or s.berserk_used or s.stalled
        elif s.phase in (Phase.WOLF, Phase.FARMER):
            assert s.hidden_wolves()

    @invariant()
    def record_replays_to_the_same_state(self) -> None:
        if not hasattr(self, "match") or self.match is getattr(self, "_replayed", None):
            return  # unchanged since the last check (steps after the end change nothing)
        assert replay_text(match_record(self.match)) == self.match
        self._replayed = self.match

    @invariant()
    def chart_rows_have_a_true_wolf_runner(self) -> None:
        if not hasattr(self, "match") or self.match is getattr(self, "_charted", None):
            return
        self._charted = self.match
        s = self.state
        chart = farmer_chart(s)
        assert len(chart.rows) == len(s.kills)
        for row in chart.rows:
            assert row.runners & s.wolves, f"no wolf ran in round {row.round}"
        for a, st_ in zip(chart.animals, chart.status, strict=True):
            if st_ is Status.DEAD_WOLF:
                assert a in s.wolves
            if st_ is Status.DEAD_SHEEP:
                assert a not in s.wolves
            if st_ is Status.DEAD:
                assert not s.rules.reveal and not s.over


TestMuttonMachine = MuttonMachine.TestCase
# The active profile (tests/conftest.py) sets the number of examples; 150 steps let a whole
# match on the default board (two games of 40-60 moves) play out.
TestMuttonMachine.settings = settings(settings(), stateful_step_count=150)
