"""A Z3 encoding of the Mutton rules (docs/rules.md M1-M20), written from the rules text alone.

The state is symbolic per animal: a cell as (row, diagonal) integers, an `on` flag (the animal
or its corpse stands on the board), a status code and a wolf flag, plus the counters the
invariants talk about. Board geometry is linear arithmetic (M1-M3), so one formula covers every
cell of a board. Transitions are relations between a state and its successor for one Wolf move
(kill with runners, escape, pass) and one Farmer move (pass, shot, shotgun blast, berserk).
A concrete position is the same `ZState` built from constants, so every predicate here serves
both the proofs and the cross-check against the Python model.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

ALIVE, EATEN, SHOT, DEVOURED, ESCAPED = 0, 1, 2, 3, 4
WOLF, FARMER, OVER = 0, 1, 2
ESCAPE_BONUS = 3  # M12

Expr = Any  # z3 expressions are untyped in z3's Python API


@dataclass(frozen=True)
class Variant:
    """The rule parameters the Z3 encoding needs (mirrors docs/rules.md options, not
    rules.mutton)."""

    size: int = 4
    num_sheep: int = 26
    num_wolves: int = 4
    remove: bool = False
    shotgun: bool = False
    escape: bool = False
    berserk: bool = True
    reveal: bool = True

    @property
    def cells(self) -> int:
        """3n(n-1)+1 cells (M1)."""
        return 3 * self.size * (self.size - 1) + 1

    @property
    def corpses_removed(self) -> bool:
        """Corpses leave at the end of every move with `remove` or the shotgun (M16, M17)."""
        return self.remove or self.shotgun

    @property
    def berserk_allowed(self) -> bool:
        """Berserk needs the option and a rifle (M13, M17)."""
        return self.berserk and not self.shotgun

    def label(self) -> str:
        """Short text such as `size=4 sheep=26 wolves=4 remove shotgun`."""
        flags = [n for n, on in (("remove", self.remove), ("shotgun", self.shotgun),
                                 ("escape", self.escape), ("no_berserk", not self.berserk),
                                 ("no_reveal", not self.reveal)) if on]
        base = f"size={self.size} sheep={self.num_sheep} wolves={self.num_wolves}"
        return " ".join([base, *flags])


def board_cells(size: int) -> list[tuple[int, int]]:
    """All (row, diagonal) cells of a size-n board in reading order (M2)."""
    out: list[tuple[int, int]] = []
    for r in range(2 * size - 1):
        lo, hi = (1, size + r) if r < size else (r - size + 2, 2 * size - 1)
        out.extend((r, d) for d in range(lo, hi + 1))
    return out


def on_board(size: int, r: Expr, d: Expr) -> Expr:
    """The cell (r, d) lies on the board (M1-M2), as linear constraints."""
    n = size
    upper = z3.And(r < n, d >= 1, d <= n + r)
    lower = z3.And(r >= n, r <= 2 * n - 2, d >= r - n + 2, d <= 2 * n - 1)
    return z3.And(r >= 0, z3.Or(upper, lower))


def adjacent(r1: Expr, d1: Expr, r2: Expr, d2: Expr) -> Expr:
    """The two cells share an edge (M3)."""
    return z3.Or(
        z3.And(r1 == r2, z3.Or(d2 == d1 - 1, d2 == d1 + 1)),
        z3.And(r2 == r1 - 1, z3.Or(d2 == d1 - 1, d2 == d1)),
        z3.And(r2 == r1 + 1, z3.Or(d2 == d1, d2 == d1 + 1)),
    )


def same_cell(r1: Expr, d1: Expr, r2: Expr, d2: Expr) -> Expr:
    """The two cells are equal."""
    return z3.And(r1 == r2, d1 == d2)


def count(conds: Sequence[Expr]) -> Expr:
    """The number of true conditions, as an integer term."""
    if not conds:
        return z3.IntVal(0)
    return z3.Sum([z3.If(c, 1, 0) for c in conds])


@dataclass
class ZState:
    """One Mutton position in the Farmer/Wolf rounds, symbolic or constant."""

    r: list[Expr]
    d: list[Expr]
    on: list[Expr]
    st: list[Expr]
    wolf: list[Expr]
    phase: Expr
    wpass: Expr
    bused: Expr
    n_alive: Expr
    n_dead: Expr
    n_esc: Expr
    score: Expr
    hidden: Expr
    concrete: bool = False
    memo: dict[tuple[object, ...], Any] = field(default_factory=dict, repr=False, compare=False)
    #: The constants of a concrete state, so that formulas over them can be folded once per
    #: distinct set of constants (see `runner`) instead of once per position.
    consts: Concrete | None = field(default=None, repr=False, compare=False)

    @property
    def n(self) -> int:
        """Number of animals."""
        return len(self.r)

    def alive(self, a: int) -> Expr:
        """Animal `a` is alive."""
        return self.st[a] == ALIVE

    def dead(self, a: int) -> Expr:
        """Animal `a` died (eaten, shot or devoured)."""
        return z3.And(self.st[a] >= EATEN, self.st[a] <= DEVOURED)

    def near(self, a: int, r: Expr, d: Expr) -> Expr:
        """Animal `a` stands next to the cell (r, d)."""
        return adjacent(self.r[a], self.d[a], r, d)

    def at(self, a: int, r: Expr, d: Expr) -> Expr:
        """Animal `a` (alive or as a corpse) stands on the cell (r, d)."""
        return z3.And(self.on[a], same_cell(self.r[a], self.d[a], r, d))


def symbolic_state(n: int, tag: str) -> ZState:
    """A fresh symbolic state of `n` animals."""
    def ints(name: str) -> list[Expr]:
        return [z3.Int(f"{tag}_{name}{a}") for a in range(n)]

    def bools(name: str) -> list[Expr]:
        return [z3.Bool(f"{tag}_{name}{a}") for a in range(n)]

    return ZState(
        r=ints("r"), d=ints("d"), on=bools("on"), st=ints("st"), wolf=bools("wolf"),
        phase=z3.Int(f"{tag}_phase"), wpass=z3.Bool(f"{tag}_wpass"),
        bused=z3.Bool(f"{tag}_bused"), n_alive=z3.Int(f"{tag}_alive"),
        n_dead=z3.Int(f"{tag}_dead"), n_esc=z3.Int(f"{tag}_esc"),
        score=z3.Int(f"{tag}_score"), hidden=z3.Int(f"{tag}_hidden"),
    )


@dataclass(frozen=True)
class Concrete:
    """A concrete position for the Z3 encoding: per animal a cell (or None), a status, a wolf flag.

    A dead animal whose corpse still lies on the board carries the corpse's cell.
    """

    cells: tuple[tuple[int, int] | None, ...]
    status: tuple[int, ...]
    wolves: tuple[bool, ...]
    phase: int = WOLF
    wolf_passed: bool = False
    berserk_used: bool = False

    def to_z3(self) -> ZState:
        """The position as a constant `ZState` (counters computed from the animals)."""
        alive = sum(1 for s in self.status if s == ALIVE)
        dead = sum(1 for s in self.status if EATEN <= s <= DEVOURED)
        esc = sum(1 for s in self.status if s == ESCAPED)
        dead_sheep = sum(1 for s, w in zip(self.status, self.wolves, strict=True)
                         if EATEN <= s <= DEVOURED and not w)
        hidden = sum(1 for s, w in zip(self.status, self.wolves, strict=True)
                     if s == ALIVE and w)
        return ZState(
            r=[z3.IntVal(c[0] if c else -1) for c in self.cells],
            d=[z3.IntVal(c[1] if c else -1) for c in self.cells],
            on=[z3.BoolVal(c is not None) for c in self.cells],
            st=[z3.IntVal(s) for s in self.status],
            wolf=[z3.BoolVal(w) for w in self.wolves],
            phase=z3.IntVal(self.phase), wpass=z3.BoolVal(self.wolf_passed),
            bused=z3.BoolVal(self.berserk_used), n_alive=z3.IntVal(alive),
            n_dead=z3.IntVal(dead), n_esc=z3.IntVal(esc),
            score=z3.IntVal(dead_sheep + ESCAPE_BONUS * esc), hidden=z3.IntVal(hidden),
            concrete=True, consts=self,
        )

    @property
    def n(self) -> int:
        """Number of animals."""
        return len(self.cells)


# ---- invariants ---------------------------------------------------------------------------

COUNTERS = ("n_alive", "n_dead", "n_esc", "score", "hidden")


def animal_facts(v: Variant, s: ZState, a: int) -> Expr:
    """Per-animal part of one-animal-per-cell: a valid status, living animals on a board
    cell, devoured/escaped animals off it, no corpses at all when corpses are removed."""
    facts = [s.st[a] >= ALIVE, s.st[a] <= ESCAPED,
             z3.Implies(s.on[a], on_board(v.size, s.r[a], s.d[a])),
             z3.Implies(s.alive(a), s.on[a]),
             z3.Implies(z3.Or(s.st[a] == DEVOURED, s.st[a] == ESCAPED), z3.Not(s.on[a]))]
    if v.corpses_removed:
        facts.append(z3.Implies(z3.Not(s.alive(a)), z3.Not(s.on[a])))
    return z3.And(facts)


def pair_fact(s: ZState, a: int, b: int) -> Expr:
    """Animals (or corpses) `a` and `b` never share a cell (M8, M9)."""
    return z3.Not(z3.And(s.on[a], s.on[b], same_cell(s.r[a], s.d[a], s.r[b], s.d[b])))


def indicator(s: ZState, counter: str, a: int) -> Expr:
    """What animal `a` contributes to a counter, as an integer term (M20 for the score)."""
    if counter == "n_alive":
        return z3.If(s.alive(a), 1, 0)
    if counter == "n_dead":
        return z3.If(s.dead(a), 1, 0)
    if counter == "n_esc":
        return z3.If(s.st[a] == ESCAPED, 1, 0)
    if counter == "score":
        return z3.If(z3.And(s.dead(a), z3.Not(s.wolf[a])), 1, 0) \
            + z3.If(s.st[a] == ESCAPED, ESCAPE_BONUS, 0)
    return z3.If(z3.And(s.wolf[a], s.alive(a)), 1, 0)


def counter_fact(s: ZState, counter: str) -> Expr:
    """The counter equals the sum of the animals' contributions."""
    return getattr(s, counter) == z3.Sum([indicator(s, counter, a) for a in range(s.n)])


