"""`fleece serve` in a real browser: headless Chromium from the distribution's packages
(/usr/bin/chromium; .ci/run installs it), driven by Playwright, against the command started on
a free local port. A missing browser fails the test (it never skips).

Every page, with a result shown, at a phone's 390x844 and at a desktop's 1280x900: nothing is
wider than the screen (outside a box that scrolls on its own, such as a JSON listing), and
on the phone every control is a tap target of at least 44 px. Paste the help page's chart
and read that C is a certain wolf and 219 sets are counted (tapping C shows why: nothing is
hover-only); play an Ulvtafl move by clicking the board; play an Ulvtafl puzzle end to end
(its solution, then a wrong move taken back, then the hints); watch the Woof!! beliefs follow
the evidence; solve a puzzle by tapping tiles. Every page runs with the app's
Content-Security-Policy, so any inline script or style, or a script error, would show up as
a console error, which fails the test.

With FLEECE_SCREENSHOTS=DIR the test writes each game's page to DIR (docs/*.png in the
checkout: `FLEECE_SCREENSHOTS=docs python -m pytest -n 0 tests/test_web_browser.py`).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.serve import served
from helpers.wcag import ratio

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("FLEECE_CHROMIUM", "/usr/bin/chromium")
# As root in a container, Chromium needs no sandbox; the network flags keep it from calling
# home (the CI machine has no network), a fresh profile keeps runs apart.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--disable-dev-shm-usage", "--disable-extensions"]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
VIEWPORTS = {"phone": PHONE, "desktop": DESKTOP}
HELPPAGE = (ROOT / "examples" / "mutton" / "helppage.txt").read_text(encoding="utf-8")
RULEBOOK5 = (ROOT / "examples" / "woof" / "rulebook5.txt").read_text(encoding="utf-8")
SHOTS = os.environ.get("FLEECE_SCREENSHOTS")

# Every element's box must lie within the viewport, but for those inside a box that scrolls
# (or clips) on its own; and the page itself must not scroll sideways.
TOO_WIDE = """() => {
  const w = document.documentElement.clientWidth;
  const bad = [];
  if (document.documentElement.scrollWidth > w) {
    bad.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' > ' + w);
  }
  for (const el of document.body.querySelectorAll('*')) {
    let p = el.parentElement, clipped = false;
    while (p && p !== document.body) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') { clipped = true; break; }
      p = p.parentElement;
    }
    if (clipped) { continue; }
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) { continue; }
    if (r.left < -1 || r.right > w + 1) {
      bad.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + ' ' +
               Math.round(r.left) + '..' + Math.round(r.right));
    }
  }
  return bad;
}"""

# Controls a finger must hit: at least 44 px in both directions (WCAG 2.5.5's size).
SMALL_TARGETS = """() => {
  const sel = 'button, select, input:not([type=hidden]):not([type=checkbox]):not([type=radio]),' +
              ' header a, label.tile span, summary, .picks a';
  const bad = [];
  for (const el of document.querySelectorAll(sel)) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) { continue; }
    if (r.height < 43.5 || r.width < 43.5) {
      bad.push((el.tagName + ' ' + (el.textContent || el.name || '')).trim().slice(0, 40) +
               ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
  }
  return bad;
}"""


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


def _page(browser: Any, viewport: dict[str, int]) -> Iterator[Any]:
    context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE)
    pg = context.new_page()
    problems: list[str] = []
    pg.on("console", lambda m: problems.append(m.text) if m.type == "error" and not
          m.location.get("url", "").endswith("/nope") else None)  # the 404 page is meant
    pg.on("pageerror", lambda e: problems.append(str(e)))
    yield pg
    context.close()
    assert problems == []


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh desktop page whose console errors and script errors are collected and must
    be none."""
    yield from _page(browser, DESKTOP)


