"""`fleece verify --game woof`: the quick run in the suite (W1-W11 checked with Z3, the two rules
gaps found with witnesses and failing the run until accepted, every clause traced), the
witnesses replayed independently, and the command line."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest
from helpers.clirun import invoke

from fleece.rules.woof.cards import Character
from fleece.rules.woof.moves import CardPick, Look
from fleece.rules.woof.protocol import WOOF
from fleece.rules.woof.round import LookEvent, WoofRound
from fleece.rules.woof.scoring import Game, RoundScore
from fleece.verify.report import Report
from fleece.verify.result import NO_END, PROVED, REFUTED, UNSETTLED, CheckResult
from fleece.verify.woof import GAPS, SECTIONS, VerifyConfig, run

BOTH_GAPS = ["WOOF-NO-END", "WOOF-W11-NO-TOKEN"]


@pytest.fixture(scope="module")
def quick() -> Report:
    return run(VerifyConfig(quick=True))


def _check(rep: Report, name: str) -> CheckResult:
    return next(r for r in rep.results if r.name == name)


def test_w1_w11_quick_verification_gates_on_its_two_gaps(quick: Report) -> None:
    """W1-W11: every check comes out as docs/rules.md expects; exactly the two gaps (W7: a round
    need not end; W11: a seat must announce with no token left) are found, fail the run, and
    the run passes once both are accepted; nothing is UNKNOWN; every clause W1-W11 is traced
    to tests and verify checks."""
    assert not quick.ok and not quick.unknowns() and not quick.unexpected()
    assert sorted(g.id for g in quick.gaps()) == BOTH_GAPS == sorted(GAPS)
    kinds = {g.id: g.kind for g in quick.gaps()}
    assert kinds == {"WOOF-NO-END": NO_END, "WOOF-W11-NO-TOKEN": UNSETTLED}
    assert not quick.with_accepted(BOTH_GAPS[:1]).ok
    accepted = quick.with_accepted(BOTH_GAPS)
    assert accepted.ok and accepted.verdict().startswith("PASS")
    assert {r.section for r in quick.results} == {k for k, _ in SECTIONS}
    assert all(r.basis for r in quick.results)
    rows = {row.clause: row for row in quick.trace}
    assert list(rows) == [f"W{i}" for i in range(1, 12)]
    assert all(row.tests and row.proofs for row in rows.values()), [
        c for c, row in rows.items() if not (row.tests and row.proofs)]


def test_w1_w4_w5_settled_claims_and_proofs(quick: Report) -> None:
    """W1, W4, W5: the proofs are PROVED and the tempting claims REFUTED with witnesses (an
    announced Wolf is not a Wolf picture; a yes to q4 is not a Hunter)."""
    for name in ("w1-character", "w2-targets", "w3-dummy", "w4-announce", "w5-answers"):
        assert _check(quick, name).outcome == PROVED
    wolf = _check(quick, "w4-wolf-claim")
    assert wolf.outcome == REFUTED and "dog@wolf" in wolf.witness
    assert "shepherd looks at" in wolf.witness
    hunter = _check(quick, "w5-hunter-claim")
    assert hunter.outcome == REFUTED and "yes to q4" in hunter.witness
    pairs = _check(quick, "w1-pairs")
    # 11 kinds of card in the basic and expert sets: 55 pairs of distinct kinds, plus the 4
    # kinds with two copies (sheep, dog, hunter, wolf) paired with themselves
    assert pairs.data == {"pairs": 59}


def test_w8_w9_rulebook_example_in_both_readings(quick: Report) -> None:
    """W8, W9: the worked example. Reading A (Thomas' Wolf tokens at Kenny and at Jason, as the
    result paragraph says) proves the rulebook's result; reading B (the narrative: a token at
    Kenny only) refutes it - Thomas gets no bonus since Paul named Jason; the bonus holds exactly
    with a token at Jason. The model scores A: Eva 2, Thomas 1 (his bonus), Paul 0, Jason 1,
    Kenny 0; B: Thomas 0."""
    assert _check(quick, "example-reading-a").outcome == PROVED
    b = _check(quick, "example-reading-b")
    assert b.outcome == REFUTED == b.expected
    assert "Thomas 0 point(s) (bonus 0)" in b.witness
    assert _check(quick, "example-token").outcome == PROVED
    model = _check(quick, "example-model")
    assert model.data["points"] == {
        "A": {"Eva": 2, "Thomas": 1, "Paul": 0, "Jason": 1, "Kenny": 0},
        "B": {"Eva": 2, "Thomas": 0, "Paul": 0, "Jason": 1, "Kenny": 0}}


def _visible(rnd: WoofRound) -> tuple[object, ...]:
    return (rnd.current, frozenset(s for s, t in rnd.turns_taken.items() if t),
            frozenset(rnd.early), rnd.barred, tuple(sorted(rnd.questions.items())))


def test_w7_no_end_witness_replays_to_a_repeating_play(quick: Report) -> None:
    """W7: the WOOF-NO-END record is a legal round; playing its cycle of looks again, ten
    times, brings back the same seat to move, turns had, early suspicions and question cards,
    and the round never ends (W7 needs early suspicions, and nothing forces one)."""
    gap = next(g for g in quick.gaps() if g.id == "WOOF-NO-END")
    rnd = WOOF.parse_position(gap.record)
    lasso = _check(quick, "round-forever").data["lassos"]["4"]
    cycle = lasso["targets"][lasso["from"]:]
    start = _visible(rnd)
    for _ in range(10):
        for target in cycle:
            rnd = rnd.play(Look(rnd.current, target)).play(CardPick(0))
        assert _visible(rnd) == start and not rnd.over
    assert sum(rnd.turns) == lasso["to"] + 10 * len(cycle)


def _earliest_fourth_turn(players: int) -> int:
    """Independent of Z3: breadth-first search over turn orders (a seat takes turns in seat
    order, may suspect early from its second turn, leaves the order then; W7 ends the round at
    2 or 3 early suspicions): the first turn that is some seat's 4th, or the 13th turn."""
    limit = 2 if players <= 5 else 3
    # seat to move, early seats, turns taken per seat, turns so far
    start: tuple[int, frozenset[int], tuple[int, ...], int] = (1, frozenset(), (0,) * players, 0)
    queue = deque([start])
    seen = {start}
    while queue:
        cur, early, turns, k = queue.popleft()
        if turns[cur - 1] == 3 or k + 1 == 13:
            return k + 1
        options = [False] + ([True] if turns[cur - 1] >= 1 else [])
        for suspect in options:
            now = early | {cur} if suspect else early
            if len(now) >= limit:
                continue
            counts = tuple(t + (i == cur - 1) for i, t in enumerate(turns))
            nxt = next(s for step in range(1, players + 1)
                       if (s := (cur - 1 + step) % players + 1) not in now)
            state = (nxt, now, counts, k + 1)
            if state not in seen:
                seen.add(state)
                queue.append(state)
    raise AssertionError("unreachable")


