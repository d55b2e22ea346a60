"""pbmserv move notation and challenge options (M28, M4-M23): parse and emit are exact
inverses, and malformed text names its column."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.errors import ParseError, RulesError
from fleece.rules.mutton.geometry import board
from fleece.rules.mutton.moves import (
    Berserk,
    ChooseWolves,
    Escape,
    FarmerPass,
    Kill,
    Move,
    PlaceCells,
    PlaceMirror,
    PlaceRandom,
    PlaceSparse,
    Run,
    Shoot,
    Side,
    WolfPass,
    format_move,
    parse_move,
)
from fleece.rules.mutton.options import MuttonOptions, Weapon, load_dictionary, parse_options

B = board(8)
letters = st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
cells = st.sampled_from(B.cells)
runs = st.lists(st.builds(Run, letters, cells), min_size=1, max_size=6).map(tuple)


def _side_of(move: Move) -> Side | None:
    if isinstance(move, (Kill, Escape, WolfPass)):
        return Side.WOLF
    if isinstance(move, (Shoot, Berserk, FarmerPass)):
        return Side.FARMER
    return None


moves = st.one_of(
    st.just(PlaceSparse()), st.just(PlaceMirror()),
    st.builds(PlaceRandom, st.none() | st.integers(0, 10**9)),
    st.lists(cells, min_size=1, max_size=26).map(lambda cs: PlaceCells(tuple(cs))),
    st.sets(letters, min_size=1, max_size=13).map(lambda s: ChooseWolves("".join(sorted(s)))),
    st.builds(Kill, letters, runs),
    st.builds(Escape, letters),
    st.just(WolfPass()), st.just(FarmerPass()),
    st.builds(Shoot, letters, st.just(()) | runs),
    st.lists(letters, min_size=2, max_size=26, unique=True).map(lambda t: Berserk(tuple(t))),
)


@given(moves)
def test_m28_parse_inverts_format(move: Move) -> None:
    assert parse_move(format_move(move), B, _side_of(move)) == move


def test_m28_help_page_forms() -> None:
    b = board(4)
    assert parse_move("K:L-a2,E-f4", b, Side.WOLF) == Kill(
        "K", (Run("L", b.cell("a2")), Run("E", b.cell("f4"))))
    assert parse_move("G", b, Side.FARMER) == Shoot("G")
    assert parse_move("G", b, Side.WOLF) == Escape("G")
    assert parse_move("G,A,X", b, Side.FARMER) == Berserk(("G", "A", "X"))
    assert parse_move("f3,b2,a3", b, None) == PlaceCells(
        (b.cell("f3"), b.cell("b2"), b.cell("a3")))
    assert parse_move("random", b, None) == PlaceRandom()
    assert parse_move("sparse", b, None) == PlaceSparse()
    assert parse_move("mirror", b, None) == PlaceMirror()


@pytest.mark.parametrize(
    ("text", "side", "column", "fragment"),
    [
        ("K:L-a9", Side.WOLF, 5, "not on a size-4 board"),
        ("K:L-a2,Ea4", Side.WOLF, 8, "not a runner move"),
        ("k:L-a2", Side.WOLF, 1, "not a cell name"),
        ("G,A,1", Side.FARMER, 5, "not an animal letter"),
        ("G,A", Side.WOLF, 1, "cannot make a berserk"),
        ("G,G", Side.FARMER, 1, "shot twice"),
        ("wolves=HIDH", None, 8, "named twice"),
        ("random=x", None, 8, "whole number"),
        ("G", None, 1, "not a set-up move"),
    ],
)
def test_m28_errors_name_the_column(text: str, side: Side | None, column: int,
                                    fragment: str) -> None:
    with pytest.raises(ParseError, match=fragment) as info:
        parse_move(text, board(4), side, line=7)
    assert info.value.line == 7
    assert info.value.column == column


def test_options_round_trip_and_defaults() -> None:
    r = parse_options("-size=5 -num_sheep=20 -num_wolves=3 -no_berserk -no_reveal -remove "
                      "-escape -shotgun -quick=9")
    assert (r.size, r.num_sheep, r.num_wolves, r.berserk, r.reveal, r.remove, r.escape,
            r.weapon, r.quick_play) == (5, 20, 3, False, False, True, True, Weapon.SHOTGUN, 9)
    assert parse_options(r.to_options()) == r
    assert parse_options("") == MuttonOptions()
    assert parse_options("quick").quick_play == 11
    assert MuttonOptions().shotgun is False and MuttonOptions(weapon=Weapon.SHOTGUN).corpses_removed


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("-size=9", "size must be in 2..8"),
        ("-size=1", "size must be in 2..8"),
        ("-num_sheep=27", "num_sheep must be in 2..26"),
        ("-num_sheep=1", "num_sheep must be in 2..26"),
        ("-num_sheep=9 -num_wolves=5", "1..num_sheep/2 = 1..4"),
        ("-num_wolves=0", "num_wolves must be"),
        ("-size=2", "do not fit on a size-2 board"),
        ("-bogus", "unknown option"),
        ("-size=four", "whole number"),
    ],
)
def test_option_ranges_like_the_server(text: str, fragment: str) -> None:
    with pytest.raises(ParseError, match=fragment):
        parse_options(text, line=1)


def test_m23_dictionary() -> None:
    words = load_dictionary("hide\nBOOK\nwolf\n# comment\nfade  # trailing\nab\n", 4)
    assert frozenset("HIDE") in words and frozenset("FADE") in words
    assert frozenset("BOK") not in words  # BOOK repeats a letter: not a wolf set
    r = MuttonOptions(dictionary=words)
    assert r.allows_wolf_set("EDIH") and not r.allows_wolf_set("ABCD")
    with pytest.raises(RulesError, match="no word of 4"):
        MuttonOptions(dictionary=load_dictionary("ab\n"))


def test_record_game_headers_in_order() -> None:
    """A record may name its first game (`game 1`) before the moves: the same record as
    without it; `game 1` after moves, or `game 2` first, are out of order."""
    from fleece.rules.mutton.record import parse_record

    head = "-size=4 -num_sheep=26 -num_wolves=4\n"
    moves = "sparse\nwolves=DEMR\n"
    plain = parse_record(head + moves)
    named = parse_record(head + "game 1\n" + moves)
    assert named.rules == plain.rules
    assert [[m.text for m in g] for g in named.games] == [["sparse", "wolves=DEMR"]]
    for bad, line in ((head + moves + "game 1\n", 4), (head + "game 2\n" + moves, 2)):
        with pytest.raises(ParseError, match="out of order") as caught:
            parse_record(bad)
        assert caught.value.line == line
