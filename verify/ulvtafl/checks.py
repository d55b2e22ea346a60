"""Ulvtafl's verification checks: geometry, inductive step invariants, U10's end order, the
rules gap U7 settles, the seed's paddock claim, and the Python-vs-Z3 cross-check. Every
check's expectation comes from docs/rules.md section 3 (named in `basis`), never from its result.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable
from typing import Any

from fleece.rules.ulvtafl.game import Rules, UlvState
from fleece.rules.ulvtafl.geometry import BY_NAME
from fleece.rules.ulvtafl.notation import position_text
from fleece.verify.budget import Budget, Undecided
from fleece.verify.result import (
    FAILED,
    NO_END,
    PASSED,
    PROVED,
    REFUTED,
    CheckResult,
    RulesGap,
    gap_found,
    undecided,
)
from fleece.verify.ulvtafl import encoding as zm
from fleece.verify.ulvtafl.ids import NO_END_GAP
from fleece.verify.ulvtafl.under_test import PythonModel

SIDE = ("wolves", "sheep")


def model_rules(rules: Rules) -> zm.ModelRules:
    """The Z3 encoding's options for a rule set of the reference model."""
    return zm.ModelRules(rules.orthogonal, rules.wolf_diagonal_captures_only,
                         rules.sheep_orthogonal)


def _count_models(budget: Budget, constraints: Any, variables: list[Any]) -> int:
    """The number of distinct values of `variables` satisfying the constraints (blocking
    each model found)."""
    import z3

    solver = z3.Solver()
    solver.add(constraints)
    n = 0
    while budget.check(solver) == z3.sat:
        m = solver.model()
        n += 1
        solver.add(z3.Or([v != m.eval(v, model_completion=True) for v in variables]))
        if n > 1000:
            break
    return n


# ---- geometry -------------------------------------------------------------------------------


def geometry(budget: Budget, rules: Rules) -> list[CheckResult]:
    """U1/U8 facts counted by Z3 over coordinates, and the board compared with the reference
    model's by name."""
    import z3

    out = []
    f, r = z3.Ints("f r")
    exists = z3.And(f >= 0, f <= 6, r >= 1, r <= 7,
                    z3.Or(z3.And(f >= 2, f <= 4), z3.And(r >= 3, r <= 5)))
    facts = [
        ("points", "33 points on the cross", exists, 33, ("U1", "U8")),
        ("diagonal-points", "17 points carry diagonal lines (file+rank odd)",
         z3.And(exists, (f + r) % 2 == 1), 17, ("U1", "U8")),
        ("paddock", "the paddock has 9 points, all on the board",
         z3.And(exists, f >= 2, f <= 4, r >= 5), 9, ("U2", "U8")),
        ("paddock-inside", "no paddock point lies off the board",
         z3.And(z3.Not(exists), f >= 2, f <= 4, r >= 5, r <= 7), 0, ("U2",)),
    ]
    for name, title, formula, want, clauses in facts:
        t0 = time.perf_counter()
        try:
            got = _count_models(budget, formula, [f, r])
        except Undecided as exc:
            out.append(undecided("geometry", name, title, expected=PROVED, reason=str(exc),
                                 clauses=clauses, basis="docs/rules.md U1/U8"))
            continue
        out.append(CheckResult("geometry", name, title, PROVED if got == want else REFUTED,
                               PROVED, clauses, f"Z3 finds {got} (docs/rules.md: {want})",
                               seconds=time.perf_counter() - t0, basis="docs/rules.md U1/U8"))
    from fleece.rules.ulvtafl import geometry as g

    board = zm.Board(model_rules(rules))
    z_lines = {frozenset((board.names[i], board.names[j]))
               for i in range(len(board.points)) for j in range(len(board.points))
               if i < j and board.line(i, j)}
    p_lines = {frozenset((g.NAMES[a], g.NAMES[b])) for a, b in g.segments(not rules.orthogonal)}
    same = (set(board.names) == set(g.NAMES) and z_lines == p_lines
            and {board.names[i] for i in board.paddock} == set(g.names_of(g.PADDOCK))
            and {board.names[i] for i in range(len(board.points)) if board.diagonal_point(i)}
            == {g.NAMES[p] for p in g.DIAGONAL_POINTS})
    diff = sorted(" ".join(sorted(x)) for x in z_lines ^ p_lines)[:3]
    out.append(CheckResult("geometry", "python-board", "the reference model's points, lines "
                           "and paddock equal the Z3 encoding's", PASSED if same else FAILED,
                           PASSED, ("U1", "U2", "U8"),
                           f"{len(z_lines)} line segments" + (f"; differ: {diff}" if diff
                                                              else ""),
                           basis="docs/rules.md U1/U8"))
    return out


