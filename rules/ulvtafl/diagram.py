"""Pictures of an Ulvtafl board: a text diagram that shows the lines, and an SVG drawing
(points, lines, the paddock, the pieces, and an optional arrow for a suggested move)."""

from __future__ import annotations

from fleece.rules.ulvtafl.game import SIDE_NAMES, Move, UlvState
from fleece.rules.ulvtafl.geometry import COORDS, FILES, INDEX, NUM_POINTS, PADDOCK, segments

H_GAP = 4  # text columns between neighbouring files
V_GAP = 2  # text rows between neighbouring ranks


def _piece(state: UlvState, p: int) -> str:
    if state.sheep >> p & 1:
        return "S"
    if state.wolves >> p & 1:
        return "W"
    return "o" if PADDOCK >> p & 1 else "."


def diagram(state: UlvState) -> str:
    """The board as text: `S` sheep, `W` wolf, `.` empty, `o` empty paddock point; lines
    drawn with `-`, `|`, `/` and `\\`; rank numbers left, files below; then who moves."""
    width, height = 6 * H_GAP + 1, 6 * V_GAP + 1
    grid = [[" "] * width for _ in range(height)]
    diagonals = not state.rules.orthogonal
    for p, q in segments(diagonals):
        (f1, r1), (f2, r2) = COORDS[p], COORDS[q]
        x1, y1 = f1 * H_GAP, (7 - r1) * V_GAP
        x2, y2 = f2 * H_GAP, (7 - r2) * V_GAP
        if y1 == y2:
            for x in range(min(x1, x2) + 1, max(x1, x2)):
                grid[y1][x] = "-"
        elif x1 == x2:
            for y in range(min(y1, y2) + 1, max(y1, y2)):
                grid[y][x1] = "|"
        else:
            mx, my = (x1 + x2) // 2, (y1 + y2) // 2
            grid[my][mx] = "/" if (x2 - x1) * (y2 - y1) < 0 else "\\"
    for p in range(NUM_POINTS):
        f, r = COORDS[p]
        grid[(7 - r) * V_GAP][f * H_GAP] = _piece(state, p)
    lines = []
    for y, row in enumerate(grid):
        label = str(7 - y // V_GAP) if y % V_GAP == 0 else " "
        lines.append(f"{label}  {''.join(row)}".rstrip())
    lines.append("   " + "".join(ch.ljust(H_GAP) for ch in FILES).rstrip())
    lines.append("")
    sheep, wolves = state.sheep.bit_count(), state.wolves.bit_count()
    filled = ((state.sheep | state.wolves) & PADDOCK).bit_count()
    noun = "wolves" if wolves > 1 else "wolf"
    lines.append(f"{sheep} sheep, {wolves} {noun}; paddock {filled}/9 filled")
    if state.result is None:
        lines.append(f"{SIDE_NAMES[state.to_move]} to move")
    elif state.result == "draw":
        lines.append(f"game over: draw - {state.reason}")
    else:
        lines.append(f"game over: the {state.result} win - {state.reason}")
    return "\n".join(lines) + "\n"


def svg(state: UlvState, arrow: Move | None = None, *, cell: int = 60) -> str:
    """An SVG picture of the position; `arrow` draws a suggested move as an arrow."""
    margin = cell
    size = 6 * cell + 2 * margin

    def xy(p: int) -> tuple[int, int]:
        f, r = COORDS[p]
        return margin + f * cell, margin + (7 - r) * cell

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
           f'viewBox="0 0 {size} {size}" font-family="sans-serif">',
           '<defs><marker id="head" markerWidth="8" markerHeight="8" refX="6" refY="4" '
           'orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#1e6fd9"/></marker></defs>',
           f'<rect width="{size}" height="{size}" fill="#f4efe1"/>']
    c5, e7 = xy(INDEX[(2, 5)]), xy(INDEX[(4, 7)])
    pad = cell // 3
    out.append(f'<rect x="{c5[0] - pad}" y="{e7[1] - pad}" width="{e7[0] - c5[0] + 2 * pad}" '
               f'height="{c5[1] - e7[1] + 2 * pad}" fill="none" stroke="#c0392b" '
               'stroke-width="2" stroke-dasharray="6,4"><title>paddock</title></rect>')
    for p, q in segments(not state.rules.orthogonal):
        (x1, y1), (x2, y2) = xy(p), xy(q)
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#555" '
                   'stroke-width="2"/>')
    for i, ch in enumerate(FILES):
        out.append(f'<text x="{margin + i * cell}" y="{size - cell // 3}" '
                   f'text-anchor="middle" font-size="14">{ch}</text>')
    for r in range(1, 8):
        out.append(f'<text x="{cell // 3}" y="{margin + (7 - r) * cell + 5}" '
                   f'text-anchor="middle" font-size="14">{r}</text>')
    for p in range(NUM_POINTS):
        x, y = xy(p)
        if state.sheep >> p & 1:
            out.append(f'<circle cx="{x}" cy="{y}" r="{cell // 3}" fill="#ffffff" '
                       'stroke="#222" stroke-width="2"><title>sheep</title></circle>')
        elif state.wolves >> p & 1:
            out.append(f'<circle cx="{x}" cy="{y}" r="{cell // 3}" fill="#222222" '
                       'stroke="#000" stroke-width="2"><title>wolf</title></circle>')
        else:
            out.append(f'<circle cx="{x}" cy="{y}" r="5" fill="#555"/>')
    if arrow is not None:
        pts = " ".join(f"{x},{y}" for x, y in (xy(p) for p in arrow.path))
        out.append(f'<polyline points="{pts}" fill="none" stroke="#1e6fd9" stroke-width="5" '
                   f'stroke-opacity="0.8" marker-end="url(#head)"><title>{arrow.text()}'
                   '</title></polyline>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
