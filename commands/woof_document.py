"""How `fleece woof solve` shows an analysis to a person: the character table, the wolf sets,
certain facts and the suggestion, as a Document (commands.output draws it)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fleece.commands.output import Column, Document


def _fmt(p: Fraction, exact: bool) -> str:
    if exact:
        return str(p)
    if p == 0:
        return "."
    if p == 1:
        return "100%"
    return f"{float(p) * 100:.1f}%"


def _fmt_num(x: Fraction, exact: bool) -> str:
    return str(x) if exact else f"{float(x):.3f}"


def report(analysis: Any, *, exact: bool = False, top: int = 8) -> Document:
    """The human report of fleece.solver.woof's WoofAnalysis."""
    from fleece.rules.woof.cards import CHARACTERS, Character
    from fleece.rules.woof.evidence import deck_text, describe
    from fleece.solver.woof.analysis import DOG_NOTE

    doc = Document()
    ev = analysis.evidence
    dummy = f", dummy seat {ev.table.dummy}" if ev.table.dummy else ""
    doc.styled(f"Woof!! {ev.players} players{dummy}; deck {deck_text(ev.deck)} "
               f"({len(ev.deck)} cards); {len(ev.facts)} evidence lines; engine "
               f"{analysis.engine}", "bold")
    for n in ev.notes:
        doc.styled(f"note: {n}", "yellow")
    for warning in ev.warnings():
        doc.styled(f"warning: {warning}", "yellow")
    if not analysis.consistent:
        doc.styled("The evidence is contradictory. These lines cannot all be true "
                   "(drop any one of them and the rest is possible):", "bold red")
        for f in analysis.contradiction:
            doc.line(f"  {describe(f)}")
        if not analysis.contradiction:
            doc.line("  the deck itself cannot fill the seats")
        return doc
    post = analysis.posterior
    rows = []
    for s, dist in post.marginals().items():
        label = f"{s}{' (me)' if s == ev.me else ''}{' (dummy)' if s == ev.table.dummy else ''}"
        rows.append(([label, *[_fmt(dist[c], exact) for c in CHARACTERS]], None))
    doc.table([Column("seat", right=True), *[Column(c.value, right=True) for c in CHARACTERS]],
              rows, title="Characters (probability)")
    wolves = post.wolf_sets()
    wrows: list[tuple[list[str], str | None]] = [
        ([", ".join(map(str, ws)) or "no wolf", _fmt(p, exact)], None) for ws, p in wolves[:top]]
    if len(wolves) > top:
        wrows.append(([f"... {len(wolves) - top} more", ""], None))
    doc.table([Column("wolves"), Column("probability", right=True)], wrows, title="Wolf seats")
    if analysis.certain:
        doc.line("Certain: " + "; ".join(f"seat {s} is {c.value}"
                                         for s, c in sorted(analysis.certain.items())))
    else:
        doc.line("Certain: nothing yet")
    sug = analysis.suggestion
    if sug is not None:
        picks = ", ".join(f"{t.value} -> {'nobody (0)' if p == 0 else f'seat {p}'}"
                          for t, p in zip(sug.targets, sug.picks, strict=True))
        lines = [
            f"Suggestion for seat {sug.seat} ({sug.character.value}): {picks}",
            f"  entirely right with probability {sug.probability} "
            f"({_fmt(sug.probability, False)})",
            f"  expected points: early now {_fmt_num(sug.early_points, exact)}, final with the "
            f"same knowledge {_fmt_num(sug.final_points, exact)}, waiting at most 1; error "
            f"risk {_fmt(sug.error_risk, exact) if sug.error_risk else '0'}",
            f"  advice: {sug.advice}"
            + (" (if you may: not on your first turn, not barred)"
               if sug.early_points >= 1 else ""),
            "  assumption: points only; waiting = a final suspicion with today's knowledge "
            "(never more than 1 point), so early is advised when 2p >= 1",
        ]
        if sug.character is Character.DOG:
            lines.append(f"  note: {DOG_NOTE}")
        for line in lines:
            doc.styled(line, "bold green")
    elif analysis.suggestion_note:
        doc.line(f"No suggestion: {analysis.suggestion_note}")
    return doc