# ---- inductive step invariants ---------------------------------------------------------------


def invariants(budget: Budget, rules: Rules) -> list[CheckResult]:
    """Inductive invariants over one step or one jump of a chain (Z3: the negation is
    unsat): one piece per point, wolves keep their number, sheep never increase, a sheep's
    rank never decreases, a jump removes exactly the jumped sheep."""
    import z3

    board = zm.Board(model_rules(rules))
    s, t = zm.State(board, "s"), zm.State(board, "t")
    n = len(board.points)
    step = zm.micro_step(s, t)
    one_piece = z3.And([z3.Not(z3.And(s.sheep[i], s.wolves[i])) for i in range(n)])
    one_piece_t = z3.And([z3.Not(z3.And(t.sheep[i], t.wolves[i])) for i in range(n)])
    came_from = z3.And([z3.Implies(z3.And(t.sheep[i], z3.Not(s.sheep[i])),
                                   z3.Or([z3.And(s.sheep[j], z3.Not(t.sheep[j]))
                                          for j in range(n)
                                          if board.rank(j) <= board.rank(i)]
                                         or [z3.BoolVal(False)]))
                        for i in range(n)])
    jump_exact = z3.And([z3.Implies(zm.jump(s, t, a, b, c),
                                    z3.And([t.sheep[x] == (s.sheep[x] if x != b else False)
                                            for x in range(n)]))
                         for a, b, c in board.jumps])
    instances = ([((i, j), zm.sheep_step(s, t, i, j)) for i, j in board.sheep_steps]
                 + [((i, j), zm.wolf_step(s, t, i, j)) for i, j in board.wolf_steps]
                 + [((a, b, c), zm.jump(s, t, a, b, c)) for a, b, c in board.jumps])

    def local_count(which: str, relation: str) -> Any:
        """A counting property, split so that Z3 needs no large sums: every move instance
        leaves the points it does not name unchanged (frame), and the difference of the
        count over the points it names has the required sign (local)."""
        frame, local = [], []
        for named_pts, rel in instances:
            before = getattr(s, which)
            after = getattr(t, which)
            frame.append(z3.Implies(rel, z3.And([after[x] == before[x] for x in range(n)
                                                 if x not in named_pts])))
            diff = z3.Sum([z3.If(after[x], 1, 0) - z3.If(before[x], 1, 0)
                           for x in named_pts])
            local.append(z3.Implies(rel, diff == 0 if relation == "==" else diff <= 0))
        return z3.And(frame + local)

    obligations = [
        ("one-piece-per-point", "every point holds at most one piece", z3.Implies(
            z3.And(one_piece, step), one_piece_t), ("U3", "U4")),
        ("wolves-constant", "the wolves never change in number",
         local_count("wolves", "=="), ("U3", "U4", "U9")),
        ("sheep-never-increase", "the sheep never increase",
         local_count("sheep", "<="), ("U4",)),
        ("sheep-rank-never-decreases", "a sheep only appears on a point of the same rank or "
         "higher than the point a sheep left", z3.Implies(step, came_from), ("U3", "U10")),
        ("capture-removes-jumped-sheep", "a jump removes exactly the jumped sheep",
         jump_exact, ("U4", "U10")),
    ]
    out = []
    for name, title, claim, clauses in obligations:
        t0 = time.perf_counter()
        solver = z3.Solver()
        solver.add(z3.Not(claim))
        try:
            answer = budget.check(solver)
        except Undecided as exc:
            out.append(undecided("invariants", name, title, expected=PROVED, reason=str(exc),
                                 clauses=clauses, basis="docs/rules.md " + "/".join(clauses)))
            continue
        witness = ""
        if answer == z3.sat:
            sh, wo, side = s.value(solver.model())
            witness = f"from sheep {sorted(board.names[i] for i in sh)} wolves " \
                      f"{sorted(board.names[i] for i in wo)} ({SIDE[side]} to move)"
        out.append(CheckResult("invariants", name, title,
                               PROVED if answer == z3.unsat else REFUTED, PROVED, clauses,
                               "inductive over every step and jump" if answer == z3.unsat
                               else "counterexample step", witness,
                               time.perf_counter() - t0, basis="docs/rules.md "
                               + "/".join(clauses)))
    return out