def test_w11_no_token_gap_is_a_shepherds_fourth_wolf_after_12_turns(quick: Report) -> None:
    """W11: the WOOF-W11-NO-TOKEN record is a legal 12-turn round whose last look is the
    Shepherd's fourth Wolf, the only look without a token; Z3's earliest turns (12 at 4
    players, 13 at 5-8: the 13th '?') agree with an independent search over turn orders."""
    gap = next(g for g in quick.gaps() if g.id == "WOOF-W11-NO-TOKEN")
    rnd = WOOF.parse_position(gap.record)
    assert sum(rnd.turns) == 12 and rnd.character(1) is Character.SHEPHERD
    assert rnd.gaps == ("seat 1 announced wolf with no token left (W11)",)
    looks = [e for e in rnd.events if isinstance(e, LookEvent) and e.viewer == 1]
    assert [e.announced for e in looks] == [Character.WOLF] * 4
    assert [e.token_placed for e in looks] == [True, True, True, False]
    data = _check(quick, "no-token").data
    assert data["shortest_turns"] == {str(n): _earliest_fourth_turn(n) for n in (4, 5, 6, 7, 8)}
    assert data["shortest_turns"]["4"] == 12


def test_w10_game_ends_within_three_rounds_or_at_a_second_error_token(quick: Report) -> None:
    """W10: proved in Z3 (and "every game lasts three rounds" refuted); the game model agrees
    on every sequence of error tokens of three seats over three rounds (brute force): the game
    is over after round 3, or after the first round that leaves a seat with two error tokens,
    which is round 2 at the earliest."""
    assert _check(quick, "w10-game-ends").outcome == PROVED
    assert _check(quick, "w10-three-rounds").outcome == REFUTED
    assert _check(quick, "games").outcome == "PASSED"
    vectors = [(a, b, c) for a in (0, 1) for b in (0, 1) for c in (0, 1)]
    ended_after: dict[int, int] = {}
    for r1 in vectors:
        for r2 in vectors:
            for r3 in vectors:
                game = Game([1, 2, 3])
                played = 0
                totals = [0, 0, 0]
                for errs in (r1, r2, r3):
                    if game.over:
                        break
                    game.record(RoundScore({}, dict(zip((1, 2, 3), errs, strict=True)), {}, {},
                                           frozenset()))
                    played += 1
                    totals = [t + e for t, e in zip(totals, errs, strict=True)]
                    assert game.over == (played == 3 or max(totals) >= 2)
                assert game.over
                ended_after[played] = ended_after.get(played, 0) + 1
    # ends after round 2 exactly when some seat erred in both rounds: 8*8 - 3^3 = 37 pairs
    assert ended_after == {2: 37 * 8, 3: 27 * 8}


