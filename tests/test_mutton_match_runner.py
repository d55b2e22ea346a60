"""The robot match runner (solver/mutton/bots/match.py): statistics checked on known data,
results and records, paired comparisons, progress, and the clean stop (flag or Ctrl-C)."""

from __future__ import annotations

import math

import pytest

from fleece.rules.mutton.moves import Side
from fleece.rules.mutton.options import MuttonOptions
from fleece.rules.mutton.record import replay_text
from fleece.solver.mutton.bots.match import (
    GameResult,
    MatchRequest,
    paired_match,
    play_match,
)
from fleece.solver.mutton.bots.stats import Estimate, t_cdf, t_quantile

SMALL = MuttonOptions(size=3, num_sheep=10, num_wolves=2)

# ---- statistics on known data ------------------------------------------------------------


@pytest.mark.parametrize("df,published", [(1, 12.706), (2, 4.303), (4, 2.776), (9, 2.262),
                                          (29, 2.045), (120, 1.980)])
def test_t_quantile_matches_published_tables(df: int, published: float) -> None:
    """The 97.5% point of Student's t (NIST/SEMATECH e-Handbook of Statistical Methods,
    table 1.3.6.7.2, three decimals)."""
    assert round(t_quantile(0.975, df), 3) == published


def test_t_cdf_closed_forms() -> None:
    """df 1 is the Cauchy distribution (1/2 + atan(t)/pi); df 2 has 1/2 + t/(2 sqrt(2 + t^2));
    the CDF is symmetric about zero."""
    for t in (-3.0, -0.5, 0.0, 0.7, 4.2):
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)
        assert t_cdf(t, 2) == pytest.approx(0.5 + t / (2 * math.sqrt(2 + t * t)), abs=1e-12)
        assert t_cdf(t, 7) + t_cdf(-t, 7) == pytest.approx(1.0, abs=1e-12)


def test_estimate_of_known_data() -> None:
    """1..5: mean 3, sd sqrt(2.5), interval 3 -+ 2.776445 * sqrt(2.5) / sqrt(5) (t with 4
    degrees of freedom, 2.776445105 by the closed form of the t distribution)."""
    e = Estimate.of([1, 2, 3, 4, 5])
    half = 2.776445105 * math.sqrt(2.5) / math.sqrt(5)
    assert (e.n, e.mean, e.sd) == (5, 3.0, pytest.approx(math.sqrt(2.5)))
    assert e.ci95 == (pytest.approx(3 - half, abs=1e-8), pytest.approx(3 + half, abs=1e-8))
    assert e.excludes_zero
    assert e.text() == "3.00 (95% CI 1.04 to 4.96)"
    assert e.to_json() == {"mean": 3.0, "ci95": [1.0368, 4.9632], "sd": 1.5811, "n": 5}
    one = Estimate.of([7])
    assert (one.mean, one.ci95) == (7.0, None) and not one.excludes_zero
    assert Estimate.of([-1, 1]).excludes_zero is False


# ---- matches -----------------------------------------------------------------------------


def test_match_result_fields_records_and_statistics() -> None:
    """A small match: the JSON has the documented fields, the statistics are those of the
    per-game scores, wins count the win target, and every record replays to its score."""
    request = MatchRequest("v2", "random", 6, 3, SMALL.with_options(quick_play=4), "random")
    result = play_match(request)
    data = result.to_json()
    assert {"games", "farmer", "wolf", "sheep_lost", "farmer_wins", "wolf_wins",
            "plies"} <= set(data)
    assert (data["games"], data["farmer"], data["wolf"]) == (6, "v2", "random")
    scores = [g.score for g in result.games]
    assert data["sheep_lost"] == Estimate.of(scores).to_json()
    assert data["sheep_lost"]["mean"] == round(sum(scores) / 6, 4)
    assert data["farmer_wins"] == sum(s < 4 for s in scores) == result.farmer_wins
    assert data["wolf_wins"] == 6 - data["farmer_wins"]
    assert data["plies"]["mean"] == round(sum(g.plies for g in result.games) / 6, 4)
    assert data["win_target"] == 4 and not data["stopped"]
    for g, r in zip(result.games, data["records"], strict=True):
        final = replay_text(g.record).current
        assert final.over and final.score == g.score == r["sheep_lost"]
        assert r["winner"] == ("farmer" if g.farmer_won else "wolf")
        assert "".join(sorted(final.wolves)) == g.wolves
    assert win_target_of(MuttonOptions()) == 11


def win_target_of(rules: MuttonOptions) -> int:
    """The win target of a match on `rules` (one game played)."""
    return play_match(MatchRequest("v2", "v2", 1, 0, rules, "random")).win_target


def test_progress_stop_flag_and_ctrl_c_return_the_games_so_far() -> None:
    """The progress callback hears each game; a stop flag ends the match between games, and
    Ctrl-C (KeyboardInterrupt) during the match returns the finished games, `stopped`."""
    heard: list[tuple[int, int]] = []

    def progress(done: int, total: int, game: GameResult) -> None:
        heard.append((done, total))
        assert game.index == done - 1

    request = MatchRequest("v2", "v2", 5, 1, SMALL, "random")
    assert len(play_match(request, progress).games) == 5
    assert heard == [(i, 5) for i in range(1, 6)]

    stopped = play_match(request, stop=lambda: len(heard) >= 7, progress=progress)
    assert len(stopped.games) == 2 and stopped.stopped and stopped.to_json()["stopped"]

    def interrupt(done: int, total: int, game: GameResult) -> None:
        if done == 3:
            raise KeyboardInterrupt

    cut = play_match(request, interrupt)
    assert len(cut.games) == 3 and cut.stopped
    assert [g.record for g in cut.games] == [g.record for g in play_match(request).games[:3]]


def test_paired_comparison_same_seeds_same_wolves() -> None:
    """Two Farmers against one Wolf on the same seeds meet the same layouts and wolves; the
    difference is the per-game difference of their scores."""
    pair = paired_match(Side.FARMER, "fleece", "random", "v2", 4, 9, SMALL, "random")
    a, b = pair.first.games, pair.second.games
    assert [g.wolves for g in a] == [g.wolves for g in b]
    assert [g.record.splitlines()[1] for g in a] == [g.record.splitlines()[1] for g in b]
    assert pair.difference == Estimate.of([x.score - y.score for x, y in zip(a, b,
                                                                             strict=True)])
    data = pair.to_json()
    assert data["side"] == "farmer" and data["first"]["farmer"] == "fleece"
    assert data["second"]["farmer"] == "random" and data["first"]["wolf"] == "v2"
    wolves = paired_match(Side.WOLF, "fleece", "v2", "v2", 2, 9, SMALL, "random")
    assert wolves.first.request.wolf == "fleece" and wolves.second.request.farmer == "v2"
    assert [g.wolves for g in wolves.first.games] == [g.wolves for g in wolves.second.games]


def test_the_sparse_layout_is_used_where_it_exists() -> None:
    """On pbmserv's default board the games start from the rulebook's sparse layout; on other
    boards from a random one drawn from the game's seed."""
    default = play_match(MatchRequest("v2", "v2", 1, 2)).games[0]
    assert default.record.splitlines()[1] == "sparse"
    other = play_match(MatchRequest("v2", "v2", 1, 2, SMALL)).games[0]
    assert other.record.splitlines()[1].startswith("random=")