def control_facts(s: ZState) -> Expr:
    """Phase bookkeeping: a game not over has a hidden wolf (M19); berserk ends it (M15)."""
    return z3.And(s.phase >= WOLF, s.phase <= OVER, z3.Implies(s.bused, s.phase == OVER),
                  z3.Implies(s.wpass, s.phase == FARMER),
                  z3.Implies(s.phase != OVER, s.hidden >= 1))


def invariants(v: Variant, s: ZState) -> dict[str, Expr]:
    """The state invariants by name (the `runners` invariant is a step property)."""
    n = s.n
    cells = [animal_facts(v, s, a) for a in range(n)]
    cells += [pair_fact(s, a, b) for a in range(n) for b in range(a + 1, n)]
    conservation = z3.And(*(counter_fact(s, c) for c in ("n_alive", "n_dead", "n_esc")),
                          s.n_alive + s.n_dead + s.n_esc == n, count(s.wolf) == v.num_wolves)
    hidden = z3.And(counter_fact(s, "hidden"), control_facts(s),
                    *[z3.Implies(s.st[a] == ESCAPED, s.wolf[a]) for a in range(n)])
    return {"one-per-cell": z3.And(cells), "conservation": conservation,
            "score": counter_fact(s, "score"), "hidden-wolves": hidden}