# ---- the command line --------------------------------------------------------------------


def test_w1_w5_cli_cards_section_passes_and_writes_reports(tmp_path: Path) -> None:
    """W1-W5: `fleece verify --game woof --quick --section cards` exits 0 with the markdown,
    JSON and JUnit reports (a section without gaps)."""
    junit = tmp_path / "junit.xml"
    r = invoke(["verify", "--game", "woof", "--quick", "--section", "cards", "--report",
                str(tmp_path), "--junit", str(junit)])
    assert r.exit_code == 0, r.output
    assert "PASS: 12 checks" in r.stdout
    doc = json.loads((tmp_path / "verification-woof.json").read_text())
    assert doc["ok"] is True and doc["game"] == "woof"
    assert (tmp_path / "verification-woof.md").read_text().startswith("<!-- generator")
    assert 'classname="verify.woof.cards"' in junit.read_text()


def test_w7_cli_gap_fails_the_run_and_bad_options_are_one_line(tmp_path: Path) -> None:
    """W7: the ends section fails on WOOF-NO-END (exit 1, the gap named with how to accept
    it); an unknown gap ID or Dog target is a one-line error with exit 2."""
    r = invoke(["verify", "--game", "woof", "--quick", "--section", "ends", "--report",
                str(tmp_path)])
    assert r.exit_code == 1 and "GAP WOOF-NO-END (W7)" in r.stdout
    assert "--accept WOOF-NO-END" in r.stdout
    for bad in (["--accept", "WOOF-NOPE"], ["--dog-target", "cat"], ["--rounds", "0"]):
        r = invoke(["verify", "--game", "woof", "--quick", "--report", str(tmp_path), *bad])
        assert r.exit_code == 2 and r.stderr.startswith("fleece: error:"), r.output
        assert r.stderr.count("\n") == 1


def test_w2_dog_target_option_reaches_the_config() -> None:
    """W2: --dog-target picks the Dog's second target under test (the labelled assumption)."""
    import fleece.verify.woof as package
    from fleece.commands.woof import verify_options

    cfg = verify_options(dog_target="hunter", seed=3, rounds=5).config(True, package)
    assert cfg == VerifyConfig(quick=True, dog_target=Character.HUNTER, seed=3, rounds=5)
    # a Dog looking for a Dog would make W8's "0: no seat has it" ambiguous (W2, W8)
    with pytest.raises(ValueError, match="cannot be the Dog"):
        VerifyConfig(dog_target=Character.DOG)
    r = invoke(["verify", "--game", "woof", "--dog-target", "dog"])
    assert r.exit_code == 2 and "not one of shepherd, sheep, hunter, wolf" in r.stderr
