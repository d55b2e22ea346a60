"""The web app's jobs: each takes the request's checked options (plain values), calls the
library API (fleece.api) as the command line does, and returns plain data: `json`, the
report's `to_json()` (what the command's `--json` prints), and `view`, what the page shows
besides (tables, board geometry, marks).

They run in worker processes (web.pool), so they import nothing of the web server. Input
errors are the library's FleeceErrors, carrying their field, line and column; the pool hands
them to the server as they are.
"""

from __future__ import annotations

import json
import math
import re
import time
from fractions import Fraction
from typing import Any

Opts = dict[str, Any]


def cli_text(data: Any) -> str:
    """Exactly what a command's `--json` prints: the value indented, and a newline."""
    return json.dumps(data, indent=2) + "\n"


def for_api(fn: Any, *args: Any) -> str:
    """Run a job for its JSON twin and return the command's `--json` text. The text is made
    here, in the worker: an indented dump is pure-Python work of milliseconds that would
    otherwise hold the server's event loop."""
    result: dict[str, Any] = fn(*args)
    return cli_text(result["json"])


def for_page(fn: Any, *args: Any) -> dict[str, Any]:
    """Run a job for a page: its `json` and `view`, and `json_text` (what the page's JSON
    box shows), made in the worker as for_api makes it."""
    result: dict[str, Any] = fn(*args)
    result["json_text"] = cli_text(result["json"])
    return result


def exact(p: Fraction) -> str:
    """`57/219`, `0`, `1`: a probability as its exact fraction."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def shade(p: Fraction | float) -> int:
    """A probability as one of eleven shades 0..10 (the pages colour by CSS class)."""
    return min(10, max(0, round(float(p) * 10)))


def heat(p: Fraction | float) -> str:
    """The fill colour of P(wolf) p, pale (0) to deep red (1), as solver.mutton.svg draws it."""
    x = float(p)
    return f"rgb(255,{int(240 - 190 * x)},{int(230 - 190 * x)})"


# ---- Mutton ----------------------------------------------------------------------------------

HEX_R = 26.0  # the hex cell's circumradius, pointy top (as solver.mutton.svg)
HEX_W = math.sqrt(3) * HEX_R
HEX_MARGIN = 30.0
HEX_CORNERS = tuple((HEX_R * math.cos(math.radians(60 * i - 90)),
                     HEX_R * math.sin(math.radians(60 * i - 90))) for i in range(6))


def mutton_solve(opts: Opts) -> dict[str, Any]:
    """`fleece mutton solve` on pasted text (fleece.api.mutton.solve): options chart, wolves,
    no_reveal, escaped, dictionary (the word list's text), passed, engine; `view` False (the
    API) skips what only the page shows."""
    from fleece.api import mutton

    text: str = opts["chart"]
    report = mutton.solve(mutton.SolveRequest(
        chart=text, wolves=opts["wolves"], no_reveal=opts["no_reveal"],
        escaped=opts["escaped"], dictionary=opts["dictionary"], passed=opts["passed"],
        engine=opts["engine"], source="chart"))
    result = report.analysis
    view = mutton_view(result.problem, result, text) if opts.get("view", True) else None
    return {"json": report.to_json(), "view": view}


def mutton_view(problem: Any, result: Any, text: str) -> dict[str, Any]:
    """What the Mutton page shows: summary, table rows, certain facts with reasons, advice,
    the board's cells (shaded by P(wolf)), or the contradicting facts marked in the text."""
    from fleece.solver.mutton.analysis import rounds_run, status_text

    sol = result.solution
    view: dict[str, Any] = {
        "animals": len(problem.animals), "wolves": problem.num_wolves,
        "reveal": problem.reveal, "kills": len(problem.chart.rows), "passed": problem.passed,
        "source": problem.source, "engine": sol.engine, "notes": list(problem.notes),
        "consistent": sol.consistent, "count": sol.count, "board": None,
    }
    if not sol.consistent:
        core = list(sol.core)
        view["core"] = [{"key": f.key, "clause": f.clause, "text": f.text,
                         "in_text": _locatable(f.key)} for f in core]
        view["marked"] = (mark_core(text, problem.animals, [(f.key, f.text) for f in core])
                          if problem.source == "chart" else None)
        return view
    why = {r.letter: r for r in result.reasons}
    runs = rounds_run(problem)
    model = sol.model
    view["model"] = model is not None and model.available
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
            "kind": "wolf" if p == 1 else "cleared" if p == 0 else "open",
            "reason": r.text if r is not None else "", "hover": hover,
            "model": f"{float(model.probability(a)):.3f}" if view["model"] else "",
        })
    view["rows"] = rows
    new_wolves, new_cleared = set(sol.new_certain_wolves), set(sol.new_cleared)
    view["certain"] = [{"letter": r.letter, "text": r.text, "rule": r.rule}
                       for r in sorted(result.reasons, key=lambda r: r.letter)
                       if r.wolf and r.letter in new_wolves]
    view["cleared"] = [{"letter": r.letter, "text": r.text, "rule": r.rule}
                       for r in sorted(result.reasons, key=lambda r: r.letter)
                       if not r.wolf and r.letter in new_cleared]
    view["known"] = [a for a in sol.certain_wolves if a not in new_wolves]
    view["advice"] = _mutton_advice(result.advice)
    if problem.board is not None:
        view["board"] = mutton_board(problem, sol, {row["letter"]: row for row in rows})
    return view


