"""`fleece cards ...` from the command line: the numbers it prints are checked against a second
computation (the War oracle in tests/war_oracle.py, the Wilson interval worked out here, K4's
partner rule), and the JSON of a seeded estimate equals the library's result for the same
seed; hostile input is refused in one line with exit status 2."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from typing import Any

import pytest
from helpers import war_oracle
from helpers.clirun import invoke

Z = 1.959963984540054  # the 97.5% point of the standard normal


def _json(args: list[str]) -> dict[str, Any]:
    r = invoke([*args, "--json"])
    assert r.exit_code == 0, r.output
    data: dict[str, Any] = json.loads(r.stdout)
    return data


def wilson(k: int, n: int) -> list[float]:
    """The 95% Wilson interval from its textbook formula, rounded as the JSON rounds it."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    lo = 0.0 if k == 0 else centre - half
    hi = 1.0 if k == n else centre + half
    return [round(lo, 6), round(hi, 6)]


def check_proportion(d: dict[str, Any], n: int) -> int:
    """A proportion's JSON: count of n, fraction and Wilson interval consistent; the count."""
    k = d["count"]
    assert d["of"] == n and 0 <= k <= n
    assert d["fraction"] == round(k / n, 6) and d["ci95"] == wilson(k, n)
    return int(k)


def test_deck_shows_the_partner_check() -> None:
    """K4: every card of McCord's deck has a partner (all 8 kinds have even counts); in
    a*3,b*2 the odd kind a has a card without one."""
    d = _json(["cards", "deck"])
    assert d["cards"] == 52 and d["every_card_has_a_partner"] is True
    odd = _json(["cards", "deck", "--deck", "a*3,b*2"])
    assert odd["odd_kinds"] == ["a"] and odd["every_card_has_a_partner"] is False


def test_war_play_prints_every_battle() -> None:
    """The text record of a seeded game: every battle line and the result are what the
    oracle plays from the printed deal (deck 1..5: a card's kind is its rank minus 1)."""
    r = invoke(["cards", "war", "play", "--deck", "1,2,3,4,5", "--seed", "3"])
    assert r.exit_code == 0, r.output
    deal_line = next(ln for ln in r.stdout.splitlines() if ln.startswith("deal"))
    deal = [int(x) - 1 for x in deal_line.split(":")[1].split()]
    game = war_oracle.play(deal, "winner-first")
    lines = re.findall(r"^ *(\d+)\. A ([\d ]+) \| B ([\d ]+) -> (\w) takes (\d+); cards A (\d+) "
                       r"B (\d+)$", r.stdout, re.MULTILINE)
    assert len(lines) == game.battles == len(game.lines)
    for i, ((no, a, b, winner, taken, size_a, size_b), battle) in enumerate(
            zip(lines, game.lines, strict=True), start=1):
        assert int(no) == i
        assert [int(x) - 1 for x in a.split()] == list(battle.a)
        assert [int(x) - 1 for x in b.split()] == list(battle.b)
        assert (winner, int(taken)) == (battle.winner, len(battle.a) + len(battle.b))
        assert (int(size_a), int(size_b)) == battle.sizes
    assert f"result: {game.outcome} wins after {game.battles} battles" in r.stdout


def test_war_play_json_record_is_the_game() -> None:
    """pairs:4, seed 2: the JSON record, battle by battle (cards, winner, returned cards,
    pile sizes), and the outcome equal the oracle's game from the JSON's deal."""
    d = _json(["cards", "war", "play", "--deck", "pairs:4", "--seed", "2"])
    deal = [int(x) - 1 for x in d["deal"].split()]
    assert sorted(deal) == [0, 0, 1, 1, 2, 2, 3, 3]
    game = war_oracle.play(deal, "winner-first")
    assert d["outcome"] == game.outcome and d["battles"] == game.battles
    for rec, battle in zip(d["record"], game.lines, strict=True):
        assert [int(x) - 1 for x in rec["a"].split()] == list(battle.a)
        assert [int(x) - 1 for x in rec["b"].split()] == list(battle.b)
        assert rec["winner"] == battle.winner and rec["runout"] == battle.runout
        assert [int(x) - 1 for x in rec["returned"].split()] == list(battle.returned)
        assert tuple(rec["cards"]) == battle.sizes


