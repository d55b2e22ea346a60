"""The rulebook's claims C1-C4 as forced-outcome questions, each PROVED or REFUTED with a
witness position (Z3), and C4 as an exact expected-value computation with fractions.

Every check's expectation is fixed here from docs/rules.md's statement of the claim (its `basis`),
never from its outcome: C1, C2, C3 read precisely and C4 as stated are expected PROVED; C3
read literally ("wins for sure" in quick play) and C4 generalised to two wolves are expected
REFUTED, findings recorded since the first verification report. The claims are about the
rulebook's game, so C1 and literal C3 are checked on it (size 4, 26 animals, 4 wolves, quick
play's 11 points), whatever variant is under test; C2 and precise C3 hold for every variant
with berserk and are checked on the variant under test. A Z3 unknown makes a check UNKNOWN.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from functools import cache

from fleece.verify.budget import Budget, Undecided
from fleece.verify.mutton.encoding import FARMER, OVER, Variant
from fleece.verify.result import PROVED, REFUTED, CheckResult, undecided

BASIS = {
    "C1/sparse-first-kill": "docs/rules.md C1: any first kill from the sparse layout makes at most "
                            "3 animals run",
    "C1/packed-six": "docs/rules.md C1: a packed layout can make 6 run",
    "C2/berserk-once": "docs/rules.md C2: berserk can happen at most once per game",
    "C3/known-wolves": "docs/rules.md C3 read precisely with M13/M15/M19/M20: the volley at the "
                       "wolves ends the game and adds nothing",
    "C3/wins-for-sure": "docs/rules.md C3 read literally with M22's 11 points: known false (the "
                        "volley cannot undo points already scored)",
    "C4/together-one-wolf": "docs/rules.md C4: same expected sheep deaths while the suspects stay "
                            "together",
    "C4/forced-apart": "docs/rules.md C4: sniping is better when the suspects are forced apart",
    "C4/two-wolves-together": "docs/rules.md C4 generalised to two wolves: known false (the "
                              "second wolf keeps eating)",
}
TITLES = {
    "C1/sparse-first-kill": "C1: from the sparse layout any first kill makes at most 3 animals "
                            "run",
    "C1/packed-six": "C1: a packed layout can make 6 animals run on the first kill",
    "C2/berserk-once": "C2: berserk at most once per game",
    "C3/known-wolves": "C3 (precise): a volley at exactly the hidden wolves is legal, ends the "
                       "game and adds nothing to the score",
    "C3/wins-for-sure": "C3 (literal): the volley 'wins for sure' in quick play",
    "C4/together-one-wolf": "C4: one wolf among k suspects that stay together: sniping and "
                            "berserk have the same expected sheep deaths (k-1)",
    "C4/forced-apart": "C4: when each kill splits the suspects, sniping beats berserk",
    "C4/two-wolves-together": "C4 generalised: with two wolves among the suspects, sniping "
                              "equals berserk",
}
EXPECTED = {name: REFUTED if name in ("C3/wins-for-sure", "C4/two-wolves-together")
            else PROVED for name in BASIS}
CLAUSES = {
    "C1/sparse-first-kill": ("C1", "M5", "M8", "M9"), "C1/packed-six": ("C1", "M9", "M10"),
    "C2/berserk-once": ("C2", "M13", "M15"),
    "C3/known-wolves": ("C3", "M13", "M15", "M19", "M20"), "C3/wins-for-sure": ("C3", "M22"),
    "C4/together-one-wolf": ("C4",), "C4/forced-apart": ("C4",),
    "C4/two-wolves-together": ("C4",),
}


def claim(name: str, outcome: str, *, detail: str = "", witness: str = "",
          seconds: float = 0.0) -> CheckResult:
    """A claim check with its fixed title, expectation, clauses and basis (the tables above)."""
    return CheckResult("claims", name, TITLES[name], outcome, EXPECTED[name], CLAUSES[name], detail,
                       witness, seconds, basis=BASIS[name])


def guarded(name: str, t0: float, body: Callable[[], CheckResult]) -> CheckResult:
    """Run one claim's body; a Z3 unknown (after the retry) makes the claim UNKNOWN."""
    try:
        return body()
    except Undecided as exc:
        return undecided("claims", name, TITLES[name], expected=EXPECTED[name], reason=str(exc),
                         clauses=CLAUSES[name], basis=BASIS[name],
                         seconds=time.perf_counter() - t0)

