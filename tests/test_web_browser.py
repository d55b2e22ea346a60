"""`fleece serve` in a real browser: headless Chromium from the distribution's packages
(/usr/bin/chromium; .ci/run installs it), driven by Playwright, against the command started on
a free local port. A missing browser fails the test (it never skips).

Paste the help page's chart and read that C is shown as a certain wolf and that 219 sets are
counted (a screenshot is taken; with FLEECE_SCREENSHOT=PATH it is also written there, which is
how docs/mutton-page.png was made); play an Ulvtafl move by clicking the board; watch the
Woof!! beliefs follow the evidence as lines are added; solve a puzzle by clicking tiles. Every
page runs with the app's Content-Security-Policy, so any inline script or style, or a script
error, would show up as a console error, which fails the test.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.serve import served

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("FLEECE_CHROMIUM", "/usr/bin/chromium")
# As root in a container, Chromium needs no sandbox; the network flags keep it from calling
# home (the CI machine has no network), a fresh profile keeps runs apart.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage", "--disable-extensions"]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with served() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium through Playwright; missing either is a failure, not a skip."""
    assert Path(CHROMIUM).exists() or shutil.which(CHROMIUM), (
        f"no Chromium at {CHROMIUM}: install Debian's chromium (apt-get install chromium), "
        "as .ci/run does, or set FLEECE_CHROMIUM")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page whose console errors and script errors are collected and must be none."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    pg = context.new_page()
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: problems.append(str(e)))
    yield pg
    context.close()
    assert problems == []


def test_mutton_help_page_chart_in_the_browser(server: str, page: Any,
                                               tmp_path: Path) -> None:
    """Paste the chart, solve, read C as a certain wolf and the 219 sets; hover C on the
    board for its exact probability; take a screenshot."""
    chart = (ROOT / "examples" / "mutton" / "helppage.txt").read_text(encoding="utf-8")
    page.goto(server + "/mutton")
    page.fill("#chart", chart)
    page.click("#solve")
    page.wait_for_selector("#count")
    assert page.inner_text("#count").startswith("219 consistent wolf sets")
    certain = page.locator("#certain-wolves li[data-letter='C']")
    assert certain.count() == 1
    assert certain.inner_text().startswith("C is certainly a wolf")
    cell = page.locator("#board g.animal[data-letter='C']")
    assert cell.get_attribute("class") == "cell animal wolf"
    cell.hover()
    assert page.inner_text("#detail").startswith("C: P(wolf) = 1")
    assert page.locator("#table tr.wolf[data-letter='C']").count() == 1
    shot = tmp_path / "mutton-page.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    target = os.environ.get("FLEECE_SCREENSHOT")
    if target:
        shutil.copyfile(shot, target)


def test_mutton_typo_marks_the_paste(server: str, page: Any) -> None:
    page.goto(server + "/mutton?example=mutton-typo")
    page.click("#solve")
    page.wait_for_selector("#inconsistent")
    assert page.locator(".result pre.paste mark").count() >= 2


def test_ulvtafl_move_by_clicking(server: str, page: Any) -> None:
    """Click a wolf, then the point it steps to: the move is played, the sheep move next."""
    page.goto(server + "/ulvtafl")
    moves = page.eval_on_selector("#ulv-board", "e => JSON.parse(e.getAttribute('data-moves'))")
    assert len(moves) == 6
    move = moves[0]
    start, end = move["path"]
    assert page.get_attribute(f"#pt-{start}", "class") == "point wolf"
    page.click(f"#pt-{start}")
    assert "target" in (page.get_attribute(f"#pt-{end}", "class") or "")
    with page.expect_navigation():
        page.click(f"#pt-{end}")
    assert page.inner_text("#played") == f"Played: {move['text']}."
    assert page.inner_text("#to-move") == "Sheep to move."
    assert page.get_attribute(f"#pt-{end}", "class") == "point wolf"
    assert page.get_attribute(f"#pt-{start}", "class") == "point "


def test_woof_beliefs_follow_the_evidence(server: str, page: Any) -> None:
    """Type the evidence line by line and add one with the builder: the table updates
    without submitting; a contradiction marks its lines."""
    page.goto(server + "/woof")
    page.fill("#evidence", "seats 5\ndeck sheep*4 dog hunter*2 hunter? shepherd? wolf\n")
    page.wait_for_selector("#beliefs")
    assert "5 players" in page.inner_text("#woof-answer")
    page.fill("[data-line^='hand'] [data-k=seat]", "4")
    page.fill("[data-line^='hand'] [data-k=a]", "sheep")
    page.fill("[data-line^='hand'] [data-k=b]", "sheep")
    page.click("[data-line^='hand'] button")
    assert "hand 4 sheep sheep" in page.input_value("#evidence")
    page.wait_for_selector('#beliefs td[title="seat 4 is sheep with probability 1"]')
    page.fill("#evidence", page.input_value("#evidence") + "hand 4 hunter hunter\n")
    page.wait_for_selector("#contradiction")
    assert page.locator("#woof-result .line.marked").count() == 2


def test_puzzle_solved_by_clicking_tiles(server: str, page: Any) -> None:
    page.goto(server + "/puzzles/mutton/medium/003")
    for letter in ("B", "X", "Z"):
        page.click(f"label.tile:has(input[value='{letter}'])")
    page.click("#check")
    page.wait_for_selector("#right")
    assert page.locator("#steps li").count() == 6
