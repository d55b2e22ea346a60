"""The pages' colours read well: every text colour on its background reaches WCAG AA's 4.5:1
in the light and the dark scheme, the probability shades included (a certain wolf's letter
is not red on red), in the page's style sheet and in the board SVG of `fleece mutton solve
--svg`. The contrast is computed from WCAG 2's definition (tests/helpers/wcag.py), not with
fleece's own function; and the style sheet names no colour of its own, so the table checked
here is every colour the pages use (tests/test_web_browser.py checks the colours as drawn)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers.wcag import ratio, relative_luminance

from fleece.rules.mutton.picture import SHADES
from fleece.web.theme import PALETTE, TEXT_PAIRS, colours, theme_css

ROOT = Path(__file__).resolve().parent.parent
AA = 4.5


def test_the_wcag_formula_here_is_right() -> None:
    """Published values: black on white 21:1, #777777 on white 4.48:1 (the usual example of
    a grey that just fails AA), white on white 1:1."""
    assert ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert ratio("#ffffff", "#ffffff") == pytest.approx(1.0)


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_text_colour_reaches_aa(dark: bool) -> None:
    c = colours(dark)
    low = {(fg, bg): round(ratio(c[fg], c[bg]), 2) for fg, bg in TEXT_PAIRS
           if ratio(c[fg], c[bg]) < AA}
    assert low == {}


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_every_probability_shade_has_readable_text(dark: bool) -> None:
    """Each of the eleven shades of P(wolf), from 0 to a certain wolf, with its text colour;
    the shades also run from light to dark (or dark to bright) in order, so they read as a
    scale."""
    c = colours(dark)
    for k in range(SHADES + 1):
        assert ratio(c[f"shade-{k}-ink"], c[f"shade-{k}"]) >= AA, k
    lum = [relative_luminance(c[f"shade-{k}"]) for k in range(SHADES + 1)]
    assert lum == sorted(lum, reverse=not dark)
    certain = ratio(c[f"shade-{SHADES}-ink"], c[f"shade-{SHADES}"])
    assert certain >= AA  # a certain wolf: not red on red


def test_the_style_sheet_names_no_colour_of_its_own() -> None:
    """style.css uses only theme.css's variables (so the table above is every colour), and
    every variable it uses is defined in both schemes."""
    css = (ROOT / "web" / "static" / "style.css").read_text(encoding="utf-8")
    body = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    assert re.findall(r"#[0-9a-fA-F]{3,8}\b|rgba?\(|hsla?\(", body) == []
    named = set(re.findall(r"(?<![-\w])(?:red|white|black|gr[ae]y|blue|green)(?![-\w])", body))
    assert named == set()
    used = set(re.findall(r"var\(--([a-z0-9-]+)\)", body))
    for dark in (False, True):
        assert used <= set(colours(dark)), used - set(colours(dark))
    theme = theme_css()
    assert theme.count("--ink:") == 2 and "prefers-color-scheme: dark" in theme
    assert set(PALETTE) <= set(colours(True))


def test_the_board_svg_file_has_readable_letters() -> None:
    """`fleece mutton solve --svg` of the help page's chart: every letter and label on a cell
    reaches AA against that cell's fill (C, a certain wolf, included)."""
    from fleece.api import mutton

    chart = (ROOT / "examples" / "mutton" / "helppage.txt").read_text(encoding="utf-8")
    svg = mutton.board_svg(mutton.solve(mutton.SolveRequest(chart=chart)))
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    fill = None
    checked = 0
    for el in root:
        if el.tag == ns + "polygon":
            fill = el.get("fill")
        elif el.tag == ns + "text" and fill is not None and el.get("font-size") in ("8", "16"):
            assert ratio(el.get("fill") or "#000000", fill) >= AA, (el.text, fill)
            checked += 1
    assert checked >= 26 + 21  # every cell's name, every living animal's letter
    assert "#9e1710" in svg  # C, a certain wolf, drawn with the deepest shade
