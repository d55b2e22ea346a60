"""Rule gaps of Mutton: kills whose runners cannot all be placed (M10) and the shotgun stall
(M14 with M17), for the variant under test (these gate: a gap found is a RulesGap that fails
the run unless accepted) and, as information, in a table over other boards.

An occupancy model over the cells of the board (a cell holds a living animal, a corpse, or
nothing) asks Z3 for a Wolf-phase position with a victim next to a living wolf whose living
neighbours outnumber the empty cells away from it (every runner can take any such cell, so
the count decides placeability). The occupied cells never outnumber the animals, which the
`one-per-cell` and `conservation` invariants guarantee. A gap is first sought at round one
(all animals alive, no corpse: reachable by the Farmer's explicit placement) and replayed in
the Python model, so its witness is a game record anyone can replay; only when there is none
at round one is any invariant-respecting position searched (corpses included). The shotgun
stall (every blast unplaceable, so after a Wolf pass the Farmer cannot obey M14) is searched
the same way. Every Z3 query runs under a Budget: an unknown is UNKNOWN, never "no gap".

Gap IDs (stable; the variant is in the report, not in the ID): MUTTON-M10-UNPLACEABLE and
MUTTON-SHOTGUN-STALL (termination's MUTTON-NO-END is in termination.py).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from fleece.rules.mutton.game import GameState
from fleece.rules.mutton.geometry import ROW_LETTERS
from fleece.rules.mutton.options import MuttonOptions
from fleece.verify.budget import Budget, Undecided
from fleece.verify.mutton.encoding import board_cells
from fleece.verify.mutton.ids import M10_GAP, STALL_GAP
from fleece.verify.result import (
    FAILED,
    PROVED,
    REFUTED,
    UNSETTLED,
    CheckResult,
    RulesGap,
    gap_found,
    undecided,
)

Cell = tuple[int, int]

REPLAY = "fleece mutton replay FILE"

# Where the gating checks' expectation comes from (never from their outcome).
VARIANT_BASIS = ("docs/rules.md M10: the rules under test must settle every kill "
                 "(M10 only makes an unplaceable kill unavailable; the published rules say "
                 "nothing)")
STALL_BASIS = ("docs/rules.md M14/M17: after a Wolf pass the Farmer must shoot, so "
               "some blast must always be placeable")
TABLE_BASIS = "every (size, animals) question is settled: a replayed witness or a Z3 proof"
DEFAULT_BASIS = ("docs/rules.md M1/M4 defaults: the published game (size 4, 26 animals) must "
                 "settle every kill: the default game passes with no --accept")


def cell_name(cell: Cell) -> str:
    """pbmserv name of a (row, diagonal) cell (M2)."""
    return f"{ROW_LETTERS[cell[0]]}{cell[1]}"


def neighbours(size: int) -> dict[Cell, list[Cell]]:
    """Adjacency of a size-n board from M3."""
    cells = set(board_cells(size))
    out: dict[Cell, list[Cell]] = {}
    for r, d in cells:
        around = [(r, d - 1), (r, d + 1), (r - 1, d - 1), (r - 1, d), (r + 1, d), (r + 1, d + 1)]
        out[(r, d)] = [c for c in around if c in cells]
    return out


@dataclass(frozen=True)
class GapPosition:
    """A concrete gap position: living animals' cells, corpses, wolves, the victim (for M10)
    and the counts, and whether it is a round-one position (replayable from a placement)."""

    size: int
    animals: tuple[Cell, ...]
    corpses: tuple[Cell, ...]
    wolves: tuple[int, ...]
    victim: int
    runners: int
    free: int
    round_one: bool = True

    def text(self) -> str:
        """pbmserv-style description: animals by letter and cell, wolves, victim."""
        animals = " ".join(f"{chr(65 + i)}={cell_name(c)}" for i, c in enumerate(self.animals))
        corpses = " corpses=" + ",".join(cell_name(c) for c in self.corpses) \
            if self.corpses else ""
        wolves = "".join(chr(65 + w) for w in self.wolves)
        return (f"{animals}{corpses} wolves={wolves}: killing {chr(65 + self.victim)} makes "
                f"{self.runners} animals run with only {self.free} free cells")

    def placement(self) -> str:
        """The cells in animal order, as a pbmserv placement move (M28)."""
        return ",".join(cell_name(c) for c in self.animals)


def find_gap(size: int, animals: int, wolves: int, remove: bool, *, round_one: bool,
             shotgun_stall: bool = False, budget: Budget | None = None) -> GapPosition | None:
    """A position with an unplaceable kill (or, with `shotgun_stall`, one where every blast
    is unplaceable), or None when Z3 proves there is none; Undecided when Z3 cannot tell."""
    import z3

    budget = budget or Budget()
    nb = neighbours(size)
    cells = sorted(nb)
    # 0/1 integers keep every constraint linear, so the LP relaxation settles the counting
    living = {c: z3.Int(f"live_{c}") for c in cells}
    corpse = {c: z3.Int(f"corpse_{c}") for c in cells}
    wolf = {c: z3.Int(f"wolf_{c}") for c in cells}
    s = z3.Solver()
    for c in cells:
        s.add(living[c] >= 0, corpse[c] >= 0, wolf[c] >= 0, wolf[c] <= living[c],
              living[c] + corpse[c] <= 1)
        if remove or round_one:
            s.add(corpse[c] == 0)
    n_live = z3.Sum([living[c] for c in cells])
    n_corpse = z3.Sum([corpse[c] for c in cells])
    n_wolf = z3.Sum([wolf[c] for c in cells])
    s.add(n_live + n_corpse <= animals, n_wolf >= 1, n_wolf <= wolves)
    if round_one:
        s.add(n_live == animals, n_wolf == wolves)

    def unplaceable(v: Cell) -> z3.BoolRef:
        closed = {v, *nb[v]}
        runners = z3.Sum([living[c] for c in nb[v]])
        outside = [c for c in cells if c not in closed]
        free = len(outside) - z3.Sum([living[c] + corpse[c] for c in outside])
        return runners > free

    victim_cell: Cell | None = None
    if not shotgun_stall:
        # In this occupancy model a victim matters only through its number of neighbours
        # (the cells away from it are interchangeable), so one victim cell per degree suffices.
        reps: dict[int, Cell] = {}
        for c in cells:
            reps.setdefault(len(nb[c]), c)
        for v in sorted(reps.values(), key=lambda c: -len(nb[c])):
            s.push()
            s.add(living[v] == 1, z3.Sum([wolf[x] for x in nb[v]]) >= 1, unplaceable(v))
            if budget.check(s) == z3.sat:
                victim_cell = v
                break
            s.pop()
        if victim_cell is None:
            return None
    else:  # every living animal's blast is unplaceable, and a wolf remains
        for c in cells:
            s.add(z3.Implies(living[c] == 1, unplaceable(c)))
        if budget.check(s) != z3.sat:
            return None
    m = s.model()
    live_cells = tuple(c for c in cells if m.eval(living[c], model_completion=True).as_long() == 1)
    dead_cells = tuple(c for c in cells if m.eval(corpse[c], model_completion=True).as_long() == 1)
    wolf_idx = tuple(i for i, c in enumerate(live_cells)
                     if m.eval(wolf[c], model_completion=True).as_long() == 1)
    vi = 0 if victim_cell is None else live_cells.index(victim_cell)
    v = live_cells[vi]
    closed = {v, *nb[v]}
    runners = sum(1 for c in nb[v] if c in live_cells)
    occupied = set(live_cells) | set(dead_cells)
    free = sum(1 for c in cells if c not in closed and c not in occupied)
    return GapPosition(size, live_cells, dead_cells, wolf_idx, vi, runners, free, round_one)


def _wolf_letters(gap: GapPosition, rules: MuttonOptions) -> str:
    """The gap's wolves padded to the rule set's count with animals that do not change the
    verdict (only at least one wolf next to the victim matters)."""
    letters = "".join(chr(65 + w) for w in gap.wolves)
    extra = [a for a in rules.letters if a not in letters]
    return "".join(sorted(letters + "".join(extra[: rules.num_wolves - len(letters)])))


def _start(gap: GapPosition, rules: MuttonOptions, model: type[GameState]) -> GameState:
    """The round-one position of a gap in the Python model (placement, then the wolves)."""
    from fleece.rules.mutton.geometry import Cell as PyCell
    from fleece.rules.mutton.moves import ChooseWolves, PlaceCells

    cells = tuple(PyCell(r, d) for r, d in gap.animals)
    return model.new(rules).play(PlaceCells(cells)).play(ChooseWolves(_wolf_letters(gap, rules)))


def record_of(state: GameState) -> str:
    """The game record of a Python position (replays with `fleece mutton replay FILE`)."""
    from fleece.rules.mutton.record import format_record

    return format_record(state.rules, [list(state.history)])


def replay_in_python(gap: GapPosition, animals: int, wolves: int, remove: bool,
                     rules: MuttonOptions | None = None, model: type[GameState] = GameState) -> str:
    """Place the round-one gap position in the Python model and confirm that it lists the kill
    as a candidate with too few free cells and not as a legal kill; '' when it agrees."""
    from fleece.rules.errors import IllegalMoveError

    rules = rules or MuttonOptions(size=gap.size, num_sheep=animals, num_wolves=wolves,
                                   remove=remove)
    try:
        state = _start(gap, rules, model)
    except IllegalMoveError as exc:
        return f"the Python model refuses the witness placement: {exc}"
    victim = chr(65 + gap.victim)
    cands = {k.victim: k for k in state.kill_candidates()}
    if victim not in cands:
        return f"the Python model does not list {victim} as a kill candidate"
    k = cands[victim]
    if len(k.runners) != gap.runners or len(k.free_cells) != gap.free:
        return (f"the Python model counts {len(k.runners)} runners and {len(k.free_cells)} "
                f"free cells, the Z3 encoding {gap.runners} and {gap.free}")
    if any(x.victim == victim for x in state.legal_kills()):
        return f"the Python model allows the unplaceable kill of {victim}"
    return ""


def replay_stall(gap: GapPosition, rules: MuttonOptions, model: type[GameState] = GameState
                 ) -> tuple[str, GameState | None]:
    """Play a round-one stall in the Python model: no legal kill, the Wolf passes, and the
    game stops as stalled (the Farmer has no legal shot). ('' or why not, the final state)."""
    from fleece.rules.errors import IllegalMoveError
    from fleece.rules.mutton.moves import WolfPass

    try:
        state = _start(gap, rules, model)
        if state.legal_kills():
            return "the Python model has a legal kill in the stall position", None
        end = state.play(WolfPass())
    except IllegalMoveError as exc:
        return f"the Python model refuses the stall play: {exc}", None
    if not (end.over and end.stalled):
        return "after the Wolf's pass the Python model does not stop as stalled", None
    return "", end


def _m10_title(rules: MuttonOptions) -> str:
    return (f"M10: size {rules.size} with {rules.num_sheep} animals"
            f"{', corpses removed' if rules.corpses_removed else ''}: every kill's runners "
            "can be placed")


def variant_m10(rules: MuttonOptions, budget: Budget | None = None,
                model: type[GameState] = GameState) -> CheckResult:
    """The gating M10 check of the variant under test: PROVED (no kill with unplaceable
    runners in any position respecting the invariants), GAP with a replayable witness,
    UNKNOWN, or FAILED when the Python model disagrees with the witness."""
    t0 = time.perf_counter()
    name = f"M10/size{rules.size}-sheep{rules.num_sheep}" + \
        ("-removed" if rules.corpses_removed else "")
    title = _m10_title(rules)
    clauses = ("M9", "M10", "M16")
    try:
        gap = find_gap(rules.size, rules.num_sheep, rules.num_wolves, rules.corpses_removed,
                       round_one=True, budget=budget)
        if gap is None:
            gap = find_gap(rules.size, rules.num_sheep, rules.num_wolves,
                           rules.corpses_removed, round_one=False, budget=budget)
    except Undecided as exc:
        return undecided("gaps", name, title, expected=PROVED, reason=str(exc),
                         clauses=clauses, basis=VARIANT_BASIS,
                         seconds=time.perf_counter() - t0)
    if gap is None:
        return CheckResult(
            "gaps", name, title, PROVED, PROVED, clauses,
            "Z3: unsat over every position respecting the invariants (corpses included)",
            seconds=time.perf_counter() - t0, basis=VARIANT_BASIS)
    victim = chr(65 + gap.victim)
    record = ""
    if gap.round_one:
        why = replay_in_python(gap, rules.num_sheep, rules.num_wolves, rules.remove, rules,
                               model)
        if why:
            return CheckResult("gaps", name, title, FAILED, PROVED, clauses,
                               f"the Z3 gap does not replay in the Python model: {why}",
                               gap.text(), time.perf_counter() - t0, basis=VARIANT_BASIS)
        record = record_of(_start(gap, rules, model))
        witness = (f"eating {victim} makes {gap.runners} animals run with only {gap.free} free "
                   f"cells away from it; Wolf to move after placement {gap.placement()} and "
                   f"wolves={_wolf_letters(gap, rules)}")
    else:
        witness = gap.text() + " (a position respecting the invariants; reaching it is not shown)"
    found = RulesGap(
        M10_GAP, UNSETTLED, "M10",
        f"a kill whose {gap.runners} runners cannot all be placed ({gap.free} free cells)",
        witness, rules.to_options(), record, REPLAY if record else "")
    return gap_found("gaps", name, title, found, clauses=clauses, basis=VARIANT_BASIS,
                     detail=f"{found.summary}: M10's reading makes such a kill unavailable; "
                            "the published rules do not say what happens",
                     seconds=time.perf_counter() - t0,
                     data={"runners": gap.runners, "free": gap.free,
                           "round_one": gap.round_one})


def variant_stall(rules: MuttonOptions, budget: Budget | None = None,
                  model: type[GameState] = GameState) -> CheckResult:
    """The gating shotgun-stall check of a shotgun variant under test: PROVED (some blast is
    always placeable), GAP with a replayed stall, UNKNOWN, or FAILED."""
    t0 = time.perf_counter()
    name = f"shotgun-stall/size{rules.size}-sheep{rules.num_sheep}"
    title = (f"M14/M17: size {rules.size} with {rules.num_sheep} animals and the shotgun: "
             "after a Wolf pass some blast can be placed")
    clauses = ("M14", "M17")
    try:
        gap = find_gap(rules.size, rules.num_sheep, rules.num_wolves, True, round_one=True,
                       shotgun_stall=True, budget=budget)
        if gap is None:
            gap = find_gap(rules.size, rules.num_sheep, rules.num_wolves, True,
                           round_one=False, shotgun_stall=True, budget=budget)
    except Undecided as exc:
        return undecided("gaps", name, title, expected=PROVED, reason=str(exc),
                         clauses=clauses, basis=STALL_BASIS, seconds=time.perf_counter() - t0)
    if gap is None:
        return CheckResult("gaps", name, title, PROVED, PROVED, clauses,
                           "Z3: every position respecting the invariants has a placeable "
                           "blast", seconds=time.perf_counter() - t0, basis=STALL_BASIS)
    position = gap.text().split(":")[0]
    record = ""
    if gap.round_one:
        why, end = replay_stall(gap, rules, model)
        if why or end is None:
            return CheckResult("gaps", name, title, FAILED, PROVED, clauses,
                               f"the Z3 stall does not replay in the Python model: {why}",
                               position, time.perf_counter() - t0, basis=STALL_BASIS)
        record = record_of(end)
        witness = (f"no kill and no blast can be placed: the Wolf passes and the Farmer "
                   f"cannot shoot; placement {gap.placement()}, "
                   f"wolves={_wolf_letters(gap, rules)}, pass")
    else:
        witness = position + " (a position respecting the invariants; reaching it is not shown)"
    found = RulesGap(
        STALL_GAP, UNSETTLED, "M14",
        "after a Wolf pass the Farmer must shoot (M14) but no shotgun blast can be placed",
        witness, rules.to_options(), record, REPLAY if record else "")
    return gap_found("gaps", name, title, found, clauses=clauses, basis=STALL_BASIS,
                     detail=f"{found.summary}; the Python model ends such a game as "
                            "'stalled', the rules do not say",
                     seconds=time.perf_counter() - t0)


def gap_table(sizes: list[int], max_animals: int, wolves: int, *, quick: bool,
              budget: Budget | None = None) -> list[CheckResult]:
    """Information about other boards: M10 per (size, animals, remove), each count settled
    (a gap with a witness replayed in Python, or none proved). These checks never gate on a
    gap; they fail on UNKNOWN or on a witness the Python model does not reproduce."""
    out = []
    for size in sizes:
        cells = 3 * size * (size - 1) + 1
        top = min(max_animals, cells)
        counts = range(2, top + 1)
        if quick:  # the smallest gap count and its neighbours, plus the largest count
            counts = range(max(2, cells - 7), top + 1) if top >= cells - 7 else range(top, top + 1)
        for remove in (False, True):
            t0 = time.perf_counter()
            flag = "remove" if remove else "no_remove"
            name = f"M10/size{size}/{flag}"
            title = f"M10 gap table, size {size} ({cells} cells), {flag}: every count settled"
            rows: list[str] = []
            first: GapPosition | None = None
            first_n = None
            problems = []
            try:
                for n in counts:
                    w = max(1, min(wolves, n // 2))
                    gap = find_gap(size, n, w, remove, round_one=True, budget=budget)
                    if gap is None:
                        # none at round one; look in any invariant-respecting position too
                        gap = find_gap(size, n, w, remove, round_one=False, budget=budget)
                        if gap is not None:
                            problems.append(f"{n} animals: a gap needs corpses ({gap.text()})")
                        rows.append(f"{n}: none")
                        continue
                    rows.append(f"{n}: gap")
                    why = replay_in_python(gap, n, w, remove)
                    if why:
                        problems.append(f"{n} animals: {why}")
                    if first is None:
                        first, first_n = gap, n
            except Undecided as exc:
                out.append(undecided("gap-table", name, title, expected=PROVED,
                                     reason=str(exc), clauses=("M9", "M10", "M16"),
                                     basis=TABLE_BASIS, seconds=time.perf_counter() - t0))
                continue
            gap_counts = [r.split(":")[0] for r in rows if r.endswith("gap")]
            summary = (f"gaps for {', '.join(gap_counts)} animals" if gap_counts
                       else f"no gap for {counts.start}..{counts.stop - 1} animals")
            out.append(CheckResult(
                section="gap-table", name=name, title=title,
                outcome=PROVED if not problems else FAILED, expected=PROVED,
                clauses=("M9", "M10", "M16"),
                detail=summary + ("; " + "; ".join(problems) if problems else ""),
                witness=f"{first_n} animals: {first.text()}" if first else "",
                seconds=time.perf_counter() - t0, basis=TABLE_BASIS,
                data={"size": size, "remove": remove, "counts": rows,
                      "gap_counts": [int(x) for x in gap_counts]}))
    return out


def stall_table(size: int, animals: int, wolves: int, budget: Budget | None = None
                ) -> CheckResult:
    """Information: is there a shotgun stall on this board with this many animals? Settled
    (PROVED) either way, with the stall position as the witness when there is one."""
    t0 = time.perf_counter()
    name = f"shotgun-stall/size{size}-sheep{animals}"
    title = f"shotgun stall table, size {size} with {animals} animals: settled"
    try:
        gap = find_gap(size, animals, wolves, True, round_one=False, shotgun_stall=True,
                       budget=budget)
    except Undecided as exc:
        return undecided("gap-table", name, title, expected=PROVED, reason=str(exc),
                         clauses=("M14", "M17"), basis=TABLE_BASIS,
                         seconds=time.perf_counter() - t0)
    return CheckResult(
        "gap-table", name, title, PROVED, PROVED, ("M14", "M17"),
        "a stall exists: every blast is unplaceable in the witness position" if gap else
        "no stall: every position respecting the invariants has a placeable blast",
        gap.text().split(":")[0] if gap else "", time.perf_counter() - t0,
        {"stall": gap is not None}, TABLE_BASIS)


def default_free(size: int = 4, animals: int = 26, wolves: int = 4,
                 budget: Budget | None = None) -> CheckResult:
    """Information when another variant is under test: the default game (or the board
    given) has no M10 gap in any reachable position, with or without corpses removed.
    Expected PROVED whatever happens (DEFAULT_BASIS); a gap is REFUTED, a failure."""
    t0 = time.perf_counter()
    name = f"M10/default-size{size}-sheep{animals}"
    title = f"size {size} with {animals} animals has no kill with unplaceable runners"
    try:
        found = [g for rem in (False, True)
                 if (g := find_gap(size, animals, wolves, rem, round_one=False,
                                   budget=budget)) is not None]
    except Undecided as exc:
        return undecided("gap-table", name, title, expected=PROVED, reason=str(exc),
                         clauses=("M10",), basis=DEFAULT_BASIS,
                         seconds=time.perf_counter() - t0)
    return CheckResult(
        section="gap-table", name=name, title=title,
        outcome=PROVED if not found else REFUTED, expected=PROVED, clauses=("M10",),
        detail="Z3: unsat with and without remove, over every position respecting the "
               "invariants (corpses included)" if not found else
               "this board has M10 gaps",
        witness=found[0].text() if found else "", seconds=time.perf_counter() - t0,
        basis=DEFAULT_BASIS)
