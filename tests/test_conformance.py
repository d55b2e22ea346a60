"""The one test every registered game passes with no code of its own (OpenSpiel's random
simulation test): random playthroughs to the end under random rule options.

After every step it checks the game protocol (fleece.rules.protocol): `play` leaves the old
state unchanged; the listed legal moves are distinct, as many as `count_legal_moves` says, and
accepted; moves legal elsewhere but not here raise the game's typed error and change nothing;
chance outcomes have exact probabilities summing to 1; move and position text round-trip
(and the states are immutable, hashable values); and the game ends within the game's proved
length bound.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.errors import FleeceError, IllegalMoveError
from fleece.rules.protocol import CHANCE, TERMINAL, State
from fleece.rules.registry import GAMES, all_game_refs, load

LIST_CAP = 3000  # legal-move lists up to this size are checked in full
ACCEPT_SAMPLE = 12  # listed moves tried per state
TEST_CAP = 20_000  # moves, for games whose rules alone do not bound their length


def _snapshot(state: State[Any]) -> bytes:
    return pickle.dumps(state)


def _check_unchanged(state: State[Any], before: bytes) -> None:
    assert _snapshot(state) == before, "play() changed the state it was called on"


def _legal_list(state: State[Any]) -> list[Any] | None:
    """Every legal move, or None when there are too many to list."""
    n = state.count_legal_moves()
    if n > LIST_CAP:
        return None
    moves = list(state.legal_moves())
    assert len(moves) == n, "count_legal_moves() disagrees with legal_moves()"
    assert len(set(moves)) == n, "legal_moves() repeats a move"
    return moves


def _check_state(game: Any, players: tuple[str, ...], state: State[Any], rng: random.Random,
                 foreign: list[Any], text_every: bool) -> Any:
    """Check one state; return the move to play next."""
    before = _snapshot(state)
    player = state.current_player()
    assert (player == TERMINAL) == state.is_terminal()
    assert isinstance(state, State)  # the protocol, checked at run time
    if state.is_terminal():
        assert player == TERMINAL
        assert state.count_legal_moves() == 0 and next(state.legal_moves(), None) is None
        assert len(state.returns()) == len(players)
        return None
    assert player == CHANCE or 0 <= player < len(players)
    assert state.is_chance_node() == (player == CHANCE)
    moves = _legal_list(state)
    if state.is_chance_node():
        outcome = state.sample_chance(rng)
        assert state.chance_probability(outcome) > 0
        if moves is not None:
            total = sum((state.chance_probability(m) for m in moves), Fraction(0))
            assert total == 1, f"chance probabilities sum to {total}"
        chosen = outcome
    else:
        chosen = game.random_move(state, rng)
    sample = [chosen]
    if moves is not None:
        assert chosen in moves, f"random_move gave {chosen!r}, which is not listed"
        sample += rng.sample(moves, min(ACCEPT_SAMPLE, len(moves)))
        for m in foreign:
            if m in moves:
                continue
            with pytest.raises(IllegalMoveError):
                state.play(m)
            _check_unchanged(state, before)
    for m in sample:
        state.play(m)
        _check_unchanged(state, before)
        text = game.move_text(state, m)
        assert game.parse_move(state, text) == m, f"move text {text!r} does not round-trip"
    foreign.extend(sample[:3])
    del foreign[:-60]
    for p in range(len(players)):
        assert isinstance(game.observation(state, p), str)
    if text_every:
        _check_position_text(game, state)
    return chosen


def _check_position_text(game: Any, state: State[Any]) -> None:
    text = game.position_text(state)
    again = game.parse_position(text)
    assert again == state, "position text does not round-trip"
    assert game.position_text(again) == text
    _check_value(state, again)


def _check_value(state: State[Any], twin: State[Any]) -> None:
    """A state is an immutable value (rules.protocol): hashable, equal twins hash alike (so
    states can key memo tables and seen-sets), and its fields cannot be assigned."""
    assert hash(state) == hash(twin)
    if dataclasses.is_dataclass(state):
        name = dataclasses.fields(state)[0].name
        with pytest.raises((dataclasses.FrozenInstanceError, AttributeError)):
            setattr(state, name, getattr(state, name))


def play_through(ref: str, seed: int) -> int:
    """One random game of the Game `ref` under random options; the number of moves played."""
    game = load(ref)
    rng = random.Random(seed)
    options = game.random_options(rng)
    state = game.new_initial_state(options)
    players = game.players(options)
    bound = game.length_bound(options)
    limit = bound if bound is not None else TEST_CAP
    foreign: list[Any] = []
    steps = 0
    while True:
        chosen = _check_state(game, players, state, rng, foreign,
                              text_every=rng.random() < 0.1)
        if chosen is None:
            break
        state = state.play(chosen)
        steps += 1
        assert steps <= limit, f"the game did not end within {limit} moves"
    _check_position_text(game, state)
    return steps


GAME_REFS = all_game_refs()


def _ident(ref: str) -> str:
    return ref.rsplit(":", 1)[-1].lower()


@pytest.mark.parametrize("ref", GAME_REFS, ids=_ident)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_playthroughs_obey_the_protocol(ref: str, seed: int) -> None:
    play_through(ref, seed)


def test_chance_and_terminal_are_never_a_player_index() -> None:
    """Players are numbered 0, 1, ...; CHANCE and TERMINAL are distinct negative numbers, so
    no player's turn can be read as chance's or as the end (rules.protocol)."""
    assert CHANCE < 0 and TERMINAL < 0 and CHANCE != TERMINAL


@pytest.mark.parametrize("ref", GAME_REFS, ids=_ident)
def test_random_options_reach_every_variant(ref: str) -> None:
    """The random playthroughs explore every rule variant: over 300 seeded draws of
    `random_options`, each option takes at least two values, and each on/off or enumerated
    option takes every one of its values (a variant never drawn is a variant never tested)."""
    import enum

    game = load(ref)
    seen: dict[str, set[Any]] = {}
    for seed in range(300):
        options = game.random_options(random.Random(seed))
        assert dataclasses.is_dataclass(options)
        for f in dataclasses.fields(options):
            value = getattr(options, f.name)
            seen.setdefault(f.name, set()).add(value if _hashable(value) else repr(value))
    for name, values in seen.items():
        assert len(values) >= 2, f"{name} is always {values}"
        kinds = {type(v) for v in values}
        if kinds == {bool}:
            assert values == {True, False}, name
        for kind in kinds:
            if issubclass(kind, enum.Enum):
                assert set(kind) <= values, f"{name} never takes {set(kind) - values}"


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


@pytest.mark.parametrize("ref", GAME_REFS, ids=_ident)
def test_default_game_has_its_players_and_a_typed_error(ref: str) -> None:
    """The standard game starts unfinished; garbage move text is a typed error, not a crash."""
    game = load(ref)
    state = game.new_initial_state(game.default_options())
    assert not state.is_terminal() and len(game.players(game.default_options())) >= 1
    with pytest.raises(FleeceError):
        game.parse_move(state, "\x00 not a move \x00")


class _Broken:
    """A one-move game whose play() appends to the state it was called on."""

    def __init__(self) -> None:
        self.moves: list[int] = []

    def current_player(self) -> int:
        return 0

    def is_terminal(self) -> bool:
        return False

    def is_chance_node(self) -> bool:
        return False

    def count_legal_moves(self) -> int:
        return 1

    def legal_moves(self) -> Any:
        return iter([1])

    def chance_probability(self, move: int) -> Fraction:
        return Fraction(0)

    def sample_chance(self, rng: random.Random) -> int:
        return 1

    def play(self, move: int) -> _Broken:
        self.moves.append(move)
        return self

    def returns(self) -> tuple[Fraction, ...]:
        return (Fraction(0),)


class _BrokenGame:
    def random_move(self, state: _Broken, rng: random.Random) -> int:
        return 1

    def move_text(self, state: _Broken, move: int) -> str:
        return str(move)

    def parse_move(self, state: _Broken, text: str) -> int:
        return int(text)


def test_a_game_that_breaks_the_protocol_fails_the_test() -> None:
    """Control: the conformance checks can fail (a play() that mutates its state)."""
    with pytest.raises(AssertionError, match="changed the state"):
        _check_state(_BrokenGame(), ("one",), _Broken(), random.Random(0), [],
                     text_every=False)


def test_registry_lists_each_game_once() -> None:
    names = [g.name for g in GAMES]
    assert len(names) == len(set(names)) and "mutton" in names and "woof" in names


def test_registry_entries_are_immutable_values() -> None:
    """A registry entry equals its copy (and hashes alike), differs from every other entry,
    and refuses assignment."""
    import copy

    for entry in GAMES:
        twin = copy.deepcopy(entry)
        assert twin == entry and hash(twin) == hash(entry) and twin is not entry
        assert all(other != entry for other in GAMES if other.name != entry.name)
        with pytest.raises(AttributeError, match="cannot assign"):
            entry.name = "x"  # type: ignore[misc]
