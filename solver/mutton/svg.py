"""The board as an SVG picture: hex cells with pbmserv names, animal letters, each living animal
shaded by its probability of being a wolf, corpses marked, and a legend."""

from __future__ import annotations

import math
from fractions import Fraction
from xml.sax.saxutils import escape

from fleece.rules.mutton.geometry import ROW_LETTERS, board
from fleece.solver.mutton.problem import Problem
from fleece.solver.mutton.solution import Solution

R = 26.0  # hex circumradius (pointy top)
W = math.sqrt(3) * R
MARGIN = 40.0


def _fill(p: Fraction) -> str:
    x = float(p)
    g = int(240 - 190 * x)
    b = int(230 - 190 * x)
    return f"rgb(255,{g},{b})"


def _hex(cx: float, cy: float) -> str:
    pts = []
    for i in range(6):
        ang = math.radians(60 * i - 90)
        pts.append(f"{cx + R * math.cos(ang):.1f},{cy + R * math.sin(ang):.1f}")
    return " ".join(pts)


def board_svg(problem: Problem, solution: Solution) -> str:
    """A standalone SVG document of the current board (needs `problem.board`)."""
    pic = problem.board
    assert pic is not None
    b = board(pic.size)
    at = {c: a for a, c in pic.animals.items()}
    size = pic.size

    def centre(row: int, diag: int) -> tuple[float, float]:
        x = (diag - 1 - row / 2 + (size - 1) / 2) * W
        return MARGIN + W / 2 + x, MARGIN + R + row * 1.5 * R

    xs = [centre(c.row, c.diag)[0] for c in b.cells]
    ys = [centre(c.row, c.diag)[1] for c in b.cells]
    width = max(xs) + W / 2 + MARGIN
    legend_y = max(ys) + R + 30
    height = legend_y + 40
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="sans-serif">',
        f"<title>Mutton board: P(wolf) of each living animal ({solution.count} consistent "
        "wolf sets)</title>",
        f'<rect width="{width:.0f}" height="{height:.0f}" fill="white"/>',
        f'<text x="{MARGIN:.0f}" y="20" font-size="12">P(wolf) of each living animal; '
        f'{solution.count} consistent wolf set{"s" if solution.count != 1 else ""} of '
        f"{problem.num_wolves}</text>",
    ]
    for r in range(b.rows):
        first = b.row_cells(r)[0]
        cx, cy = centre(first.row, first.diag)
        parts.append(f'<text x="{cx - W * 0.85:.1f}" y="{cy + 4:.1f}" font-size="12" '
                     f'fill="#777" text-anchor="middle">{ROW_LETTERS[r]}</text>')
    for c in b.cells:
        cx, cy = centre(c.row, c.diag)
        a = at.get(c)
        if a is not None:
            p = solution.probability(a) if solution.consistent else Fraction(0)
            fill = _fill(p)
        elif c in pic.corpses:
            fill = "#d9d9d9"
        else:
            fill = "#f7f7f2"
        parts.append(f'<polygon points="{_hex(cx, cy)}" fill="{fill}" stroke="#555" '
                     'stroke-width="1.2"/>')
        parts.append(f'<text x="{cx:.1f}" y="{cy - R * 0.55:.1f}" font-size="8" fill="#888" '
                     f'text-anchor="middle">{c.name}</text>')
        if a is not None:
            parts.append(f'<text x="{cx:.1f}" y="{cy + 5:.1f}" font-size="16" '
                         f'font-weight="bold" text-anchor="middle">{escape(a)}</text>')
            if solution.consistent:
                p = solution.probability(a)
                label = "wolf" if p == 1 else "0" if p == 0 else f"{float(p):.2f}"
                parts.append(f'<text x="{cx:.1f}" y="{cy + R * 0.7:.1f}" font-size="8" '
                             f'text-anchor="middle">{label}</text>')
        elif c in pic.corpses:
            d = R * 0.35
            parts.append(f'<path d="M{cx - d:.1f},{cy - d:.1f} L{cx + d:.1f},{cy + d:.1f} '
                         f'M{cx - d:.1f},{cy + d:.1f} L{cx + d:.1f},{cy - d:.1f}" '
                         'stroke="#444" stroke-width="2"/>')
    # Legend: a gradient strip from 0 to 1, and the corpse mark.
    x0 = MARGIN
    steps = 10
    for i in range(steps + 1):
        p = Fraction(i, steps)
        parts.append(f'<rect x="{x0 + i * 16:.1f}" y="{legend_y:.1f}" width="16" height="12" '
                     f'fill="{_fill(p)}" stroke="#999" stroke-width="0.5"/>')
    parts.append(f'<text x="{x0:.1f}" y="{legend_y + 26:.1f}" font-size="10">P(wolf) 0</text>')
    parts.append(f'<text x="{x0 + (steps + 1) * 16:.1f}" y="{legend_y + 26:.1f}" '
                 'font-size="10" text-anchor="end">1</text>')
    parts.append(f'<text x="{x0 + (steps + 1) * 16 + 20:.1f}" y="{legend_y + 10:.1f}" '
                 'font-size="10">grey cell with a cross: corpse</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
