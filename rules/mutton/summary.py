"""Text and JSON summaries of Mutton boards and replayed matches, as the CLI prints them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fleece.rules.errors import IllegalMoveError, ParseError, RulesError
from fleece.rules.mutton.chart import farmer_chart, render_paste
from fleece.rules.mutton.diagram import render_board
from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.match import Match
from fleece.rules.mutton.moves import PlaceCells, Placement, PlaceRandom, PlaceSparse, parse_move
from fleece.rules.mutton.options import MuttonOptions


def starting_board(size: int, sheep: int, layout: str = "", seed: int = 0) -> str:
    """The diagram of a starting layout: `sparse`, `random` (seeded) or a cell list; the
    default is sparse on the default board, else random. Bad options raise ParseError naming
    the option."""
    try:
        rules = MuttonOptions(size=size, num_sheep=sheep, num_wolves=1)
    except RulesError as exc:
        raise ParseError(f"--size/--sheep: {exc}") from None
    kind = layout.strip() or ("sparse" if (size, sheep) == (4, 26) else "random")
    state = GameState.new(rules)
    move: Placement
    if kind.lower() == "sparse":
        move = PlaceSparse()
    elif kind.lower() == "random":
        move = PlaceRandom(seed)
    else:
        try:
            parsed = parse_move(kind, state.board, None)
        except ParseError as exc:
            raise ParseError(f"--layout, column {exc.column}: {exc.message}") from None
        if not isinstance(parsed, PlaceCells):
            raise ParseError(f"--layout: '{kind}' is not sparse, random or a cell list")
        move = parsed
    try:
        placed = state.play(move)
    except IllegalMoveError as exc:
        raise ParseError(f"--layout: {exc}") from None
    return render_board(size, placed.animal_cells())


def _game_state_line(g: GameState) -> str:
    if g.over:
        state = "over"
    elif g.to_move is not None:
        state = f"in progress, round {g.round}, {g.to_move.value} to move"
    else:  # pragma: no cover - a game not over always has a side to move
        state = "in progress"
    extra = " (stalled: the Farmer had no legal shot)" if g.stalled else ""
    return f"Wolves: {', '.join(sorted(g.wolves)) or '-'}; game {state}{extra}."


def match_text(match: Match) -> str:
    """Each game's final board, score line and chart, then the match result when over."""
    parts: list[str] = []
    for i, g in enumerate(match.games):
        if match.number_of_games > 1:
            parts.append(f"Game {i + 1} (Wolf: {match.wolf_of(i)})\n")
        chart = replace(farmer_chart(g), to_beat=match.to_beat(i))
        parts.append(render_paste(chart))
        parts.append(_game_state_line(g) + "\n\n")
    if match.over and match.rules.quick_play is not None:
        score, target = match.games[0].score, match.rules.quick_play
        parts.append(f"Quick play: the Wolf ({match.wolf_of(0)}) scored {score}, needing "
                     f"{target}; {match.winner()} wins.\n")
    elif match.over:
        totals = ", ".join(f"{p} {s}" for p, s in match.totals().items())
        winner = match.winner()
        parts.append(f"Match over: {totals}; " + (f"{winner} wins." if winner else "a draw.")
                     + "\n")
    return "".join(parts)


def match_json(match: Match) -> dict[str, Any]:
    """A JSON-ready description of a replayed match: rules, each game's chart, fates and
    wolves, totals and winner."""
    games = []
    for i, g in enumerate(match.games):
        chart = farmer_chart(g).to_json()
        chart.update(
            game=i + 1, wolf_player=match.wolf_of(i), over=g.over, round=g.round,
            wolves=sorted(g.wolves), score=g.score, to_beat=match.to_beat(i),
            fates={a: f.value for a, f in zip(g.letters, g.fates, strict=True)},
        )
        games.append(chart)
    return {"rules": match.rules.to_options(), "games": games, "totals": match.totals(),
            "over": match.over, "winner": match.winner()}
