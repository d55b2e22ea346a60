"""The Farmer's knowledge of a full game record: what was public at every Wolf turn.

A record (rules.mutton.record) also holds the Wolf's secret `wolves=` line. It is needed to
replay the moves (the rules model checks each kill against the real wolves), but the solver's
knowledge is only what the Farmer saw: the chart at the end (identities revealed on death under
the reveal option, or all of them once the game is over, exactly as `farmer_chart` shows them)
and, at every Wolf turn, the positions of the animals and corpses, which decide which kills
were legal for *some* wolf set (D9, and the Wolf model's likelihood).
"""

from __future__ import annotations

from dataclasses import replace

from fleece.rules.errors import FleeceError
from fleece.rules.mutton.chart import farmer_chart
from fleece.rules.mutton.game import GameState, Phase
from fleece.rules.mutton.moves import Escape, Kill, WolfPass
from fleece.rules.mutton.record import parse_record, replay
from fleece.solver.mutton.problem import (
    Problem,
    WolfTurn,
    _check_wolves,
    kill_options,
)


def wolf_turns(start: GameState, final: GameState) -> tuple[WolfTurn, ...]:
    """Replay `final.history` from `start` and note the public position of every Wolf move."""
    turns: list[WolfTurn] = []
    state = start
    for move in final.history:
        if state.phase is Phase.WOLF:
            options = kill_options(state)
            alive = frozenset(state.living())
            isolated = state.isolated_animals()
            if isinstance(move, Kill):
                turns.append(WolfTurn(state.round, "kill", move.victim, options, alive,
                                      isolated, state.rules.escape))
            elif isinstance(move, Escape):
                turns.append(WolfTurn(state.round, "escape", move.animal, options, alive,
                                      isolated, state.rules.escape))
            elif isinstance(move, WolfPass):
                turns.append(WolfTurn(state.round, "pass", None, options, alive, isolated,
                                      state.rules.escape))
        state = state.play(move)
    return tuple(turns)


def record_problem(text: str, *, dictionary: frozenset[frozenset[str]] | None = None,
                   wolves: int | None = None) -> Problem:
    """The problem of the last game of a record (see the module docstring)."""
    rec = parse_record(text, dictionary=dictionary)
    rules = rec.rules
    if wolves is not None and wolves != rules.num_wolves:
        raise FleeceError(f"contradicts the record's options (-num_wolves={rules.num_wolves})",
                          field="wolves", value=str(wolves))
    _check_wolves(rules.num_wolves, rules.num_sheep)
    match = replay(rec)
    game = len(match.games) - 1
    final = match.current
    mirror = match.games[0].layout if game == 1 else None
    start = GameState.new(rules, mirror_of=mirror)
    turns = wolf_turns(start, final)
    chart = farmer_chart(final)
    if final.phase is Phase.PLACE:
        chart = replace(chart, board=None)
    notes = []
    if len(match.games) == 2:
        notes.append("the record holds two games; this is game 2")
    if final.over:
        notes.append("the game is over: every identity is public")
    return Problem(chart, rules.num_wolves, rules.dictionary, False, turns,
                   not final.over, "record", tuple(notes))

