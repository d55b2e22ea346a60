"""W11 for evidence files (fleece.solver.woof.supply) and `fleece woof solve`: a record the clue
tokens cannot lay is an inconsistency, reported with a minimal set of lines (exit status 1).

Golden values come from a brute force written here: every assignment of distinct tokens to a
viewer's announcements, tried one by one."""

from __future__ import annotations

import json
from itertools import permutations
from pathlib import Path

from helpers.clirun import invoke
from hypothesis import given
from hypothesis import strategies as st

from fleece.rules.woof.cards import Character, parse_card
from fleece.rules.woof.evidence import Evidence, Fact, LookFact, SawFact, load_evidence
from fleece.solver.woof import analyse
from fleece.solver.woof.supply import layable, token_clash

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "woof"
TOKENS = [("wolf", "hunter"), ("wolf", "sheep"), ("wolf", "dog"), ("hunter", "sheep"),
          ("dog", "sheep"), ("dog", "hunter")]
W = Character.WOLF


def brute_fits(sides: list[str]) -> bool:
    """Some ordering of distinct tokens shows every side (at most 6 announcements)."""
    if len(sides) > len(TOKENS):
        return False
    return any(all(side in TOKENS[t] for side, t in zip(sides, chosen, strict=True))
               for chosen in permutations(range(len(TOKENS)), len(sides)))


def brute_layable(facts: list[Fact]) -> bool:
    """W11 by brute force: at most 12 '?' lines; each viewer's sides fit under one reading of
    whether it is the Shepherd (which decides what an unannounced `saw` showed)."""
    pool = 0
    per_viewer: dict[int, list[tuple[str, str]]] = {}
    for f in facts:
        if isinstance(f, LookFact) or (isinstance(f, SawFact) and f.announced_given):
            if f.announced is None:
                pool += 1
            else:
                side = f.announced.value
                per_viewer.setdefault(f.viewer, []).append((side, side))
        elif isinstance(f, SawFact):
            if f.card.appearance is None:
                pool += 1
            else:
                per_viewer.setdefault(f.viewer, []).append((f.card.appearance.value, "wolf"))
    if pool > 12:
        return False
    for sides in per_viewer.values():
        readings = ([a for a, _ in sides], [b for _, b in sides])
        if not any(brute_fits(r) for r in readings):
            return False
    return True


FACES: list[Character | None] = [None, *map(Character, ("wolf", "hunter", "sheep", "dog"))]
CARDS = [parse_card(n) for n in ("sheep", "dog?", "hunter@sheep", "wolf", "dog@wolf")]


@st.composite
def records(draw: st.DrawFn) -> list[Fact]:
    """Announcements of up to 3 viewers (looks, announced and unannounced `saw` lines)."""
    facts: list[Fact] = []
    for line in range(1, draw(st.integers(1, 16)) + 1):
        viewer = draw(st.integers(1, 3))
        target = 4
        if draw(st.integers(0, 4)) == 0:
            card = draw(st.sampled_from(CARDS))
            facts.append(SawFact(viewer, target, card, line=line))
        else:
            facts.append(LookFact(viewer, target, draw(st.sampled_from(FACES)), line))
    return facts


@given(records())
def test_w11_layable_equals_brute_force(facts: list[Fact]) -> None:
    """W11: the solver's matching decides exactly what the brute force decides."""
    assert layable(facts) == brute_layable(facts)


@given(records())
def test_w11_token_clash_is_a_minimal_unlayable_set(facts: list[Fact]) -> None:
    """W11: the clash cannot be laid, and dropping any one of its lines makes it layable."""
    ev = Evidence(4, (), tuple(facts))
    clash = list(token_clash(ev))
    assert (not clash) == brute_layable(facts)
    if clash:
        assert not brute_layable(clash)
        assert all(brute_layable(clash[:i] + clash[i + 1:]) for i in range(len(clash)))


def _ev(lines: str, players: int = 5) -> Evidence:
    return load_evidence(f"seats {players}\ndeck preset\n{lines}")


def test_w11_a_shepherds_fourth_wolf_cannot_be_laid() -> None:
    """W11: three Wolf announcements use the three tokens that show Wolf; a fourth cannot be
    laid; the clash keeps the last four lines (earlier lines are dropped first)."""
    ev = _ev("look 1 2 wolf\n" * 3 + "look 3 2 sheep\nlook 1 4 wolf\nlook 1 5 wolf\n")
    assert layable(ev.facts[:3]) and not layable(ev.facts)
    assert [f.line for f in token_clash(ev)] == [4, 5, 7, 8]