def invariant(v: Variant, s: ZState) -> Expr:
    """The conjunction of the state invariants."""
    return z3.And(list(invariants(v, s).values()))


# ---- moves --------------------------------------------------------------------------------
# A move is a guard plus the successor state as expressions of the state and the move's free
# choices. Counters change by per-animal amounts (`deltas`), so a counting invariant reduces to
# one identity per animal. The moved-against animal is a concrete index: in proofs animals are
# interchangeable (invariants and moves are symmetric under renaming), so animal 0 stands for any.

KILL, ESCAPE, WOLF_PASS, FARMER_PASS, SHOOT, BERSERK = range(6)
KIND_NAMES = ("kill", "escape", "wolf-pass", "farmer-pass", "shot", "berserk")


@dataclass
class Step:
    """One kind of move from a state: when it is allowed, what changes, what it leads to."""

    kind: int
    guard: Expr
    post: ZState
    deltas: dict[str, list[Expr]]
    pick: int | None = None
    dest: list[tuple[Expr, Expr]] = field(default_factory=list)
    runs: bool = False

    @property
    def name(self) -> str:
        """Move kind name."""
        return KIND_NAMES[self.kind]


def dest_vars(n: int, tag: str) -> list[tuple[Expr, Expr]]:
    """Fresh (row, diagonal) destination variables, one pair per animal."""
    return [(z3.Int(f"{tag}_dr{a}"), z3.Int(f"{tag}_dd{a}")) for a in range(n)]


