"""Cross-check of the Python reference model against the Z3 encoding on reachable positions.

Random games are played with the Python model (`rules.mutton.simulate.random_move`) starting
from `model.new(rules)`, so any GameState subclass can be put under test. At sampled
positions the Z3 encoding, evaluated on the same position, must agree on: the kill candidates,
each one's runners and free cells, which kills are legal (M10), that a Z3 placement is
accepted by `play()` with the same successor, that illegal kills are refused, Wolf passes
and escapes, and the Farmer's pass, shots and berserk.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from fleece.rules.errors import IllegalMoveError
from fleece.rules.mutton.game import Fate, GameState, Phase
from fleece.rules.mutton.geometry import Cell
from fleece.rules.mutton.moves import Berserk, FarmerPass, Kill, Move, Run, Shoot, WolfPass
from fleece.rules.mutton.options import MuttonOptions, Weapon
from fleece.rules.mutton.simulate import random_move
from fleece.verify.budget import Budget, Undecided
from fleece.verify.mutton.encoding import (
    ALIVE,
    DEVOURED,
    EATEN,
    ESCAPED,
    FARMER,
    OVER,
    SHOT,
    WOLF,
    Concrete,
    Variant,
    ZState,
)
from fleece.verify.result import FAILED, PASSED, UNKNOWN, CheckResult

# The expectation of every cross-check (never its outcome): both models are written from
# docs/rules.md section 1 alone, and the Python model must implement that reading exactly
# (conventions).
BASIS = ("docs/rules.md section 1: the Python model implements exactly the reading the Z3 encoding "
         "encodes")

_FATE = {Fate.ALIVE: ALIVE, Fate.EATEN: EATEN, Fate.SHOT: SHOT, Fate.DEVOURED: DEVOURED,
         Fate.ESCAPED: ESCAPED}
_PHASE = {Phase.WOLF: WOLF, Phase.FARMER: FARMER, Phase.OVER: OVER}


def variant_of(rules: MuttonOptions) -> Variant:
    """The Z3 encoding's variant for a Python rule set."""
    return Variant(rules.size, rules.num_sheep, rules.num_wolves, rules.remove,
                   rules.weapon is Weapon.SHOTGUN, rules.escape, rules.berserk, rules.reveal)


def to_concrete(state: GameState) -> Concrete:
    """The Python position as a Z3-model position; corpse cells are given to dead animals in
    letter order (which body lies where does not matter to the rules). ValueError when the
    Python position cannot be one of the Z3 encoding's (more corpses than dead animals)."""
    cells: list[tuple[int, int] | None] = []
    corpses = sorted(state.corpses)
    for pos, fate in zip(state.positions, state.fates, strict=True):
        if fate is Fate.ALIVE:
            if pos is None:
                raise ValueError("a living animal has no cell")
            cells.append((pos.row, pos.diag))
        elif fate in (Fate.EATEN, Fate.SHOT) and corpses:
            c = corpses.pop(0)
            cells.append((c.row, c.diag))
        else:
            cells.append(None)
    if corpses:
        raise ValueError(f"{len(state.corpses)} corpses but fewer dead animals")
    return Concrete(tuple(cells), tuple(_FATE[f] for f in state.fates),
                    tuple(a in state.wolves for a in state.letters),
                    _PHASE[state.phase], state.wolf_passed, state.berserk_used)


def _true(e: object) -> bool:
    import z3

    return bool(z3.is_true(z3.simplify(e)))