def test_w11_three_wolves_and_three_hunters_cannot_be_laid() -> None:
    """W11: a count per side is not enough: 3 Wolf + 3 Hunter need the Wolf/Hunter token
    twice (the matching fails although no side is announced more than 3 times)."""
    ev = _ev("look 1 2 wolf\nlook 1 2 hunter\n" * 3)
    assert not layable(ev.facts)
    assert layable(_ev("look 1 2 wolf\nlook 1 2 sheep\n" * 2 + "look 1 2 hunter\n"
                       "look 1 2 dog\n").facts)


def test_w11_the_pool_holds_twelve_question_marks() -> None:
    """W11: 12 '?' announcements (any viewers) can be laid, a 13th cannot."""
    twelve = "".join(f"look {1 + i % 5} {1 + (i + 1) % 5} ?\n" for i in range(12))
    assert layable(_ev(twelve).facts)
    thirteen = _ev(twelve + "look 2 4 ?\n")
    assert not layable(thirteen.facts) and len(token_clash(thirteen)) == 13


def test_w4_w11_unannounced_saw_lines_take_a_token_of_either_reading() -> None:
    """W4, W11: a `saw` line without an announcement laid the card's appearance, or Wolf if the
    viewer is the Shepherd: four different appearances fit (not the Shepherd), four Sheep fit
    neither reading; a '?' card takes a pool token."""
    mixed = _ev("saw 1 2 sheep\nsaw 1 3 dog\nsaw 1 4 hunter\nsaw 1 5 wolf\n")
    assert layable(mixed.facts)
    four = _ev("saw 1 2 sheep\nsaw 1 3 sheep\nsaw 1 4 sheep\nsaw 1 5 sheep\n")
    assert not layable(four.facts)
    assert layable(_ev("saw 1 2 hunter?\n" * 5).facts)


def test_w11_analyse_reports_unlayable_evidence_as_inconsistent() -> None:
    """W11: analyse() returns an inconsistent analysis naming the lines; its JSON has
    `consistent: false`, the lines, and the W11 warning that explains them."""
    ev = _ev("look 1 2 wolf\nlook 1 3 wolf\nlook 3 2 sheep\nlook 1 4 wolf\nlook 1 5 wolf\n")
    report = analyse(ev)
    assert not report.consistent and [f.line for f in report.contradiction] == [3, 4, 6, 7]
    doc = report.to_json()
    assert doc["consistent"] is False and "characters" not in doc
    assert [c["line"] for c in doc["contradiction"]] == [3, 4, 6, 7]
    assert any("W11" in w for w in doc["warnings"])


def test_w11_deal_contradictions_come_first_and_examples_stay_consistent() -> None:
    """A record impossible for the deal keeps its deal contradiction (the bundled example);
    every other bundled example can be laid and stays consistent."""
    for path in sorted(EXAMPLES.glob("*.txt")):
        ev = load_evidence(path.read_text(encoding="utf-8"), path.name)
        assert layable(ev.facts) and token_clash(ev) == ()
        report = analyse(ev)
        assert report.consistent == (path.name != "contradiction.txt")
    deal_first = _ev("look 1 2 shepherd\n" + "look 1 2 wolf\n" * 4)
    report = analyse(deal_first)
    assert [f.line for f in report.contradiction] == [3]


def test_w11_cli_solve_exits_1_with_the_lines_that_cannot_all_be_laid() -> None:
    """W11: `fleece woof solve` prints the lines and exits 1 (text and --json)."""
    text = "seats 5\ndeck preset\n" + "look 1 2 wolf\n" * 4
    r = invoke(["woof", "solve", "-"], stdin=text)
    assert r.exit_code == 1, r.output
    assert "line 6: seat 1 looked at seat 2 and announced wolf" in r.stdout
    assert "W11" in r.stdout
    r = invoke(["woof", "solve", "-", "--json"], stdin=text)
    assert r.exit_code == 1
    doc = json.loads(r.stdout)
    assert doc["consistent"] is False and len(doc["contradiction"]) == 4