def test_war_analyse_exact_json_has_the_counts() -> None:
    """pairs:4 winner-first: 8!/2!^4 = 2520 deals; the outcome counts, the longest game and
    the cycles are the oracle's, over every deal."""
    d = _json(["cards", "war", "analyse", "--deck", "pairs:4", "--order", "winner-first"])
    games = [war_oracle.play(deal, "winner-first") for deal in war_oracle.deals([2, 2, 2, 2])]
    outcomes = Counter(g.outcome for g in games)
    assert {k: d[k] for k in ("deals", "a_wins", "b_wins", "draws", "cycles", "longest")} == {
        "deals": 2520, "a_wins": outcomes["A"], "b_wins": outcomes["B"],
        "draws": outcomes["draw"], "cycles": outcomes["cycle"],
        "longest": max(g.battles for g in games if g.outcome != "cycle")}
    assert outcomes["cycle"] > 0 and len(games) == 2520


def test_war_analyse_random_is_exact_on_small_decks() -> None:
    d = _json(["cards", "war", "analyse", "--deck", "pairs:2", "--order", "random"])
    assert d["p_end"] == "1" and d["expected_battles"] == "8/3"


def test_war_analyse_samples_is_monte_carlo_with_intervals() -> None:
    """300 seeded games of the Wolf deck: the JSON is the library's estimate for seed 9 (the
    command adds nothing and drops nothing); the counts cover every game; each proportion has
    its textbook Wilson interval."""
    from fleece.rules.cards.deck import parse_deck
    from fleece.rules.cards.war import Order
    from fleece.solver.cards.war_mc import simulate

    d = _json(["cards", "war", "analyse", "--deck", "wolf", "--order", "loser-first",
               "--samples", "300", "--seed", "9"])
    assert d.pop("reason") == "samples 300: a Monte Carlo estimate was asked for"
    assert d == json.loads(json.dumps(simulate(parse_deck("wolf"), Order.LOSER_FIRST, 300, 9)
                                      .to_json()))
    counts = [check_proportion(d[k], 300) for k in ("a_wins", "b_wins", "draws", "cycles",
                                                     "cut")]
    assert sum(counts) == 300
    assert d["mean_battles"]["n"] == 300 - counts[3] - counts[4]
    lo, hi = d["mean_battles"]["ci95"]
    assert lo < d["mean_battles"]["mean"] < hi <= d["longest"]


def test_concentration_solve_reproduces_velleman_warrington() -> None:
    d = _json(["cards", "concentration", "solve", "--deck", "pairs:3"])
    assert d["expected_turns"] == "13/3"
    d = _json(["cards", "concentration", "solve", "--deck", "pairs:5", "--players", "2"])
    assert d["move_table"]["n=5"] == "212101"  # type: ignore[index]


def test_concentration_pairs_table() -> None:
    d = _json(["cards", "concentration", "pairs", "--up-to", "3"])
    assert [r["expected_turns"] for r in d["rows"]] == ["1", "8/3", "13/3"]  # type: ignore[attr-defined]


def test_herd_simulate_json() -> None:
    """20 seeded random-policy games of 4 players: the JSON is the library's for seed 1;
    every finished game has one sole winner or a shared victory (seed 1 has one), never
    both; intervals are Wilson's."""
    from fleece.solver.cards.herd import simulate

    d = _json(["cards", "herd", "simulate", "--players", "4", "--games", "20", "--seed", "1",
               "--policy", "random"])
    assert d == json.loads(json.dumps(simulate(4, 20, 1, "random").to_json()))
    cut = check_proportion(d["cut_at_limit"], 20)
    wins = [check_proportion(w, 20 - cut) for w in d["seat_wins"]]
    shared = check_proportion(d["shared_victories"], 20 - cut)
    assert len(wins) == 4 and shared >= 1 and sum(wins) + shared == 20 - cut
    assert d["turns"]["n"] == 20 - cut and d["longest"] >= d["turns"]["mean"]
    # every finished game records each seat's herd (K3: 0..26 sheep on the 52-card deck)
    assert [h["n"] for h in d["herd_size"]] == [20 - cut] * 4
    assert all(0 <= h["ci95"][0] <= h["mean"] <= h["ci95"][1] <= 26 for h in d["herd_size"])


