"""Rule gaps of M10: kills whose runners cannot all be placed, per (size, animals, remove).

An occupancy model over the cells of the board (a cell holds a living animal, a corpse, or
nothing) asks Z3 for a Wolf-phase position with a victim next to a living wolf whose living
neighbours outnumber the empty cells away from it (every runner can take any such cell, so
the count decides placeability). The occupied cells never outnumber the animals, which the
`one-per-cell` and `conservation` invariants guarantee. A gap is first sought at round one
(all animals alive, no corpse: reachable by the Farmer's explicit placement) and then replayed
in the Python model; the shotgun's M14 stall (the Farmer must shoot but no blast is
placeable) is searched the same way.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from fleece.rules.mutton.geometry import ROW_LETTERS
from fleece.verify.mutton.z3model import board_cells
from fleece.verify.result import PROVED, REFUTED, CheckResult

Cell = tuple[int, int]


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
class Gap:
    """A concrete gap: living animals' cells, corpses, wolves, the victim and the counts."""

    size: int
    animals: tuple[Cell, ...]
    corpses: tuple[Cell, ...]
    wolves: tuple[int, ...]
    victim: int
    runners: int
    free: int

    def text(self) -> str:
        """pbmserv-style description: animals by letter and cell, wolves, victim."""
        animals = " ".join(f"{chr(65 + i)}={cell_name(c)}" for i, c in enumerate(self.animals))
        corpses = " corpses=" + ",".join(cell_name(c) for c in self.corpses) \
            if self.corpses else ""
        wolves = "".join(chr(65 + w) for w in self.wolves)
        return (f"{animals}{corpses} wolves={wolves}: killing {chr(65 + self.victim)} makes "
                f"{self.runners} animals run with only {self.free} free cells")


def find_gap(size: int, animals: int, wolves: int, remove: bool, *, round_one: bool,
             shotgun_stall: bool = False) -> Gap | None:
    """A position with an unplaceable kill (or, with `shotgun_stall`, a Farmer who must shoot
    while every blast is unplaceable), or None when Z3 proves there is none."""
    import z3

    nb = neighbours(size)
    cells = sorted(nb)
    # 0/1 integers keep every constraint linear, so the LP relaxation settles the counting
    living = {c: z3.Int(f"live_{c}") for c in cells}
    corpse = {c: z3.Int(f"corpse_{c}") for c in cells}
    wolf = {c: z3.Int(f"wolf_{c}") for c in cells}
    s = z3.Solver()
    s.set("timeout", 60_000)
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
            if s.check() == z3.sat:
                victim_cell = v
                break
            s.pop()
        if victim_cell is None:
            return None
    else:  # every living animal's blast is unplaceable, and a wolf remains
        for c in cells:
            s.add(z3.Implies(living[c] == 1, unplaceable(c)))
        if s.check() != z3.sat:
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
    return Gap(size, live_cells, dead_cells, wolf_idx, vi, runners, free)


def replay_in_python(gap: Gap, animals: int, wolves: int, remove: bool) -> str:
    """Place the round-one gap position in the Python model and confirm that it lists the kill
    as a candidate with too few free cells and not as a legal kill; '' when it agrees."""
    from fleece.rules.mutton.game import GameState
    from fleece.rules.mutton.geometry import Cell as PyCell
    from fleece.rules.mutton.moves import ChooseWolves, PlaceCells
    from fleece.rules.mutton.options import RuleSet

    rules = RuleSet(size=gap.size, num_sheep=animals, num_wolves=wolves, remove=remove)
    cells = tuple(PyCell(r, d) for r, d in gap.animals)
    letters = "".join(chr(65 + w) for w in gap.wolves)
    # pad the wolf set to the rule set's count with animals that do not change the verdict
    extra = [chr(65 + i) for i in range(animals) if chr(65 + i) not in letters]
    letters = "".join(sorted(letters + "".join(extra[: wolves - len(letters)])))
    state = GameState.new(rules).play(PlaceCells(cells)).play(ChooseWolves(letters))
    victim = chr(65 + gap.victim)
    cands = {k.victim: k for k in state.kill_candidates()}
    if victim not in cands:
        return f"the Python model does not list {victim} as a kill candidate"
    k = cands[victim]
    if len(k.runners) != gap.runners or len(k.free_cells) != gap.free:
        return (f"the Python model counts {len(k.runners)} runners and {len(k.free_cells)} "
                f"free cells, the Z3 model {gap.runners} and {gap.free}")
    if any(x.victim == victim for x in state.legal_kills()):
        return f"the Python model allows the unplaceable kill of {victim}"
    return ""


