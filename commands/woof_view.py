"""How `fleece woof solve` shows an analysis in the terminal: the character table, the wolf
sets, certain facts and the suggestion (rich)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fleece.rules.woof.cards import CHARACTERS, Card, Character
from fleece.rules.woof.evidence import deck_text, describe
from fleece.solver.woof.analysis import (
    DOG_NOTE,
    Suggestion,
    WoofAnalysis,
)


def _fmt(p: Fraction, exact: bool) -> str:
    if exact:
        return str(p)
    if p == 0:
        return "."
    if p == 1:
        return "100%"
    return f"{float(p) * 100:.1f}%"


def _deck_summary(deck: tuple[Card, ...]) -> str:
    return deck_text(deck)


def render(report: WoofAnalysis, *, exact: bool = False, top: int = 8) -> Any:
    """A rich renderable (Group) for the terminal."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    ev = report.evidence
    parts: list[Any] = []
    dummy = f", dummy seat {ev.table.dummy}" if ev.table.dummy else ""
    parts.append(Text(
        f"Woof!! {ev.players} players{dummy}; deck {_deck_summary(ev.deck)} "
        f"({len(ev.deck)} cards); {len(ev.facts)} evidence lines; engine {report.engine}",
        style="bold"))
    for note in ev.notes:
        parts.append(Text(f"note: {note}", style="yellow"))
    for warning in ev.warnings():
        parts.append(Text(f"warning: {warning}", style="yellow"))
    if not report.consistent:
        parts.append(Text("The evidence is contradictory. These lines cannot all be true "
                          "(drop any one of them and the rest is possible):", style="bold red"))
        for f in report.contradiction:
            parts.append(Text(f"  {describe(f)}"))
        if not report.contradiction:
            parts.append(Text("  the deck itself cannot fill the seats"))
        return Group(*parts)
    post = report.posterior
    table = Table(title="Characters (probability)", title_justify="left")
    table.add_column("seat", justify="right")
    for c in CHARACTERS:
        table.add_column(c.value, justify="right")
    for s, dist in post.marginals().items():
        label = f"{s}{' (me)' if s == ev.me else ''}{' (dummy)' if s == ev.table.dummy else ''}"
        table.add_row(label, *[_fmt(dist[c], exact) for c in CHARACTERS])
    parts.append(table)
    wolves = post.wolf_sets()
    wt = Table(title="Wolf seats", title_justify="left")
    wt.add_column("wolves")
    wt.add_column("probability", justify="right")
    for ws, p in wolves[:top]:
        wt.add_row(", ".join(map(str, ws)) or "no wolf", _fmt(p, exact))
    if len(wolves) > top:
        wt.add_row(f"... {len(wolves) - top} more", "")
    parts.append(wt)
    if report.certain:
        parts.append(Text("Certain: " + "; ".join(
            f"seat {s} is {c.value}" for s, c in sorted(report.certain.items()))))
    else:
        parts.append(Text("Certain: nothing yet"))
    if report.suggestion is not None:
        parts.append(_render_suggestion(report.suggestion, exact))
    elif report.suggestion_note:
        parts.append(Text(f"No suggestion: {report.suggestion_note}"))
    return Group(*parts)


def _render_suggestion(sug: Suggestion, exact: bool) -> Any:
    from rich.text import Text

    picks = ", ".join(
        f"{t.value} -> {'nobody (0)' if p == 0 else f'seat {p}'}"
        for t, p in zip(sug.targets, sug.picks, strict=True))
    lines = [
        f"Suggestion for seat {sug.seat} ({sug.character.value}): {picks}",
        f"  entirely right with probability {sug.probability} ({_fmt(sug.probability, False)})",
        f"  expected points: early now {_fmt_num(sug.early_points, exact)}, final with the same "
        f"knowledge {_fmt_num(sug.final_points, exact)}, waiting at most 1; error risk "
        f"{_fmt(sug.error_risk, exact) if sug.error_risk else '0'}",
        f"  advice: {sug.advice}"
        + (" (if you may: not on your first turn, not barred)" if sug.early_points >= 1 else ""),
        "  assumption: points only; waiting = a final suspicion with today's knowledge "
        "(never more than 1 point), so early is advised when 2p >= 1",
    ]
    if sug.character is Character.DOG:
        lines.append(f"  note: {DOG_NOTE}")
    return Text("\n".join(lines), style="bold green")


def _fmt_num(x: Fraction, exact: bool) -> str:
    return str(x) if exact else f"{float(x):.3f}"
