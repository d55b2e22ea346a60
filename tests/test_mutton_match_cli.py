"""`fleece mutton match` and fleece.api.mutton.match/compare: the figures a match reports are
checked against their own means (each game's score replayed from its record by the rules
model, the mean and interval recomputed with scipy), a paired comparison against two single
matches on the same seeds, refusals name their field, Ctrl-C reports the games played; and
the advice `fleece mutton solve` prints is the Farmer robot's decision of its JSON."""

from __future__ import annotations

import json
import re
import statistics
from typing import Any

import pytest
from helpers.clirun import invoke
from scipy import stats as scipy_stats

from fleece.api import mutton as api
from fleece.rules.errors import FleeceError
from fleece.rules.mutton.record import replay_text

HELPPAGE = "examples/mutton/helppage.txt"


def cli_json(args: list[str]) -> dict[str, Any]:
    r = invoke(["mutton", "match", *args, "--json"])
    assert r.exit_code == 0, r.output
    data: dict[str, Any] = json.loads(r.stdout)
    return data


def test_cli_json_is_the_library_report_and_the_issue_keys() -> None:
    """The command's JSON is the library's report of the same request, with the issue's
    keys, and the same seed gives the same games."""
    args = ["--farmer", "v2", "--wolf", "random", "--games", "6", "--seed", "5"]
    data = cli_json(args)
    report = api.match(api.MatchRequest(farmer="v2", wolf="random", games=6, seed=5))
    assert data == report.to_json()
    assert {"games", "farmer", "wolf", "sheep_lost", "farmer_wins", "wolf_wins",
            "plies"} <= set(data)
    assert {"mean", "ci95"} <= set(data["sheep_lost"]) and "mean" in data["plies"]
    assert (data["games"], data["farmer"], data["wolf"]) == (6, "v2", "random")
    assert cli_json(args) == data


def test_every_figure_follows_from_the_replayed_games() -> None:
    """Each game's record, replayed by the rules model, ends on its reported score; the mean,
    the t interval (scipy), the wins and the moves follow from the games."""
    report = api.match(api.MatchRequest(farmer="random", wolf="v2", games=5, seed=11,
                                        rules="boardspace-like"))
    games = report.result.games
    scores = []
    for g in games:
        replayed = replay_text(g.record)
        scores.append(replayed.games[0].score)
        assert len(replayed.games[0].history) - 2 == g.plies  # set-up: layout, wolves
    assert scores == report.scores
    mean = statistics.mean(scores)
    lo, hi = scipy_stats.t.interval(0.95, len(scores) - 1, loc=mean,
                                    scale=statistics.stdev(scores) / len(scores) ** 0.5)
    assert report.sheep_lost["mean"] == pytest.approx(mean, abs=1e-4)
    assert report.sheep_lost["ci95"] == pytest.approx([lo, hi], abs=1e-4)
    assert report.farmer_wins == sum(s < 11 for s in scores)
    assert report.farmer_wins + report.wolf_wins == report.games == 5
    assert report.plies["mean"] == pytest.approx(statistics.mean(g.plies for g in games),
                                                 abs=1e-4)
    assert report.rules.endswith("-quick=11") and report.layout == "random"


def test_paired_comparison_is_two_matches_on_the_same_seeds() -> None:
    """--against plays both robots on the same seeds (same wolves): each side equals its own
    single match, and the difference is the mean of the per-game differences."""
    data = cli_json(["--farmer", "v2", "--wolf", "v2", "--against", "random",
                     "--side", "wolf", "--games", "5", "--seed", "3"])
    first = api.match(api.MatchRequest(farmer="v2", wolf="v2", games=5, seed=3))
    second = api.match(api.MatchRequest(farmer="v2", wolf="random", games=5, seed=3))
    assert data["scores"] == first.scores and data["against"]["scores"] == second.scores
    assert data["against"]["wolf"] == "random" and data["side"] == "wolf"
    diffs = [a - b for a, b in zip(first.scores, second.scores, strict=True)]
    assert data["difference"]["mean"] == pytest.approx(statistics.mean(diffs), abs=1e-4)
    assert data["difference"]["n"] == 5
    assert [g.wolves for g in first.result.games] == [g.wolves for g in second.result.games]


def test_same_robot_compared_with_itself_differs_by_nothing() -> None:
    report = api.compare(api.CompareRequest(farmer="random", wolf="v2", against="random",
                                            games=4, seed=9))
    assert report.difference["mean"] == 0 and report.scores == report.against["scores"]
    assert "difference random - random" in report.text


@pytest.mark.parametrize("request_, field", [
    (api.MatchRequest(farmer="deep-blue"), "farmer"),
    (api.MatchRequest(wolf=""), "wolf"),
    (api.CompareRequest(against="V2"), "against"),
    (api.CompareRequest(side="both"), "side"),
    (api.MatchRequest(games=0), "games"),
    (api.MatchRequest(games=api.MAX_GAMES + 1), "games"),
    (api.MatchRequest(seed=2**63), "seed"),
    (api.MatchRequest(rules="-bogus"), "rules"),
    (api.MatchRequest(rules="-num_wolves=7"), "rules"),  # 657,800 wolf sets to track
    (api.MatchRequest(rules="-num_sheep=30"), "rules"),
    (api.MatchRequest(layout="spiral"), "layout"),
])
def test_library_refusals_name_the_field(request_: api.MatchRequest, field: str) -> None:
    with pytest.raises(FleeceError) as info:
        if isinstance(request_, api.CompareRequest):
            api.compare(request_)
        else:
            api.match(request_)
    assert info.value.field == field


