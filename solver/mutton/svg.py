"""The board as an SVG picture: hex cells with pbmserv names, animal letters, each living animal
shaded by its probability of being a wolf, corpses marked, and a legend."""

from __future__ import annotations

from fractions import Fraction
from xml.sax.saxutils import escape

from fleece.rules.mutton.picture import (
    CORPSE_FILL,
    EMPTY_FILL,
    HEX_R,
    SHADES,
    HexLayout,
    ramp_colour,
    ramp_ink,
    shade,
)
from fleece.solver.mutton.problem import Problem
from fleece.solver.mutton.solution import Solution

MARGIN = 40.0
INK = "#1d1d1f"  # text on an empty cell or a corpse


def board_svg(problem: Problem, solution: Solution) -> str:
    """A standalone SVG document of the current board (needs `problem.board`)."""
    pic = problem.board
    assert pic is not None
    layout = HexLayout(pic.size, margin=MARGIN)
    b = layout.board
    at = {c: a for a, c in pic.animals.items()}
    width = layout.width
    legend_y = layout.board_height - MARGIN + 30
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
    for x, y, letter in layout.row_labels():
        parts.append(f'<text x="{x:.1f}" y="{y:.1f}" font-size="12" '
                     f'fill="#595959" text-anchor="middle">{letter}</text>')
    for c in b.cells:
        cx, cy = layout.centre(c)
        a = at.get(c)
        ink = INK
        if a is not None:
            k = shade(solution.probability(a) if solution.consistent else Fraction(0))
            fill, ink = ramp_colour(k), ramp_ink(k)
        elif c in pic.corpses:
            fill = CORPSE_FILL[0]
        else:
            fill = EMPTY_FILL[0]
        parts.append(f'<polygon points="{layout.corners(cx, cy)}" fill="{fill}" stroke="#555" '
                     'stroke-width="1.2"/>')
        parts.append(f'<text x="{cx:.1f}" y="{cy - HEX_R * 0.55:.1f}" font-size="8" '
                     f'fill="{ink}" text-anchor="middle">{c.name}</text>')
        if a is not None:
            parts.append(f'<text x="{cx:.1f}" y="{cy + 5:.1f}" font-size="16" fill="{ink}" '
                         f'font-weight="bold" text-anchor="middle">{escape(a)}</text>')
            if solution.consistent:
                p = solution.probability(a)
                label = "wolf" if p == 1 else "0" if p == 0 else f"{float(p):.2f}"
                parts.append(f'<text x="{cx:.1f}" y="{cy + HEX_R * 0.7:.1f}" font-size="8" '
                             f'fill="{ink}" text-anchor="middle">{label}</text>')
        elif c in pic.corpses:
            d = HEX_R * 0.35
            parts.append(f'<path d="M{cx - d:.1f},{cy - d:.1f} L{cx + d:.1f},{cy + d:.1f} '
                         f'M{cx - d:.1f},{cy + d:.1f} L{cx + d:.1f},{cy - d:.1f}" '
                         'stroke="#444" stroke-width="2"/>')
    # Legend: a gradient strip from 0 to 1, and the corpse mark.
    x0 = MARGIN
    steps = SHADES
    for i in range(steps + 1):
        parts.append(f'<rect x="{x0 + i * 16:.1f}" y="{legend_y:.1f}" width="16" height="12" '
                     f'fill="{ramp_colour(i)}" stroke="#999" stroke-width="0.5"/>')
    parts.append(f'<text x="{x0:.1f}" y="{legend_y + 26:.1f}" font-size="10">P(wolf) 0</text>')
    parts.append(f'<text x="{x0 + (steps + 1) * 16:.1f}" y="{legend_y + 26:.1f}" '
                 'font-size="10" text-anchor="end">1</text>')
    parts.append(f'<text x="{x0 + (steps + 1) * 16 + 20:.1f}" y="{legend_y + 10:.1f}" '
                 'font-size="10">grey cell with a cross: corpse</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