def runner(s: ZState, p: int, a: int) -> Expr:
    """Animal `a` must run when animal `p` dies: alive and next to it (M9, M17)."""
    key = ("runner", p, a)
    if key not in s.memo:
        if a == p:
            e = z3.BoolVal(False)
        elif s.consts is not None:  # the same formula over constants, folded once per values
            e = _folded_runner(s.consts.status[a], s.consts.cells[a], s.consts.cells[p])
        else:
            e = _runner_formula(s.st[a], s.r[a], s.d[a], s.r[p], s.d[p])
        s.memo[key] = e
    return s.memo[key]


def _runner_formula(status: Expr, r: Expr, d: Expr, rp: Expr, dp: Expr) -> Expr:
    """An animal with this status on (r, d) runs from a death on (rp, dp): alive and next to
    it (M9, M17). The one definition behind symbolic and folded runners."""
    return z3.And(status == ALIVE, adjacent(r, d, rp, dp))


@functools.lru_cache(maxsize=1 << 16)
def _folded_runner(status: int, cell: tuple[int, int] | None, dead: tuple[int, int] | None
                   ) -> Expr:
    """`runner` built from constants exactly as `Concrete.to_z3` states them and simplified:
    a pure function of the constants, so concrete positions share the folded result (building
    the formula anew for every animal pair of every position dominated the cross-check)."""
    r, d = cell or (-1, -1)
    rp, dp = dead or (-1, -1)
    return z3.simplify(_runner_formula(z3.IntVal(status), z3.IntVal(r), z3.IntVal(d),
                                       z3.IntVal(rp), z3.IntVal(dp)))


def _blocks(s: ZState, p: int, b: int) -> Expr:
    """Animal or corpse `b` occupies its cell during the strike on `p` (it does not run)."""
    key = ("blocks", p, b)
    if key not in s.memo:
        e = z3.And(s.on[b], z3.Not(runner(s, p, b)))
        s.memo[key] = z3.simplify(e) if s.concrete else e
    return s.memo[key]


def destination_ok(v: Variant, s: ZState, p: int, a: int, r: Expr, d: Expr) -> Expr:
    """Runner `a` may go to (r, d): on the board, not the dead animal's cell nor next to it,
    and no animal or corpse there except animals that run themselves (M9)."""
    blocked = [z3.And(_blocks(s, p, b), same_cell(s.r[b], s.d[b], r, d))
               for b in range(s.n) if b != a and not (s.concrete and z3.is_false(_blocks(s, p, b)))]
    return z3.And(on_board(v.size, r, d), z3.Not(same_cell(r, d, s.r[p], s.d[p])),
                  z3.Not(adjacent(r, d, s.r[p], s.d[p])), z3.Not(z3.Or(blocked)))


