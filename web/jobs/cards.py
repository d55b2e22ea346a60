"""The card games' jobs: War's analysis (exact, Markov or Monte Carlo, as
fleece.api.cards.analyse_war decides) with the lengths of seeded games for the page's plot,
and Concentration (fleece.api.cards.solve_concentration)."""

from __future__ import annotations

import math
import time
from typing import Any

LENGTH_GAMES = 200  # seeded games whose lengths the War page plots
LENGTH_SECONDS = 1.5  # ... or as many as fit in this time


def war_analyse(request: Any, lengths: bool = False) -> dict[str, Any]:
    """`fleece cards war analyse --json` of a WarAnalyseRequest and, for the page
    (`lengths`), the lengths of seeded games played one by one (`war play`)."""
    from fleece.api import cards
    from fleece.rules.cards.war import Order, Runout

    report = cards.analyse_war(request)
    display = None
    if lengths:
        display = war_lengths(cards.parse_deck(request.deck), Order.parse(request.order),
                           Runout.parse(request.runout), request.seed, request.limit)
    return {"json": report.to_json(), "display": display}


def war_lengths(deck: Any, order: Any, runout: Any, seed: int, limit: int) -> dict[str, Any]:
    """The lengths (battles) of up to LENGTH_GAMES seeded games (seeds seed, seed+1, ...),
    within LENGTH_SECONDS, as a histogram for the page's plot."""
    from fleece.rules.cards.war import WarOptions
    from fleece.solver.cards.war import play_one

    options = WarOptions(deck, order, runout, min(limit, 100_000))
    lengths: list[int] = []
    other: dict[str, int] = {}
    t0 = time.monotonic()
    for s in range(seed, seed + LENGTH_GAMES):
        game = play_one(options, s)
        if game.outcome in ("A", "B", "draw"):
            lengths.append(len(game.lines))
        else:
            other[str(game.outcome)] = other.get(str(game.outcome), 0) + 1
        if time.monotonic() - t0 > LENGTH_SECONDS:
            break
    games = len(lengths) + sum(other.values())
    return {"games": games, "first_seed": seed, "ended": len(lengths), "other": other,
            "plot": histogram(lengths)}


def histogram(values: list[int], bins: int = 20) -> dict[str, Any]:
    """Bars of a histogram of whole numbers, scaled to a 560x200 plot."""
    if not values:
        return {"bars": [], "lo": 0, "hi": 0, "top": 0}
    lo, hi = min(values), max(values)
    width = max(1, math.ceil((hi - lo + 1) / bins))
    counts = [0] * ((hi - lo) // width + 1)
    for v in values:
        counts[(v - lo) // width] += 1
    top = max(counts)
    bar_w = 560 / len(counts)
    bars = []
    for i, n in enumerate(counts):
        h = 200 * n / top
        start = lo + i * width
        bars.append({"x": round(40 + i * bar_w, 1), "y": round(220 - h, 1),
                     "w": round(max(1.0, bar_w - 2), 1), "h": round(h, 1), "n": n,
                     "range": f"{start}" if width == 1 else f"{start}-{start + width - 1}"})
    return {"bars": bars, "lo": lo, "hi": hi, "top": top, "mean": round(sum(values) /
                                                                          len(values), 2)}


def concentration(request: Any) -> dict[str, Any]:
    """`fleece cards concentration solve --json` of a ConcentrationRequest (players 1:
    solitaire; 2: the duel) and, for the duel, its move table in words."""
    from fleece.api import cards

    report = cards.solve_concentration(request)
    data = report.to_json()
    display = duel_display(data) if "move_table" in data else None
    return {"json": data, "display": display}


MOVE_WORDS = {"0": "pass", "1": "one new card", "2": "two new cards"}


def duel_display(data: dict[str, Any]) -> dict[str, Any]:
    """The two-player result in words: the optimal move table with its rows (pairs left on
    the table) and columns (cards of them already seen) labelled, and a one-line reading of
    the result."""
    table = data["move_table"]
    rows: list[dict[str, Any]] = []
    width = 0
    for name, row in table.items():
        width = max(width, len(row))
        rows.append({"label": _pairs_label(name), "cells": [
            {"code": c, "word": MOVE_WORDS.get(c, c)} for c in row]})
    gain = float(data["first_player_gain_float"])
    if gain > 0:
        reading = (f"With best play the first player expects {gain:.3f} more pairs than the "
                   "second: moving first is an advantage.")
    elif gain < 0:
        reading = (f"With best play the first player expects {-gain:.3f} fewer pairs than "
                   "the second: moving first is a disadvantage.")
    else:
        reading = "With best play both players expect as many pairs: the game is fair."
    for r in rows:
        r["cells"] += [None] * (width - len(r["cells"]))
    return {"rows": rows, "columns": list(range(width)), "reading": reading}


def _pairs_label(name: str) -> str:
    """A row name of the move table (`n=5`: five pairs left on the table) in words."""
    key, _, value = name.partition("=")
    if key.strip() == "n" and value.strip().isdigit():
        n = int(value)
        return f"{n} pair{'s' if n != 1 else ''} left"
    return name
