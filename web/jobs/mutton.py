"""Mutton's jobs: `fleece mutton solve` on a pasted chart (fleece.api.mutton.solve) and what
the page shows besides the JSON: the table, the certain facts with their reasons, the
advice, the hex board shaded by P(wolf), or the contradicting facts marked in the paste."""

from __future__ import annotations

import re
from typing import Any

from fleece.web.jobs import exact, segments, text_lines


def solve(request: Any, display: bool = True) -> dict[str, Any]:
    """`fleece mutton solve --json` of a mutton.SolveRequest and, for the page (`display`), what
    it shows besides."""
    from fleece.api import mutton

    report = mutton.solve(request)
    result = report.analysis
    shown = mutton_display(result.problem, result, request.chart) if display else None
    return {"json": report.to_json(), "display": shown}


def mutton_display(problem: Any, result: Any, text: str) -> dict[str, Any]:
    """What the Mutton page shows: summary, table rows, certain facts with reasons, advice,
    the board's cells (shaded by P(wolf)), or the contradicting facts marked in the text."""
    from fleece.rules.mutton.picture import shade
    from fleece.solver.mutton.analysis import rounds_run, status_text

    sol = result.solution
    display: dict[str, Any] = {
        "animals": len(problem.animals), "wolves": problem.num_wolves,
        "reveal": problem.reveal, "kills": len(problem.chart.rows), "passed": problem.passed,
        "source": problem.source, "engine": sol.engine, "notes": list(problem.notes),
        "consistent": sol.consistent, "count": sol.count, "board": None,
    }
    if not sol.consistent:
        core = list(sol.core)
        display["core"] = [{"key": f.key, "clause": f.clause, "text": f.text,
                         "in_text": _locatable(f.key)} for f in core]
        display["marked"] = (mark_core(text, problem.animals, [(f.key, f.text) for f in core])
                          if problem.source == "chart" else None)
        return display
    why = {r.letter: r for r in result.reasons}
    runs = rounds_run(problem)
    model = sol.model
    display["model"] = model is not None and model.available
    rows = []
    for a in problem.animals:
        p = sol.probability(a)
        r = why.get(a)
        hover = (f"{a}: P(wolf) = {exact(p)}, a wolf in {sol.wolf_counts.get(a, 0)} of the "
                 f"{sol.count} consistent wolf sets")
        if r is not None:
            hover += f". {'Certain wolf' if r.wolf else 'Cleared'}: {r.text}"
        rows.append({
            "letter": a, "status": status_text(problem, a),
            "rounds": " ".join(str(n) for n in runs[a]), "p": f"{float(p):.3f}",
            "exact": exact(p), "shade": shade(p),
            "label": "wolf" if p == 1 else "0" if p == 0 else f"{float(p):.2f}",
            "kind": "wolf" if p == 1 else "cleared" if p == 0 else "open",
            "reason": r.text if r is not None else "", "hover": hover,
            "model": f"{float(model.probability(a)):.3f}" if display["model"] else "",
        })
    display["rows"] = rows
    new_wolves, new_cleared = set(sol.new_certain_wolves), set(sol.new_cleared)
    display["certain"] = [{"letter": r.letter, "text": r.text, "rule": r.rule}
                       for r in sorted(result.reasons, key=lambda r: r.letter)
                       if r.wolf and r.letter in new_wolves]
    display["cleared"] = [{"letter": r.letter, "text": r.text, "rule": r.rule}
                       for r in sorted(result.reasons, key=lambda r: r.letter)
                       if not r.wolf and r.letter in new_cleared]
    display["known"] = [a for a in sol.certain_wolves if a not in new_wolves]
    display["advice"] = _mutton_advice(result.advice)
    if problem.board is not None:
        display["board"] = mutton_board(problem, {row["letter"]: row for row in rows})
    return display