def _mutton_advice(advice: Any) -> dict[str, Any] | None:
    if advice is None or advice.best_shot is None:
        return None
    lo, hi = advice.living_wolves
    worst = advice.sheep_cost_worst
    if worst == 0:
        cost = "no sheep"
    elif lo == hi:
        cost = f"{worst} sheep"
    else:
        cost = f"at most {worst} sheep, {float(advice.sheep_cost_expected):.2f} expected"
    return {"best_shot": advice.best_shot, "p": f"{float(advice.best_probability):.3f}",
            "exact": exact(advice.best_probability), "tied": list(advice.tied[1:]),
            "tie_rule": advice.tie_rule, "berserk": list(advice.berserk_set),
            "wolves": str(lo) if lo == hi else f"{lo} to {hi}", "cost": cost}


def mutton_board(problem: Any, sol: Any, rows: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The hex board as geometry for the page's SVG: every cell with its polygon, name,
    animal (shaded by P(wolf), with the hover text) or corpse mark."""
    from fleece.rules.mutton.geometry import ROW_LETTERS, board

    pic = problem.board
    b = board(pic.size)
    at = {c: a for a, c in pic.animals.items()}
    size = pic.size

    def centre(row: int, diag: int) -> tuple[float, float]:
        x = (diag - 1 - row / 2 + (size - 1) / 2) * HEX_W
        return HEX_MARGIN + HEX_W / 2 + x, HEX_MARGIN + HEX_R + row * 1.5 * HEX_R

    def hexagon(cx: float, cy: float) -> str:
        return " ".join(f"{cx + dx:.1f},{cy + dy:.1f}" for dx, dy in HEX_CORNERS)

    cells = []
    for c in b.cells:
        cx, cy = centre(c.row, c.diag)
        a = at.get(c)
        cell: dict[str, Any] = {"name": c.name, "x": round(cx, 1), "y": round(cy, 1),
                                "points": hexagon(cx, cy), "letter": a,
                                "corpse": c in pic.corpses}
        if a is not None:
            p = sol.probability(a)
            row = rows[a]
            cell.update(fill=heat(p), label="wolf" if p == 1 else "0" if p == 0 else
                        f"{float(p):.2f}", hover=row["hover"], exact=row["exact"],
                        reason=row["reason"], kind=row["kind"])
        else:
            cell["fill"] = "#d9d9d9" if cell["corpse"] else "#f7f7f2"
        cells.append(cell)
    labels = []
    for r in range(b.rows):
        first = b.row_cells(r)[0]
        cx, cy = centre(first.row, first.diag)
        labels.append({"x": round(cx - HEX_W * 0.85, 1), "y": round(cy + 4, 1),
                       "text": ROW_LETTERS[r]})
    width = max(c["x"] for c in cells) + HEX_W / 2 + HEX_MARGIN
    height = max(c["y"] for c in cells) + HEX_R + HEX_MARGIN
    legend = [{"x": HEX_MARGIN + i * 16, "fill": heat(Fraction(i, 10))} for i in range(11)]
    return {"width": round(width), "height": round(height + 40), "cells": cells,
            "labels": labels, "legend": legend, "legend_y": round(height + 4)}


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
    lines = [ln.replace("\u00a0", " ").expandtabs(8) for ln in text.splitlines()]
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


def segments(no: int, line: str, marks: list[tuple[int, int, str]]) -> dict[str, Any]:
    """One line as segments {text, note}: marked spans carry their note (a whole-line mark
    under a cell mark keeps both notes on the cell)."""
    notes: list[list[str]] = [[] for _ in line]
    for start, end, note in marks:
        for j in range(start, min(end, len(line))):
            notes[j].append(note)
    out: list[dict[str, Any]] = []
    for j, ch in enumerate(line):
        note = "; ".join(notes[j])
        if out and out[-1]["note"] == note:
            out[-1]["text"] += ch
        else:
            out.append({"text": ch, "note": note})
    return {"no": no, "segments": out, "marked": bool(marks), "error": False}


def mark_error(text: str, line: int | None, column: int | None, message: str
               ) -> list[dict[str, Any]] | None:
    """The text with the error's line marked (and its column, when known), or None when the
    error names no line."""
    if line is None:
        return None
    lines = [ln.replace("\u00a0", " ").expandtabs(8) for ln in text.splitlines()] or [""]
    out = []
    for i, ln in enumerate(lines, start=1):
        marks: list[tuple[int, int, str]] = []
        if i == line:
            if column is not None and 1 <= column <= len(ln):
                marks = [(column - 1, column, message)]
            elif ln:
                marks = [(0, len(ln), message)]
        seg = segments(i, ln, marks)
        seg["error"] = i == line
        out.append(seg)
    if line > len(lines):
        out.append({"no": line, "segments": [{"text": " ", "note": message}], "marked": True,
                    "error": True})
    return out


# ---- Woof!! ----------------------------------------------------------------------------------


def woof_solve(opts: Opts) -> dict[str, Any]:
    """`fleece woof solve` on the evidence text (fleece.api.woof.solve): options evidence,
    engine, me, dog_target; `view` False (the API) skips what only the page shows."""
    from fleece.api import woof

    report = woof.solve(woof.SolveRequest(evidence=opts["evidence"], engine=opts["engine"],
                                          me=opts["me"], dog_target=opts["dog_target"],
                                          source="evidence"))
    return {"json": report.to_json(),
            "view": woof_view(report.analysis) if opts.get("view", True) else None}


def woof_view(report: Any) -> dict[str, Any]:
    """What the Woof!! page shows: the character table (exact and shaded), wolf seats, certain
    facts and the suggestion, or the contradicting lines."""
    from fleece.rules.woof.cards import CHARACTERS
    from fleece.rules.woof.evidence import deck_text, fact_line
    from fleece.solver.woof.analysis import DOG_NOTE

    ev = report.evidence
    view: dict[str, Any] = {
        "players": ev.players, "dummy": ev.table.dummy, "deck": deck_text(ev.deck),
        "cards": len(ev.deck), "lines": len(ev.facts), "engine": report.engine,
        "notes": list(ev.notes), "warnings": ev.warnings(), "consistent": report.consistent,
        "me": ev.me, "characters": [c.value for c in CHARACTERS],
    }
    if not report.consistent:
        view["contradiction"] = [{"line": f.line, "fact": fact_line(f), "text": f.describe()}
                                 for f in report.contradiction]
        view["bad_lines"] = sorted({f.line for f in report.contradiction if f.line})
        return view
    post = report.posterior
    rows = []
    for s, dist in post.marginals().items():
        label = str(s) + (" (me)" if s == ev.me else "") + \
            (" (dummy)" if s == ev.table.dummy else "")
        rows.append({"seat": s, "label": label, "cells": [
            {"exact": exact(dist[c]), "pct": _pct(dist[c]), "shade": shade(dist[c]),
             "character": c.value} for c in CHARACTERS]})
    view["rows"] = rows
    sets = post.wolf_sets()
    view["wolf_sets"] = [{"seats": ", ".join(map(str, ws)) or "no wolf", "exact": exact(p),
                          "pct": _pct(p)} for ws, p in sets[:8]]
    view["more_sets"] = max(0, len(sets) - 8)
    view["certain"] = [f"seat {s} is {c.value}" for s, c in sorted(report.certain.items())]
    sug = report.suggestion
    view["suggestion"] = None
    if sug is not None:
        picks = ", ".join(f"{t.value}: {'nobody (0)' if p == 0 else f'seat {p}'}"
                          for t, p in zip(sug.targets, sug.picks, strict=True))
        view["suggestion"] = {
            "seat": sug.seat, "character": sug.character.value, "picks": picks,
            "exact": exact(sug.probability), "pct": _pct(sug.probability),
            "early": f"{float(sug.early_points):.3f}", "final": f"{float(sug.final_points):.3f}",
            "risk": _pct(sug.error_risk), "advice": sug.advice,
            "dog_note": DOG_NOTE if sug.character.value == "dog" else None}
    view["suggestion_note"] = report.suggestion_note
    return view


def _pct(p: Fraction) -> str:
    if p == 0:
        return "."
    if p == 1:
        return "100%"
    return f"{float(p) * 100:.1f}%"


# ---- puzzles ---------------------------------------------------------------------------------


def mutton_puzzle_verdict(text: str, solution: str, name: str) -> dict[str, Any]:
    """`fleece mutton puzzle check FILE --json` on a committed puzzle (z3 proves the answer
    unique and every clue needed)."""
    from fleece.api import mutton

    report = mutton.check_puzzle(mutton.PuzzleCheckRequest(
        puzzle=text, solution=solution, source=name, solution_source=name))
    return {"json": report.to_json(), "lines": list(report.lines), "ok": report.passed}


def woof_puzzle_verdict(text: str, solution: str, name: str) -> dict[str, Any]:
    """`fleece woof puzzle check FILE --json` on a committed puzzle."""
    from fleece.api import woof

    report = woof.check_puzzle(woof.PuzzleCheckRequest(puzzle=text, solution=solution,
                                                       source=name))
    return {"json": report.to_json(), "lines": list(report.lines), "ok": report.passed}


# ---- Ulvtafl ---------------------------------------------------------------------------------

ULV_CELL = 60


def _position(opts: Opts) -> dict[str, Any]:
    """The position fields of fleece.api.ulvtafl's requests, from a request's options."""
    return {"setup": int(opts["setup"]) if opts["setup"] else None,
            "position": opts["position"], "wolf": tuple(opts["wolf"] or ()),
            "orthogonal": opts["orthogonal"],
            "wolf_diagonal_captures_only": opts["wolf_diagonal_captures_only"],
            "sheep_orthogonal": opts["sheep_orthogonal"],
            "no_repetition_draw": opts["no_repetition_draw"]}


def ulvtafl_board(opts: Opts) -> dict[str, Any]:
    """`fleece ulvtafl board --json` and the page's picture of the position."""
    from fleece.api import ulvtafl

    report = ulvtafl.board(ulvtafl.PositionRequest(**_position(opts)))
    return {"json": report.to_json(), "view": ulvtafl_view(report.state)}


def ulvtafl_move(opts: Opts) -> dict[str, Any]:
    """Play `move` (when given) in the position; then, when `solver` names the side to move,
    the solver answers as in `fleece ulvtafl play` (thinking at most `think` seconds). `json`
    is `fleece ulvtafl board --position NEW --json` of the position reached."""
    from fleece.api import ulvtafl

    report = ulvtafl.play(ulvtafl.MoveRequest(move=opts["move"], solver=opts["solver"],
                                              think=opts["think"], **_position(opts)))
    view = ulvtafl_view(report.state)
    view["played"] = list(report.played)
    view["reply_note"] = report.reply_note
    return {"json": report.to_json(), "view": view}


def ulvtafl_solve(opts: Opts) -> dict[str, Any]:
    """`fleece ulvtafl solve --json` of the position, and its picture with the best move
    drawn as an arrow."""
    from fleece.api import ulvtafl
    from fleece.rules.ulvtafl.notation import parse_move

    result = ulvtafl.solve(ulvtafl.SolveRequest(max_nodes=opts["max_nodes"],
                                                timeout=opts["timeout"],
                                                retro_limit=opts["retro_limit"],
                                                **_position(opts)))
    arrow = parse_move(result.best_move) if result.best_move else None
    view = ulvtafl_view(result.state, arrow)
    view["solve"] = {"value": result.value, "best_move": result.best_move,
                     "distance": result.distance, "method": result.method,
                     "nodes": result.nodes, "seconds": f"{result.seconds:.2f}",
                     "stopped": result.stopped, "line": list(result.principal_line[:40])}
    return {"json": result.to_json(), "view": view}


def ulvtafl_view(state: Any, arrow: Any = None) -> dict[str, Any]:
    """The board as geometry for the page's SVG (points, lines, paddock, pieces, an optional
    arrow) and the legal moves as point paths, which the page's script matches clicks
    against."""
    from fleece.rules.ulvtafl.game import SIDE_NAMES
    from fleece.rules.ulvtafl.geometry import COORDS, FILES, INDEX, NAMES, PADDOCK, segments
    from fleece.rules.ulvtafl.notation import position_text

    cell = ULV_CELL
    margin = cell
    size = 6 * cell + 2 * margin

    def xy(p: int) -> tuple[int, int]:
        f, r = COORDS[p]
        return margin + f * cell, margin + (7 - r) * cell

    points = []
    for p, name in enumerate(NAMES):
        x, y = xy(p)
        piece = "sheep" if state.sheep >> p & 1 else "wolf" if state.wolves >> p & 1 else ""
        points.append({"name": name, "x": x, "y": y, "piece": piece,
                       "paddock": bool(PADDOCK >> p & 1)})
    lines = [{"x1": xy(p)[0], "y1": xy(p)[1], "x2": xy(q)[0], "y2": xy(q)[1]}
             for p, q in segments(not state.rules.orthogonal)]
    c5, e7 = xy(INDEX[(2, 5)]), xy(INDEX[(4, 7)])
    pad = cell // 3
    paddock = {"x": c5[0] - pad, "y": e7[1] - pad, "w": e7[0] - c5[0] + 2 * pad,
               "h": c5[1] - e7[1] + 2 * pad}
    moves = [{"text": m.text(), "path": [NAMES[p] for p in m.path]}
             for m in state.legal_moves()]
    files = [{"x": margin + i * cell, "y": size - cell // 3, "text": ch}
             for i, ch in enumerate(FILES)]
    ranks = [{"x": cell // 3, "y": margin + (7 - r) * cell + 5, "text": str(r)}
             for r in range(1, 8)]
    view: dict[str, Any] = {
        "size": size, "radius": cell // 3, "points": points, "lines": lines,
        "paddock": paddock, "files": files, "ranks": ranks, "moves": moves,
        "position": position_text(state),
        "to_move": None if state.result else SIDE_NAMES[state.to_move],
        "result": state.result, "reason": state.reason or None,
        "sheep": state.sheep.bit_count(), "wolves": state.wolves.bit_count(),
        "filled": ((state.sheep | state.wolves) & PADDOCK).bit_count(), "arrow": None,
        "played": [], "reply_note": None, "solve": None,
    }
    if arrow is not None:
        view["arrow"] = {"text": arrow.text(),
                         "points": " ".join(f"{x},{y}" for x, y in (xy(p) for p in arrow.path))}
    return view


# ---- cards -----------------------------------------------------------------------------------

LENGTH_GAMES = 200  # seeded games whose lengths the War page plots
LENGTH_SECONDS = 1.5  # ... or as many as fit in this time


def war_analyse(opts: Opts) -> dict[str, Any]:
    """`fleece cards war analyse --json` (exact, Markov or Monte Carlo, as
    fleece.api.cards.analyse_war decides) and, for the page, the lengths of seeded games
    played one by one (`war play`). Options left None take the command's defaults."""
    from fleece.api import cards
    from fleece.rules.cards.war import Order, Runout

    given = {k: opts[k] for k in ("deck", "order", "runout", "samples", "seed", "limit",
                                  "max_deals", "max_states") if opts[k] is not None}
    request = cards.WarAnalyseRequest(**given)
    report = cards.analyse_war(request)
    view = None
    if opts.get("lengths"):
        view = war_lengths(cards.parse_deck(request.deck), Order.parse(request.order),
                           Runout.parse(request.runout), request.seed, request.limit)
    return {"json": report.to_json(), "view": view}


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


def concentration_solve(opts: Opts) -> dict[str, Any]:
    """`fleece cards concentration solve --json` (players 1: solitaire; 2: the duel)."""
    from fleece.api import cards

    given = {k: opts[k] for k in ("deck", "players", "max_states") if opts[k] is not None}
    return {"json": cards.solve_concentration(cards.ConcentrationRequest(**given)).to_json()}