class PositionChecker:
    """Compares both models at one Python position."""

    def __init__(self, state: GameState, budget: Budget | None = None) -> None:
        import z3

        self.z3 = z3
        self.budget = budget or Budget()
        self.state = state
        self.v = variant_of(state.rules)
        self.conc = to_concrete(state)
        self.zs: ZState = self.conc.to_z3()
        self.cells = [(c.row, c.diag) for c in state.board.cells]
        self.findings: list[str] = []

    def fail(self, what: str) -> None:
        """Record a disagreement."""
        self.findings.append(what)

    # ---- Z3 side ---------------------------------------------------------------------------

    def z_runners(self, p: int) -> set[int]:
        """Animals that run when `p` dies, per the Z3 encoding."""
        from fleece.verify.mutton.encoding import runner

        return {a for a in range(self.conc.n) if _true(runner(self.zs, p, a))}

    def z_free(self, p: int) -> set[tuple[int, int]]:
        """Cells a runner from `p` may take, per the Z3 encoding."""
        from fleece.verify.mutton.encoding import destination_ok

        z3 = self.z3
        x, y = z3.Int("probe_r"), z3.Int("probe_d")
        ok = z3.simplify(destination_ok(self.v, self.zs, p, p, x, y))
        return {c for c in self.cells
                if _true(z3.substitute(ok, (x, z3.IntVal(c[0])), (y, z3.IntVal(c[1]))))}

    def z_placement(self, p: int) -> dict[int, tuple[int, int]] | None:
        """A placement of all runners by the Z3 solver, or None when there is none (M10);
        Undecided when Z3 cannot tell within the budget."""
        from fleece.verify.mutton.encoding import dest_vars, placement

        z3 = self.z3
        dest = dest_vars(self.conc.n, "x")
        s = z3.Solver()
        s.add(placement(self.v, self.zs, p, dest))
        if self.budget.check(s) != z3.sat:
            return None
        m = s.model()
        return {a: (m.eval(dest[a][0], model_completion=True).as_long(),
                    m.eval(dest[a][1], model_completion=True).as_long())
                for a in self.z_runners(p)}

    # ---- comparisons -----------------------------------------------------------------------

    def letter(self, a: int) -> str:
        """Animal letter."""
        return chr(65 + a)

    def cell(self, c: tuple[int, int]) -> Cell:
        """Python cell of a (row, diagonal) pair."""
        return Cell(c[0], c[1])

    def try_play(self, move: Move) -> GameState | None:
        """The Python successor, or None when the Python model refuses the move."""
        try:
            return self.state.play(move)
        except IllegalMoveError:
            return None

    def check_wolf(self) -> None:
        """Kills, runners, free cells, legality, play() and passes in a Wolf phase."""
        from fleece.verify.mutton.encoding import kill_target, lonely_wolf

        st = self.state
        n = self.conc.n
        py_cands = {k.victim: k for k in st.kill_candidates()}
        py_legal = {k.victim for k in st.legal_kills()}
        z_cands = [p for p in range(n) if _true(kill_target(self.zs, p))]
        if {self.letter(p) for p in z_cands} != set(py_cands):
            self.fail(f"kill candidates: Python {sorted(py_cands)}, "
                      f"Z3 {sorted(self.letter(p) for p in z_cands)}")
        any_legal = False
        for p in z_cands:
            lp = self.letter(p)
            runners = self.z_runners(p)
            free = self.z_free(p)
            placed = self.z_placement(p)
            any_legal |= placed is not None
            if lp in py_cands:
                k = py_cands[lp]
                if set(k.runners) != {self.letter(a) for a in runners}:
                    self.fail(f"runners of {lp}: Python {sorted(k.runners)}, Z3 "
                              f"{sorted(self.letter(a) for a in runners)}")
                if {(c.row, c.diag) for c in k.free_cells} != free:
                    self.fail(f"free cells of {lp}: Python {len(k.free_cells)}, Z3 {len(free)}")
            if (lp in py_legal) != (placed is not None):
                self.fail(f"legality of killing {lp}: Python {lp in py_legal}, Z3 "
                          f"{placed is not None}")
            if placed is None:
                continue
            move = Kill(lp, tuple(Run(self.letter(a), self.cell(c))
                                  for a, c in sorted(placed.items())))
            nxt = self.try_play(move)
            if nxt is None:
                self.fail(f"play() refuses the Z3-legal kill {move}")
            else:
                self.compare_successor(nxt, p, placed)
            self.check_refusals(p, runners, free)
        # a kill of a living animal next to no wolf must be refused
        for p in range(n):
            if self.conc.status[p] == ALIVE and p not in z_cands:
                runs = tuple(Run(self.letter(a), self.cell(c)) for a, c in
                             zip(sorted(self.z_runners(p)), sorted(self.z_free(p)), strict=False))
                if self.try_play(Kill(self.letter(p), runs)) is not None:
                    self.fail(f"play() accepts a kill of {self.letter(p)}, next to no wolf")
                break
        passed = self.try_play(WolfPass()) is not None
        if passed == any_legal:
            self.fail(f"Wolf pass: Python {'allows' if passed else 'refuses'} it, Z3 "
                      f"{'finds' if any_legal else 'finds no'} legal kill")
        if self.v.escape:
            z_esc = {self.letter(p) for p in range(n) if _true(lonely_wolf(self.zs, p))}
            if set(st.escapes()) != z_esc:
                self.fail(f"escapes: Python {st.escapes()}, Z3 {sorted(z_esc)}")

    def check_refusals(self, p: int, runners: set[int], free: set[tuple[int, int]]) -> None:
        """Kills the Z3 encoding forbids must be refused: a runner left out, a runner sent next
        to the victim or onto a corpse."""
        lp = self.letter(p)
        order = sorted(runners)
        targets = sorted(free)
        if not order or len(targets) < len(order):
            return
        base = dict(zip(order, targets, strict=False))
        # leave one runner behind (first a wolf, the killer, when there is one)
        skip = next((a for a in order if self.conc.wolves[a]), order[0])
        runs = tuple(Run(self.letter(a), self.cell(c)) for a, c in base.items() if a != skip)
        if self.try_play(Kill(lp, runs)) is not None:
            self.fail(f"play() accepts killing {lp} with {self.letter(skip)} not running")
        vr, vd = self.conc.cells[p] or (0, 0)
        near = [c for c in self.cells if c != (vr, vd) and abs(c[0] - vr) <= 1
                and c not in free and Cell(*c) in self.state.board.neighbours(Cell(vr, vd))]
        corpse_cells = [c for a, c in enumerate(self.conc.cells)
                        if c is not None and self.conc.status[a] != ALIVE]
        for bad in (near[:1] + corpse_cells[:1]):
            moved = dict(base)
            moved[order[0]] = bad
            if len(set(moved.values())) < len(moved):
                continue
            runs = tuple(Run(self.letter(a), self.cell(c)) for a, c in moved.items())
            if self.try_play(Kill(lp, runs)) is not None:
                self.fail(f"play() accepts killing {lp} with {self.letter(order[0])} sent to "
                          f"{Cell(*bad).name}, which the Z3 encoding forbids")

    def compare_successor(self, nxt: GameState, p: int, placed: dict[int, tuple[int, int]]
                          ) -> None:
        """Positions, fates and corpses after a kill agree with the Z3 post-state."""
        conc = self.conc
        exp_cells: list[tuple[int, int] | None] = []
        for a in range(conc.n):
            if a == p:
                exp_cells.append(None)
            else:
                exp_cells.append(placed.get(a, conc.cells[a]) if conc.status[a] == ALIVE
                                 else None)
        got = [(c.row, c.diag) if c is not None else None for c in nxt.positions]
        if got != exp_cells:
            self.fail(f"after killing {self.letter(p)}: positions differ from the Z3 encoding")
        exp_corpses = {c for a, c in enumerate(conc.cells)
                       if c is not None and conc.status[a] != ALIVE}
        vcell = conc.cells[p]
        if not self.v.corpses_removed and vcell is not None:
            exp_corpses.add(vcell)
        if {(c.row, c.diag) for c in nxt.corpses} != exp_corpses:
            self.fail(f"after killing {self.letter(p)}: corpses differ from the Z3 encoding")
        if nxt.fates[p] is not Fate.EATEN:
            self.fail(f"after killing {self.letter(p)}: it is not recorded as eaten")

    def check_farmer(self) -> None:
        """Farmer pass (M14), shots and berserk availability in a Farmer phase."""
        from fleece.verify.mutton.encoding import berserk_step, farmer_pass_step

        z3 = self.z3
        st = self.state
        n = self.conc.n
        z_pass = _true(farmer_pass_step(self.v, self.zs).guard)
        if (self.try_play(FarmerPass()) is not None) != z_pass:
            self.fail(f"Farmer pass after {'a Wolf pass' if st.wolf_passed else 'a kill'}: "
                      f"Python {'allows' if not z_pass else 'refuses'} it, Z3 "
                      f"{'allows' if z_pass else 'refuses'} it")
        living = [a for a in range(n) if self.conc.status[a] == ALIVE]
        py_shots = {k.victim for k in st.shot_options()}
        z_shots = {self.letter(a) for a in living
                   if not self.v.shotgun or self.z_placement(a) is not None}
        if py_shots != z_shots:
            self.fail(f"shots: Python {sorted(py_shots)}, Z3 {sorted(z_shots)}")
        if not self.v.shotgun and living:
            target = self.letter(living[0])
            if self.try_play(Shoot(target)) is None:
                self.fail(f"play() refuses shooting {target}")
        if len(living) >= 2:
            pair = living[:2]
            vol = [z3.BoolVal(a in pair) for a in range(n)]
            z_b = _true(berserk_step(self.v, self.zs, vol).guard)
            py_b = self.try_play(Berserk(tuple(self.letter(a) for a in pair))) is not None
            if z_b != py_b:
                self.fail(f"berserk: Python {'allows' if py_b else 'refuses'} it, Z3 "
                          f"{'allows' if z_b else 'refuses'} it")

    def run(self) -> list[str]:
        """All comparisons for this position."""
        if self.state.phase is Phase.WOLF:
            self.check_wolf()
        elif self.state.phase is Phase.FARMER:
            self.check_farmer()
        return self.findings


