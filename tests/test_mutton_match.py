"""Reveal (M18), matches (M21-M22) and the deduction principle (M26) on the rules model."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.chart import Status, farmer_chart
from fleece.rules.mutton.game import Fate, GameState
from fleece.rules.mutton.match import Match
from fleece.rules.mutton.moves import (
    ChooseWolves,
    FarmerPass,
    Kill,
    PlaceCells,
    PlaceMirror,
    PlaceRandom,
    PlaceSparse,
    Run,
    Shoot,
    WolfPass,
)
from fleece.rules.mutton.options import MuttonOptions
from fleece.rules.mutton.simulate import FarmerPolicy, random_game, random_move


def _short_game(rules: MuttonOptions, wolves: str, shots: str) -> GameState:
    s = GameState.new(rules).play(PlaceSparse()).play(ChooseWolves(wolves))
    rng = random.Random(0)
    for target in shots:
        while s.phase.value != "farmer":
            s = s.play(random_move(s, rng))
        if s.is_alive(target):
            s = s.play(Shoot(target))
        if s.over:
            break
    return s


def test_m18_reveal_shows_identities_at_once() -> None:
    s = _short_game(MuttonOptions(), "ABCD", "AZ")
    chart = farmer_chart(s)
    assert chart.status_of("A") is Status.DEAD_WOLF
    assert chart.status_of("Z") is Status.DEAD_SHEEP


def test_m18_no_reveal_hides_identities_until_the_end() -> None:
    rules = MuttonOptions(reveal=False)
    s = _short_game(rules, "ABCD", "AZ")
    assert not s.over
    chart = farmer_chart(s)
    assert chart.status_of("A") is Status.DEAD and chart.status_of("Z") is Status.DEAD
    dead = [a for a, f in zip(s.letters, s.fates, strict=True) if f is not Fate.ALIVE]
    assert all(chart.status_of(a) is Status.DEAD for a in dead)
    end = _short_game(rules, "ABCD", "ABCD")
    assert end.over
    final = farmer_chart(end)
    assert {a for a in "ABCD" if final.status_of(a) is Status.DEAD_WOLF} == set("ABCD")


def test_m21_match_swaps_roles_mirrors_and_totals() -> None:
    rules = MuttonOptions()
    rng = random.Random(4)
    m = Match.new(rules, ("Ann", "Bob"))
    m = m.play(PlaceRandom(9))
    first_layout = m.current.layout
    while not m.current.over:
        m = m.play(random_move(m.current, rng, FarmerPolicy(p_berserk=0.0)))
    assert not m.over and m.winner() is None
    assert (m.wolf_of(0), m.wolf_of(1)) == ("Ann", "Bob")
    with pytest.raises(IllegalMoveError, match="mirror is only possible in the second game"):
        GameState.new(rules).play(PlaceMirror())
    m = m.start_next_game().play(PlaceMirror())
    assert m.current.layout == first_layout
    assert m.to_beat() == m.games[0].score
    while not m.current.over:
        m = m.play(random_move(m.current, rng, FarmerPolicy(p_berserk=0.0)))
    assert m.over
    totals = m.totals()
    assert totals == {"Ann": m.games[0].score, "Bob": m.games[1].score}
    expected = None if totals["Ann"] == totals["Bob"] else max(totals, key=totals.__getitem__)
    assert m.winner() == expected
    with pytest.raises(IllegalMoveError, match="match is over"):
        m.play(PlaceSparse())


def test_m21_equal_totals_draw() -> None:
    # Size 2, wolf A on a1 and sheep B on c3 are not neighbours: the Wolf must pass, the
    # Farmer must shoot and shoots A. Both games end 0 - 0, so the match is a draw.
    rules = MuttonOptions(size=2, num_sheep=2, num_wolves=1)
    b = GameState.new(rules).board
    m = Match.new(rules, ("Ann", "Bob"))
    for game in range(2):
        if game:
            m = m.start_next_game()
        m = m.play(PlaceCells((b.cell("a1"), b.cell("c3")))).play(ChooseWolves("A"))
        m = m.play(WolfPass())
        with pytest.raises(IllegalMoveError, match="must shoot"):
            m.play(FarmerPass())
        m = m.play(Shoot("A"))
    assert m.over and m.totals() == {"Ann": 0, "Bob": 0}
    assert m.winner() is None


def _scored_game(m: Match, eat: bool) -> Match:
    """Size 2, A (the wolf) on a1, C on c3. With `eat`, B stands on a2: A eats B and runs to
    b1 (a free cell away from a2), then the Farmer shoots A: the Wolf scores 1 for B (M20).
    Otherwise B stands on c2, next to no wolf: the Wolf passes and A is shot: 0 points."""
    b = m.current.board
    cells = ("a1", "a2" if eat else "c2", "c3")
    m = m.play(PlaceCells(tuple(b.cell(x) for x in cells))).play(ChooseWolves("A"))
    m = m.play(Kill("B", (Run("A", b.cell("b1")),)) if eat else WolfPass())
    return m.play(Shoot("A"))


@pytest.mark.parametrize(("first", "second", "winner"), [
    (True, False, "Ann"), (False, True, "Bob"), (True, True, None)])
def test_m21_the_higher_total_wins_the_match(first: bool, second: bool, winner: str | None
                                              ) -> None:
    """Ann is the Wolf of game 1, Bob of game 2 (M21); each scores 1 by eating B or 0; the
    higher total wins, equal totals draw."""
    rules = MuttonOptions(size=2, num_sheep=3, num_wolves=1)
    m = _scored_game(Match.new(rules, ("Ann", "Bob")), first)
    assert m.current.over and m.current.score == int(first) and m.winner() is None
    m = _scored_game(m.start_next_game(), second)
    assert m.over and m.totals() == {"Ann": int(first), "Bob": int(second)}
    assert m.winner() == winner


def test_m22_quick_play_is_one_game_with_a_target() -> None:
    rules = MuttonOptions(quick_play=11)
    m = Match.new(rules)
    rng = random.Random(12)
    while not m.over:
        m = m.play(random_move(m.current, rng))
    assert len(m.games) == 1 and m.to_beat() == 10
    wolf_won = m.games[0].score >= 11
    assert m.winner() == (m.players[0] if wolf_won else m.players[1])
    assert m.games[0].wolf_wins_quick_play() is wolf_won


@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.booleans())
def test_m26_every_kill_has_a_wolf_runner_and_no_known_sheep_killed(
    seed: int, wolves: int, reveal: bool
) -> None:
    """M26: the killer is a living wolf next to the victim, so it ran; a runner the Farmer
    knows to be a sheep (revealed dead sheep) is never the only wolf candidate of a row."""
    rules = MuttonOptions(num_wolves=wolves, reveal=reveal)
    state = random_game(rules, random.Random(seed))
    chart = farmer_chart(state)
    for row in chart.rows:
        wolf_runners = row.runners & state.wolves
        assert wolf_runners, f"round {row.round}: no wolf among the runners"
        candidates = {a for a in row.runners if chart.status_of(a) is not Status.DEAD_SHEEP}
        assert wolf_runners <= candidates