# The rulebook's recommended layout for size 4 with 26 animals (docs/rules.md M5), A..Z in order.
_SPARSE_TEXT = "a1 a2 a3 a4 b1 b3 b5 c1 c2 c5 c6 d1 d3 d5 d7 e2 e3 e6 e7 f3 f5 f7 g4 g5 g6 g7"
SPARSE = tuple(_SPARSE_TEXT.split(" "))
ROWS = "abcdefghijklmno"


def _cell(name: str) -> tuple[int, int]:
    return ROWS.index(name[0]), int(name[1:])


def _letters(idx: list[int]) -> str:
    return "".join(chr(65 + i) for i in idx)


def c1_sparse(max_runners: int = 3, budget: Budget | None = None,
              layout: tuple[str, ...] = SPARSE) -> list[CheckResult]:
    """C1: from the sparse layout, whatever the wolves, no first kill makes more than 3 run;
    the bound is reached; and some packed layout makes 6 run (replayed in Python). `layout`
    exists so a test can plant a wrong layout and see the fixed expectation fail."""
    t0 = time.perf_counter()
    b = budget or Budget()
    out = [guarded("C1/sparse-first-kill", t0,
                   lambda: _c1_sparse(max_runners, b, layout, t0))]
    t1 = time.perf_counter()
    out.append(guarded("C1/packed-six", t1, lambda: _c1_packed(b, t1)))
    return out


def _c1_sparse(max_runners: int, budget: Budget, layout: tuple[str, ...], t0: float
               ) -> CheckResult:
    import z3

    from fleece.verify.mutton.encoding import (
        ALIVE,
        Concrete,
        dest_vars,
        kill_target,
        placement,
        runner,
    )

    v = Variant()
    conc = Concrete(tuple(_cell(c) for c in layout), (ALIVE,) * 26, (False,) * 26)
    zs = conc.to_z3()
    zs.wolf = [z3.Bool(f"w{a}") for a in range(26)]
    zs.concrete = False
    worst = (-1, 0, "")
    over = []
    for p in range(26):
        s = z3.Solver()
        s.add(z3.PbEq([(w, 1) for w in zs.wolf], v.num_wolves), kill_target(zs, p),
              placement(v, zs, p, dest_vars(26, "d")))
        k = z3.Sum([z3.If(runner(zs, p, a), 1, 0) for a in range(26)])
        s.push()
        s.add(k > max_runners)
        if budget.check(s) == z3.sat:
            over.append(chr(65 + p))
        s.pop()
        s.add(k >= max(worst[0], 1))
        if budget.check(s) == z3.sat:
            m = s.model()
            kk = m.eval(k).as_long()
            wolves = [a for a in range(26) if z3.is_true(m.eval(zs.wolf[a], model_completion=True))]
            if kk > worst[0]:
                worst = (kk, p, _letters(wolves))
    return claim(
        "C1/sparse-first-kill", PROVED if not over and worst[0] == max_runners else REFUTED,
        detail=(f"Z3: for all 26 victims and every choice of 4 wolves, more than {max_runners} "
                f"runners is unsat; {worst[0]} is reached") if not over else
               f"victims with more runners: {', '.join(over)}",
        witness=f"sparse layout, wolves {worst[2]}, the Wolf eats {chr(65 + worst[1])}: "
                f"{worst[0]} animals run", seconds=time.perf_counter() - t0)