DEFAULT_VARIANTS: tuple[MuttonOptions, ...] = (
    MuttonOptions(),
    MuttonOptions(size=3, num_sheep=14, num_wolves=3, remove=True, escape=True),
    MuttonOptions(size=2, num_sheep=7, num_wolves=3),
    MuttonOptions(size=3, num_sheep=12, num_wolves=2, weapon=Weapon.SHOTGUN, escape=True),
    MuttonOptions(size=5, num_sheep=26, num_wolves=5, remove=True, berserk=False, reveal=False),
)


def crosscheck(rules_list: tuple[MuttonOptions, ...] | list[MuttonOptions], positions: int,
               seed: int = 1,
               model: type[GameState] = GameState,
               progress: Callable[[int], None] | None = None,
               budget: Budget | None = None) -> list[CheckResult]:
    """For each rule set, compare both models at `positions` reachable positions (Wolf and
    Farmer phases) of random games; one check per rule set (UNKNOWN when a Z3 query at some
    position stays undecided after its retry)."""
    out = []
    for rules in rules_list:
        t0 = time.perf_counter()
        rng = random.Random(seed * 7919 + rules.size * 31 + rules.num_sheep)
        findings: list[str] = []
        undecided_at: str = ""
        checked = {"wolf": 0, "farmer": 0}
        games = 0
        while checked["wolf"] + checked["farmer"] < positions and games < 200:
            games += 1
            state = model.new(rules)
            steps = 0
            while not state.over and checked["wolf"] + checked["farmer"] < positions:
                if state.phase in (Phase.WOLF, Phase.FARMER) and rng.random() < 0.5:
                    try:
                        found = PositionChecker(state, budget).run()
                    except ValueError as exc:
                        found = [f"position not representable: {exc}"]
                    except Undecided as exc:
                        undecided_at = f"game {games} move {steps}: {exc}"
                        break
                    key = "wolf" if state.phase is Phase.WOLF else "farmer"
                    checked[key] += 1
                    for f in found:
                        findings.append(f"game {games} move {steps} ({key}): {f}")
                    if progress:
                        progress(1)
                try:
                    state = state.play(random_move(state, rng))
                except IllegalMoveError as exc:
                    findings.append(f"game {games}: the Python model refuses its own random "
                                    f"move: {exc}")
                    break
                steps += 1
            if findings or undecided_at:
                break
        v = variant_of(rules)
        outcome = FAILED if findings else UNKNOWN if undecided_at else PASSED
        out.append(CheckResult(
            section="crosscheck", name=v.label().replace(" ", "/"),
            title=f"Python model = Z3 encoding on {checked['wolf']} Wolf and {checked['farmer']} "
                  f"Farmer positions ({v.label()})",
            outcome=outcome, expected=PASSED, basis=BASIS,
            clauses=("M8", "M9", "M10", "M11", "M12", "M13", "M14", "M16", "M17"),
            detail=findings[0] if findings else f"undecided: {undecided_at}" if undecided_at
            else ("kills, runners, free cells, legality, play() successors and refusals, "
                  "passes, shots and berserk agree"),
            witness="\n".join(findings[:5]), seconds=time.perf_counter() - t0,
            data={"positions": checked, "games": games, "model": model.__name__}))
    return out