def placement(v: Variant, s: ZState, p: int, dest: list[tuple[Expr, Expr]]) -> Expr:
    """Every runner gets an allowed destination and the destinations are distinct (M9-M10)."""
    parts = []
    live = [a for a in range(s.n) if not (s.concrete and z3.is_false(runner(s, p, a)))]
    for a in live:
        parts.append(z3.Implies(runner(s, p, a), destination_ok(v, s, p, a, *dest[a])))
        for b in live:
            if b > a:
                parts.append(z3.Implies(z3.And(runner(s, p, a), runner(s, p, b)),
                                        z3.Not(same_cell(*dest[a], *dest[b]))))
    return z3.And(parts)


def kill_target(s: ZState, p: int) -> Expr:
    """Animal `p` is alive and next to a living wolf other than itself (M8)."""
    # over constants a runner that folded to False adds nothing to the disjunction
    return z3.And(s.alive(p), z3.Or([z3.And(s.wolf[a], runner(s, p, a))
                                     for a in range(s.n) if a != p
                                     and not (s.concrete and z3.is_false(runner(s, p, a)))]))


def _apply(s: ZState, deltas: dict[str, list[Expr]], **changes: Any) -> ZState:
    """A successor: the given fields changed, counters moved by the summed per-animal deltas."""
    fields = dict(s.__dict__)
    fields["memo"] = {}
    fields["concrete"] = False
    fields["consts"] = None
    for c in COUNTERS:
        ds = deltas.get(c)
        if ds:
            fields[c] = getattr(s, c) + z3.Sum(ds)
    fields.update(changes)
    return ZState(**fields)


def _one(p: int, n: int, value: Expr | int) -> list[Expr]:
    """Deltas that are `value` for animal `p` and 0 for the others."""
    return [z3.IntVal(0) if a != p else (z3.IntVal(value) if isinstance(value, int) else value)
            for a in range(n)]


def _strike(v: Variant, s: ZState, p: int, fate: int, runs: bool,
            dest: list[tuple[Expr, Expr]], next_phase: int) -> tuple[ZState, dict[str, list[Expr]]]:
    """The successor when animal `p` dies with `fate`; with `runs` its neighbours run."""
    n = s.n
    r = [z3.If(runner(s, p, a), dest[a][0], s.r[a]) if runs else s.r[a] for a in range(n)]
    d = [z3.If(runner(s, p, a), dest[a][1], s.d[a]) if runs else s.d[a] for a in range(n)]
    on = [z3.BoolVal(not v.corpses_removed) if a == p else s.on[a] for a in range(n)]
    st = [z3.IntVal(fate) if a == p else s.st[a] for a in range(n)]
    deltas = {"n_alive": _one(p, n, -1), "n_dead": _one(p, n, 1),
              "score": _one(p, n, z3.If(s.wolf[p], 0, 1)),
              "hidden": _one(p, n, z3.If(s.wolf[p], -1, 0))}
    hidden = s.hidden - z3.If(s.wolf[p], 1, 0)
    post = _apply(s, deltas, r=r, d=d, on=on, st=st, wpass=z3.BoolVal(False),
                  phase=z3.If(hidden == 0, OVER, next_phase))
    return post, deltas


def kill_step(v: Variant, s: ZState, p: int, dest: list[tuple[Expr, Expr]]) -> Step:
    """The Wolf eats animal `p`; every living neighbour runs (M8-M10)."""
    guard = z3.And(s.phase == WOLF, kill_target(s, p), placement(v, s, p, dest))
    post, deltas = _strike(v, s, p, EATEN, True, dest, FARMER)
    return Step(KILL, guard, post, deltas, p, dest, True)


def lonely_wolf(s: ZState, p: int) -> Expr:
    """Animal `p` is a living wolf with no living neighbour (M12)."""
    return z3.And(s.wolf[p], s.alive(p),
                  z3.Not(z3.Or([runner(s, p, b) for b in range(s.n) if b != p])))


