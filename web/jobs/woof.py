"""Woof!!'s jobs: `fleece woof solve` on the evidence text (fleece.api.woof.solve) and what
the page shows besides: the table of exact beliefs, the wolf seats, the certain facts, the
suggestion with the numbers it compares, or the contradicting lines."""

from __future__ import annotations

from typing import Any

from fleece.web.jobs import exact, pct


def solve(request: Any, display: bool = True) -> dict[str, Any]:
    """`fleece woof solve --json` of a woof.SolveRequest and, for the page, its display."""
    from fleece.api import woof

    report = woof.solve(request)
    shown = woof_display(report.analysis) if display else None
    return {"json": report.to_json(), "display": shown}


def woof_display(report: Any) -> dict[str, Any]:
    """What the Woof!! page shows: the character table (exact and shaded), wolf seats, certain
    facts and the suggestion, or the contradicting lines."""
    from fleece.rules.mutton.picture import shade
    from fleece.rules.woof.cards import CHARACTERS
    from fleece.rules.woof.evidence import deck_text, fact_line
    from fleece.solver.woof.analysis import DOG_NOTE

    ev = report.evidence
    display: dict[str, Any] = {
        "players": ev.players, "dummy": ev.table.dummy, "deck": deck_text(ev.deck),
        "cards": len(ev.deck), "lines": len(ev.facts), "engine": report.engine,
        "notes": list(ev.notes), "warnings": ev.warnings(), "consistent": report.consistent,
        "me": ev.me, "characters": [c.value for c in CHARACTERS],
    }
    if not report.consistent:
        display["contradiction"] = [{"line": f.line, "fact": fact_line(f), "text": f.describe()}
                                 for f in report.contradiction]
        display["bad_lines"] = sorted({f.line for f in report.contradiction if f.line})
        return display
    post = report.posterior
    rows = []
    for s, dist in post.marginals().items():
        label = str(s) + (" (me)" if s == ev.me else "") + \
            (" (dummy)" if s == ev.table.dummy else "")
        rows.append({"seat": s, "label": label, "cells": [
            {"exact": exact(dist[c]), "pct": pct(dist[c]), "shade": shade(dist[c]),
             "character": c.value} for c in CHARACTERS]})
    display["rows"] = rows
    sets = post.wolf_sets()
    display["wolf_sets"] = [{"seats": ", ".join(map(str, ws)) or "no wolf", "exact": exact(p),
                          "pct": pct(p)} for ws, p in sets[:8]]
    display["more_sets"] = max(0, len(sets) - 8)
    display["certain"] = [f"seat {s} is {c.value}" for s, c in sorted(report.certain.items())]
    sug = report.suggestion
    display["suggestion"] = None
    if sug is not None:
        picks = ", ".join(f"{t.value}: {'nobody (0)' if p == 0 else f'seat {p}'}"
                          for t, p in zip(sug.targets, sug.picks, strict=True))
        p = float(sug.probability)
        early = float(sug.early_points)
        compare = (f"{sug.advice}: suspecting early now is worth 2 x {p:.3f} = {early:.3f} "
                   f"points on average; waiting, at most 1 point; rule: early when "
                   f"2p >= 1 ({early:.3f} {'>=' if early >= 1 else '<'} 1)")
        display["suggestion"] = {
            "seat": sug.seat, "character": sug.character.value, "picks": picks,
            "exact": exact(sug.probability), "pct": pct(sug.probability),
            "p": f"{p:.3f}", "early": f"{early:.3f}",
            "final": f"{float(sug.final_points):.3f}", "risk": pct(sug.error_risk),
            "advice": sug.advice, "compare": compare,
            "dog_note": DOG_NOTE if sug.character.value == "dog" else None}
    display["suggestion_note"] = report.suggestion_note
    return display


def puzzle_verdict(request: Any) -> dict[str, Any]:
    """`fleece woof puzzle check FILE --json` of a woof.PuzzleCheckRequest."""
    from fleece.api import woof

    report = woof.check_puzzle(request)
    return {"json": report.to_json(), "lines": list(report.lines), "ok": report.passed}
