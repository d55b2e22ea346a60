"""WCAG 2's contrast ratio, computed from its definition (relative luminance of sRGB), for the
web tests that check the colours of the pages; independent of fleece's own function."""

from __future__ import annotations

import re


def srgb_to_linear(c: int) -> float:
    """WCAG 2.x: a channel's linear value (the sRGB transfer function)."""
    v = c / 255
    return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4


def relative_luminance(colour: str) -> float:
    """The relative luminance of #rrggbb."""
    m = re.fullmatch(r"#([0-9a-fA-F]{2})([0-9a-fA-F]{2})([0-9a-fA-F]{2})", colour)
    assert m, colour
    r, g, b = (srgb_to_linear(int(x, 16)) for x in m.groups())
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(fg: str, bg: str) -> float:
    """The contrast ratio of two #rrggbb colours, 1 to 21."""
    hi, lo = sorted((relative_luminance(fg), relative_luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