@pytest.mark.parametrize("args", [
    ["cards", "war", "analyse", "--deck", "a*2,b*2"],  # no ranks
    ["cards", "war", "play", "--deck", "1*2,\x1b[31m*2"],
    ["cards", "war", "play", "--seed", "-1"],
    ["cards", "war", "play", "--seed", "1" * 40],
    ["cards", "war", "analyse", "--deck", "pairs:3", "--order", "sideways"],
    ["cards", "concentration", "solve", "--deck", "a*3"],
    ["cards", "concentration", "solve", "--deck", "pairs:200", "--max-states", "5"],
    ["cards", "herd", "simulate", "--players", "5"],
    ["cards", "herd", "simulate", "--deck", "1*4"],
    ["cards", "deck", "--deck", ""],
])
def test_bad_input_is_one_line_and_exit_2(args: list[str]) -> None:
    r = invoke(args)
    assert r.exit_code == 2, r.output
    assert r.stdout == "" and r.stderr.count("\n") == 1 and r.stderr.startswith("fleece: error:")
    assert "\x1b" not in r.stderr and len(r.stderr) < 400


def test_k2_war_play_replays_the_bundled_cycle() -> None:
    """examples/cards/war-cycle.txt: the deal that cycles under winner-first (K2); the text
    names the cycle and the battles until the repeat, as the oracle plays it."""
    from pathlib import Path

    example = Path(__file__).resolve().parent.parent / "examples" / "cards" / "war-cycle.txt"
    game = war_oracle.play([0, 0, 3, 1, 2, 3, 2, 1], "winner-first")
    assert game.outcome == "cycle"
    r = invoke(["cards", "war", "play", "--position", str(example)])
    assert r.exit_code == 0 and "a cycle" in r.stdout
    assert f"after {game.battles} battles" in r.stdout
    r = invoke(["cards", "war", "play", "--position", "-"], stdin="war deck=1,2 order=x\n")
    assert r.exit_code == 2 and "line 1" in r.stderr


def test_large_decks_fall_back_to_monte_carlo() -> None:
    """Beyond the exact budget the analysis says so and estimates from seeded games: the
    JSON is the library's 20000-game estimate for seed 4, whose counts cover every game."""
    from fleece.rules.cards.deck import pairs
    from fleece.rules.cards.war import Order
    from fleece.solver.cards.war_mc import simulate

    d = _json(["cards", "war", "analyse", "--deck", "pairs:6", "--order", "random",
               "--max-states", "10", "--seed", "4"])
    assert d["method"] == "monte-carlo"
    note = d.pop("note")
    reason = d.pop("reason")
    assert "exact budget of 10 states" in note and "20000 seeded games" in note
    assert "10 states" in reason
    assert d == json.loads(json.dumps(simulate(pairs(6), Order.RANDOM, 20000, 4).to_json()))
    assert sum(check_proportion(d[k], 20000) for k in ("a_wins", "b_wins", "draws", "cycles",
                                                       "cut")) == 20000


def test_concentration_policy_names_the_best_choice_and_the_natural_rules() -> None:
    """K4's hand example (one kind with 4 left of which 2 known, plus an unknown pair):
    the known pair first costs 11/3 turns, an unseen card first 7/2; both values come from
    the exhaustive search over layouts in tests/test_conc_exact.py (the rules model plays
    every turn). The command must mark the second as best and the first as the natural
    rule's, and name `a*4,b*4` as the smallest deck where the rule departs."""
    r = invoke(["cards", "concentration", "policy", "4/2,2/0", "--json"])
    assert r.exit_code == 0, r.stderr
    data = json.loads(r.stdout)
    values = {c["choice"]: c["value"] for c in data["choices"]}
    assert values["take-pair"] == "11/3" and values["unseen-first"] == "7/2"
    assert data["best"] == "unseen-first" and data["natural"].startswith("take-pair")
    assert data["natural_optimal"] is False and data["value"] == "7/2"
    assert data["smallest_departure"]["deck"] == "a*4,b*4"
    assert data["smallest_departure"]["optimal_turns"] == "188/35"
    text = invoke(["cards", "concentration", "policy", "4/2,2/0"])
    assert "the natural rule departs here" in text.stdout
    bad = invoke(["cards", "concentration", "policy", "4/5"])
    assert bad.exit_code == 2 and bad.stderr.startswith("fleece: error: ")


def test_the_command_line_default_budget_is_the_solvers() -> None:
    """McCord's deck (16,753,158 positions) fits the default budget of the command line and
    the web (api.cards.MAX_POSITIONS), which is the solver's own default."""
    from fleece.api.cards import MAX_POSITIONS
    from fleece.rules.cards.deck import concentration_deck, parse_deck
    from fleece.solver.cards.concentration import DEFAULT_MAX_STATES, count_positions

    assert MAX_POSITIONS == DEFAULT_MAX_STATES
    assert count_positions(concentration_deck(parse_deck("wolf"))) <= MAX_POSITIONS