# ---- U10's end order ------------------------------------------------------------------------


def _python_end(model: PythonModel, rules: Rules, board: zm.Board, sheep: frozenset[int],
                wolves: frozenset[int], side: int) -> str | None:
    return model.end(rules, frozenset(board.names[i] for i in sheep),
                     frozenset(board.names[i] for i in wolves), side)


def _z3_end(board: zm.Board, budget: Budget, sheep: frozenset[int], wolves: frozenset[int],
            side: int) -> str | None:
    import z3

    s = zm.State(board, "e")
    solver = z3.Solver()
    solver.add(s.fix(set(sheep), set(wolves), side))
    budget.check(solver)
    code = solver.model().eval(zm.outcome(s)).as_long()
    return {zm.GOES_ON: None, zm.WOLVES_WIN: "wolves", zm.SHEEP_WIN: "sheep"}[code]


def _text(board: zm.Board, sheep: frozenset[int], wolves: frozenset[int], side: int,
          rules: Rules) -> str:
    from fleece.rules.ulvtafl.game import UlvState

    s = sum(1 << BY_NAME[board.names[i]] for i in sheep)
    w = sum(1 << BY_NAME[board.names[i]] for i in wolves)
    try:
        return position_text(UlvState.create(rules, s, w, side))
    except ValueError:
        return f"sheep {sorted(board.names[i] for i in sheep)} wolves " \
               f"{sorted(board.names[i] for i in wolves)} {SIDE[side]} to move"


