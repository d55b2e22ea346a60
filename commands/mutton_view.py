"""How `fleece mutton solve` shows an analysis in the terminal: the summary, the table of
probabilities, certain facts with their reasons, the advice and the shaded board (rich)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from fleece.rules.mutton.diagram import render_board
from fleece.solver.mutton.advice import Advice
from fleece.solver.mutton.analysis import fraction_text, rounds_run, status_text
from fleece.solver.mutton.explain import Reason
from fleece.solver.mutton.facts import join_letters
from fleece.solver.mutton.problem import Problem
from fleece.solver.mutton.solution import Solution


def _shade(p: Fraction) -> str:
    """A background colour from pale (0) to deep red (1)."""
    x = float(p)
    r = 255
    g = int(235 - 185 * x)
    b = int(225 - 185 * x)
    return f"rgb({r},{g},{b})"


def board_lines(problem: Problem, solution: Solution) -> list[Any]:
    """The pbmserv board with living animals shaded by P(wolf), beside the same board showing
    P(wolf) in tenths (W = certain wolf, - = cleared, 0-9 otherwise)."""
    from rich.text import Text

    pic = problem.board
    assert pic is not None
    left = render_board(pic.size, pic.animals, pic.corpses).splitlines()
    digits: dict[str, str] = {}
    for a in pic.animals:
        p = solution.probability(a)
        digits[a] = "W" if p == 1 else "-" if p == 0 else str(min(9, int(p * 10)))
    width = max(len(line) for line in left) + 4
    out = []
    for line in left:
        t = Text()
        for ch in line:
            if "A" <= ch <= "Z" and ch in pic.animals:
                p = solution.probability(ch)
                style = f"bold black on {_shade(p)}"
                t.append(ch, style=style)
            else:
                t.append(ch)
        t.append(" " * (width - len(line)))
        for ch in line:
            if "A" <= ch <= "Z" and ch in pic.animals:
                t.append(digits[ch], style=f"bold black on {_shade(solution.probability(ch))}")
            else:
                t.append(ch)
        out.append(t)
    return out


def print_report(problem: Problem, solution: Solution, advice: Advice | None,
                 why: list[Reason], console: Any) -> None:
    """The human report (rich): summary, table, certain facts with reasons, advice, board."""
    from rich.table import Table

    k = problem.num_wolves
    chart = problem.chart
    reveal = "reveal" if problem.reveal else "no_reveal"
    src = {"record": "game record", "chart": "chart", "json": "JSON"}.get(problem.source,
                                                                          problem.source)
    words = next((f for f in problem.facts if f.key == "dictionary"), None)
    dictionary = f", {len(words.words or ())} dictionary words" if words is not None else ""
    console.print(f"[bold]Mutton {src}[/]: {len(problem.animals)} animals, {k} wolves, "
                  f"{reveal}, {len(chart.rows)} kill{'s' if len(chart.rows) != 1 else ''}"
                  f"{', the Wolf passed this turn' if problem.passed else ''}{dictionary}; "
                  f"engine {solution.engine}")
    for note in problem.notes:
        console.print(f"note: {note}", soft_wrap=True)
    if not solution.consistent:
        console.print(f"[bold red]Inconsistent:[/] no set of {k} wolves fits this chart. "
                      "These facts contradict each other (each one is needed for the "
                      "contradiction):")
        for i, f in enumerate(solution.core, 1):
            console.print(f"  {i}. {f.text}  [dim]({f.key}; {f.clause})[/]", soft_wrap=True)
        console.print("A typo in the paste? Check these rows and marks, and the options "
                      "(--wolves, --no-reveal, --escaped).")
        return
    n = solution.count
    console.print(f"[bold]{n}[/] consistent wolf set{'s' if n != 1 else ''} "
                  "(uniform prior: each equally likely)")
    model = solution.model
    show_model = model is not None and model.available
    table = Table(show_edge=False, header_style="bold")
    table.add_column("animal")
    table.add_column("status", no_wrap=True)
    table.add_column("ran in rounds")
    table.add_column("P(wolf)", justify="right")
    table.add_column("exact", justify="right")
    if show_model:
        table.add_column("P, Wolf model", justify="right")
    runs = rounds_run(problem)
    for a in problem.animals:
        p = solution.probability(a)
        style = "bold red" if p == 1 else "dim" if p == 0 else ""
        cells = [a, status_text(problem, a), " ".join(str(r) for r in runs[a]),
                 f"{float(p):.3f}", fraction_text(p)]
        if show_model:
            assert model is not None
            cells.append(f"{float(model.probability(a)):.3f}")
        table.add_row(*cells, style=style)
    console.print(table)
    if model is not None:
        if model.available:
            console.print("Wolf model: the record's likelihood if the Wolf picks a uniformly "
                          "random legal kill and runner placement (solver/mutton/model.py), "
                          f"over the {model.sets} consistent sets.", soft_wrap=True)
        else:
            console.print(f"Wolf model: {model.skipped or 'the record is impossible under it'}",
                          soft_wrap=True)
    new_wolves = set(solution.new_certain_wolves)
    new_cleared = set(solution.new_cleared)
    wolf_reasons = sorted((r for r in why if r.wolf and r.letter in new_wolves),
                          key=lambda r: r.letter)
    sheep_reasons = sorted((r for r in why if not r.wolf and r.letter in new_cleared),
                           key=lambda r: r.letter)
    known_wolves = [a for a in solution.certain_wolves if a not in new_wolves]
    if wolf_reasons:
        console.print("[bold]Certain wolves[/]")
        for r in wolf_reasons:
            console.print(f"  [bold red]{r.letter}[/]: {r.text}", soft_wrap=True)
    if known_wolves:
        console.print(f"Known wolves: {join_letters(known_wolves)} (top row)")
    if sheep_reasons:
        console.print("[bold]Cleared[/] (a wolf in no consistent set)")
        for r in sheep_reasons:
            console.print(f"  {r.letter}: {r.text}", soft_wrap=True)
    if not wolf_reasons and not sheep_reasons:
        console.print("No new certain fact beyond the top row.")
    if advice is not None and advice.best_shot is not None:
        print_advice(advice, console)
    if problem.board is not None:
        console.print("[bold]Board[/] (shaded by P(wolf); right: tenths, W certain, - cleared)",
                      soft_wrap=True)
        for line in board_lines(problem, solution):
            console.print(line)


def print_advice(advice: Advice, console: Any) -> None:
    """The advice paragraph."""
    p = advice.best_probability
    console.print("[bold]Advice[/]")
    exact = fraction_text(p)
    tie = ""
    if len(advice.tied) > 1:
        tie = (f"; tied with {join_letters(list(advice.tied[1:]))} "
               f"(tie rule: {advice.tie_rule})")
    console.print(f"  Best single shot: [bold]{advice.best_shot}[/] "
                  f"(P(wolf) = {float(p):.3f}{' = ' + exact if exact else ''}){tie}",
                  soft_wrap=True)
    b = advice.berserk_set
    lo, hi = advice.living_wolves
    wolves = f"{lo}" if lo == hi else f"{lo} to {hi}"
    if advice.sheep_cost_worst == 0:
        cost = "no sheep"
    else:
        exp = advice.sheep_cost_expected
        cost = (f"{advice.sheep_cost_worst} sheep" if lo == hi else
                f"at most {advice.sheep_cost_worst} sheep, {float(exp):.2f} expected")
    console.print(f"  Berserk set: {', '.join(b)} ({len(b)} animal{'s' if len(b) != 1 else ''}"
                  f"; {wolves} living wolves among them): going berserk on it wins for sure "
                  f"and costs {cost} (if berserk is allowed and unused, M13).", soft_wrap=True)
