"""Section `ends`: turns and the end of a round (W3, W6, W7), whether a round can go on for ever,
and the end of the game (W10).

Round invariants are inductive over the Z3 encoding's transition relation at every table: from
the deal, every legal turn keeps them. "Can a round go on forever if nobody suspects early?" is
a bounded search for a lasso (a play whose rules-visible state - the seat to move, who has had
a turn, who suspected early, who is barred, the question cards held - repeats, the round not
over); a found lasso is replayed in the Python model under test and reported as the NO_END rules
gap WOOF-NO-END. With W11's tokens as a hard limit instead, a ranking proof bounds every round's
turns: then the looks stop because a seat has no token, which is the W11 gap, not an end.
"""

from __future__ import annotations

import random
import time
from typing import Any

import z3

from fleece.rules.errors import FleeceError
from fleece.rules.woof.moves import CardPick, Look
from fleece.rules.woof.notation import format_position
from fleece.rules.woof.round import WoofOptions, WoofRound
from fleece.verify.budget import Budget, Undecided
from fleece.verify.result import NO_END, PROVED, REFUTED, CheckResult, RulesGap, gap_found, judged
from fleece.verify.woof import encoding as zm
from fleece.verify.woof.common import find, gave_up, new_round, prove
from fleece.verify.woof.config import VerifyConfig
from fleece.verify.woof.ids import NO_END_GAP

SECTION = "ends"


def invariant(table: zm.SpecTable, st: zm.RoundState) -> Any:
    """What holds in every reachable state of a round: while W7 has not ended it, the seat to
    move acts (W3) and has not suspected early (W6); early suspicions come after a first turn
    and never from a barred seat, and never exceed W7's limit; question cards and tokens stay
    within the supply (W5, W11)."""
    n = table.players
    cons = [z3.Implies(z3.Not(zm.over(table, st)), z3.And(
        st.cur >= 1, st.cur <= n, z3.Not(zm.select(list(st.early), st.cur)))),
        zm.count(st.early) <= table.limit, zm.count(st.barred) <= table.limit,
        st.pool >= 0, st.pool <= zm.POOL]
    for s in range(n):
        cons += [z3.Implies(st.early[s], st.had[s]), z3.Implies(st.barred[s], z3.Not(st.early[s])),
                 *[h >= 0 for h in st.held[s]], z3.Sum(list(st.held[s])) <= 2,
                 zm.hall_fits(st.laid[s])]
    return z3.And(cons)


def _tables(quick: bool) -> tuple[zm.SpecTable, ...]:
    """Every table (4-8 players); the smallest and the largest in quick mode."""
    return (zm.SpecTable(4), zm.SpecTable(8)) if quick else zm.TABLES


def _players(quick: bool) -> str:
    """The tables checked, as text."""
    return ", ".join(str(t.players) for t in _tables(quick))