@pytest.fixture(params=list(VIEWPORTS))
def any_page(browser: Any, request: Any) -> Iterator[Any]:
    """A fresh page at the phone's and at the desktop's size."""
    yield from _page(browser, VIEWPORTS[request.param])


def shot(pg: Any, name: str, at: str | None = None) -> None:
    """With FLEECE_SCREENSHOTS=DIR, the screen as DIR/NAME.png: the top of the page, or
    scrolled to the element `at` (a result)."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        pg.evaluate("s => s ? document.querySelector(s).scrollIntoView() : "
                    "window.scrollTo(0, 0)", at)
        pg.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


# ---- every page fits ------------------------------------------------------------------------


def _mutton(pg: Any, url: str) -> None:
    pg.goto(url + "/mutton")
    pg.fill("#chart", HELPPAGE)
    pg.click("#solve")
    pg.wait_for_selector("#count")


def _woof(pg: Any, url: str) -> None:
    pg.goto(url + "/woof?example=woof")
    pg.click("#woof-form button[type=submit]")
    pg.wait_for_selector("#suggestion")


def _war(pg: Any, url: str) -> None:
    pg.goto(url + "/cards")
    pg.fill("#war-form input[name=samples]", "500")
    pg.click("#war-go")
    pg.wait_for_selector("#war-result")


def _duel(pg: Any, url: str) -> None:
    pg.goto(url + "/cards")
    pg.fill("#conc-form input[name=deck]", "pairs:5")
    pg.select_option("#conc-form select[name=players]", "2")
    pg.click("#conc-go")
    pg.wait_for_selector("#move-table")


def _ulvtafl_solved(pg: Any, url: str) -> None:
    pg.goto(url + "/ulvtafl")
    pg.click("#solve")
    pg.wait_for_selector("#solve-result")


def _mutton_play(pg: Any, url: str) -> None:
    pg.goto(url + "/mutton/play")
    pg.fill("#seed", "7")
    pg.click("#start")
    pg.wait_for_selector("#play-board")


def _go(path: str) -> Callable[[Any, str], None]:
    return lambda pg, url: pg.goto(url + path)


PAGES: dict[str, Callable[[Any, str], None]] = {
    "home": _go("/"), "mutton": _mutton, "mutton-typo": _go("/mutton?example=mutton-typo"),
    "woof": _woof, "ulvtafl": _go("/ulvtafl"), "ulvtafl-solved": _ulvtafl_solved,
    "cards-war": _war, "cards-duel": _duel, "puzzles": _go("/puzzles"),
    "puzzle-mutton": _go("/puzzles/mutton/medium/003"),
    "puzzle-woof": _go("/puzzles/woof/easy/001"),
    "puzzle-ulvtafl": _go("/ulvtafl/puzzles/hard/004"), "api-docs": _go("/docs"),
    "mutton-play-start": _go("/mutton/play"), "mutton-play": _mutton_play,
    "not-found": _go("/nope"),
}


@pytest.mark.parametrize("name", list(PAGES))
def test_every_page_fits_the_screen(server: str, any_page: Any, name: str) -> None:
    """The page, with its result, has nothing wider than the screen; on the phone every
    control is big enough to tap."""
    PAGES[name](any_page, server)
    assert any_page.evaluate(TOO_WIDE) == []
    if any_page.viewport_size == PHONE:
        assert any_page.evaluate(SMALL_TARGETS) == []


# ---- what each page does --------------------------------------------------------------------


def test_mutton_help_page_chart_in_the_browser(server: str, any_page: Any) -> None:
    """Paste the chart, solve, read C as a certain wolf and the 219 sets; tap C on the board
    for its exact probability and why (on the phone as on the desktop)."""
    page = any_page
    _mutton(page, server)
    assert page.inner_text("#count").startswith("219 consistent wolf sets")
    certain = page.locator("#certain-wolves li[data-letter='C']")
    assert certain.count() == 1
    assert certain.inner_text().startswith("C is certainly a wolf")
    cell = page.locator("#board g.animal[data-letter='C']")
    assert cell.get_attribute("class") == "cell animal wolf shade-10"
    if page.viewport_size == PHONE:
        cell.tap()
    else:
        cell.click()
    detail = page.inner_text("#detail")
    assert detail.startswith("C: P(wolf) = 1") and "Certain wolf" in detail
    assert page.locator("#table tr.wolf[data-letter='C']").count() == 1
    shot(page, "mutton-page" if page.viewport_size == DESKTOP else "mutton-phone", "#result")


# Each living animal's cell on the board: the fill of its hexagon and of its texts, as drawn.
CELL_COLOURS = """() => Array.from(document.querySelectorAll('#board g.animal')).map(g => ({
  letter: g.getAttribute('data-letter'),
  fill: getComputedStyle(g.querySelector('polygon')).fill,
  texts: Array.from(g.querySelectorAll('text')).map(t => getComputedStyle(t).fill)}))"""


def _rgb(css: str) -> str:
    """`rgb(158, 23, 16)` as `#9e1710`."""
    r, g, b = (int(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return f"#{r:02x}{g:02x}{b:02x}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_board_letters_read_on_their_shade_as_drawn(server: str, browser: Any,
                                                     scheme: str) -> None:
    """The colours the browser draws (after every style rule), light and dark: each letter,
    cell name and probability on the board reaches 4.5:1 on its cell, C (a certain wolf)
    included (WCAG's ratio, tests/helpers/wcag.py)."""
    context = browser.new_context(viewport=DESKTOP, color_scheme=scheme)
    pg = context.new_page()
    try:
        _mutton(pg, server)
        cells = pg.evaluate(CELL_COLOURS)
    finally:
        context.close()
    assert len(cells) == 21
    low = [(c["letter"], fg, c["fill"], round(ratio(_rgb(fg), _rgb(c["fill"])), 2))
           for c in cells for fg in c["texts"] if ratio(_rgb(fg), _rgb(c["fill"])) < 4.5]
    assert low == []
    certain = next(c for c in cells if c["letter"] == "C")
    assert _rgb(certain["fill"]) != _rgb(certain["texts"][1])


def _choices(page: Any) -> Any:
    return page.eval_on_selector("#play-board",
                                 "e => JSON.parse(e.getAttribute('data-choices'))")


def test_mutton_play_as_the_farmer_on_a_phone(server: str, browser: Any) -> None:
    """On a phone: start a game as the Farmer against the v2 robot with seed 7, shoot by
    tapping animals on the board (the tap writes the move; Play sends it; the robot's reply
    is shown), with nothing wider than the screen; switch the solver's overlay off and on."""
    for page in _page(browser, PHONE):
        _mutton_play(page, server)
        assert page.inner_text("#seed-shown") == "7"
        assert page.inner_text("#replies") == "Z:V-d2,Y-c3"  # as the API test has it
        for _ in range(3):
            if page.locator("#game-over").count():
                break
            letter = _choices(page)["targets"][-1]["animal"]
            page.locator(f"#play-board g[data-letter='{letter}']").tap()
            assert page.input_value("#move") == letter
            with page.expect_navigation():
                page.tap("#play")
            assert page.inner_text("#played") == letter
            assert page.locator("#error").count() == 0
            assert page.evaluate(TOO_WIDE) == []
            assert page.evaluate(SMALL_TARGETS) == []
        assert page.locator("#overlay-table").count() == 1
        assert "shade-" in (page.locator("#play-board g.animal").first.get_attribute("class")
                            or "")
        with page.expect_navigation():
            page.tap("#overlay-toggle")
        assert page.locator("#overlay").count() == 0
        assert "shade-" not in (page.locator("#play-board g.animal").first
                                .get_attribute("class") or "")
        with page.expect_navigation():
            page.tap("#overlay-toggle")
        assert page.locator("#overlay-table").count() == 1
        shot(page, "mutton-play-phone")


def test_mutton_play_as_the_wolf_by_tapping(server: str, page: Any) -> None:
    """As the Wolf: tap four animals to choose the wolves, then a victim and a free cell for
    each neighbour that runs: the taps write the move in pbmserv notation and the robot
    Farmer answers."""
    page.goto(server + "/mutton/play")
    page.select_option("#person", "wolf")
    page.select_option("#bot", "random")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_selector("#play-board")
    for letter in "DCBA":
        page.click(f"#play-board g[data-letter='{letter}']")
    assert page.input_value("#move") == "wolves=ABCD"
    with page.expect_navigation():
        page.click("#play")
    kill = _choices(page)["targets"][0]
    page.click(f"#play-board g[data-letter='{kill['animal']}']")
    for cell in kill["free"][:len(kill["runners"])]:
        assert "target" in (page.get_attribute(f"#cell-{cell}", "class") or "")
        page.click(f"#cell-{cell}")
    runs = ",".join(f"{a}-{c}" for a, c in zip(kill["runners"], kill["free"], strict=False))
    move = kill["animal"] + (":" + runs if runs else "")
    assert page.input_value("#move") == move
    with page.expect_navigation():
        page.click("#play")
    assert page.inner_text("#played") == move
    assert page.inner_text("#replies") != ""
    shot(page, "mutton-play-wolf", "#overlay")


def test_mutton_typo_marks_the_paste(server: str, page: Any) -> None:
    page.goto(server + "/mutton?example=mutton-typo")
    page.click("#solve")
    page.wait_for_selector("#inconsistent")
    assert page.locator(".result pre.paste mark").count() >= 2


def test_mutton_puzzle_says_how_many_wolves_are_hidden(server: str, page: Any) -> None:
    """medium/003 asks to name all four wolves; the chart shows one (A, dead), so three are
    hidden."""
    page.goto(server + "/puzzles/mutton/medium/003")
    assert page.inner_text("#hidden-wolves") == \
        "4 wolves in the flock; the chart shows 1 of them, so 3 are hidden."


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
    shot(page, "ulvtafl-page")


def _click_move(page: Any, move: str) -> None:
    """Play a step `a5-b5` by tapping its two points (the page then submits it)."""
    start, end = move.split("-")
    page.click(f"#pt-{start}")
    with page.expect_navigation():
        page.click(f"#pt-{end}")


def test_ulvtafl_puzzle_played_end_to_end(server: str, any_page: Any) -> None:
    """hard/004, sheep to move and win in 7: the solution's four sheep moves played on the
    board, each answered by the wolves' best defence (the solution's replies), end in the
    sheep's win; then from the start the tempting d5-c5 is said to throw the win away and is
    taken back; then three hints, from the threat in words to the move drawn as an arrow."""
    page = any_page
    solution = json.loads((ROOT / "puzzles" / "ulvtafl" / "hard" / "004.json")
                          .read_text(encoding="utf-8"))["solution"]
    page.goto(server + "/ulvtafl/puzzles/hard/004")
    assert page.inner_text("#claim").startswith("Sheep to move and win in 7 plies")
    for i in range(0, len(solution), 2):
        _click_move(page, solution[i])
        step = page.inner_text("#step")
        if i + 1 < len(solution):
            assert step.startswith(f"{solution[i]}, reply {solution[i + 1]}: good"), step
            assert page.inner_text("#played") == "Moves: " + " ".join(solution[:i + 2])
    assert "the sheep win" in page.inner_text("#game-over")
    assert page.inner_text("#solved") == "Solved!"
    page.goto(server + "/ulvtafl/puzzles/hard/004")
    _click_move(page, "d5-c5")
    assert "that throws the win away" in page.inner_text("#step")
    assert "The wolves win now" in page.inner_text("#value")
    with page.expect_navigation():
        page.click("#take-back")
    assert page.locator("#played").count() == 0
    assert "You still win: 7 plies to go" in page.inner_text("#value")
    with page.expect_navigation():
        page.click("#hint-button")
    assert page.inner_text("#hint").startswith("Hint: no direct threat: a quiet move")
    with page.expect_navigation():
        page.click("#hint-button")
    assert "Move the piece on g5" in page.inner_text("#hint")
    assert "hinted" in (page.get_attribute("#pt-g5", "class") or "")
    with page.expect_navigation():
        page.click("#hint-button")
    assert page.inner_text("#hint-move") == "g5-f5"
    assert page.locator("#best-arrow").count() == 1
    shot(page, "ulvtafl-puzzle" if page.viewport_size == DESKTOP else "ulvtafl-puzzle-phone")


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


def test_woof_advice_shows_the_numbers_and_the_rule(server: str, page: Any) -> None:
    """The rulebook's round: seat 4's best suspicion is right with p = 85/173 = 0.491, so
    suspecting early is worth 2p = 0.983 < 1: wait, with the numbers and the rule."""
    _woof(page, server)
    assert page.inner_text("#advice") == (
        "Advice: wait: suspecting early now is worth 2 x 0.491 = 0.983 points on average; "
        "waiting, at most 1 point; rule: early when 2p >= 1 (0.983 < 1).")
    shot(page, "woof-page")


def test_war_says_which_method_ran_and_why(server: str, page: Any) -> None:
    """An exact run (pairs:4: every deal played) and an estimate (McCord's deck, 500 seeded
    games): the method, the reason, and for the estimate the 95% intervals."""
    page.goto(server + "/cards")
    page.fill("#war-form input[name=deck]", "pairs:4")
    page.fill("#war-form input[name=samples]", "")
    page.click("#war-go")
    page.wait_for_selector("#war-result")
    assert page.inner_text("#war-method") == (
        "Exact: every deal played. Why: all 2520 deals are within max_deals 2000000: "
        "every one played.")
    _war(page, server)
    method = page.inner_text("#war-method")
    assert method.startswith("Monte Carlo estimate from 500 seeded games, with 95% "
                             "intervals. Why: samples 500")
    assert "95% interval" in page.inner_text("#war-estimates")
    shot(page, "cards-page", "#war-result")


def test_concentration_duel_reads_in_words(server: str, page: Any) -> None:
    """pairs:4 with two players: the first player's gain is -4/35, read as a disadvantage;
    the move table's rows and columns are labelled in words."""
    page.goto(server + "/cards")
    page.fill("#conc-form input[name=deck]", "pairs:4")
    page.select_option("#conc-form select[name=players]", "2")
    page.click("#conc-go")
    page.wait_for_selector("#move-table")
    assert page.inner_text("#conc-reading") == (
        "With best play the first player expects 0.114 fewer pairs than the second: moving "
        "first is a disadvantage.")
    table = page.inner_text("#move-table")
    assert "pairs left" in table and "4 pairs left" in table and "0 seen" in table
    assert "two new cards" in table and "one new card" in table


def test_puzzle_solved_by_clicking_tiles(server: str, any_page: Any) -> None:
    page = any_page
    page.goto(server + "/puzzles/mutton/medium/003")
    for letter in ("B", "X", "Z"):
        page.click(f"label.tile:has(input[value='{letter}'])")
    page.click("#check")
    page.wait_for_selector("#right")
    assert page.locator("#steps li").count() == 6
    if page.viewport_size == DESKTOP:
        shot(page, "puzzles-page", "h1")


def test_api_docs_page(server: str, page: Any) -> None:
    """The navigation's API link opens the documentation, which lists the endpoints."""
    page.goto(server + "/")
    with page.expect_navigation():
        page.click("header nav a:has-text('API')")
    assert page.url.endswith("/docs")
    assert page.locator("section.endpoint").count() >= 17
    shot(page, "api-docs")
