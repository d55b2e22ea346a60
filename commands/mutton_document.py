"""How `fleece mutton solve` shows an analysis to a person: the summary, the table of
probabilities, certain facts with their reasons, the advice and the board shaded by P(wolf),
as a Document (commands.output draws it with rich on a terminal, as plain text otherwise)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fleece.commands.output import Column, Document, Span


def _shade(p: Fraction) -> str:
    """A background colour from pale (0) to deep red (1)."""
    x = float(p)
    return f"rgb(255,{int(235 - 185 * x)},{int(225 - 185 * x)})"


def board_lines(problem: Any, solution: Any) -> list[list[Span]]:
    """The pbmserv board with living animals shaded by P(wolf), beside the same board showing
    P(wolf) in tenths (W = certain wolf, - = cleared, 0-9 otherwise)."""
    from fleece.rules.mutton.diagram import render_board

    pic = problem.board
    left = render_board(pic.size, pic.animals, pic.corpses).splitlines()
    digits: dict[str, str] = {}
    styles: dict[str, str] = {}
    for a in pic.animals:
        p = solution.probability(a)
        digits[a] = "W" if p == 1 else "-" if p == 0 else str(min(9, int(p * 10)))
        styles[a] = f"bold black on {_shade(p)}"
    width = max(len(line) for line in left) + 4
    out = []
    for line in left:
        spans: list[Span] = []
        for ch in line:
            spans.append((ch, styles[ch]) if "A" <= ch <= "Z" and ch in pic.animals
                         else (ch, None))
        spans.append((" " * (width - len(line)), None))
        for ch in line:
            spans.append((digits[ch], styles[ch]) if "A" <= ch <= "Z" and ch in pic.animals
                         else (ch, None))
        out.append(spans)
    return out


def report(analysis: Any) -> Document:
    """The human report of a solve (fleece.solver.mutton.Analysis)."""
    from fleece.solver.mutton.analysis import fraction_text, rounds_run, status_text
    from fleece.solver.mutton.facts import join_letters

    problem, solution = analysis.problem, analysis.solution
    why = list(analysis.reasons)
    doc = Document()
    k = problem.num_wolves
    chart = problem.chart
    reveal = "reveal" if problem.reveal else "no_reveal"
    src = {"record": "game record", "chart": "chart", "json": "JSON"}.get(problem.source,
                                                                          problem.source)
    words = next((f for f in problem.facts if f.key == "dictionary"), None)
    dictionary = f", {len(words.words or ())} dictionary words" if words is not None else ""
    kills = len(chart.rows)
    doc.line((f"Mutton {src}", "bold"),
             f": {len(problem.animals)} animals, {k} wolves, {reveal}, {kills} "
             f"kill{'s' if kills != 1 else ''}"
             f"{', the Wolf passed this turn' if problem.passed else ''}{dictionary}; "
             f"engine {solution.engine}")
    for n in problem.notes:
        doc.line(f"note: {n}")
    if not solution.consistent:
        doc.line(("Inconsistent:", "bold red"), f" no set of {k} wolves fits this chart. "
                 "These facts contradict each other (each one is needed for the "
                 "contradiction):")
        for i, f in enumerate(solution.core, 1):
            doc.line(f"  {i}. {f.text}  ", (f"({f.key}; {f.clause})", "dim"))
        doc.line("A typo in the paste? Check these rows and marks, and the options "
                 "(--wolves, --no-reveal, --escaped).")
        return doc
    n = solution.count
    doc.line((str(n), "bold"), f" consistent wolf set{'s' if n != 1 else ''} "
             "(uniform prior: each equally likely)")
    model = solution.model
    show_model = model is not None and model.available
    columns = [Column("animal"), Column("status"), Column("ran in rounds"),
               Column("P(wolf)", right=True), Column("exact", right=True)]
    if show_model:
        columns.append(Column("P, Wolf model", right=True))
    runs = rounds_run(problem)
    rows = []
    for a in problem.animals:
        p = solution.probability(a)
        style = "bold red" if p == 1 else "dim" if p == 0 else None
        cells = [a, status_text(problem, a), " ".join(str(r) for r in runs[a]),
                 f"{float(p):.3f}", fraction_text(p)]
        if show_model:
            cells.append(f"{float(model.probability(a)):.3f}")
        rows.append((cells, style))
    doc.table(columns, rows)
    if model is not None:
        if model.available:
            doc.line("Wolf model: the record's likelihood if the Wolf picks a uniformly "
                     "random legal kill and runner placement (solver/mutton/wolf_prior.py), "
                     f"over the {model.sets} consistent sets.")
        else:
            doc.line(f"Wolf model: {model.skipped or 'the record is impossible under it'}")
    new_wolves = set(solution.new_certain_wolves)
    new_cleared = set(solution.new_cleared)
    wolf_reasons = sorted((r for r in why if r.wolf and r.letter in new_wolves),
                          key=lambda r: r.letter)
    sheep_reasons = sorted((r for r in why if not r.wolf and r.letter in new_cleared),
                           key=lambda r: r.letter)
    known_wolves = [a for a in solution.certain_wolves if a not in new_wolves]
    if wolf_reasons:
        doc.styled("Certain wolves", "bold")
        for r in wolf_reasons:
            doc.line("  ", (r.letter, "bold red"), f": {r.text}")
    if known_wolves:
        doc.line(f"Known wolves: {join_letters(known_wolves)} (top row)")
    if sheep_reasons:
        doc.line(("Cleared", "bold"), " (a wolf in no consistent set)")
        for r in sheep_reasons:
            doc.line(f"  {r.letter}: {r.text}")
    if not wolf_reasons and not sheep_reasons:
        doc.line("No new certain fact beyond the top row.")
    advice = analysis.advice
    if advice is not None and advice.best_shot is not None:
        advice_lines(doc, advice, fraction_text, join_letters)
    if problem.board is not None:
        doc.line(("Board", "bold"), " (shaded by P(wolf); right: tenths, W certain, - cleared)")
        for spans in board_lines(problem, solution):
            doc.line(*spans)
    return doc


def advice_lines(doc: Document, advice: Any, fraction_text: Any, join_letters: Any) -> None:
    """The advice: fleece's Farmer robot's decision (each kind of move with the expected sheep
    lost from now to the end of the game) and the assumptions behind its numbers, then the
    plain facts: the most likely wolf, and a volley that wins at no cost when there is one."""
    decision = advice.decision
    if decision is not None:
        doc.line(("Advice", "bold"), " (fleece's Farmer robot)")
        doc.line("  ", (decision.line, "bold"))
        so_far = "" if decision.lost is None else f" ({decision.lost} lost so far)"
        doc.line(f"  Sheep lost from now to the end of the game{so_far}, assuming:")
        for assumption in decision.assumptions:
            doc.line(f"    - {assumption}")
    else:
        doc.styled("Advice", "bold")
        doc.line(f"  No decision with expected losses: {advice.skipped}.")
    p = advice.best_probability
    if p == 1:
        sure = list(advice.sure_kill)
        many = len(sure) > 1
        doc.line(f"  Certain {'wolves' if many else 'wolf'}: ", (join_letters(sure), "bold"),
                 f": a shot at {'either' if len(sure) == 2 else 'any' if many else 'it'} "
                 "cannot miss.")
    elif p == 0:
        doc.line("  No living animal can be a wolf.")
    else:
        exact = fraction_text(p)
        tie = ""
        if len(advice.tied) > 1:
            tie = (f"; tied with {join_letters(list(advice.tied[1:]))} "
                   f"(tie rule: {advice.tie_rule})")
        doc.line("  Most likely wolf: ", (advice.best_shot, "bold"),
                 f" (P(wolf) = {float(p):.3f}{' = ' + exact if exact else ''}){tie}.")
    if advice.free_volley:
        doc.line(f"  Berserk on {{{', '.join(advice.free_volley)}}} wins now for certain and "
                 "costs no sheep (if berserk is allowed and unused, M13).")
