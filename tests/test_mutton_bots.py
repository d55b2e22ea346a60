"""The Mutton robots (solver/mutton/bots): their belief against the fast engine, their kill
options against the rules model, the referee against every robot, determinism, the V2 robot's
described rules on hand-built positions, and one-line errors for what they cannot play.

Hand-built positions: a real game is set up (placement, wolves) and then the chart is written
in directly (fates, kill rows, the phase), which is exactly what the robots read
(rules.mutton.chart.farmer_chart); every position is one the rules can reach.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace
from math import perm

import pytest
from helpers.scaling import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from fleece.rules.errors import FleeceError
from fleece.rules.mutton.chart import farmer_chart
from fleece.rules.mutton.game import Fate, GameState, KillRecord, Phase
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.moves import (
    Berserk,
    ChooseWolves,
    FarmerPass,
    Kill,
    Move,
    PlaceCells,
    Shoot,
    Side,
    WolfPass,
    parse_move,
)
from fleece.rules.mutton.options import MuttonOptions, Weapon
from fleece.rules.mutton.record import replay_text
from fleece.rules.mutton.simulate import FarmerPolicy, random_move
from fleece.solver.mutton import problem_from_chart, solve
from fleece.solver.mutton.bots.base import Bot
from fleece.solver.mutton.bots.belief import MAX_SETS, Belief
from fleece.solver.mutton.bots.board import Position
from fleece.solver.mutton.bots.knowledge import knowledge, position_of
from fleece.solver.mutton.bots.match import BotError, MatchRequest, play_game
from fleece.solver.mutton.bots.opponent import v2_likelihood
from fleece.solver.mutton.bots.registry import BOTS, FARMERS, make_bot
from fleece.solver.mutton.bots.v2 import V2Farmer, V2Wolf, v2_threshold
from fleece.solver.mutton.fast import count_facts
from fleece.solver.mutton.problem import kill_options

# ---- rule sets ------------------------------------------------------------------------------


@st.composite
def small_rules(draw: st.DrawFn) -> MuttonOptions:
    """A small variant of every option the robots must play (M1-M23)."""
    size = draw(st.integers(2, 3))
    n = draw(st.integers(4, 7 if size == 2 else 10))
    k = draw(st.integers(1, min(3, n // 2)))
    words = None
    if draw(st.integers(0, 5)) == 0:
        pool = [frozenset(c) for c in itertools.combinations(MuttonOptions().letters[:n], k)]
        words = frozenset(draw(st.lists(st.sampled_from(pool), min_size=1, max_size=5)))
    return MuttonOptions(size=size, num_sheep=n, num_wolves=k, berserk=draw(st.booleans()),
                   reveal=draw(st.booleans()), remove=draw(st.booleans()),
                   escape=draw(st.booleans()),
                   weapon=draw(st.sampled_from([Weapon.RIFLE, Weapon.SHOTGUN])),
                   quick_play=draw(st.none() | st.integers(1, n)), dictionary=words)


def random_states(rules: MuttonOptions, seed: int, games: int = 2) -> list[GameState]:
    """Every position of a few random games (the rules model's random play)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        s = GameState.new(rules)
        while not s.over:
            if s.phase in (Phase.WOLF, Phase.FARMER):
                out.append(s)
            s = s.play(random_move(s, rng, FarmerPolicy(p_pass=0.7)))
    return out


# ---- the belief and the board against the solver and the rules model -------------------------


@settings(max_examples=examples(40), deadline=None)
@given(small_rules(), st.integers(0, 10**6))
def test_belief_counts_equal_the_fast_engine(rules: MuttonOptions, seed: int) -> None:
    """D1-D9: the robots' bit-column belief holds exactly the sets the fast engine counts, and
    each animal is in as many of them, at every position of random games; the kill options
    the robots compute from the geometry are the rules model's (M8-M10)."""
    for s in random_states(rules, seed):
        v = knowledge(s)
        counts = count_facts(s.letters, v.problem.facts)
        assert v.belief.count == counts.count
        assert v.belief.counts(range(len(s.letters))) == {
            i: counts.wolf_counts[a] for i, a in enumerate(s.letters)}
        truth = sum(1 << s.index(w) for w in s.wolves)
        assert truth in {v.belief.universe.sets[j] for j in range(v.belief.universe.size)
                         if v.belief.mask >> j & 1}
        mine = sorted((o.victim, o.runners, perm(o.free.bit_count(), len(o.runners)))
                      for o in v.position.kill_options())
        theirs = sorted((s.index(o.victim), tuple(sorted(s.index(a) for a in o.runners)),
                         o.placements) for o in kill_options(s))
        assert mine == theirs
        picture = farmer_chart(s).board
        assert picture is not None
        shown = Position.from_picture(picture, s.letters, s.rules.corpses_removed)
        assert shown == v.position  # a pasted board gives the robots the same position


def test_belief_default_game_and_compaction() -> None:
    """On the default board (14,950 sets at the start) the belief equals the fast engine's
    counts through whole games, its compaction keeps every weight, and its entropy of a
    uniform belief is log2 of the count."""
    import math

    for s in random_states(MuttonOptions(), 3, games=1):
        v = knowledge(s)
        counts = count_facts(s.letters, v.problem.facts)
        assert v.belief.count == counts.count
        small, remap = v.belief.compact()
        assert small.universe.size == small.count == counts.count
        every = range(len(s.letters))
        assert small.counts(every) == v.belief.counts(every)
        assert remap(v.belief.mask) == small.mask
        assert math.isclose(v.belief.entropy(), math.log2(counts.count))


# ---- the referee ---------------------------------------------------------------------------


@settings(max_examples=examples(40), deadline=None)
@given(small_rules(), st.integers(0, 2**32), st.sampled_from(BOTS), st.sampled_from(BOTS))
def test_referee_accepts_every_robot_move(rules: MuttonOptions, seed: int, farmer: str,
                                          wolf: str) -> None:
    """Every move of every robot, on every option, goes through GameState.play: a game ends
    (M24) and play_game raises BotError on any illegal move, which never happens."""
    result = play_game(MatchRequest(farmer, wolf, 1, seed, rules, "random"), 0)
    assert result.plies >= 1
    final = replay_text(result.record).current
    assert final.over and final.score == result.score


@pytest.mark.parametrize("farmer,wolf,rules", [
    *((f, w, MuttonOptions()) for f in BOTS for w in BOTS),
    *((f, f, MuttonOptions(weapon=Weapon.SHOTGUN, escape=True, reveal=False)) for f in BOTS),
], ids=lambda x: x.to_options().replace(" ", "") if isinstance(x, MuttonOptions) else x)
def test_referee_on_full_size_games(farmer: str, wolf: str, rules: MuttonOptions) -> None:
    """One game of every pair of robots on pbmserv's default rules, and of each robot against
    itself with the shotgun, escapes and no reveal: every move legal, the record replays."""
    result = play_game(MatchRequest(farmer, wolf, 1, 5, rules), 0)
    assert replay_text(result.record).current.score == result.score


def test_referee_catches_an_illegal_robot_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Farmer that passes right after a Wolf pass (M14 forbids it) is caught: BotError names
    the robot, the move and the rule, instead of the move being fixed silently."""

    class Passer(Bot):
        name = "passer"

        def move(self, state: GameState) -> Move:
            return FarmerPass()

    monkeypatch.setitem(FARMERS, "random", Passer)
    rules = MuttonOptions(size=2, num_sheep=4, num_wolves=1)
    with pytest.raises(BotError, match=r"passer Farmer robot played the illegal move 'pass'.*"
                                       r"must shoot \(M14\)"):
        for seed in range(50):  # some game has a Wolf pass
            play_game(MatchRequest("random", "random", 1, seed, rules, "random"), 0)


@pytest.mark.parametrize("farmer,wolf", [("fleece", "fleece"), ("v2", "v2"),
                                         ("random", "random"), ("fleece", "v2")])
def test_robots_are_deterministic_per_seed(farmer: str, wolf: str) -> None:
    """The same seed replays the same game move for move; another seed plays another."""
    rules = MuttonOptions(size=3, num_sheep=10, num_wolves=2)
    first = [play_game(MatchRequest(farmer, wolf, 3, 11, rules, "random"), i) for i in range(3)]
    again = [play_game(MatchRequest(farmer, wolf, 3, 11, rules, "random"), i) for i in range(3)]
    other = [play_game(MatchRequest(farmer, wolf, 3, 12, rules, "random"), i) for i in range(3)]
    assert [g.record for g in first] == [g.record for g in again]
    assert [g.record for g in first] != [g.record for g in other]


# ---- hand-built positions ------------------------------------------------------------------

B3 = board(3)


def place(cells: str) -> PlaceCells:
    """Animals A, B, ... on these size-3 cells."""
    return PlaceCells(tuple(B3.cell(c) for c in cells.split(" ")))


def position(rules: MuttonOptions, cells: str, wolves: str, rows: list[tuple[str, str]],
             shot: str = "") -> GameState:
    """Animals A, B, ... on `cells`, the wolves chosen, then the chart written in: each row
    (victim, runners) a kill of that round, the `shot` animals dead by the Farmer; the Farmer
    is to move. Runners stay where they stood (the board does not matter to these tests
    beyond who lives)."""
    s = GameState.new(rules).play(place(cells)).play(ChooseWolves(wolves))
    fates = list(s.fates)
    positions = list(s.positions)
    kills = []
    for r, (victim, runners) in enumerate(rows, start=1):
        fates[s.index(victim)] = Fate.EATEN
        positions[s.index(victim)] = None
        kills.append(KillRecord(r, victim, frozenset(runners)))
    for a in shot:
        fates[s.index(a)] = Fate.SHOT
        positions[s.index(a)] = None
    return replace(s, fates=tuple(fates), positions=tuple(positions), kills=tuple(kills),
                   phase=Phase.FARMER, round=len(rows))


CELLS8 = "a1 a2 a3 b1 b2 b3 b4 c1"  # where the eight animals stand (it does not matter)


def test_v2_threshold_is_065_less_005_per_dead_sheep() -> None:
    """One wolf, B or C (each 1/2 by the solver): the V2 Farmer passes with 1 dead sheep
    (threshold 0.60) and with 3 (0.50: not above it), and shoots B or C with 4 (0.45)."""
    rules = MuttonOptions(size=3, num_sheep=8, num_wolves=1)
    assert v2_threshold(1) == pytest.approx(0.60) and v2_threshold(4) == pytest.approx(0.45)
    for shot, expected in (("", FarmerPass), ("DE", FarmerPass), ("DEF", Shoot)):
        s = position(rules, CELLS8, "B", [("A", "BC")], shot)
        sol = solve(problem_from_chart(farmer_chart(s), 1))
        assert float(sol.probability("B")) == float(sol.probability("C")) == 0.5
        assert s.dead_sheep() == 1 + len(shot)
        move = V2Farmer(rules, 0).move(s)
        assert isinstance(move, expected), (shot, move)
        if isinstance(move, Shoot):
            assert move.target in "BC"


def test_v2_single_consistent_set_is_shot_at_once() -> None:
    """Rows {B} and {C}: the only consistent set is {B, C}; the V2 Farmer goes berserk on both
    (a volley); without berserk it shoots one; with B already shot, it shoots C."""
    rows = [("A", "B"), ("D", "C")]
    rules = MuttonOptions(size=3, num_sheep=8, num_wolves=2)
    s = position(rules, CELLS8, "BC", rows)
    assert solve(problem_from_chart(farmer_chart(s), 2)).count == 1
    assert V2Farmer(rules, 0).move(s) == Berserk(("B", "C"))
    no_berserk = rules.with_options(berserk=False)
    move = V2Farmer(no_berserk, 0).move(position(no_berserk, CELLS8, "BC", rows))
    assert isinstance(move, Shoot) and move.target in "BC"
    assert V2Farmer(rules, 0).move(position(rules, CELLS8, "BC", rows, "B")) == Shoot("C")


def test_v2_shoots_when_one_more_kill_wins() -> None:
    """Quick play to 3: with 2 dead sheep the next kill wins the game, so the V2 Farmer shoots
    at 1/2 although its threshold is 0.55; with a target of 4 it passes."""
    for target, expected in ((3, Shoot), (4, FarmerPass)):
        rules = MuttonOptions(size=3, num_sheep=8, num_wolves=1, quick_play=target)
        s = position(rules, CELLS8, "B", [("A", "BC")], "D")
        assert s.score == 2 and v2_threshold(2) == pytest.approx(0.55)
        assert isinstance(V2Farmer(rules, 0).move(s), expected)


def test_v2_after_a_wolf_pass_rules_out_animals_with_a_meal() -> None:
    """A (a1) and B (a2) stand together, the wolf C and the sheep D alone: the Wolf cannot
    kill and passes (M11). Every animal next to a legal victim is then no wolf (D9): A and B
    drop to 0, C and D share the wolf. The V2 Farmer must shoot (M14): C or D, never A or B."""
    rules = MuttonOptions(size=3, num_sheep=4, num_wolves=1)
    s = GameState.new(rules).play(place("a1 a2 e5 c1"))
    s = s.play(ChooseWolves("C")).play(WolfPass())
    assert s.farmer_must_shoot()
    v = knowledge(s)
    marg = v.belief.marginals(v.living)
    assert [marg[i] for i in range(4)] == [0.0, 0.0, 0.5, 0.5]
    for seed in range(10):
        move = V2Farmer(rules, seed).move(s)
        assert isinstance(move, Shoot) and move.target in "CD"


def test_v2_with_one_wolf_left_prefers_the_last_victims_neighbours() -> None:
    """Two wolves: B killed A with D beside it, then B was shot (a wolf). The other wolf may be
    any living animal (each equally likely); with one wolf left the V2 Farmer ranks D, next
    to the last victim, first, and shoots it when the next kill would lose the game."""
    rules = MuttonOptions(size=3, num_sheep=8, num_wolves=2, quick_play=2)
    s = position(rules, CELLS8, "BF", [("A", "BD")], "B")
    v = knowledge(s)
    marg = v.belief.marginals(v.living)
    assert len({round(marg[a], 12) for a in v.living}) == 1
    for seed in range(10):
        farmer = V2Farmer(rules, seed)
        assert farmer.ranking(v, marg)[0] == s.index("D")
        assert farmer.move(s) == Shoot("D")


def brute_counts(letters: str, k: int, rows: list[frozenset[str]], sheep: set[str],
                 living: list[str]) -> dict[str, int]:
    """Per living animal, the wolf sets of k animals containing it that meet every row and
    hold no known sheep (by listing every k-subset)."""
    out = dict.fromkeys(living, 0)
    for combo in itertools.combinations(letters, k):
        w = set(combo)
        if w & sheep or not all(w & r for r in rows):
            continue
        for a in living:
            out[a] += a in w
    return out


def test_v2_wolf_meal_minimises_the_largest_then_the_summed_count() -> None:
    """The wolves A and G, after a first kill (I eaten; A, B and F ran): the Wolf's meals are
    B, E and H. For each, the living animals' counts of consistent sets after it, listed by
    brute force over every pair of animals, give (largest, sum): B (6, 14), E (4, 24),
    H (3, 18). The V2 Wolf eats H, the smallest largest count (the smallest sum would be B),
    whatever its seed."""
    rules = MuttonOptions(size=3, num_sheep=9, num_wolves=2)
    s = GameState.new(rules).play(place("c5 a3 d3 d4 c3 b3 b2 c2 b4")).play(ChooseWolves("AG"))
    s = s.play(parse_move("I:A-a1,B-a2,F-e5", B3, Side.WOLF)).play(FarmerPass())
    meals = [k for k in s.legal_kills() if k.victim not in s.wolves]
    scores = {}
    for k in meals:
        living = [a for a in s.living() if a != k.victim]
        counts = brute_counts(s.letters, 2, [frozenset("ABF"), frozenset(k.runners)],
                              {"I", k.victim}, living)
        scores[k.victim] = (max(counts.values()), sum(counts.values()))
    assert scores == {"B": (6, 14), "E": (4, 24), "H": (3, 18)}
    for seed in range(5):
        move = V2Wolf(rules, seed).move(s)
        assert isinstance(move, Kill) and move.victim == "H"
        s.play(move)  # legal


def test_v2_likelihood_never_rules_out_the_true_wolves() -> None:
    """The V2 hypothesis's likelihood (what the fleece Farmer recognises the V2 Wolf by) keeps
    the true wolf set at every kill of V2 Wolf games: it reproduces the V2 meal rule."""
    rules = MuttonOptions()
    for seed in range(3):
        s = GameState.new(rules).play(PlaceCells(tuple(random.Random(seed).sample(
            board(4).cells, 26)))).play(ChooseWolves("ADHM"))
        farmer, wolf = make_bot("v2", Side.FARMER, rules, seed), V2Wolf(rules, seed)
        while not s.over:
            if s.to_move is Side.FARMER:
                s = s.play(farmer.move(s))
                continue
            move = wolf.move(s)
            if isinstance(move, Kill):
                v = knowledge(s)
                j = v.belief.universe.sets.index(sum(1 << s.index(a) for a in s.wolves))
                parts = v2_likelihood(v.belief, position_of(s), s.index(move.victim),
                                      move.victim in s.wolves)
                assert any(m >> j & 1 for _, m in parts)
            s = s.play(move)


# ---- what the robots cannot play ------------------------------------------------------------


def test_bad_input_is_one_line_naming_the_field_and_the_limit() -> None:
    """Unknown robots, game counts out of range, and rules with more wolf sets than the robots
    track are one-line FleeceErrors naming the field and the limit."""
    cases = [
        (MatchRequest("deep-blue", "v2", 10), "--farmer: unknown robot 'deep-blue' (known: "
                                               "fleece, random, v2)"),
        (MatchRequest("v2", "cunning", 10), "--wolf: unknown robot 'cunning'"),
        (MatchRequest("v2", "v2", 0), "--games: must be in 1..100000, got 0"),
        (MatchRequest("v2", "v2", 100_001), "--games: must be in 1..100000, got 100001"),
        (MatchRequest("v2", "v2", 1, -1), "--seed: must be in 0..2**63-1, got -1"),
        (MatchRequest("v2", "v2", 1, layout="spiral"), "--layout: unknown layout 'spiral'"),
        (MatchRequest("v2", "v2", 1, rules=MuttonOptions(num_wolves=7)),
         f"--rules: the robots track every wolf set, and 7 wolves among 26 animals make "
         f"657800; at most {MAX_SETS}"),
    ]
    for request, message in cases:
        with pytest.raises(FleeceError) as info:
            request.check()
        text = str(info.value)
        assert text.startswith(message) and "\n" not in text, text
    with pytest.raises(FleeceError, match="num_wolves: the robots track every wolf set"):
        Belief.from_facts(MuttonOptions().letters, 8, [])


# ---- playing against a robot (solver/mutton/bots/play.py) ----------------------------------


@pytest.mark.parametrize("person,bot", [(Side.FARMER, "fleece"), (Side.WOLF, "fleece"),
                                        (Side.FARMER, "v2"), (Side.WOLF, "random")])
def test_play_against_a_robot_step_by_step(person: Side, bot: str) -> None:
    """A person's random legal moves, each answered by the robot through `step`, reach the
    end of the game; the same seed and moves replay the same replies; the overlay is the
    solver's count and probabilities, and at a Farmer turn the robot's decision, which offers
    no waiting right after a Wolf pass (M14). An illegal move is refused in one line."""
    from fleece.rules.errors import IllegalMoveError
    from fleece.solver.mutton.bots.play import overlay, start, step

    rules = MuttonOptions(size=3, num_sheep=10, num_wolves=2)
    for attempt in range(2):
        rng = random.Random(4)
        game = start(rules, person, bot, 17, layout="random")
        moves = []
        while not game.state.over:
            s = game.state
            assert s.to_move is person
            if person is Side.FARMER:
                o = overlay(s)
                counts = count_facts(s.letters, knowledge(s).problem.facts)
                assert o.count == counts.count
                assert o.decision is not None
                assert (o.decision.best.move != "wait") or not s.farmer_must_shoot()
                if s.farmer_must_shoot():
                    assert all(opt.move != "wait" for opt in o.decision.options)
            move = random_move(s, rng, FarmerPolicy(p_pass=0.3))
            game = step(s, move, bot, 17)
            moves.append(game.to_json()["replies"])
        if attempt == 0:
            first = moves
        else:
            assert moves == first
    with pytest.raises(IllegalMoveError):
        step(game.state, FarmerPass(), bot, 17)