def w6_w7_turns(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """The round invariants are inductive at every table (4-8 players), and: an early suspicion
    is never a seat's first turn (W6); the turns end exactly when the early suspicions reach 2
    (4-5 players) or 3 (6-8) (W7); once over, no turn is legal."""
    t0 = time.perf_counter()
    title = "W6/W7: turns, early suspicions and the end of a round (inductive)"
    basis = "docs/rules.md W3, W6, W7"
    clauses = ("W3", "W6", "W7")
    for table in _tables(cfg.quick):
        st = zm.RoundState.fresh(table, f"t{table.players}")
        turn = zm.Turn.fresh(f"t{table.players}u")
        start = z3.Int(f"t{table.players}_start")
        nxt = zm.step(table, st, turn)
        ended = z3.And(zm.over(table, nxt), z3.Not(zm.over(table, st)))
        claims = z3.And(
            invariant(table, nxt),
            z3.Implies(turn.kind == zm.EARLY, zm.select(list(st.had), st.cur)),
            ended == z3.And(turn.kind == zm.EARLY, zm.count(st.early) == table.limit - 1))
        try:
            base, m0 = prove(budget, invariant(table, st), zm.initial(table, st, start))
            ok, model = prove(budget, claims, invariant(table, st), zm.legal(table, st, turn))
            after, m2 = prove(budget, z3.Not(zm.legal(table, st, turn)), zm.over(table, st))
        except Undecided as exc:
            return gave_up(SECTION, "w6-w7-turns", title, PROVED, clauses, basis, exc, t0)
        if not (base and ok and after):
            bad = m0 if not base else (model if not ok else m2)
            return judged(SECTION, "w6-w7-turns", title, False, PROVED, clauses,
                          f"{table.players} players", str(bad)[:300], t0, basis)
    return judged(SECTION, "w6-w7-turns", title, True, PROVED, clauses,
                  f"{_players(cfg.quick)} players: initial -> invariant, invariant + legal turn "
                  "-> invariant; the round ends exactly with the 2nd (4-5) or 3rd (6-8) early "
                  "suspicion", "", t0, basis)


def w7_reachable(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """W7 can always end a round: the seats barred by last round's wrong early suspicions are
    at most W7's limit, which leaves at least that many seats free to suspect, and a seat to
    move that has had a turn and is not barred may always suspect early."""
    t0 = time.perf_counter()
    title = "W7 can always end a round (enough seats may suspect early)"
    basis = "docs/rules.md W7 and W8 (bans), W6"
    for table in _tables(cfg.quick):
        st = zm.RoundState.fresh(table, f"r{table.players}")
        free = zm.count([z3.Not(b) for b in st.barred]) >= table.limit
        may = z3.Implies(z3.And(z3.Not(zm.over(table, st)), zm.select(list(st.had), st.cur),
                                z3.Not(zm.select(list(st.barred), st.cur))),
                         zm.legal(table, st, zm.Turn(zm.EARLY, 0, 0, 0)))
        try:
            ok, model = prove(budget, z3.And(free, may), invariant(table, st))
        except Undecided as exc:
            return gave_up(SECTION, "w7-reachable", title, PROVED, ("W6", "W7", "W8"), basis,
                           exc, t0)
        if not ok:
            return judged(SECTION, "w7-reachable", title, False, PROVED, ("W6", "W7", "W8"),
                          f"{table.players} players", str(model)[:300], t0, basis)
    return judged(SECTION, "w7-reachable", title, True, PROVED, ("W6", "W7", "W8"),
                  f"{_players(cfg.quick)} players: n - limit >= limit free seats; each may "
                  "suspect from its second turn on", "", t0, basis)


# ---- can a round go on for ever? ------------------------------------------------------------


def _key_equal(a: zm.RoundState, b: zm.RoundState) -> Any:
    """The rules-visible state (seat to move, turns had, early suspicions, bans, question
    cards) is the same; tokens are left out (W4 lets looks go on when they run out)."""
    pairs = [(a.cur, b.cur), *zip(a.had, b.had, strict=True),
             *zip(a.early, b.early, strict=True), *zip(a.barred, b.barred, strict=True)]
    for ra, rb in zip(a.held, b.held, strict=True):
        pairs += list(zip(ra, rb, strict=True))
    return z3.And([x == y for x, y in pairs])


def find_lasso(table: zm.SpecTable, budget: Budget, max_turns: int
               ) -> tuple[int, int, list[int]] | None:
    """The shortest look-only play from the deal (nobody barred, seat 1 first, nobody
    suspecting early) whose rules-visible state after `k` turns equals the one after `j`:
    (j, k, targets looked at), or None up to `max_turns`."""
    s = z3.Solver()
    states = [zm.RoundState.fresh(table, f"L{table.players}_0")]
    s.add(zm.initial(table, states[0], 1), *[z3.Not(b) for b in states[0].barred])
    turns: list[zm.Turn] = []
    for k in range(1, max_turns + 1):
        prev = states[-1]
        turn = zm.Turn.fresh(f"L{table.players}_t{k}")
        nxt = zm.RoundState.fresh(table, f"L{table.players}_{k}")
        s.add(zm.legal(table, prev, turn), turn.kind == zm.LOOK, nxt.same(
            zm.step(table, prev, turn)), z3.Not(zm.over(table, nxt)))
        states.append(nxt)
        turns.append(turn)
        s.push()
        s.add(z3.Or([_key_equal(states[j], nxt) for j in range(k)]))
        if budget.check(s) == z3.sat:
            m = s.model()
            j = next(j for j in range(k) if z3.is_true(m.eval(_key_equal(states[j], nxt),
                                                               model_completion=True)))
            targets = [m.eval(t.target, model_completion=True).as_long() for t in turns]
            return j, k, targets
        s.pop()
    return None


def _visible(rnd: WoofRound) -> tuple[object, ...]:
    """The Python model's rules-visible state (as `_key_equal`)."""
    return (rnd.current, frozenset(s for s, t in rnd.turns_taken.items() if t),
            frozenset(rnd.early), rnd.barred, tuple(sorted(rnd.questions.items())))


def round_forever(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """Can a round go on forever if nobody suspects early? Z3 searches a repeating look-only
    play (4 players; every table in full mode); the model under test replays it three times
    round the cycle: the same visible state each time, the round never over. Found: the rules
    gap WOOF-NO-END (W7 is the only end of a round and nothing forces an early suspicion)."""
    t0 = time.perf_counter()
    title = "Can a round go on forever if nobody suspects early? (W7)"
    basis = "docs/rules.md W7 is the only end of a round; a variant settles every situation"
    clauses = ("W4", "W6", "W7", "W11")
    tables = (zm.SpecTable(4),) if cfg.quick else zm.TABLES
    found: dict[int, tuple[int, int, list[int]]] = {}
    try:
        for table in tables:
            lasso = find_lasso(table, budget, 3 * table.players)
            if lasso is not None:
                found[table.players] = lasso
    except Undecided as exc:
        return gave_up(SECTION, "round-forever", title, PROVED, clauses, basis, exc, t0)
    if not found:
        return judged(SECTION, "round-forever", title, True, PROVED, clauses,
                      "no repeating play found", "", t0, basis)
    players = min(found)
    j, k, targets = found[players]
    rnd = new_round(cfg.model, WoofOptions(players, start=1))
    rnd = rnd.play(rnd.sample_chance(random.Random(cfg.seed)))
    seen: list[tuple[object, ...]] = [_visible(rnd)]
    plan = targets + targets[j:] * 3
    replayed = rnd
    try:
        for tgt in plan:
            rnd = rnd.play(Look(rnd.current, tgt)).play(CardPick(0))
            seen.append(_visible(rnd))
            if len(seen) == k + 1:
                replayed = rnd
            if rnd.over:
                break
    except FleeceError as exc:
        return judged(SECTION, "round-forever", title, False, PROVED, clauses,
                      f"the model under test refuses the Z3 play: {exc}", "", t0, basis)
    cycle = k - j
    repeats = all(seen[j + r * cycle] == seen[j] for r in range(5) if j + r * cycle < len(seen))
    if rnd.over or not repeats or len(seen) < len(plan) + 1:
        return judged(SECTION, "round-forever", title, False, PROVED, clauses,
                      "the model under test does not repeat the Z3 lasso (it ends the round or "
                      "changes its state)", f"targets {targets}, cycle from turn {j}", t0, basis)
    order = ", ".join(f"{(i % players) + 1}->{t}" for i, t in enumerate(targets))
    witness = (f"{players} players, seat 1 first, nobody suspects early; turns (seat->seat "
               f"looked at): {order}; the state after turn {j} recurs after turn {k}: the "
               f"looks of turns {j + 1}-{k} repeat for ever (replayed 3 more cycles in the "
               f"model, {len(rnd.gaps)} W11 gaps recorded on the way)")
    gap = RulesGap(NO_END_GAP, NO_END, "W7",
                   "a round need not end: W7 ends it only after early suspicions, nothing forces "
                   "one, and looks can always be taken (W4; W11's tokens run out, the looks do "
                   "not)", witness, variant=f"players {players}",
                   record=format_position(replayed))
    data: dict[str, object] = {"lassos": {str(p): {"from": a, "to": b, "targets": t}
                                          for p, (a, b, t) in sorted(found.items())}}
    return gap_found(SECTION, "round-forever", title, gap, clauses=clauses, basis=basis,
                     seconds=time.perf_counter() - t0, data=data)


def rank(table: zm.SpecTable, x: zm.RoundState) -> Any:
    """Turns a round can still take with W11's tokens as a hard limit: clue tokens left, "?"
    tokens left, question cards held, early suspicions W7 still allows."""
    return (6 * table.players - z3.Sum([v for row in x.laid for v in row]) + zm.POOL - x.pool
            + z3.Sum([v for row in x.held for v in row]) + table.limit - zm.count(x.early))


def round_bounded_by_tokens(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """With W11's supply as a hard limit (a look needs a free token) every turn uses up a
    clue or "?" token, a question card or one of W7's early suspicions: a ranking proof bounds
    a round by 8n + 12 + limit turns at n players. So rounds cannot run on for ever; they get
    stuck on the W11 gap instead (WOOF-W11-NO-TOKEN, section tokens)."""
    t0 = time.perf_counter()
    title = "With W11's tokens as a hard limit a round has at most 8n+12+limit turns"
    basis = "docs/rules.md W11 (finite supply), W5 (two question cards), W7"
    clauses = ("W5", "W7", "W11")
    bounds = {}
    for table in _tables(cfg.quick):
        n = table.players
        st = zm.RoundState.fresh(table, f"b{n}")
        turn = zm.Turn.fresh(f"b{n}u")

        nxt = zm.step(table, st, turn)
        hard = z3.Implies(turn.kind == zm.LOOK, zm.token_free(st, turn))
        try:
            ok, model = prove(budget, z3.And(rank(table, nxt) == rank(table, st) - 1,
                                             rank(table, nxt) >= 0),
                              invariant(table, st), zm.legal(table, st, turn), hard)
            start = zm.RoundState.fresh(table, f"b{n}s")
            at0, _ = prove(budget, rank(table, start) == 8 * n + zm.POOL + table.limit,
                           zm.initial(table, start, 1))
        except Undecided as exc:
            return gave_up(SECTION, "round-bounded-tokens", title, PROVED, clauses, basis, exc,
                           t0)
        if not (ok and at0):
            return judged(SECTION, "round-bounded-tokens", title, False, PROVED, clauses,
                          f"{n} players", str(model)[:300], t0, basis)
        bounds[str(n)] = 8 * n + zm.POOL + table.limit
    return judged(SECTION, "round-bounded-tokens", title, True, PROVED, clauses,
                  "turns at most " + ", ".join(f"{b} ({p} players)" for p, b in bounds.items())
                  + "; reaching a seat with nothing left to lay is the W11 gap", "", t0, basis,
                  {"bounds": bounds})


# ---- W10 -----------------------------------------------------------------------------------

SEATS = 8


def _game_vars(tag: str) -> tuple[Any, list[Any]]:
    return z3.Int(f"{tag}_r"), [z3.Int(f"{tag}_e{p}") for p in range(SEATS)]


def game_invariant(r: Any, e: list[Any]) -> Any:
    """Between rounds: at most 3 rounds played, a seat holds at most one error token per round,
    and a game not over has had at most 2 rounds and no seat with 2 error tokens."""
    return z3.And(r >= 0, r <= zm.ROUNDS, *[z3.And(x >= 0, x <= r) for x in e],
                  z3.Implies(z3.Not(zm.game_over(r, e)), z3.And(r <= 2, *[x <= 1 for x in e])))


def w10_game_ends(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """Does a game always end within 3 rounds or at a second error token? Each round gives a
    seat at most one error token (W8); the invariant is inductive, so a game is over after
    round 3 at the latest, and an early end (a second error token) comes after round 2 at the
    earliest. (Every round must end first: see WOOF-NO-END.)"""
    t0 = time.perf_counter()
    title = "W10: a game ends after 3 rounds or at a second error token"
    basis = "docs/rules.md W10 and W8 (one error token per suspicion)"
    r, e = _game_vars("g")
    d = [z3.Int(f"g_d{p}") for p in range(SEATS)]
    r2, e2 = r + 1, [x + y for x, y in zip(e, d, strict=True)]
    claims = z3.And(game_invariant(r2, e2))
    try:
        base, _ = prove(budget, game_invariant(z3.IntVal(0), [z3.IntVal(0)] * SEATS))
        step, m1 = prove(budget, claims, game_invariant(r, e), z3.Not(zm.game_over(r, e)),
                         *[z3.Or(x == 0, x == 1) for x in d])
        ends, m2 = prove(budget, z3.And(z3.Implies(r == zm.ROUNDS, zm.game_over(r, e)),
                                        z3.Implies(z3.And(zm.game_over(r, e), r < zm.ROUNDS),
                                                   r >= 2)), game_invariant(r, e))
    except Undecided as exc:
        return gave_up(SECTION, "w10-game-ends", title, PROVED, ("W8", "W10"), basis, exc, t0)
    ok = base and step and ends
    return judged(SECTION, "w10-game-ends", title, ok, PROVED, ("W8", "W10"),
                  "inductive over rounds (8 seats): over by round 3; a 2nd error token ends it "
                  "from round 2 on; provided every round ends (WOOF-NO-END)",
                  "" if ok else str(m1 or m2)[:300], t0, basis)


def w10_three_rounds_claim(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """Claim settled: "a game always lasts three rounds" - false: a seat wrong in rounds 1 and
    2 holds two error tokens and ends the game after round 2."""
    t0 = time.perf_counter()
    title = "Claim: every game lasts three rounds"
    basis = "docs/rules.md W10 (a second error token ends the game)"
    d1 = [z3.Int(f"c_d1_{p}") for p in range(SEATS)]
    d2 = [z3.Int(f"c_d2_{p}") for p in range(SEATS)]
    zero = [z3.IntVal(0)] * SEATS
    e1 = d1
    e2 = [a + b for a, b in zip(d1, d2, strict=True)]
    try:
        m = find(budget, *[z3.Or(x == 0, x == 1) for x in d1 + d2],
                 z3.Not(zm.game_over(0, zero)), z3.Not(zm.game_over(1, e1)),
                 zm.game_over(2, e2), z3.Sum(e2) == 2)
    except Undecided as exc:
        return gave_up(SECTION, "w10-three-rounds", title, REFUTED, ("W10",), basis, exc, t0)
    witness = ""
    if m is not None:
        seats = [p + 1 for p in range(SEATS) if m.eval(e2[p]).as_long() >= 2]
        witness = (f"seat(s) {seats} make a wrong suspicion in rounds 1 and 2: two error "
                   "tokens, the game ends after round 2")
    return judged(SECTION, "w10-three-rounds", title, m is not None, REFUTED, ("W10",),
                  "a game can end after two rounds", witness, t0, basis)


def w10_winners(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """W10's winners: there is always one; winners share the best points and, among those,
    the fewest error tokens; everybody else has fewer points or as many with more errors."""
    t0 = time.perf_counter()
    title = "W10: most points win, ties to fewer error tokens, remaining ties share"
    basis = "docs/rules.md W10"
    pts = [z3.Int(f"w_p{p}") for p in range(SEATS)]
    err = [z3.Int(f"w_e{p}") for p in range(SEATS)]
    win = [zm.winner(pts, err, p) for p in range(SEATS)]
    claims = [z3.Or(win)]
    for a in range(SEATS):
        for b in range(SEATS):
            claims.append(z3.Implies(z3.And(win[a], win[b]),
                                     z3.And(pts[a] == pts[b], err[a] == err[b])))
            claims.append(z3.Implies(z3.And(win[a], z3.Not(win[b])),
                                     z3.Or(pts[b] < pts[a],
                                           z3.And(pts[b] == pts[a], err[b] > err[a]))))
    try:
        ok, model = prove(budget, z3.And(claims), *[x >= 0 for x in pts + err])
    except Undecided as exc:
        return gave_up(SECTION, "w10-winners", title, PROVED, ("W10",), basis, exc, t0)
    return judged(SECTION, "w10-winners", title, ok, PROVED, ("W10",),
                  "for all points and error tokens of 8 seats", "" if ok else str(model)[:300],
                  t0, basis)


def ends_section(cfg: VerifyConfig, budget: Budget) -> list[CheckResult]:
    """Every check of the section."""
    return [w6_w7_turns(cfg, budget), w7_reachable(cfg, budget), round_forever(cfg, budget),
            round_bounded_by_tokens(cfg, budget), w10_game_ends(cfg, budget),
            w10_three_rounds_claim(cfg, budget), w10_winners(cfg, budget)]