@pytest.mark.parametrize("args, start", [
    (["--farmer", "bogus"], "fleece: error: --farmer: unknown robot 'bogus' (known: "),
    (["--games", "0"], "fleece: error: --games: must be in 1..100000, got 0"),
    (["--games", "1000000"], "fleece: error: --games: must be in 1..100000, got 1000000"),
    (["--games", "1_000"], "fleece: error: fleece mutton match: --games: '1_000' is not"),
    (["--rules", "-bogus"], "fleece: error: --rules, column 1: unknown option '-bogus'"),
    (["--rules", "-num_wolves=7"], "fleece: error: --rules: the robots track every wolf set"),
    (["--against", "v2", "--side", "sheep"], "fleece: error: --side: 'sheep' is not a side"),
    (["--layout", "x"], "fleece: error: --layout: 'x' is not a layout"),
])
def test_bad_input_is_one_line_and_exit_2(args: list[str], start: str) -> None:
    r = invoke(["mutton", "match", *args])
    assert r.exit_code == 2 and r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(start), r.stderr


def test_named_rule_sets_and_their_layouts() -> None:
    a = api.match(api.MatchRequest(farmer="v2", wolf="v2", games=2, rules="Pbmserv-Default"))
    b = api.match(api.MatchRequest(farmer="v2", wolf="v2", games=2, rules=""))
    assert a.rule_set == "pbmserv default" and b.rule_set is None
    assert a.rules == b.rules and a.scores == b.scores and a.layout == "sparse"
    c = api.match(api.MatchRequest(farmer="v2", wolf="v2", games=2, rules="boardspace-like",
                                   layout="sparse"))
    assert c.layout == "sparse" and c.win_target == 11


def test_stop_keeps_the_games_played() -> None:
    done: list[int] = []
    report = api.match(api.MatchRequest(farmer="v2", wolf="v2", games=50, seed=1),
                       progress=done.append, stop=lambda: len(done) >= 3)
    assert report.stopped and report.games == 3 and report.requested == 50
    full = api.match(api.MatchRequest(farmer="v2", wolf="v2", games=3, seed=1))
    assert report.scores == full.scores and done == [1, 2, 3]


def test_ctrl_c_prints_the_games_so_far_and_exits_130(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Ctrl-C during game 3 (of 40): the two games played, as JSON, then one line."""
    from fleece.solver.mutton.bots import match as runner

    real = runner.play_game

    def interrupted(request: Any, index: int, *rest: Any) -> Any:
        if index == 2:
            raise KeyboardInterrupt
        return real(request, index, *rest)

    monkeypatch.setattr(runner, "play_game", interrupted)
    r = invoke(["mutton", "match", "--farmer", "v2", "--games", "40", "--seed", "4", "--json"])
    assert r.exit_code == 130 and r.stderr == "fleece: interrupted\n"
    data = json.loads(r.stdout)
    assert data["games"] == 2 and data["requested"] == 40 and data["stopped"] is True
    text = invoke(["mutton", "match", "--farmer", "v2", "--games", "40", "--seed", "4"])
    assert text.exit_code == 130 and "2 games of 40 (stopped)" in text.stdout


def test_text_report_states_the_figures() -> None:
    r = invoke(["mutton", "match", "--farmer", "v2", "--wolf", "v2", "--games", "4",
                "--seed", "2"])
    assert r.exit_code == 0, r.output
    report = api.match(api.MatchRequest(farmer="v2", wolf="v2", games=4, seed=2))
    m, (lo, hi) = report.sheep_lost["mean"], report.sheep_lost["ci95"]
    assert f"{m:.2f} (95% CI {lo:.2f} to {hi:.2f})" in r.stdout
    assert "4 games, seed 2; rules pbmserv default (" in r.stdout


# ---- the advice of `fleece mutton solve` ------------------------------------------------------


def test_solve_advice_prints_the_decision_with_its_numbers() -> None:
    """The advice line's numbers are the decision's expected losses (best of each kind of
    move), and every assumption, the Wolf model among them, is printed."""
    data = json.loads(invoke(["mutton", "solve", HELPPAGE, "--json"]).stdout)
    decision = data["advice"]["decision"]
    text = invoke(["mutton", "solve", HELPPAGE]).stdout
    assert f"\n  {decision['line']}\n" in text
    best_of_kind: dict[str, dict[str, Any]] = {}
    for option in decision["options"]:
        best_of_kind.setdefault(option["move"], option)
    printed = [float(x) for x in re.findall(r": (?:expected sheep lost )?(\d+\.\d)",
                                            decision["line"])]
    assert printed == [round(o["expected_sheep_lost"], 1) for o in best_of_kind.values()]
    assert decision["line"].startswith(f"shoot {decision['best']['targets'][0]} now")
    for assumption in decision["assumptions"]:
        assert f"    - {assumption}\n" in text
    assert any(a.startswith("the Wolf plays as the random Wolf") for a in
               decision["assumptions"])
    assert f"({decision['sheep_lost_so_far']} lost so far)" in text
    assert "Berserk set" not in text
