"""Ulvtafl's jobs: a position (`fleece ulvtafl board`), a move and the solver's reply, a solve
with its best move drawn as an arrow, and a puzzle played on the board (fleece.api.ulvtafl),
each with the board's geometry for the page's SVG; and a fortress search (JSON only)."""

from __future__ import annotations

from typing import Any

ULV_CELL = 60  # pixels between neighbouring points


def board(request: Any) -> dict[str, Any]:
    """`fleece ulvtafl board --json` of a PositionRequest and the page's picture of it."""
    from fleece.api import ulvtafl

    report = ulvtafl.board(request)
    return {"json": report.to_json(), "display": board_display(report.state)}


def move(request: Any) -> dict[str, Any]:
    """Play `move` (when given) in the position of a MoveRequest; then, when `solver` names
    the side to move, the solver answers as in `fleece ulvtafl play`. `json` is `fleece
    ulvtafl board --position NEW --json` of the position reached."""
    from fleece.api import ulvtafl

    report = ulvtafl.play(request)
    display = board_display(report.state)
    display["played"] = list(report.played)
    display["reply_note"] = report.reply_note
    return {"json": report.to_json(), "display": display}


def solve(request: Any) -> dict[str, Any]:
    """`fleece ulvtafl solve --json` of a SolveRequest, and its picture with the best move
    drawn as an arrow."""
    from fleece.api import ulvtafl
    from fleece.rules.ulvtafl.notation import parse_move

    result = ulvtafl.solve(request)
    arrow = parse_move(result.best_move) if result.best_move else None
    display = board_display(result.state, arrow)
    display["solve"] = {"value": result.value, "best_move": result.best_move,
                     "distance": result.distance, "method": result.method,
                     "nodes": result.nodes, "seconds": f"{result.seconds:.2f}",
                     "stopped": result.stopped, "line": list(result.principal_line[:40])}
    return {"json": result.to_json(), "display": display}


def fortress(request: Any) -> dict[str, Any]:
    """`fleece ulvtafl fortress --json` of a FortressRequest (no picture: the API only)."""
    from fleece.api import ulvtafl

    return {"json": ulvtafl.fortress(request).to_json()}


def puzzle_step(request: Any) -> dict[str, Any]:
    """One turn of a puzzle (fleece.api.ulvtafl.play_puzzle) and the board after it."""
    from fleece.api import ulvtafl

    report = ulvtafl.play_puzzle(request)
    return {"json": report.to_json(), "display": board_display(report.state)}


def puzzle_hint(request: Any) -> dict[str, Any]:
    """The position of a puzzle after the moves played, its value and the hint
    (fleece.api.ulvtafl.puzzle_hint), and the board."""
    from fleece.api import ulvtafl
    from fleece.rules.ulvtafl.notation import parse_move

    report = ulvtafl.puzzle_hint(request)
    display = board_display(report.state)
    if report.hint is not None:  # the most telling hint: the move, drawn as an arrow
        hinted = board_display(report.state, parse_move(report.hint["move"]))
        display["hint_arrow"] = hinted["arrow"]
    return {"json": report.to_json(), "display": display}


def board_display(state: Any, arrow: Any = None) -> dict[str, Any]:
    """The board as geometry for the page's SVG (points, lines, paddock, pieces, an optional
    arrow) and the legal moves as point paths, which the page's script matches clicks
    against."""
    from fleece.rules.ulvtafl.game import SIDE_NAMES
    from fleece.rules.ulvtafl.geometry import COORDS, FILES, INDEX, NAMES, PADDOCK, segments
    from fleece.rules.ulvtafl.notation import position_text

    cell = ULV_CELL
    margin = cell
    size = 6 * cell + 2 * margin

    def xy(p: int) -> tuple[int, int]:
        f, r = COORDS[p]
        return margin + f * cell, margin + (7 - r) * cell

    points = []
    for p, name in enumerate(NAMES):
        x, y = xy(p)
        piece = "sheep" if state.sheep >> p & 1 else "wolf" if state.wolves >> p & 1 else ""
        points.append({"name": name, "x": x, "y": y, "piece": piece,
                       "paddock": bool(PADDOCK >> p & 1)})
    lines = [{"x1": xy(p)[0], "y1": xy(p)[1], "x2": xy(q)[0], "y2": xy(q)[1]}
             for p, q in segments(not state.rules.orthogonal)]
    c5, e7 = xy(INDEX[(2, 5)]), xy(INDEX[(4, 7)])
    pad = cell // 3
    paddock = {"x": c5[0] - pad, "y": e7[1] - pad, "w": e7[0] - c5[0] + 2 * pad,
               "h": c5[1] - e7[1] + 2 * pad}
    moves = [{"text": m.text(), "path": [NAMES[p] for p in m.path]}
             for m in state.legal_moves()]
    files = [{"x": margin + i * cell, "y": size - cell // 3, "text": ch}
             for i, ch in enumerate(FILES)]
    ranks = [{"x": cell // 3, "y": margin + (7 - r) * cell + 5, "text": str(r)}
             for r in range(1, 8)]
    display: dict[str, Any] = {
        "size": size, "radius": cell // 3, "points": points, "lines": lines,
        "paddock": paddock, "files": files, "ranks": ranks, "moves": moves,
        "position": position_text(state),
        "to_move": None if state.result else SIDE_NAMES[state.to_move],
        "result": state.result, "reason": state.reason or None,
        "sheep": state.sheep.bit_count(), "wolves": state.wolves.bit_count(),
        "filled": ((state.sheep | state.wolves) & PADDOCK).bit_count(), "arrow": None,
        "played": [], "reply_note": None, "solve": None,
    }
    if arrow is not None:
        display["arrow"] = {"text": arrow.text(),
                         "points": " ".join(f"{x},{y}" for x, y in (xy(p) for p in arrow.path))}
    return display


def puzzle_check(request: Any) -> dict[str, Any]:
    """`fleece ulvtafl puzzle check FILE --json` of a PuzzleCheckRequest: the list of the
    file's verdicts."""
    from fleece.api import ulvtafl

    report = ulvtafl.check_puzzles(request)
    return {"json": report.puzzles, "lines": list(report.lines), "ok": report.sound}