def escape_step(v: Variant, s: ZState, p: int) -> Step:
    """Hidden wolf `p` with no living neighbour leaves the board for 3 points (M12)."""
    n = s.n
    guard = z3.And(z3.BoolVal(v.escape), s.phase == WOLF, lonely_wolf(s, p))
    deltas = {"n_alive": _one(p, n, -1), "n_esc": _one(p, n, 1),
              "score": _one(p, n, ESCAPE_BONUS), "hidden": _one(p, n, -1)}
    post = _apply(s, deltas,
                  on=[z3.BoolVal(False) if a == p else s.on[a] for a in range(n)],
                  st=[z3.IntVal(ESCAPED) if a == p else s.st[a] for a in range(n)],
                  wpass=z3.BoolVal(False), phase=z3.If(s.hidden - 1 == 0, OVER, FARMER))
    return Step(ESCAPE, guard, post, deltas, p)


def wolf_pass_step(v: Variant, s: ZState, no_kill: Expr | None = None) -> Step:
    """The Wolf passes (M11). Its guard "no legal kill exists" needs a quantifier: proofs pass
    None (a pass allowed in every Wolf phase, an over-approximation that keeps them sound);
    concrete checks pass the computed fact."""
    guard = z3.And(s.phase == WOLF, z3.BoolVal(True) if no_kill is None else no_kill)
    return Step(WOLF_PASS, guard, _apply(s, {}, phase=z3.IntVal(FARMER),
                                         wpass=z3.BoolVal(True)), {})


def farmer_pass_step(v: Variant, s: ZState) -> Step:
    """The Farmer does nothing; never right after a Wolf pass (M13-M14)."""
    guard = z3.And(s.phase == FARMER, z3.Not(s.wpass))
    return Step(FARMER_PASS, guard, _apply(s, {}, phase=z3.IntVal(WOLF),
                                           wpass=z3.BoolVal(False)), {})


def shot_step(v: Variant, s: ZState, p: int, dest: list[tuple[Expr, Expr]]) -> Step:
    """The Farmer shoots animal `p`; with the shotgun its neighbours run (M13, M17)."""
    guard = z3.And(s.phase == FARMER, s.alive(p))
    if v.shotgun:
        guard = z3.And(guard, placement(v, s, p, dest))
    post, deltas = _strike(v, s, p, SHOT, v.shotgun, dest, WOLF)
    return Step(SHOOT, guard, post, deltas, p, dest, v.shotgun)


def berserk_step(v: Variant, s: ZState, volley: Sequence[Expr]) -> Step:
    """A volley at two or more animals ends the game; surviving wolves eat every remaining
    sheep (M13, M15). `volley` holds one Boolean (symbolic or constant) per animal."""
    n = s.n
    survivors = z3.Or([z3.And(s.wolf[a], s.alive(a), z3.Not(volley[a])) for a in range(n)])
    devoured = [z3.And(survivors, s.alive(a), z3.Not(volley[a]), z3.Not(s.wolf[a]))
                for a in range(n)]
    guard = z3.And(z3.BoolVal(v.berserk_allowed), s.phase == FARMER, z3.Not(s.bused),
                   z3.And([z3.Implies(volley[a], s.alive(a)) for a in range(n)]),
                   count(list(volley)) >= 2)
    gone = [z3.If(volley[a], 1, 0) + z3.If(devoured[a], 1, 0) for a in range(n)]
    deltas = {
        "n_alive": [-g for g in gone], "n_dead": gone,
        "score": [z3.If(z3.And(volley[a], z3.Not(s.wolf[a])), 1, 0) + z3.If(devoured[a], 1, 0)
                  for a in range(n)],
        "hidden": [z3.If(z3.And(volley[a], s.wolf[a]), -1, 0) for a in range(n)],
    }
    keep = z3.BoolVal(not v.corpses_removed)
    post = _apply(
        s, deltas,
        on=[z3.If(volley[a], keep, z3.And(s.on[a], z3.Not(devoured[a]))) for a in range(n)],
        st=[z3.If(volley[a], SHOT, z3.If(devoured[a], DEVOURED, s.st[a])) for a in range(n)],
        wpass=z3.BoolVal(False), bused=z3.BoolVal(True), phase=z3.IntVal(OVER))
    return Step(BERSERK, guard, post, deltas)