def _c1_packed(budget: Budget, t0: float) -> CheckResult:
    """A size-4 layout of 26 animals whose first kill makes 6 animals run (legally)."""
    import z3

    from fleece.rules.mutton.game import GameState
    from fleece.rules.mutton.geometry import Cell
    from fleece.rules.mutton.moves import ChooseWolves, PlaceCells
    from fleece.rules.mutton.options import MuttonOptions
    from fleece.verify.mutton.gaps import neighbours

    nb = neighbours(4)
    cells = sorted(nb)
    live = {c: z3.Int(f"l{c}") for c in cells}
    s = z3.Solver()
    for c in cells:
        s.add(live[c] >= 0, live[c] <= 1)
    s.add(z3.Sum(list(live.values())) == 26)
    victim = (3, 4)
    closed = {victim, *nb[victim]}
    s.add(live[victim] == 1, *[live[c] == 1 for c in nb[victim]])
    s.add(sum(1 for c in cells if c not in closed) - z3.Sum([live[c] for c in cells
                                                             if c not in closed]) >= 6)
    if budget.check(s) != z3.sat:
        return claim("C1/packed-six", REFUTED,
                     detail="Z3: no size-4 layout of 26 animals leaves 6 runners room",
                     seconds=time.perf_counter() - t0)
    m = s.model()
    placed = [c for c in cells if m.eval(live[c]).as_long() == 1]
    order = [victim, *nb[victim]] + [c for c in placed if c not in closed]
    wolf = chr(65 + 1)
    state = GameState.new(MuttonOptions()).play(PlaceCells(tuple(Cell(*c) for c in order)))
    state = state.play(ChooseWolves("".join(sorted({wolf, "X", "Y", "Z"}))))
    legal = {k.victim: k for k in state.legal_kills()}
    ok = "A" in legal and len(legal["A"].runners) == 6
    return claim(
        "C1/packed-six", PROVED if ok else REFUTED,
        detail="Z3 layout replayed in the Python model: the kill of A is legal with 6 runners",
        witness="A=d4 (victim) surrounded by " + ",".join(
            f"{chr(66 + i)}={ROWS[c[0]]}{c[1]}" for i, c in enumerate(nb[victim]))
        + f"; wolf {wolf}", seconds=time.perf_counter() - t0)


def c2_c3(v: Variant, budget: Budget | None = None) -> list[CheckResult]:
    """C2 (berserk once) and C3 read precisely (the volley at the known wolves) on the
    symbolic model of a variant with berserk; C3 read literally on the rulebook's game."""
    b = budget or Budget()
    out = []
    if v.berserk_allowed:
        t0 = time.perf_counter()
        out.append(guarded("C2/berserk-once", t0, lambda: _c2(v, b, t0)))
        t1 = time.perf_counter()
        out.append(guarded("C3/known-wolves", t1, lambda: _c3(v, b, t1)))
    out.append(c3_literal(b))
    return out


def _c2(v: Variant, budget: Budget, t0: float) -> CheckResult:
    import z3

    from fleece.verify.mutton.encoding import berserk_step, invariant, one_step, symbolic_state

    s = symbolic_state(v.num_sheep, "s")
    inv = invariant(v, s)
    vol = [z3.Bool(f"vol{a}") for a in range(v.num_sheep)]
    b = berserk_step(v, s, vol)
    sol = z3.Solver()
    sol.add(inv, b.guard, z3.Not(z3.And(b.post.bused, b.post.phase == OVER)))
    first = budget.check(sol)
    blocked = []
    for kind in range(6):
        st = one_step(v, s, kind, f"k{kind}")
        sol2 = z3.Solver()
        sol2.add(inv, s.bused, st.guard)
        blocked.append(budget.check(sol2))
    ok = first == z3.unsat and all(r == z3.unsat for r in blocked)
    return claim(
        "C2/berserk-once", PROVED if ok else REFUTED,
        detail="Z3: a volley always ends the game and marks berserk used; from a state "
               "with berserk used no move of any kind is enabled",
        seconds=time.perf_counter() - t0)


def _c3(v: Variant, budget: Budget, t0: float) -> CheckResult:
    import z3

    from fleece.verify.mutton.encoding import ALIVE, berserk_step, invariant, symbolic_state

    s = symbolic_state(v.num_sheep, "s")
    known = [z3.And(s.wolf[a], s.st[a] == ALIVE) for a in range(v.num_sheep)]
    b = berserk_step(v, s, known)
    sol = z3.Solver()
    sol.add(invariant(v, s), s.phase == FARMER, z3.Not(s.bused), s.hidden >= 2,
            z3.Not(z3.And(b.guard, b.post.phase == OVER, b.post.hidden == 0,
                          b.post.score == s.score)))
    precise = budget.check(sol)
    return claim(
        "C3/known-wolves", PROVED if precise == z3.unsat else REFUTED,
        detail="Z3 over all invariant states with 2+ hidden wolves and berserk unused; "
               "since no move lowers the score (invariants/score), it is the least final "
               "score the Farmer can reach from there",
        seconds=time.perf_counter() - t0)


def c3_literal(budget: Budget | None = None, v: Variant | None = None) -> CheckResult:
    """C3 read literally on the rulebook's game (quick play, 11 points): expected REFUTED.
    `v` exists so a test can check that a game too small to reach 11 points flips it."""
    t0 = time.perf_counter()
    return guarded("C3/wins-for-sure", t0,
                   lambda: _c3_literal(v or Variant(), budget or Budget(), t0))