def end_order(budget: Budget, rules: Rules, model: PythonModel) -> list[CheckResult]:
    """U10's order matters and the model follows it: Z3 finds positions where two end checks
    hold at once, and the model must give the earlier check's result there."""
    import z3

    board = zm.Board(model_rules(rules))
    out = []
    cases: list[tuple[str, str, Callable[[zm.State], Any], str, tuple[str, ...]]] = [
        ("fewer-sheep-before-paddock", "fewer than 9 sheep beats a full paddock",
         lambda s: z3.And(s.count(s.sheep) < 9,
                          z3.And([z3.Or(s.sheep[i], s.wolves[i]) for i in board.paddock])),
         "wolves", ("U5", "U10")),
        ("paddock-before-no-move", "a full paddock beats the side to move having no move",
         lambda s: z3.And(s.count(s.sheep) >= 9,
                          z3.And([z3.Or(s.sheep[i], s.wolves[i]) for i in board.paddock]),
                          z3.Not(zm.has_move(s)), z3.Not(s.sheep_to_move)),
         "sheep", ("U5", "U10")),
        ("fewer-sheep-before-no-move", "fewer than 9 sheep beats the wolves having no move",
         lambda s: z3.And(s.count(s.sheep) < 9, z3.Not(zm.has_move(s)),
                          z3.Not(s.sheep_to_move)), "wolves", ("U5", "U10")),
        ("stuck-side-loses", "the side to move with no legal move loses (sheep stuck)",
         lambda s: z3.And(s.count(s.sheep) >= 9, z3.Not(zm.has_move(s)), s.sheep_to_move,
                          z3.Not(z3.And([z3.Or(s.sheep[i], s.wolves[i])
                                         for i in board.paddock]))), "wolves", ("U5", "U10")),
    ]
    for name, title, condition, winner, clauses in cases:
        t0 = time.perf_counter()
        s = zm.State(board, "o")
        solver = z3.Solver()
        solver.add(zm.well_formed(s), condition(s))
        try:
            answer = budget.check(solver)
        except Undecided as exc:
            out.append(undecided("ends", name, title, expected=PASSED, reason=str(exc),
                                 clauses=clauses, basis="docs/rules.md U10"))
            continue
        if answer != z3.sat:
            out.append(CheckResult("ends", name, title, FAILED, PASSED, clauses,
                                   "Z3 finds no such position", basis="docs/rules.md U10"))
            continue
        sheep, wolves, side = s.value(solver.model())
        z3_says = _z3_end(board, budget, sheep, wolves, side)
        py_says = _python_end(model, rules, board, sheep, wolves, side)
        ok = z3_says == winner == py_says
        out.append(CheckResult("ends", name, title, PASSED if ok else FAILED, PASSED, clauses,
                               f"U10 order gives {winner}; Z3 encoding {z3_says}, Python model "
                               f"{py_says}", _text(board, sheep, wolves, side, rules),
                               time.perf_counter() - t0, basis="docs/rules.md U10"))
    return out


# ---- the gap U7 settles ---------------------------------------------------------------------


def no_end(budget: Budget, rules: Rules, plies: int = 6) -> tuple[list[str], UlvState] | None:
    """Z3 bounded model checking from the 20-sheep start: a line of `plies` steps whose
    last position repeats an earlier one with the same side to move (so, without U7, the
    players can repeat it forever). The moves and the start state, or None."""
    import z3

    from fleece.rules.ulvtafl.game import UlvtaflOptions, initial_state

    board = zm.Board(model_rules(rules))
    start = initial_state(UlvtaflOptions(rules=rules))
    states = [zm.State(board, f"n{k}") for k in range(plies + 1)]
    solver = z3.SolverFor("QF_FD")  # Boolean only: bit-level solving is fastest
    sheep0 = {i for i, name in enumerate(board.names) if start.sheep >> BY_NAME[name] & 1}
    wolves0 = {i for i, name in enumerate(board.names) if start.wolves >> BY_NAME[name] & 1}
    solver.add(states[0].fix(sheep0, wolves0, start.to_move))
    for k in range(plies):  # no end is possible yet: 20 sheep, steps only, paddock open
        solver.add(zm.non_capture_move(states[k], states[k + 1]))
    last = states[-1]
    solver.add(z3.Or([z3.And(last.sheep_to_move == states[j].sheep_to_move,
                             *[last.sheep[i] == states[j].sheep[i] for i in range(len(
                                 board.points))],
                             *[last.wolves[i] == states[j].wolves[i] for i in range(len(
                                 board.points))])
                      for j in range(plies - 1)]))
    if budget.check(solver) != z3.sat:
        return None
    m = solver.model()
    values = [st.value(m) for st in states]
    moves = []
    for (s1, w1, side), (s2, w2, _) in itertools.pairwise(values):
        old, new = (w1, w2) if side == zm.WOLVES else (s1, s2)
        (a,) = old - new
        (b,) = new - old
        moves.append(f"{board.names[a]}-{board.names[b]}")
    return moves, start