def gap_table(sizes: list[int], max_animals: int, wolves: int, *, quick: bool
              ) -> list[CheckResult]:
    """Checks of M10 per (size, animals, remove): every count is settled (gap with witness, or
    none proved); the default game must be gap-free."""
    out = []
    for size in sizes:
        cells = 3 * size * (size - 1) + 1
        top = min(max_animals, cells)
        counts = range(2, top + 1)
        if quick:  # the smallest gap count and its neighbours, plus the largest count
            counts = range(max(2, cells - 7), top + 1) if top >= cells - 7 else range(top, top + 1)
        for remove in (False, True):
            t0 = time.perf_counter()
            rows: list[str] = []
            first: Gap | None = None
            first_n = None
            problems = []
            for n in counts:
                w = max(1, min(wolves, n // 2))
                gap = find_gap(size, n, w, remove, round_one=True)
                if gap is None:
                    # none at round one; look in any invariant-respecting position too
                    gap = find_gap(size, n, w, remove, round_one=False)
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
            flag = "remove" if remove else "no_remove"
            gap_counts = [r.split(":")[0] for r in rows if r.endswith("gap")]
            summary = (f"gaps for {', '.join(gap_counts)} animals" if gap_counts
                       else f"no gap for {counts.start}..{counts.stop - 1} animals")
            out.append(CheckResult(
                section="gaps", name=f"size{size}/{flag}",
                title=f"M10 gaps on size {size} ({cells} cells), {flag}",
                outcome=PROVED if not problems else REFUTED, expected=PROVED,
                clauses=("M9", "M10", "M16"),
                detail=summary + ("; " + "; ".join(problems) if problems else ""),
                witness=f"{first_n} animals: {first.text()}" if first else "",
                seconds=time.perf_counter() - t0,
                data={"size": size, "remove": remove, "counts": rows,
                      "gap_counts": [int(x) for x in gap_counts]}))
    return out


def default_free(size: int = 4, animals: int = 26, wolves: int = 4) -> CheckResult:
    """The default game (and any variant given) has no M10 gap in any reachable position."""
    t0 = time.perf_counter()
    found = [g for rem in (False, True)
             if (g := find_gap(size, animals, wolves, rem, round_one=False)) is not None]
    return CheckResult(
        section="gaps", name=f"free/size{size}-sheep{animals}",
        title=f"size {size} with {animals} animals has no kill with unplaceable runners",
        outcome=PROVED if not found else REFUTED, expected=PROVED if not found else REFUTED,
        clauses=("M10",),
        detail="Z3: unsat with and without remove, over every position respecting the "
               "invariants (corpses included)" if not found else
               "this variant has M10 gaps (recorded; see the gap table)",
        witness=found[0].text() if found else "", seconds=time.perf_counter() - t0)


def shotgun_stall(size: int, animals: int, wolves: int) -> CheckResult:
    """With the shotgun, can the Farmer be obliged to shoot (M14) with no placeable blast?"""
    t0 = time.perf_counter()
    gap = find_gap(size, animals, wolves, True, round_one=False, shotgun_stall=True)
    return CheckResult(
        section="gaps", name=f"shotgun-stall/size{size}-sheep{animals}",
        title=f"shotgun on size {size} with {animals} animals: M14 can be unsatisfiable",
        outcome=REFUTED if gap else PROVED, expected=REFUTED if gap else PROVED,
        clauses=("M14", "M17"),
        detail=("a position where every shotgun blast is unplaceable (the Python model "
                "ends such a game as 'stalled')" if gap else
                "every position has a placeable blast"),
        witness=gap.text().split(":")[0] if gap else "", seconds=time.perf_counter() - t0)
