"""The Mutton board as a picture: the hex cells' positions in pixels, and the colour ramp of a
probability (pale for 0, deep red for a certain wolf) with the text colour that reads on each
shade. The SVG file of `fleece mutton solve --svg` and the web page's board both draw from
here, so the board and its colours are defined once.

The ramp has eleven shades (p rounded to tenths), a light and a dark one (the web page follows
the reader's colour scheme; a file uses the light one). On each shade the text colour is the
one of INK_DARK and INK_LIGHT with the higher contrast, which is always above WCAG AA's 4.5:1
(the larger of a colour's contrasts with black and white is at least the square root of 21).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from fleece.rules.mutton.geometry import ROW_LETTERS, Board, Cell, board

HEX_R = 26.0  # a cell's circumradius, pointy top
HEX_W = math.sqrt(3) * HEX_R  # a cell's width
SHADES = 10  # shades 0..10: p rounded to tenths

RAMP_LIGHT = ((0xFB, 0xF1, 0xEC), (0x9E, 0x17, 0x10))  # p = 0 and p = 1 on a light page
RAMP_DARK = ((0x2E, 0x27, 0x24), (0xFF, 0x6E, 0x5E))  # ... on a dark page
INK_DARK = "#000000"
INK_LIGHT = "#ffffff"
CORPSE_FILL = ("#d9d9d9", "#4a4a4a")  # light, dark
EMPTY_FILL = ("#f7f7f2", "#26282b")


def shade(p: Fraction | float) -> int:
    """A probability as one of the shades 0..SHADES."""
    return min(SHADES, max(0, round(float(p) * SHADES)))


def _hex(rgb: tuple[float, float, float]) -> str:
    return "#" + "".join(f"{round(c):02x}" for c in rgb)


def ramp_colour(k: int, dark: bool = False) -> str:
    """The fill of shade k (0..SHADES) as #rrggbb, on a light or a dark page."""
    lo, hi = RAMP_DARK if dark else RAMP_LIGHT
    t = k / SHADES
    return _hex(tuple(a + (b - a) * t for a, b in zip(lo, hi, strict=True)))  # type: ignore[arg-type]


def luminance(colour: str) -> float:
    """The relative luminance of #rrggbb (WCAG 2)."""
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two #rrggbb colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ramp_ink(k: int, dark: bool = False) -> str:
    """The text colour on shade k: the one of INK_DARK and INK_LIGHT that contrasts more."""
    fill = ramp_colour(k, dark)
    return max((INK_DARK, INK_LIGHT), key=lambda ink: contrast(ink, fill))


@dataclass(frozen=True)
class HexLayout:
    """Where each cell of a board of `size` is drawn: pointy-top hexagons of circumradius
    HEX_R, rows 1.5 R apart and each row shifted half a cell, inside `margin` pixels; below
    the board `legend` pixels are left for a legend."""

    size: int
    margin: float = 30.0
    legend: float = 40.0

    @property
    def board(self) -> Board:
        """The board's cells."""
        return board(self.size)

    def centre(self, cell: Cell) -> tuple[float, float]:
        """The centre of a cell in pixels."""
        x = (cell.diag - 1 - cell.row / 2 + (self.size - 1) / 2) * HEX_W
        return self.margin + HEX_W / 2 + x, self.margin + HEX_R + cell.row * 1.5 * HEX_R

    @staticmethod
    def corners(cx: float, cy: float) -> str:
        """The hexagon around (cx, cy) as an SVG `points` list."""
        return " ".join(f"{cx + HEX_R * math.cos(math.radians(60 * i - 90)):.1f},"
                        f"{cy + HEX_R * math.sin(math.radians(60 * i - 90)):.1f}"
                        for i in range(6))

    def row_labels(self) -> list[tuple[float, float, str]]:
        """Each row's letter and where it stands, left of the row's first cell."""
        b = self.board
        out = []
        for r in range(b.rows):
            cx, cy = self.centre(b.row_cells(r)[0])
            out.append((cx - HEX_W * 0.85, cy + 4, ROW_LETTERS[r]))
        return out

    @property
    def board_height(self) -> float:
        """The bottom of the last row plus the margin."""
        return self.margin + HEX_R + (self.board.rows - 1) * 1.5 * HEX_R + HEX_R + \
            self.margin

    @property
    def width(self) -> float:
        """The picture's width: the widest row and both margins."""
        return 2 * self.margin + (2 * self.size - 1) * HEX_W

    @property
    def height(self) -> float:
        """The picture's height, the legend included."""
        return self.board_height + self.legend