def gaps(budget: Budget, rules: Rules) -> list[CheckResult]:
    """U7: without the repetition rule play can go on forever (a Z3 witness, replayed in the
    reference model); with it, the same line ends in a draw. The variant under test gates:
    with `repetition_draw` off the witness is the rules gap ULV-NO-END."""
    from fleece.rules.ulvtafl.game import Rules as R
    from fleece.rules.ulvtafl.notation import parse_move

    t0 = time.perf_counter()
    title = "without U7 a game need not end (a repeating line from the 20-sheep start)"
    try:
        found = no_end(budget, rules)
    except Undecided as exc:
        return [undecided("gaps", "no-end-without-u7", title, expected=PROVED,
                          reason=str(exc), clauses=("U7",), basis="docs/rules.md U7")]
    if found is None:
        return [CheckResult("gaps", "no-end-without-u7", title, REFUTED, PROVED, ("U7",),
                            "Z3 finds no repeating line of 6 plies", basis="docs/rules.md U7: "
                            "positions can repeat")]
    moves, start = found
    loose = UlvState.create(R(rules.orthogonal, rules.wolf_diagonal_captures_only,
                              rules.sheep_orthogonal, repetition_draw=False),
                            start.sheep, start.wolves, start.to_move)
    strict = UlvState.create(R(rules.orthogonal, rules.wolf_diagonal_captures_only,
                               rules.sheep_orthogonal, repetition_draw=True),
                             start.sheep, start.wolves, start.to_move)
    seen = [loose.key]
    for text in moves:
        loose = loose.play(parse_move(text))
        strict = strict.play(parse_move(text)) if not strict.is_terminal() else strict
        seen.append(loose.key)
    repeats = loose.key in seen[:-1] and not loose.is_terminal()
    witness = f"{position_text(start)}: {' '.join(moves)} repeats a position"
    record = "setup=20 no-repetition-draw\n" + "\n".join(moves) + "\n"
    seconds = time.perf_counter() - t0
    settled = CheckResult("gaps", "u7-settles-no-end", "U7 ends the repeating line as a draw",
                          PASSED if strict.result == "draw" else FAILED, PASSED, ("U7",),
                          f"with the repetition rule the line ends: {strict.reason or 'no'}",
                          witness, basis="docs/rules.md U7")
    if not repeats:
        return [CheckResult("gaps", "no-end-without-u7", title, FAILED, PROVED, ("U7",),
                            "the Z3 witness does not repeat in the reference model", witness,
                            seconds, basis="docs/rules.md U7"), settled]
    if rules.repetition_draw:
        info = CheckResult("gaps", "no-end-without-u7", title, PROVED, PROVED, ("U7",),
                           f"the gap {NO_END_GAP}, settled by U7 in this variant (the "
                           "repetition draw is on): information, not a failure", witness,
                           seconds, data={"gap": NO_END_GAP, "record": record},
                           basis="docs/rules.md U7: positions can repeat")
        return [info, settled]
    gap = RulesGap(NO_END_GAP, NO_END, "U7", "without the repetition rule a game need not "
                   "end", witness, variant="no-repetition-draw", record=record,
                   replay="fleece ulvtafl replay FILE")
    return [gap_found("gaps", "no-end", "every game ends (variant under test)", gap,
                      clauses=("U7",), basis="docs/rules.md U7", seconds=seconds)]


# ---- the seed's paddock claim ---------------------------------------------------------------


