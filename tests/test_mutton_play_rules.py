"""Hand-built golden cases for every rule `GameState.play()` enforces (M5-M20, C2).

Each test sets up a tiny position by hand, plays one move and asserts the exact outcome (the
new fates, cells, score, phase) or the exact refusal, with the docs/rules.md clause in its name.
A refusal (`refuse`) is checked three ways: the message names the rule, the state equals a
deep copy taken before the move, and the move generator (`legal_moves`, which states the same
rules a second time) does not list the move; a legal move played with `accept` must be listed.
They are deterministic and run in well under a second, so a broken check in `play()` fails
here at once instead of after minutes of random play in tests/test_mutton_stateful.py.

The main position, "K" (size 3, 19 cells; rows a:1-3, b:1-4, c:1-5, d:2-5, e:3-5):

    A a1 (wolf)   B a2 (sheep)   C b3 (sheep)   D e5 (wolf)   E e4 (sheep)

Neighbours (M3): a1: a2 b1 b2; a2: a1 a3 b2 b3; b3: a2 a3 b2 b4 c3 c4; e4: e3 e5 d3 d4;
e5: e4 d4 d5. So B is next to wolf A (runners A, C); E is next to wolf D (runner D); C is next
to B only (no wolf); A is next to B only; D is next to E only.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from fractions import Fraction

import pytest
from helpers.mutton_positions import c, start

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.game import Fate, GameState, Phase
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.moves import (
    Berserk,
    ChooseWolves,
    Escape,
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
from fleece.rules.mutton.options import MuttonOptions, Weapon


def position_k(**options: object) -> GameState:
    """Position K of the module docstring."""
    return start("a1 a2 b3 e5 e4", "AD", **options)


def runs(text: str) -> tuple[Run, ...]:
    """`"A-c5 C-d5"` -> runs."""
    out = []
    for part in text.split():
        a, cell = part.split("-")
        out.append(Run(a, c(cell)))
    return tuple(out)


def _move_key(move: object) -> object:
    """A move up to the order of its runners or targets (which `play` does not care about)."""
    if isinstance(move, Kill):
        return ("kill", move.victim, frozenset(move.runs), len(move.runs))
    if isinstance(move, Shoot):
        return ("shoot", move.target, frozenset(move.runs), len(move.runs))
    if isinstance(move, Berserk):
        return ("berserk", frozenset(move.targets), len(move.targets))
    return move


def refuse(state: GameState, move: object, match: str) -> None:
    """`move` is refused with a message matching `match`; `state` is unchanged, compared
    with a deep copy taken before (which shares no object with it); and the move generator,
    a second statement of the same rules, does not list the move either (checked where the
    moves are few enough to list)."""
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMoveError, match=match):
        state.play(move)  # type: ignore[arg-type]
    assert state == before and state.history == before.history
    if state.count_legal_moves() <= 20_000:
        assert _move_key(move) not in {_move_key(m) for m in state.legal_moves()}, move


def accept(state: GameState, move: object) -> GameState:
    """`move` is played, and the move generator lists it."""
    after = state.play(move)  # type: ignore[arg-type]
    if state.count_legal_moves() <= 20_000:
        assert _move_key(move) in {_move_key(m) for m in state.legal_moves()}, move
    return after


# ---- placement and choice (M5, M6, M23) -----------------------------------------------------

def test_m5_explicit_layout_places_animals_in_letter_order() -> None:
    s = GameState.new(MuttonOptions(size=3, num_sheep=3, num_wolves=1)).play(
        PlaceCells((c("a1"), c("c3"), c("e5"))))
    assert s.phase is Phase.CHOOSE
    assert s.animal_cells() == {"A": c("a1"), "B": c("c3"), "C": c("e5")}


@pytest.mark.parametrize(("cells", "match"), [
    (("a1", "c3"), "2 cells for 3 animals"),
    (("a1", "c3", "a1"), "used twice"),
])
def test_m5_bad_explicit_layouts_are_refused(cells: tuple[str, ...], match: str) -> None:
    s = GameState.new(MuttonOptions(size=3, num_sheep=3, num_wolves=1))
    refuse(s, PlaceCells(tuple(c(n) for n in cells)), match)


def test_m5_a_cell_off_the_board_is_refused() -> None:
    s = GameState.new(MuttonOptions(size=3, num_sheep=3, num_wolves=1))
    g7 = board(4).cell("g7")  # row g does not exist on a size-3 board
    refuse(s, PlaceCells((c("a1"), c("c3"), g7)), "not on a size-3 board")


def test_m5_sparse_only_on_the_default_board_and_mirror_only_in_game_two() -> None:
    s = GameState.new(MuttonOptions(size=3, num_sheep=3, num_wolves=1))
    refuse(s, PlaceSparse(), "sparse layout is defined for size 4 with 26")
    refuse(s, PlaceMirror(), "second game")
    layout = (c("a1"), c("c3"), c("e5"))
    second = GameState.new(s.rules, mirror_of=layout).play(PlaceMirror())
    assert second.positions == layout


def test_m5_random_layout_is_its_seed() -> None:
    s = GameState.new(MuttonOptions(size=3, num_sheep=5, num_wolves=2))
    a, b = s.play(PlaceRandom(7)), s.play(PlaceRandom(7))
    assert a.positions == b.positions and len(set(a.positions)) == 5


@pytest.mark.parametrize(("letters", "match"), [
    ("A", "must choose 2 distinct wolves"),
    ("AA", "must choose 2 distinct wolves"),
    ("ABC", "must choose 2 distinct wolves"),
    ("AF", "no animal 'F'"),
])
def test_m6_the_wolf_chooses_exactly_num_wolves_distinct_animals(letters: str, match: str
                                                                 ) -> None:
    s = GameState.new(MuttonOptions(size=3, num_sheep=5, num_wolves=2)).play(PlaceRandom(1))
    refuse(s, ChooseWolves(letters), match)
    ok = accept(s, ChooseWolves("BE"))
    assert ok.wolves == {"B", "E"} and ok.phase is Phase.WOLF and ok.round == 1


def test_m23_dictionary_limits_the_wolf_sets() -> None:
    rules = MuttonOptions(size=3, num_sheep=5, num_wolves=2,
                    dictionary=frozenset({frozenset("BE")}))
    s = GameState.new(rules).play(PlaceRandom(1))
    refuse(s, ChooseWolves("AB"), "M23")
    assert accept(s, ChooseWolves("BE")).wolves == {"B", "E"}
    assert s.play(ChooseWolves("EB")).wolves == {"B", "E"}


def test_m7_moves_out_of_turn_are_refused() -> None:
    s = position_k()
    refuse(s, PlaceSparse(), "waiting for a Wolf move")
    refuse(s, ChooseWolves("AB"), "waiting for a Wolf move")
    refuse(s, Shoot("B"), "waiting for a Wolf move")
    refuse(s, FarmerPass(), "waiting for a Wolf move")
    after = s.play(Kill("E", runs("D-c1")))
    refuse(after, Kill("B", runs("A-c5 C-d5")), "waiting for a Farmer move")
    refuse(after, WolfPass(), "waiting for a Farmer move")
    refuse(after, Escape("A"), "waiting for a Farmer move")
    refuse(GameState.new(MuttonOptions(size=3, num_sheep=3, num_wolves=1)), ChooseWolves("A"),
           "waiting for the Farmer's placement")


# ---- kills (M8-M11, M16, M20) ---------------------------------------------------------------

def test_m8_m9_legal_kill_golden_outcome() -> None:
    """M8/M9/M20: A eats B; every neighbour of B (A and C) runs away; B's corpse stays (M16 off);
    the Wolf scores 1 for the eaten sheep; the chart gets the row (1, B, {A, C})."""
    s = accept(position_k(), Kill("B", runs("A-c5 C-d5")))
    assert s.fates == (Fate.ALIVE, Fate.EATEN, Fate.ALIVE, Fate.ALIVE, Fate.ALIVE)
    assert s.animal_cells() == {"A": c("c5"), "C": c("d5"), "D": c("e5"), "E": c("e4")}
    assert s.corpses == {c("a2")}
    assert s.score == 1
    assert s.phase is Phase.FARMER and not s.wolf_passed and s.round == 1
    assert [(k.round, k.victim, set(k.runners)) for k in s.kills] == [(1, "B", {"A", "C"})]


def test_m8_m9_wolf_move_count_by_hand() -> None:
    """M8-M10 perft: the legal kills of K are B (by A) and E (by D). Killing B: 19 cells minus
    a2, its 4 neighbours and the 2 non-runners' cells (e4, e5) leaves 12 free cells for 2
    runners: 12*11 = 132. Killing E: 19 - 1 - 4 (e3 e5 d3 d4) - 3 (a1 a2 b3) = 11 cells for
    1 runner: 11. No pass while a kill exists (M11), no escape (option off): 143."""
    s = position_k()
    assert [(k.victim, k.runners, len(k.free_cells)) for k in s.legal_kills()] == [
        ("B", ("A", "C"), 12), ("E", ("D",), 11)]
    assert s.count_legal_moves() == 143 == sum(1 for _ in s.legal_moves())


def test_m8_victim_next_to_a_sheep_but_no_wolf_is_refused() -> None:
    """M8: C (b3) touches only B, a sheep; A (a1) touches only B. Neither is next to a wolf."""
    s = position_k()
    refuse(s, Kill("C", runs("B-c5")), r"C is not next to a living wolf \(M8\)")
    refuse(s, Kill("A", runs("B-c5")), r"A is not next to a living wolf \(M8\)")
    refuse(s, Kill("D", runs("E-a3")), r"D is not next to a living wolf \(M8\)")


def test_m8_a_dead_wolf_is_not_a_killer() -> None:
    """M8: the killer must be living. After the Farmer shoots wolf D, E (next only to D's
    corpse) cannot be eaten."""
    s = position_k().play(Kill("B", runs("A-c5 C-d2"))).play(Shoot("D"))
    assert s.phase is Phase.WOLF and s.round == 2
    refuse(s, Kill("E", ()), r"E is not next to a living wolf \(M8\)")


def test_m8_a_dead_animal_cannot_be_eaten() -> None:
    s = position_k().play(Kill("E", runs("D-c1"))).play(FarmerPass())
    refuse(s, Kill("E", ()), "E is not alive")


def test_m8_m20_wolves_may_eat_wolves_and_an_eaten_wolf_scores_nothing() -> None:
    """M8: wolf A eats wolf B (a2, next to A); M20: the Wolf scores 0 for it; A is the only
    runner and goes to e5; the game goes on (A is still hidden, M19)."""
    s = start("a1 a2 e3 c1", "AB").play(Kill("B", runs("A-e5")))
    assert s.fate("B") is Fate.EATEN and s.score == 0
    assert s.hidden_wolves() == {"A"} and not s.over


def test_m9_the_wolf_must_not_be_left_behind() -> None:
    """M9: every living neighbour of the victim runs, the killer included."""
    refuse(position_k(), Kill("B", runs("C-d5")), r"must run: A is not moved \(M9\)")


def test_m9_a_sheep_must_not_be_left_behind() -> None:
    refuse(position_k(), Kill("B", runs("A-d5")), r"must run: C is not moved \(M9\)")


def test_m9_only_neighbours_run_and_each_once() -> None:
    s = position_k()
    refuse(s, Kill("B", runs("A-c5 C-d5 E-c1")), "E is not next to B, so cannot run")
    refuse(s, Kill("B", runs("A-c5 A-c1 C-d5")), "a runner is moved twice")


@pytest.mark.parametrize(("moves", "match"), [
    ("A-c5 C-c5", r"two runners are sent to the same cell \(M9\)"),
    ("A-b2 C-d5", r"A cannot run to b2: it is next to B \(M9\)"),
    ("A-a3 C-d5", r"A cannot run to a3: it is next to B \(M9\)"),
    ("A-a2 C-d5", "A cannot run to a2: that is the victim's own cell"),
    ("A-e4 C-d5", "A cannot run to e4: E stands there"),
])
def test_m9_runner_destinations(moves: str, match: str) -> None:
    refuse(position_k(), Kill("B", runs(moves)), match)


def test_m9_a_corpse_blocks_a_cell_unless_corpses_are_removed_m16() -> None:
    """M9: D eats E (corpse on e4); the Farmer passes; A eats B and may not run to e4.
    M16: with `remove` the corpse is gone at the end of the kill, and e4 is free."""
    s = position_k().play(Kill("E", runs("D-c1"))).play(FarmerPass())
    assert s.corpses == {c("e4")} and s.round == 2 and s.phase is Phase.WOLF
    refuse(s, Kill("B", runs("A-e4 C-d5")), "A cannot run to e4: a corpse lies there")
    r = position_k(remove=True).play(Kill("E", runs("D-c1")))
    assert r.corpses == frozenset() and r.fate("E") is Fate.EATEN and r.score == 1
    r = r.play(FarmerPass()).play(Kill("B", runs("A-e4 C-d5")))
    assert r.position("A") == c("e4") and r.corpses == frozenset()


def test_m10_m11_unplaceable_kill_is_refused_and_only_then_may_the_wolf_pass() -> None:
    """Size 2 (7 cells): A in the centre b2 touches every other cell, wolf B on a1, C on c3.
    Killing A would make B and C run but every free cell touches b2: refused (M10). It is the
    only kill, so the Wolf passes (M11); in K the Wolf may not pass (kills exist)."""
    b2 = board(2)
    rules = MuttonOptions(size=2, num_sheep=3, num_wolves=1)
    s = GameState.new(rules).play(PlaceCells((b2.cell("b2"), b2.cell("a1"), b2.cell("c3"))))
    s = s.play(ChooseWolves("B"))
    refuse(s, Kill("A", (Run("B", b2.cell("a2")), Run("C", b2.cell("b3")))),
           r"2 runners but only 0 free cells away from it \(M10\)")
    passed = accept(s, WolfPass())
    assert passed.phase is Phase.FARMER and passed.wolf_passed and passed.score == 0
    refuse(position_k(), WolfPass(), r"may not pass while a legal kill exists \(M11\)")


# ---- escape (M12) ----------------------------------------------------------------------------

def test_m12_isolated_wolf_escapes_for_three_points() -> None:
    """A (a1) has no living neighbour; B (e5) touches C (e4). A escapes: off the board, fate
    ESCAPED, 3 points; B is still hidden so the game goes on (M19)."""
    s = start("a1 e5 e4 c3", "AB", escape=True)
    assert s.escapes() == ["A"]
    after = accept(s, Escape("A"))
    assert after.fate("A") is Fate.ESCAPED and after.position("A") is None
    assert after.score == 3 and after.phase is Phase.FARMER and not after.over


def test_m12_escape_with_a_living_neighbour_is_refused() -> None:
    s = start("a1 e5 e4 c3", "AB", escape=True)
    refuse(s, Escape("B"), r"B cannot escape: it has a living neighbour \(M12\)")


def test_m12_only_a_living_wolf_escapes_and_only_with_the_option() -> None:
    s = start("a1 e5 e4 c3", "AB", escape=True)
    refuse(s, Escape("D"), "D is not a living wolf")  # D (c3) is isolated but a sheep
    refuse(start("a1 e5 e4 c3", "AB"), Escape("A"), r"escape option is off \(M12\)")


def test_m12_m19_a_corpse_is_no_living_neighbour_and_the_last_escape_ends_the_game() -> None:
    """C (e5) is isolated and escapes (3). The Farmer shoots B (a2, sheep: 1). Now A's only
    neighbour is B's corpse: A escapes (3), no hidden wolf is left and the game is over (M19):
    3 + 1 + 3 = 7."""
    s = start("a1 a2 e5 e3", "AC", escape=True)
    s = s.play(Escape("C")).play(Shoot("B"))
    assert s.escapes() == ["A"]
    end = s.play(Escape("A"))
    assert end.over and end.score == 7
    assert end.fates == (Fate.ESCAPED, Fate.SHOT, Fate.ESCAPED, Fate.ALIVE)


# ---- the Farmer (M13-M17, C2) -----------------------------------------------------------------

def test_m13_farmer_pass_starts_the_next_round() -> None:
    s = position_k().play(Kill("E", runs("D-c1"))).play(FarmerPass())
    assert s.phase is Phase.WOLF and s.round == 2 and s.score == 1


def test_m14_after_a_wolf_pass_the_farmer_must_shoot() -> None:
    b2 = board(2)
    rules = MuttonOptions(size=2, num_sheep=3, num_wolves=1)
    s = GameState.new(rules).play(PlaceCells((b2.cell("b2"), b2.cell("a1"), b2.cell("c3"))))
    s = s.play(ChooseWolves("B")).play(WolfPass())
    refuse(s, FarmerPass(), r"must shoot \(M14\)")
    shot = accept(s, Shoot("C"))
    assert shot.fate("C") is Fate.SHOT and shot.score == 1
    assert shot.phase is Phase.WOLF and shot.round == 2 and not shot.wolf_passed


def test_m13_m20_single_shot_golden_outcome() -> None:
    """A shot sheep scores 1 for the Wolf and leaves a corpse; a shot wolf scores nothing."""
    s = position_k().play(Kill("E", runs("D-c1")))
    sheep = s.play(Shoot("C"))
    assert sheep.fate("C") is Fate.SHOT and sheep.position("C") is None
    assert sheep.corpses == {c("e4"), c("b3")} and sheep.score == 2
    wolf = s.play(Shoot("A"))
    assert wolf.fate("A") is Fate.SHOT and wolf.score == 1 and not wolf.over


def test_m13_a_dead_animal_cannot_be_shot_and_a_rifle_makes_no_one_run_m17() -> None:
    s = position_k().play(Kill("E", runs("D-c1")))
    refuse(s, Shoot("E"), "E is not alive, so it cannot be shot")
    refuse(s, Shoot("B", runs("A-c5")), r"only a shotgun makes animals run \(M17\)")


def test_m19_shooting_the_last_hidden_wolf_ends_the_game() -> None:
    """D eats E (D to c1, whose neighbours c2 b1 d2 are empty); the Farmer shoots wolf A. In
    round 2 D has no victim, so the Wolf passes; the Farmer shoots D: no hidden wolf is left,
    the game is over (M19) with the score of E alone, 1."""
    s = position_k().play(Kill("E", runs("D-c1"))).play(Shoot("A"))
    assert s.legal_kills() == [] and not s.over
    end = accept(accept(s, WolfPass()), Shoot("D"))
    assert end.over and end.score == 1 and not end.berserk_used
    assert end.fates == (Fate.SHOT, Fate.ALIVE, Fate.ALIVE, Fate.SHOT, Fate.EATEN)


def test_m17_shotgun_neighbours_run_and_corpses_are_removed() -> None:
    """M17: the shotgun blast on B makes A and C run exactly as in M9; corpses go at the end
    of both moves; berserk is not available."""
    s = position_k(weapon=Weapon.SHOTGUN).play(Kill("E", runs("D-c1")))
    assert s.corpses == frozenset()
    refuse(s, Shoot("B"), r"every neighbour of B must run: A, C are not moved \(M9\)")
    refuse(s, Shoot("B", runs("A-b2 C-d5")), r"A cannot run to b2: it is next to B \(M9\)")
    refuse(s, Berserk(("A", "D")), r"berserk is not allowed: the shotgun has one barrel \(M17\)")
    after = accept(s, Shoot("B", runs("C-d5 A-c5")))
    assert after.animal_cells() == {"A": c("c5"), "C": c("d5"), "D": c("c1")}
    assert after.corpses == frozenset() and after.score == 2 and after.round == 2


# ---- berserk (M13, M15, M19, M20, C2) --------------------------------------------------------

def _before_volley(**options: object) -> GameState:
    """K after D eats E (score 1): living A (wolf), B, C (sheep), D (wolf, now on c1)."""
    return position_k(**options).play(Kill("E", runs("D-c1")))


def test_m15_m20_berserk_leaving_a_wolf_behind_devours_the_sheep() -> None:
    """M15: the volley A, B misses wolf D: D survives and eats every remaining living sheep
    (C). M20: E eaten 1 + B shot 1 + C devoured 1 = 3; shot wolf A scores nothing."""
    end = accept(_before_volley(), Berserk(("B", "A")))
    assert end.over and end.berserk_used
    assert end.fates == (Fate.SHOT, Fate.SHOT, Fate.DEVOURED, Fate.ALIVE, Fate.EATEN)
    assert end.position("C") is None and end.position("D") == c("c1")
    assert end.score == 3 and end.dead_sheep() == 3
    assert end.returns() == (Fraction(-3), Fraction(3))


def test_m15_m20_berserk_hitting_every_wolf_devours_nothing() -> None:
    """Volley A, D: both wolves die, the sheep B and C live; score: E eaten only = 1.
    Volley A, B, D: one more shot sheep = 2."""
    end = _before_volley().play(Berserk(("A", "D")))
    assert end.over and end.fates == (Fate.SHOT, Fate.ALIVE, Fate.ALIVE, Fate.SHOT, Fate.EATEN)
    assert end.score == 1
    assert end.corpses == {c("a1"), c("c1"), c("e4")}
    assert _before_volley().play(Berserk(("A", "B", "D"))).score == 2
    assert _before_volley(remove=True).play(Berserk(("A", "D"))).corpses == frozenset()


def test_m15_quick_play_berserk_result() -> None:
    """M22: with quick play to 3 the devouring volley (score 3) wins for the Wolf; hitting both
    wolves (score 1) wins for the Farmer."""
    lost = _before_volley(quick_play=3).play(Berserk(("A", "B")))
    assert lost.wolf_wins_quick_play() is True and lost.returns() == (-1, 1)
    won = _before_volley(quick_play=3).play(Berserk(("A", "D")))
    assert won.wolf_wins_quick_play() is False and won.returns() == (1, -1)


@pytest.mark.parametrize(("targets", "match"), [
    (("A",), "two or more animals"),
    (("A", "A"), "shot twice"),
    (("A", "E"), "E is not alive"),
    (("A", "Q"), "no animal 'Q'"),
])
def test_m13_bad_volleys_are_refused(targets: tuple[str, ...], match: str) -> None:
    refuse(_before_volley(), Berserk(targets), match)


def test_m13_c2_berserk_needs_the_option_and_happens_once() -> None:
    refuse(_before_volley(berserk=False), Berserk(("A", "D")), "berserk option is off")
    used = replace(_before_volley(), berserk_used=True)
    assert not used.berserk_available()
    refuse(used, Berserk(("A", "D")), r"only once per game \(C2\)")


def test_m19_over_game_refuses_every_move() -> None:
    end = _before_volley().play(Berserk(("A", "D")))
    for move in (FarmerPass(), Shoot("B"), Kill("B", ()), WolfPass(), Berserk(("B", "C"))):
        refuse(end, move, "the game is over")


# ---- odd inputs and the shotgun stall ----------------------------------------------------------

def test_m4_unknown_letters_and_non_moves_are_refused() -> None:
    s = start("a1 e5 e4 c3", "AB", escape=True)
    refuse(s, Escape("Q"), "there is no animal 'Q'")
    refuse(s, Kill("Q", ()), "there is no animal 'Q'")
    refuse(s, "A:B-c1", "not a Mutton move")
    far = board(4).cell("g7")  # not on the size-3 board
    refuse(position_k(), Kill("B", (Run("A", far), Run("C", c("d5")))),
           "A cannot run to g7: not on the board")


def test_m14_m17_shotgun_stall_ends_the_game() -> None:
    """Size 2, 7 animals fill the board: every kill has runners and no free cell (M10), so the
    Wolf passes; the Farmer must shoot (M14), but every blast has runners and no free cell
    either, and the shotgun has no berserk (M17): the game stops as stalled, score 0."""
    b2 = board(2)
    rules = MuttonOptions(size=2, num_sheep=7, num_wolves=3, weapon=Weapon.SHOTGUN)
    s = GameState.new(rules).play(PlaceCells(b2.cells)).play(ChooseWolves("ABC"))
    assert s.legal_kills() == [] and len(s.kill_candidates()) > 0
    end = accept(s, WolfPass())
    assert end.over and end.stalled and end.score == 0
    assert end.fates == (Fate.ALIVE,) * 7
    refuse(end, Shoot("A"), "the game is over")
