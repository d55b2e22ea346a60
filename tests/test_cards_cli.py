"""`fleece cards ...` from the command line: README's commands, JSON results, and hostile input
refused in one line with exit status 2."""

from __future__ import annotations

import json

import pytest
from helpers.clirun import invoke


def _json(args: list[str]) -> dict[str, object]:
    r = invoke([*args, "--json"])
    assert r.exit_code == 0, r.output
    data: dict[str, object] = json.loads(r.stdout)
    return data


def test_deck_shows_the_partner_check() -> None:
    """K4: every card of McCord's deck has a partner."""
    d = _json(["cards", "deck"])
    assert d["cards"] == 52 and d["every_card_has_a_partner"] is True
    assert _json(["cards", "deck", "--deck", "a*3,b*2"])["odd_kinds"] == ["a"]


def test_war_play_prints_every_battle() -> None:
    r = invoke(["cards", "war", "play", "--deck", "1,2,3,4,5", "--seed", "3"])
    assert r.exit_code == 0 and "result: B wins after 7 battles" in r.stdout
    d = _json(["cards", "war", "play", "--deck", "pairs:4", "--seed", "2"])
    assert d["battles"] == len(d["record"])  # type: ignore[arg-type]


def test_war_analyse_exact_json_has_the_counts() -> None:
    d = _json(["cards", "war", "analyse", "--deck", "pairs:4", "--order", "winner-first"])
    assert {k: d[k] for k in ("deals", "a_wins", "b_wins", "draws", "cycles", "longest")} == {
        "deals": 2520, "a_wins": 1069, "b_wins": 1069, "draws": 312, "cycles": 70,
        "longest": 13}


def test_war_analyse_random_is_exact_on_small_decks() -> None:
    d = _json(["cards", "war", "analyse", "--deck", "pairs:2", "--order", "random"])
    assert d["p_end"] == "1" and d["expected_battles"] == "8/3"


def test_war_analyse_samples_is_monte_carlo_with_intervals() -> None:
    d = _json(["cards", "war", "analyse", "--deck", "wolf", "--order", "loser-first",
               "--samples", "300", "--seed", "9"])
    assert d["method"] == "monte-carlo" and d["games"] == 300 and d["seed"] == 9
    assert len(d["cycles"]["ci95"]) == 2  # type: ignore[index]


def test_concentration_solve_reproduces_velleman_warrington() -> None:
    d = _json(["cards", "concentration", "solve", "--deck", "pairs:3"])
    assert d["expected_turns"] == "13/3"
    d = _json(["cards", "concentration", "solve", "--deck", "pairs:5", "--players", "2"])
    assert d["move_table"]["n=5"] == "212101"  # type: ignore[index]


def test_concentration_pairs_table() -> None:
    d = _json(["cards", "concentration", "pairs", "--up-to", "3"])
    assert [r["expected_turns"] for r in d["rows"]] == ["1", "8/3", "13/3"]  # type: ignore[attr-defined]


def test_herd_simulate_json() -> None:
    d = _json(["cards", "herd", "simulate", "--players", "3", "--games", "20", "--seed", "2",
               "--policy", "random"])
    assert d["games"] == 20 and len(d["seat_wins"]) == 3  # type: ignore[arg-type]


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
    """examples/cards/war-cycle.txt: the deal that cycles under winner-first (K2)."""
    from pathlib import Path

    example = Path(__file__).resolve().parent.parent / "examples" / "cards" / "war-cycle.txt"
    r = invoke(["cards", "war", "play", "--position", str(example)])
    assert r.exit_code == 0 and "a cycle" in r.stdout and "after 9 battles" in r.stdout
    r = invoke(["cards", "war", "play", "--position", "-"], stdin="war deck=1,2 order=x\n")
    assert r.exit_code == 2 and "line 1" in r.stderr


def test_large_decks_fall_back_to_monte_carlo() -> None:
    """Beyond the exact budget the analysis says so and estimates from seeded games."""
    d = _json(["cards", "war", "analyse", "--deck", "pairs:6", "--order", "random",
               "--max-states", "10", "--seed", "4"])
    assert d["method"] == "monte-carlo" and d["games"] == 20000
    assert "exact budget" in str(d["note"]) or "more than 10 states" in str(d["note"])


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