def paddock_claim(budget: Budget, rules: Rules, model: PythonModel) -> list[CheckResult]:
    """The seed: wolves sitting in the paddock cannot stop the sheep from winning, since U5
    counts wolves as filling it. Z3 proves it of U10's ends; then the Python model must call
    every paddock filling with one or two wolves in it a sheep win."""
    import z3

    board = zm.Board(model_rules(rules))
    t0 = time.perf_counter()
    s = zm.State(board, "c")
    full = z3.And([z3.Or(s.sheep[i], s.wolves[i]) for i in board.paddock])
    some_wolf_in = z3.Or([s.wolves[i] for i in board.paddock])
    claim = z3.Implies(z3.And(zm.well_formed(s), full, some_wolf_in,
                              s.count(s.sheep) >= zm.MIN_SHEEP),
                       zm.outcome(s) == zm.SHEEP_WIN)
    solver = z3.Solver()
    solver.add(z3.Not(claim))
    out = []
    try:
        answer = budget.check(solver)
        out.append(CheckResult("claims", "wolves-in-paddock-z3", "wolves in the paddock "
                               "cannot stop a sheep win (Z3, U5/U10)",
                               PROVED if answer == z3.unsat else REFUTED, PROVED,
                               ("U5", "U10"), "every filled paddock with at least 9 sheep is "
                               "a sheep win, wolves in it or not" if answer == z3.unsat else
                               "counterexample", seconds=time.perf_counter() - t0,
                               basis="seed claim, docs/rules.md U5"))
    except Undecided as exc:
        out.append(undecided("claims", "wolves-in-paddock-z3", "wolves in the paddock cannot "
                             "stop a sheep win", expected=PROVED, reason=str(exc),
                             clauses=("U5",), basis="seed claim, docs/rules.md U5"))
    t0 = time.perf_counter()
    pad = list(board.paddock)
    outside = [i for i in range(len(board.points)) if i not in pad]
    rng = random.Random(5)
    bad = ""
    tried = 0
    for k in (1, 2):
        for ws in itertools.combinations(pad, k):
            sheep = [i for i in pad if i not in ws]
            extra = rng.sample(outside, max(0, zm.MIN_SHEEP - len(sheep)) + rng.randint(0, 3))
            for side in (zm.WOLVES, zm.SHEEP):
                tried += 1
                got = _python_end(model, rules, board, frozenset(sheep + extra),
                                  frozenset(ws), side)
                if got != "sheep" and not bad:
                    bad = _text(board, frozenset(sheep + extra), frozenset(ws), side, rules)
    out.append(CheckResult("claims", "wolves-in-paddock-python", "the Python model calls every "
                           "paddock filled with wolves in it a sheep win",
                           PROVED if not bad else REFUTED, PROVED, ("U5",),
                           f"{tried} fillings with one or two wolves in the paddock",
                           bad, time.perf_counter() - t0, basis="seed claim, docs/rules.md U5"))
    return out


# ---- the Python model against the Z3 encoding ----------------------------------------------------


FIXED = [
    "W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w",
    ".W./.../......./......./SSSSSSS/SSS/SSS w",
    ".../.../S..S.../..S.S../SSWS.SS/.S./... w",
    "WSS/.SS/..SSS../..S.S../......./.../... w",
    ".../.../...W.../...S.../SS...SS/SSS/S.S w",
    ".S./.SS/.S.SSSW/.S..SS./......./.../... s",
    "..W/.../...S.../.S.S.S./SSSSSSS/.S./S.S s",
    ".../..W/.S.S.S./SS.S.SS/.S.S.S./SSS/SSS w",
]


def positions(count: int, seed: int) -> list[tuple[frozenset[str], frozenset[str], int]]:
    """Fixed positions (starts, chains, a trap, sheep with room behind them) and random
    ones with 9-16 sheep and one or two wolves, as point names."""
    from fleece.rules.ulvtafl.geometry import NAMES, names_of
    from fleece.rules.ulvtafl.notation import parse_position

    out = []
    for text in FIXED:
        st = parse_position(text)
        out.append((frozenset(names_of(st.sheep)), frozenset(names_of(st.wolves)),
                    st.to_move))
    rng = random.Random(seed)
    while len(out) < len(FIXED) + count:
        nw = rng.choice([1, 2])
        pts = rng.sample(NAMES, rng.randint(9, 16) + nw)
        out.append((frozenset(pts[nw:]), frozenset(pts[:nw]), rng.choice([0, 1])))
    return out


_ANSWERS: dict[tuple[zm.ModelRules, frozenset[int], frozenset[int], int],
               tuple[set[tuple[tuple[str, ...], bool]], str | None]] = {}