def one_step(v: Variant, s: ZState, kind: int, tag: str) -> Step:
    """The move relation of one kind, with animal 0 as the one moved against."""
    if kind in (KILL, SHOOT):
        dest = dest_vars(s.n, tag)
        return kill_step(v, s, 0, dest) if kind == KILL else shot_step(v, s, 0, dest)
    if kind == ESCAPE:
        return escape_step(v, s, 0)
    if kind == WOLF_PASS:
        return wolf_pass_step(v, s)
    if kind == FARMER_PASS:
        return farmer_pass_step(v, s)
    return berserk_step(v, s, [z3.Bool(f"{tag}_vol{a}") for a in range(s.n)])


def delta(step: Step, counter: str, a: int) -> Expr:
    """Animal `a`'s change of a counter in this step (0 when the step does not touch it)."""
    ds = step.deltas.get(counter)
    return ds[a] if ds else z3.IntVal(0)


def obligations(v: Variant, s: ZState, step: Step) -> dict[str, Expr]:
    """What must hold after `step` for the invariants to be inductive, reduced by symmetry to
    representative animals (0, the one moved against, and 1, any other) and pairs (0,1),
    (1,2); counting invariants reduce to one identity per animal because every counter moves
    by the sum of per-animal deltas. Also the step properties: runners land on empty cells
    away from the dead animal (M9), the score never falls, hidden wolves never grow, and the
    M24 rank (kills, escapes and shots lower the living count; a Wolf pass forces a shot)."""
    t = step.post
    reps = [a for a in (0, 1) if a < s.n]
    pairs = [(a, b) for a, b in ((0, 1), (1, 2)) if b < s.n]
    ob: dict[str, Expr] = {}
    ob["one-per-cell"] = z3.And(*(animal_facts(v, t, a) for a in reps),
                                *(pair_fact(t, a, b) for a, b in pairs))

    def identity(counter: str, a: int) -> Expr:
        return indicator(t, counter, a) == indicator(s, counter, a) + delta(step, counter, a)

    ob["conservation"] = z3.And(*(z3.And(identity("n_alive", a), identity("n_dead", a),
                                         identity("n_esc", a), t.wolf[a] == s.wolf[a],
                                         delta(step, "n_alive", a) + delta(step, "n_dead", a)
                                         + delta(step, "n_esc", a) == 0) for a in reps))
    ob["score"] = z3.And(*(z3.And(identity("score", a), delta(step, "score", a) >= 0)
                           for a in reps))
    ob["hidden-wolves"] = z3.And(control_facts(t),
                                 *(z3.And(identity("hidden", a), delta(step, "hidden", a) <= 0,
                                          z3.Implies(t.st[a] == ESCAPED, t.wolf[a]))
                                   for a in reps))
    if step.runs and step.pick is not None:
        p = step.pick
        per: list[Expr] = []
        for a in reps:
            landed_empty = z3.And([z3.Not(z3.And(s.on[b], z3.Not(runner(s, p, b)),
                                                 same_cell(t.r[a], t.d[a], s.r[b], s.d[b])))
                                   for b in range(s.n) if b != a])
            per.append(z3.Implies(runner(s, p, a), z3.And(t.alive(a), t.on[a], landed_empty)))
            per.append(z3.Implies(t.alive(a), z3.Not(t.near(a, s.r[p], s.d[p]))))
        ob["runners"] = z3.And(per)
    if step.kind in (KILL, ESCAPE, SHOOT, BERSERK):
        ob["rank"] = z3.And(*(delta(step, "n_alive", a) <= 0 for a in reps),
                            t.n_alive < s.n_alive)
    elif step.kind == WOLF_PASS:
        ob["rank"] = z3.And(t.wpass, t.n_alive == s.n_alive)
    else:
        ob["rank"] = z3.And(z3.Not(s.wpass), t.n_alive == s.n_alive)
    return ob