def _mutton_advice(advice: Any) -> dict[str, Any] | None:
    """What the page's advice shows, as `fleece mutton solve` prints it: the Farmer robot's
    decision with its expected sheep lost and assumptions, then the plain facts (the sure or
    most likely wolf, a volley that wins at no cost)."""
    if advice is None or advice.best_shot is None:
        return None
    decision = advice.decision
    p = advice.best_probability
    return {
        "line": None if decision is None else decision.line,
        "lost": None if decision is None else decision.lost,
        "assumptions": [] if decision is None else list(decision.assumptions),
        "skipped": advice.skipped if decision is None else None,
        "sure": list(advice.sure_kill), "none": p == 0, "best_shot": advice.best_shot,
        "p": f"{float(p):.3f}", "exact": exact(p), "tied": list(advice.tied[1:]),
        "tie_rule": advice.tie_rule,
        "free_berserk": list(advice.free_volley),
    }


def mutton_board(problem: Any, rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The hex board as geometry for the page's SVG (rules.mutton.picture's layout): every
    cell with its polygon, name, animal (its shade of P(wolf), with the hover text) or
    corpse mark; the legend's shades."""
    from fleece.rules.mutton.picture import SHADES, HexLayout

    pic = problem.board
    layout = HexLayout(pic.size)
    at = {c: a for a, c in pic.animals.items()}
    cells = []
    for c in layout.board.cells:
        cx, cy = layout.centre(c)
        a = at.get(c)
        cell: dict[str, Any] = {"name": c.name, "x": round(cx, 1), "y": round(cy, 1),
                                "points": layout.corners(cx, cy), "letter": a,
                                "corpse": c in pic.corpses}
        if a is not None:
            row = rows[a]
            cell.update(shade=row["shade"], label=row["label"], hover=row["hover"],
                        exact=row["exact"], reason=row["reason"], kind=row["kind"])
        cells.append(cell)
    labels = [{"x": round(x, 1), "y": round(y, 1), "text": t} for x, y, t in layout.row_labels()]
    legend_y = round(layout.board_height - layout.margin + 4)
    legend = [{"x": layout.margin + i * 16, "shade": i} for i in range(SHADES + 1)]
    return {"width": round(layout.width), "height": round(layout.height), "cells": cells,
            "labels": labels, "legend": legend, "legend_y": legend_y}


_ROUND_LINE = re.compile(r"^\s*Round\s+0*(\d+)\s*:", re.IGNORECASE)
_SHEEP_LINE = re.compile(r"^\s*Sheep\s*:", re.IGNORECASE)
_SCORE_LINE = re.compile(r"^\s*Score\s*:", re.IGNORECASE)


def _locatable(key: str) -> bool:
    return key.startswith(("row ", "status ")) or key == "score"


def mark_core(text: str, animals: str, facts: list[tuple[str, str]]
              ) -> list[dict[str, Any]]:
    """The pasted text, line by line, cut into segments; the segments that state a fact of
    the contradiction (a round's row, an animal's mark in the Sheep row, the score line) are
    marked with that fact's sentence."""
    lines = text_lines(text)
    marks: dict[int, list[tuple[int, int, str]]] = {}
    for key, sentence in facts:
        for i, line in enumerate(lines):
            if key.startswith("row "):
                m = _ROUND_LINE.match(line)
                if m and m.group(1) == key[4:]:
                    marks.setdefault(i, []).append((0, len(line), sentence))
            elif key == "score" and _SCORE_LINE.match(line):
                marks.setdefault(i, []).append((0, len(line), sentence))
            elif key.startswith("status ") and _SHEEP_LINE.match(line):
                letter = key[7:]
                if letter in animals:
                    col = line.index(":") + 2 + 2 * animals.index(letter)
                    if col < len(line):
                        marks.setdefault(i, []).append((col, col + 1, sentence))
    return [segments(i + 1, line, marks.get(i, [])) for i, line in enumerate(lines)]


def puzzle_verdict(request: Any) -> dict[str, Any]:
    """`fleece mutton puzzle check FILE --json` of a mutton.PuzzleCheckRequest (z3 proves the
    answer unique and every clue needed)."""
    from fleece.api import mutton

    report = mutton.check_puzzle(request)
    return {"json": report.to_json(), "lines": list(report.lines), "ok": report.passed}