def _z3_answers(board: zm.Board, budget: Budget, sheep: frozenset[int], wolves: frozenset[int],
                side: int) -> tuple[set[tuple[tuple[str, ...], bool]], str | None]:
    """The Z3 encoding's legal moves (by name) and end check of a position, remembered per
    process (they depend on the position and the movement options only)."""
    key = (board.rules, sheep, wolves, side)
    if key not in _ANSWERS:
        moves = {(tuple(board.names[p] for p in path), cap) for path, cap in
                 zm.legal_moves(board, set(sheep), set(wolves), side, budget)}
        _ANSWERS[key] = (moves, _z3_end(board, budget, sheep, wolves, side))
    return _ANSWERS[key]


def crosscheck(budget: Budget, rules: Rules, model: PythonModel, count: int, seed: int,
               progress: Any = None) -> list[CheckResult]:
    """On fixed and random positions: the Python model's legal moves (paths, capture or not)
    and end checks equal the Z3 encoding's (U3, U4, U10)."""
    board = zm.Board(model_rules(rules))
    idx = {n: i for i, n in enumerate(board.names)}
    t0 = time.perf_counter()
    moves_bad = ends_bad = ""
    checked = 0
    for sheep, wolves, side in positions(count, seed):
        s_i = {idx[n] for n in sheep}
        w_i = {idx[n] for n in wolves}
        try:
            z_moves, z_end = _z3_answers(board, budget, frozenset(s_i), frozenset(w_i), side)
        except Undecided as exc:
            return [undecided("crosscheck", "legal-moves", "Python vs Z3 legal moves",
                              expected=PASSED, reason=str(exc), clauses=("U3", "U4", "U10"),
                              basis="docs/rules.md U3/U4/U10")]
        p_moves = model.moves(rules, sheep, wolves, side)
        p_end = model.end(rules, sheep, wolves, side)
        checked += 1
        where = _text(board, frozenset(s_i), frozenset(w_i), side, rules)
        if p_moves != z_moves and not moves_bad:
            extra = sorted(("x" if c else "-").join(p) for p, c in p_moves - z_moves)[:3]
            missing = sorted(("x" if c else "-").join(p) for p, c in z_moves - p_moves)[:3]
            moves_bad = f"{where}: Python only {extra}, Z3 only {missing}"
        if p_end != z_end and not ends_bad:
            ends_bad = f"{where}: Python {p_end}, Z3 {z_end}"
        if progress is not None:
            progress()
    seconds = time.perf_counter() - t0
    return [
        CheckResult("crosscheck", "legal-moves", "Python vs Z3: the same legal moves",
                    PASSED if not moves_bad else FAILED, PASSED, ("U3", "U4", "U6", "U10"),
                    f"{checked} positions", moves_bad, seconds,
                    basis="docs/rules.md U3/U4/U6/U10"),
        CheckResult("crosscheck", "end-checks", "Python vs Z3: the same end checks",
                    PASSED if not ends_bad else FAILED, PASSED, ("U5", "U10"),
                    f"{checked} positions", ends_bad, basis="docs/rules.md U5/U10"),
    ]


def setups(rules: Rules) -> list[CheckResult]:
    """U9: the reference model's setups have the sheep and wolves docs/rules.md gives."""
    from fleece.rules.ulvtafl.game import UlvtaflOptions, initial_state
    from fleece.rules.ulvtafl.geometry import names_of

    expect = {20: (20, {"c7", "e7"}), 13: (13, {"d7"}), 15: (15, {"d7"}), 17: (17, {"d7"})}
    bad = []
    for setup, (n, wolves) in expect.items():
        st = initial_state(UlvtaflOptions(setup=setup, rules=rules))
        sheep = set(names_of(st.sheep))
        ranks = {int(x[1]) for x in sheep}
        if len(sheep) != n or set(names_of(st.wolves)) != wolves or st.to_move != 0 \
                or min(ranks) != 1:
            bad.append(str(setup))
    return [CheckResult("crosscheck", "setups", "setups of U9 (sheep, wolves, wolves first)",
                        PASSED if not bad else FAILED, PASSED, ("U2", "U9"),
                        "13, 15, 17 and 20 sheep", ", ".join(bad),
                        basis="docs/rules.md U2/U9")]