def _c3_literal(v: Variant, budget: Budget, t0: float) -> CheckResult:
    import z3

    from fleece.verify.mutton.encoding import invariant, symbolic_state

    s = symbolic_state(v.num_sheep, "s")
    sol = z3.Solver()
    sol.add(invariant(v, s), s.phase == FARMER, z3.Not(s.bused), s.hidden >= 2, s.score >= 11)
    lit = budget.check(sol)
    wit = ""
    if lit == z3.sat:
        m = sol.model()
        wit = (f"Farmer to move, score {m.eval(s.score)}, {m.eval(s.hidden)} hidden wolves: "
               "the volley at the wolves ends the game at that score, which already wins "
               "quick play for the Wolf (11+)")
    return claim(
        "C3/wins-for-sure", REFUTED if lit == z3.sat else PROVED,
        detail=f"on {v.label()}: the volley stops the score from growing but cannot undo "
               "points already scored; with one hidden wolf a volley (2+ targets) is not "
               "even possible, a single shot does the same job",
        witness=wit, seconds=time.perf_counter() - t0)


@cache
def snipe(k: int, w: int) -> Fraction:
    """Expected further sheep deaths when the Farmer snipes k suspects holding w wolves and
    the suspects stay together: each sheep shot costs it, each round with a wolf left costs
    one eaten sheep, and no kill narrows the suspects."""
    if w == 0:
        return Fraction(0)
    wolf_hit = Fraction(w, k) * ((1 + snipe(k - 1, w - 1)) if w > 1 else 0)
    sheep_hit = Fraction(k - w, k) * (2 + snipe(k - 1, w)) if k > w else Fraction(0)
    return wolf_hit + sheep_hit


@cache
def snipe_split(k: int) -> Fraction:
    """Like `snipe` with one wolf, but every kill halves the suspects (they are forced apart
    and the wolf must be among the runners)."""
    if k <= 1:
        return Fraction(0)
    return Fraction(k - 1, k) * (2 + snipe_split((k - 1 + 1) // 2))


def c4(max_k: int = 12, budget: Budget | None = None) -> list[CheckResult]:
    """C4 made precise: exact expected sheep deaths of sniping against berserk (k - w)."""
    t0 = time.perf_counter()
    out = [guarded("C4/together-one-wolf", t0, lambda: _c4_together(max_k, budget or Budget(), t0))]
    t0 = time.perf_counter()
    better = [k_ for k_ in range(3, max_k + 1) if snipe_split(k_) < k_ - 1]
    out.append(claim(
        "C4/forced-apart", PROVED if len(better) == max_k - 2 else REFUTED,
        detail=f"exact, k=3..{max_k} (equal for k <= 2)",
        witness=", ".join(f"k={k_}: snipe {snipe_split(k_)} < berserk {k_ - 1}"
                          for k_ in range(3, 6)),
        seconds=time.perf_counter() - t0))
    t0 = time.perf_counter()
    worse = [(k_, snipe(k_, 2)) for k_ in range(2, max_k + 1) if snipe(k_, 2) > k_ - 2]
    out.append(claim(
        "C4/two-wolves-together", REFUTED if worse else PROVED,
        detail="expected refutation: after the first wolf is shot the other still eats each "
               "round, so berserk is strictly better; the rulebook's claim is for one group",
        witness=", ".join(f"k={k_}: snipe {e} > berserk {k_ - 2}" for k_, e in worse[:3]),
        seconds=time.perf_counter() - t0))
    return out


def _c4_together(max_k: int, budget: Budget, t0: float) -> CheckResult:
    import z3

    same = [k for k in range(1, max_k + 1) if snipe(k, 1) == k - 1]
    k = z3.Real("k")
    e_prev = k - 2
    sol = z3.Solver()
    sol.add(k >= 2, (k - 1) / k * (2 + e_prev) != k - 1)
    induct = budget.check(sol) == z3.unsat
    return claim(
        "C4/together-one-wolf", PROVED if len(same) == max_k and induct else REFUTED,
        detail=f"exact fractions for k=1..{max_k}; Z3 proves the induction step "
               "E(k) = (k-1)/k * (2 + E(k-1)) = k-1 for every k >= 2",
        witness=", ".join(f"E({k_})={snipe(k_, 1)}" for k_ in range(1, 6)),
        seconds=time.perf_counter() - t0)
