"""Mutton against a robot: the jobs behind the play page and its JSON twins
(fleece.api.mutton.play_start, play_move, play_record), and what the page shows besides the
JSON: the hex board (rules.mutton.picture's layout) with each animal as the person sees it,
shaded by P(wolf) when the overlay is on, and the overlay's facts and decision in words."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

FATES = {"eaten": "eaten by the Wolf", "shot": "shot by the Farmer",
         "devoured": "devoured after a failed berserk volley", "escaped": "escaped"}


def start(request: Any) -> dict[str, Any]:
    """A new game (mutton.play_start) and its page display."""
    from fleece.api import mutton

    report = mutton.play_start(request)
    return {"json": report.to_json(), "display": play_view(report.to_json())}


def move(request: Any) -> dict[str, Any]:
    """The person's move and the robot's replies (mutton.play_move) and the page display."""
    from fleece.api import mutton

    report = mutton.play_move(request)
    return {"json": report.to_json(), "display": play_view(report.to_json())}


def record(request: Any) -> dict[str, Any]:
    """The game's record (mutton.play_record)."""
    from fleece.api import mutton

    report = mutton.play_record(request)
    return {"json": report.to_json(), "display": None}


def _label(p: Fraction) -> str:
    return "wolf" if p == 1 else "0" if p == 0 else f"{float(p):.2f}"


def play_view(data: dict[str, Any]) -> dict[str, Any]:
    """The board's cells for the page's SVG and the overlay in words."""
    from fleece.rules.mutton.geometry import board
    from fleece.rules.mutton.options import parse_options
    from fleece.rules.mutton.picture import SHADES, HexLayout, shade
    from fleece.web.jobs import exact

    rules = parse_options(data["rules"])
    layout = HexLayout(rules.size)
    ov = data["overlay"]
    probs = {a: Fraction(f) for a, f in ov["fractions"].items()} if ov else {}
    at = {x["cell"]: x for x in data["animals"] if x["cell"] is not None}
    corpses = set(data["corpses"])
    cells = []
    for c in board(rules.size).cells:
        cx, cy = layout.centre(c)
        cell: dict[str, Any] = {"name": c.name, "x": round(cx, 1), "y": round(cy, 1),
                                "points": layout.corners(cx, cy), "letter": None,
                                "corpse": c.name in corpses}
        animal = at.get(c.name)
        if animal is not None:
            a = animal["letter"]
            p = probs.get(a)
            hover = f"{a} on {c.name}"
            if animal["wolf"] is not None:
                hover += ": a wolf" if animal["wolf"] else ": a sheep"
            if p is not None:
                hover += f"; the Farmer's P(wolf) = {exact(p)}"
            cell.update(letter=a, wolf=animal["wolf"], hover=hover,
                        shade=None if p is None else shade(p),
                        label="" if p is None else _label(p),
                        kind="" if p is None else "wolf" if p == 1 else
                        "cleared" if p == 0 else "open")
        cells.append(cell)
    labels = [{"x": round(x, 1), "y": round(y, 1), "text": t} for x, y, t in layout.row_labels()]
    legend_y = round(layout.board_height - layout.margin + 4)
    legend = [{"x": layout.margin + i * 16, "shade": i} for i in range(SHADES + 1)]
    dead = [{"letter": x["letter"], "fate": FATES.get(x["fate"], x["fate"]),
             "wolf": x["wolf"]} for x in data["animals"] if x["fate"] != "alive"]
    display: dict[str, Any] = {
        "board": {"width": round(layout.width), "height": round(layout.height),
                  "cells": cells, "labels": labels, "legend": legend, "legend_y": legend_y,
                  "overlay": ov is not None},
        "dead": dead, "wolves": sorted(x["letter"] for x in data["animals"]
                                       if x["wolf"] and x["fate"] == "alive"), "overlay": None,
    }
    if ov is not None:
        living = {x["letter"] for x in data["animals"] if x["fate"] == "alive"}
        display["overlay"] = {
            "count": ov["count"],
            "rows": [{"letter": a, "p": f"{float(p):.3f}", "exact": exact(p), "shade": shade(p)}
                     for a, p in sorted(probs.items()) if a in living],
            "certain": ov["certain_wolves"], "cleared": ov["cleared"],
            "decision": ov["decision"],
        }
    return display


def state(request: Any) -> dict[str, Any]:
    """The game as it stands (mutton.play_state) and the page display."""
    from fleece.api import mutton

    report = mutton.play_state(request)
    return {"json": report.to_json(), "display": play_view(report.to_json())}
