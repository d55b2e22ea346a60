"""Section `tokens`: W11's finite supply. Each seat owns 6 double-sided clue tokens (3 can show
Wolf, 3 Hunter, 3 Sheep, 3 Dog) and the table shares 12 "?" tokens; whether announcements can
be laid is a matching problem.

Z3 proves the matching equal to Hall's condition (at most 3 of a side, 5 of two sides, 6 in
all) on every multiset of up to 7 announcements, settles the tempting claim "any six with at
most three of each side fit" (false), checks the Python model's matching against it, and
decides whether the lines of an evidence file can all be laid, against an exhaustive search
over the tokens (and a minimal set of lines that cannot be laid, found by that search, must
be one for Z3 too). The rules gap: the shortest
legal play in which a seat must announce something it has no token left for. Its lower bound
comes from Z3 (any three announcements fit, the pool holds 12, and a bounded search over the Z3
model's turn order at every table for the earliest 4th look of a seat or 13th look of a round);
its upper bound from a play of that length that the Python model under test replays on a real
deal. It is reported as WOOF-W11-NO-TOKEN.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from itertools import permutations, product
from pathlib import Path
from typing import Any

import z3

from fleece.rules.errors import FleeceError
from fleece.rules.woof.cards import Character, parse_card
from fleece.rules.woof.evidence import (
    Evidence,
    Fact,
    LookFact,
    SawFact,
    evidence_from_round,
    load_evidence,
)
from fleece.rules.woof.moves import CardPick, Look, SuspectEarly, WoofMove
from fleece.rules.woof.notation import format_position
from fleece.rules.woof.round import WoofOptions
from fleece.rules.woof.tokens import CLUE_TOKENS, QUESTION_MARK_TOKENS, TokenSupply, can_show
from fleece.verify.budget import Budget, Undecided
from fleece.verify.result import (
    PASSED,
    PROVED,
    REFUTED,
    UNSETTLED,
    CheckResult,
    RulesGap,
    gap_found,
    judged,
)
from fleece.verify.woof import encoding as zm
from fleece.verify.woof.common import (
    FROM_Z3,
    TO_Z3,
    dealt_round,
    evaluate,
    find,
    gave_up,
    new_round,
    prove,
)
from fleece.verify.woof.config import VerifyConfig
from fleece.verify.woof.ids import NO_TOKEN_GAP

SECTION = "tokens"
MAX_SIDES = 7


def count_vectors(total: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of at most `total` announced sides, as counts in TOKEN_SIDES order."""
    for c in product(range(total + 1), repeat=4):
        if sum(c) <= total:
            yield c


def sides_of(counts: Sequence[int]) -> list[int]:
    """The announcements of a count vector, side by side."""
    return [side for side, k in zip(zm.TOKEN_SIDES, counts, strict=True) for _ in range(k)]


_FITS: dict[tuple[object, ...], dict[tuple[int, ...], bool]] = {}


def fits_table(budget: Budget) -> dict[tuple[int, ...], bool]:
    """Z3's matching for every multiset of up to MAX_SIDES announced sides (count vector ->
    whether six tokens can show them), one incremental solver per number of sides; cached per
    budget (its timeouts and its way of checking: a budget that cannot decide gets no table
    computed under another)."""
    key = (*budget.timeouts, type(budget).check)
    if key in _FITS:
        return _FITS[key]
    out: dict[tuple[int, ...], bool] = {}
    for size in range(MAX_SIDES + 1):
        sides = [z3.Int(f"fit{size}_side{i}") for i in range(size)]
        s = z3.Solver()
        if size:
            s.add(zm.matching(sides, f"fit{size}")[0])
        for c in count_vectors(MAX_SIDES):
            if sum(c) != size:
                continue
            s.push()
            s.add(*[v == x for v, x in zip(sides, sides_of(c), strict=True)])
            out[c] = budget.check(s) == z3.sat
            s.pop()
    _FITS[key] = out
    return out


def z3_fits(sides: Sequence[int], budget: Budget, tag: str = "m") -> bool:
    """Z3: a matching of the announced sides into one seat's six tokens exists."""
    if not sides:
        return True
    cons, _ = zm.matching(list(sides), tag)
    return find(budget, cons) is not None


def w11_supply(cfg: VerifyConfig) -> CheckResult:
    """The supply as docs/rules.md gives it (6 tokens a seat, each side on 3, none showing the
    Shepherd, 12 "?" in the pool) and the Python model's token catalogue equals it."""
    t0 = time.perf_counter()
    per_side = {zm.NAMES[s]: sum(s in t for t in zm.CLUE_TOKENS) for s in zm.TOKEN_SIDES}
    problems = []
    if len(zm.CLUE_TOKENS) != 6 or set(per_side.values()) != {3}:
        problems.append(f"docs/rules.md's tokens: {per_side}")
    if any(zm.SHEPHERD in t for t in zm.CLUE_TOKENS):
        problems.append("a token shows the Shepherd")
    want = sorted(tuple(sorted(zm.NAMES[s] for s in t)) for t in zm.CLUE_TOKENS)
    got = sorted(tuple(sorted(s.value for s in t)) for t in CLUE_TOKENS)
    if got != want:
        problems.append(f"the model's tokens {got}, docs/rules.md's {want}")
    if QUESTION_MARK_TOKENS != zm.POOL:
        problems.append(f"the model's pool {QUESTION_MARK_TOKENS}, docs/rules.md's {zm.POOL}")
    return judged(SECTION, "w11-supply", "W11 supply: 6 two-sided tokens a seat, 3 per side; "
                  "12 '?' in the pool", not problems, PASSED, ("W11",),
                  f"sides on tokens: {per_side}", "; ".join(problems), t0,
                  "docs/rules.md W11 and the token facts")


def w11_hall(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """A seat's announcements fit its tokens exactly when Hall's condition holds (at most 3 of
    a side, 5 of two sides, 6 in all): Z3's matching against the condition on every multiset
    of up to 7 announced sides."""
    t0 = time.perf_counter()
    title = "W11: announcements fit exactly when at most 3 a side, 5 two sides, 6 in all"
    basis = "docs/rules.md W11 (a matching problem) and the token facts"
    bad = []
    try:
        table = fits_table(budget)
        n = len(table)
        for c, fits in table.items():
            if fits != evaluate(zm.hall_fits(list(c))):
                bad.append(f"{dict(zip(_names(), c, strict=True))}: matching {fits}")
    except Undecided as exc:
        return gave_up(SECTION, "w11-hall", title, PROVED, ("W11",), basis, exc, t0)
    return judged(SECTION, "w11-hall", title, not bad, PROVED, ("W11",),
                  f"{n} multisets of up to {MAX_SIDES} sides", "; ".join(bad[:3]), t0, basis)


def _names() -> list[str]:
    return [zm.NAMES[s] for s in zm.TOKEN_SIDES]


def w11_three_each(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """Claim settled: "any six announcements with at most three of each side can be laid" -
    false: three Wolf and three Hunter leave Wolf/Hunter, Wolf/Sheep, Wolf/Dog for the Wolves,
    and only Hunter/Sheep and Dog/Hunter for three Hunters."""
    t0 = time.perf_counter()
    title = "Claim: six announcements, at most three of each side, can always be laid"
    basis = "docs/rules.md W11 (a matching problem, not a count per side)"
    counts = [z3.Int(f"t3_{i}") for i in range(4)]
    try:
        m = find(budget, *[z3.And(c >= 0, c <= 3) for c in counts], z3.Sum(counts) == 6,
                 z3.Not(zm.hall_fits(counts)))
        witness = ""
        ok = False
        if m is not None:
            c = [m.eval(x).as_long() for x in counts]
            ok = not z3_fits(sides_of(c), budget, "t3w")
            witness = ("announced " + ", ".join(f"{k} {name}" for name, k in
                                                zip(_names(), c, strict=True) if k)
                       + ": no matching into the six tokens")
    except Undecided as exc:
        return gave_up(SECTION, "w11-three-each", title, REFUTED, ("W11",), basis, exc, t0)
    return judged(SECTION, "w11-three-each", title, ok, REFUTED, ("W11",),
                  "a count per side is not enough", witness, t0, basis)


def w11_matching_model(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """The matching of the Python model (rules.woof.tokens: can_show, and TokenSupply, which
    the round model lays tokens with, one token at a time) against Z3 on every multiset of
    up to 7 sides, in sorted and shuffled order."""
    t0 = time.perf_counter()
    rng = random.Random(cfg.seed)
    bad = []
    n = 0
    title = "W11 matching: the model = Z3"
    try:
        for c, want in fits_table(budget).items():
            sides = sides_of(c)
            for order in (sides, rng.sample(sides, len(sides))):
                n += 1
                chars = [FROM_Z3[s] for s in order]
                placed = TokenSupply()
                laid = 0
                for ch in chars:
                    if not placed.can_place(1, ch):
                        break
                    placed = placed.place(1, ch)
                    laid += 1
                have = (can_show(chars), laid == len(chars))
                if have != (want, want):
                    bad.append(f"{[x.value for x in chars]}: can_show/supply {have}, Z3 {want}")
    except Undecided as exc:
        return gave_up(SECTION, "w11-matching", title, PASSED, ("W11",), "docs/rules.md W11", exc,
                       t0)
    return judged(SECTION, "w11-matching", title, not bad, PASSED, ("W11",),
                  f"{n} announcement sequences", "; ".join(bad[:3]), t0,
                  "docs/rules.md W11: the model decides the matching exactly")


# ---- evidence files --------------------------------------------------------------------------


Need = tuple[int, int | None, int | None]  # viewer, side shown (None: a "?"), as a Shepherd


def token_needs(facts: Sequence[Fact]) -> list[Need]:
    """W4/W11 read from the lines of a record: the token each line laid. `look` lines and
    `saw` lines with an announcement lay their announcement's side ("?" when none); an
    unannounced `saw` laid the card's appearance ("?" for a "?" appearance), or Wolf when the
    viewer is the Shepherd (the third field: the side under that reading). Z3 side numbers;
    -1 for an announcement no token shows (the Shepherd)."""
    out: list[Need] = []
    for f in facts:
        if isinstance(f, LookFact) or (isinstance(f, SawFact) and f.announced_given):
            said = f.announced
            side = None if said is None else TO_Z3[said]
            if side is not None and side not in zm.TOKEN_SIDES:
                side = -1
            out.append((f.viewer, side, side))
        elif isinstance(f, SawFact):
            app = f.card.appearance
            side = None if app is None else TO_Z3[app]
            if side is not None and side not in zm.TOKEN_SIDES:
                side = -1
            out.append((f.viewer, side, None if side is None else zm.WOLF))
    return out


def z3_layable(facts: Sequence[Fact], budget: Budget, tag: str) -> bool:
    """Z3: the lines of a record can all be laid: per viewer distinct clue tokens showing each
    line's side (under one reading per viewer of whether it is the Shepherd), and at most 12
    "?" lines."""
    needs = token_needs(facts)
    if sum(side is None for _, side, _ in needs) > zm.POOL:
        return False
    cons = []
    by_viewer: dict[int, list[Any]] = {}
    shepherd: dict[int, Any] = {}
    for i, (viewer, side, as_shepherd) in enumerate(needs):
        if side is None:
            continue
        sh = shepherd.setdefault(viewer, z3.Bool(f"{tag}_shep{viewer}"))
        shown = z3.If(sh, as_shepherd, side) if as_shepherd != side else z3.IntVal(side)
        tok = z3.Int(f"{tag}_tok{i}")
        cons.append(z3.Or([z3.And(tok == t, z3.Or(shown == a, shown == b))
                           for t, (a, b) in enumerate(zm.CLUE_TOKENS)]))
        by_viewer.setdefault(viewer, []).append(tok)
    for toks in by_viewer.values():
        if len(toks) > 1:
            cons.append(z3.Distinct(toks))
    return find(budget, *cons) is not None


def search_layable(facts: Sequence[Fact]) -> bool:
    """The same question by exhaustive search: every assignment of a viewer's lines to
    distinct tokens of its six, under both readings of whether it is the Shepherd."""
    needs = token_needs(facts)
    if sum(side is None for _, side, _ in needs) > zm.POOL:
        return False
    by_viewer: dict[int, list[tuple[int, int]]] = {}
    for viewer, side, as_shepherd in needs:
        if side is not None and as_shepherd is not None:
            by_viewer.setdefault(viewer, []).append((side, as_shepherd))
    for lines in by_viewer.values():
        fits = False
        for reading in (0, 1):
            sides = [line[reading] for line in lines]
            if any(all(side in zm.CLUE_TOKENS[t] for side, t in zip(sides, pick, strict=True))
                   for pick in permutations(range(len(zm.CLUE_TOKENS)), len(sides))):
                fits = True
                break
        if not fits:
            return False
    return True


def search_clash(facts: Sequence[Fact]) -> list[Fact]:
    """A minimal set of lines that cannot all be laid (drop each line the rest cannot lay
    without, later lines first), by the exhaustive search; [] when all can be laid."""
    if search_layable(facts):
        return []
    core = list(facts)
    for i in range(len(core) - 1, -1, -1):
        rest = core[:i] + core[i + 1:]
        if not search_layable(rest):
            core = rest
    return core


def example_records() -> list[tuple[str, Evidence]]:
    """The bundled example evidence files (none in an installed copy without examples/)."""
    root = Path(__file__).resolve().parents[2] / "examples" / "woof"
    out = []
    for path in sorted(root.glob("*.txt")) if root.is_dir() else []:
        out.append((path.name, load_evidence(path.read_text(encoding="utf-8"), path.name)))
    return out


def random_records(cfg: VerifyConfig, rng: random.Random, count: int
                    ) -> Iterator[tuple[str, Evidence]]:
    """Records of rounds the model under test plays with looks only (long enough to run out
    of tokens), seen publicly or by one seat, and synthetic records of random announcements
    (unannounced `saw` lines included)."""
    for i in range(count):
        players = rng.randint(4, 8)
        rnd = new_round(cfg.model, WoofOptions(players, start=1))
        rnd = rnd.play(rnd.sample_chance(rng))
        for _ in range(rng.randint(players, 8 * players)):
            if rnd.over:
                break
            seats = [s for s in rnd.table.seat_numbers if s != rnd.current]
            rnd = rnd.play(Look(rnd.current, rng.choice(seats))).play(CardPick(rng.randrange(2)))
        me = rng.choice([None, *rnd.table.acting])
        yield f"round {i}", evidence_from_round(rnd, me)
    faces: list[Character | None] = [None, *map(Character, ("wolf", "hunter", "sheep", "dog"))]
    cards = [parse_card(n) for n in ("sheep", "dog?", "hunter@sheep", "wolf", "shepherd?")]
    for i in range(count):
        facts: list[Fact] = []
        for line in range(1, rng.randint(2, 16)):
            viewer, target = rng.sample(range(1, 5), 2)
            if rng.random() < 0.2:
                facts.append(SawFact(viewer, target, rng.choice(cards), line=line))
            else:
                facts.append(LookFact(viewer, target, rng.choice(faces), line))
        yield f"synthetic {i}", Evidence(4, (), tuple(facts))


def w11_evidence(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """For every bundled example and random records (rounds the model under test played,
    synthetic records): whether all lines can be laid, by Z3 and by exhaustive search; an
    unlayable record's minimal clash (by the search) cannot be laid by Z3 either, and can be
    once any one of its lines is dropped."""
    t0 = time.perf_counter()
    title = "W11 on evidence files: Z3 = an exhaustive search over the tokens"
    rng = random.Random(cfg.seed)
    bad = []
    try:
        records = [*example_records(), *random_records(cfg, rng, 6 if cfg.quick else 40)]
    except FleeceError as exc:
        return judged(SECTION, "w11-evidence", title, False, PASSED, ("W11",),
                      f"the model under test refuses a random round: {exc}", "", t0,
                      "docs/rules.md W11: a record the tokens cannot lay is impossible")
    clashes = 0
    try:
        for k, (name, ev) in enumerate(records):
            want = z3_layable(ev.facts, budget, f"e{k}")
            if search_layable(ev.facts) != want:
                bad.append(f"{name}: search {not want}, Z3 {want}")
                continue
            if want:
                continue
            clashes += 1
            core = search_clash(ev.facts)
            if z3_layable(core, budget, f"c{k}") or not all(
                    z3_layable(core[:i] + core[i + 1:], budget, f"c{k}_{i}")
                    for i in range(len(core))):
                bad.append(f"{name}: the clash {[f.line for f in core]} is not minimal for Z3")
    except Undecided as exc:
        return gave_up(SECTION, "w11-evidence", title, PASSED, ("W11",), "docs/rules.md W11", exc,
                       t0)
    return judged(SECTION, "w11-evidence", title, not bad, PASSED, ("W11",),
                  f"{len(records)} records ({len(example_records())} bundled examples), "
                  f"{clashes} unlayable with a minimal clash", "; ".join(bad[:3]), t0,
                  "docs/rules.md W11: a record the tokens cannot lay is impossible",
                  {"records": len(records), "unlayable": clashes})


# ---- the rules gap: a seat with no token left ------------------------------------------------


def three_always_fit(budget: Budget) -> bool:
    """Z3: any three clue announcements of a seat fit its tokens (Hall's condition, equal to
    the matching by `w11-hall`), so a seat runs out at its 4th clue look at the earliest; the
    pool runs out at the 13th "?" look."""
    counts = [z3.Int(f"three_{i}") for i in range(4)]
    ok, _ = prove(budget, zm.hall_fits(counts), *[c >= 0 for c in counts], z3.Sum(counts) <= 3)
    return ok


def earliest_turn(table: zm.SpecTable, budget: Budget, max_turns: int) -> int | None:
    """The fewest turns of a legal play at this table (any start seat and bans) whose last turn
    is a look that is either the seat's 4th turn or the 13th turn of the round: the earliest a
    W11 gap can come (see `three_always_fit`). Bounded search over the Z3 encoding's turn order
    (W6 first turns, W7's end, early suspicions leaving the order); None up to `max_turns`."""
    n = table.players
    s = z3.Solver()
    barred = [z3.Bool(f"sch{n}_barred{i}") for i in range(n)]
    cur: Any = z3.Int(f"sch{n}_cur0")
    had: list[Any] = [z3.BoolVal(False)] * n
    early: list[Any] = [z3.BoolVal(False)] * n
    turns: list[Any] = [z3.IntVal(0)] * n
    s.add(cur >= 1, cur <= n, zm.count(barred) <= table.limit)
    for k in range(1, max_turns + 1):
        kind = z3.Int(f"sch{n}_kind{k}")
        mine = [cur == i + 1 for i in range(n)]
        s.add(kind >= zm.LOOK, kind <= zm.EARLY, zm.count(early) < table.limit,
              z3.Or([z3.And(mine[i], z3.Not(early[i])) for i in range(n)]),
              z3.Implies(kind == zm.EARLY, z3.Or([z3.And(mine[i], had[i], z3.Not(barred[i]))
                                                   for i in range(n)])))
        s.push()
        s.add(kind == zm.LOOK, z3.Or(k > zm.POOL, *[z3.And(mine[i], turns[i] >= 3)
                                                   for i in range(n)]))
        if budget.check(s) == z3.sat:
            return k
        s.pop()
        nxt = [z3.Bool(f"sch{n}_early{k}_{i}") for i in range(n)]
        s.add(*[nxt[i] == z3.Or(early[i], z3.And(kind == zm.EARLY, mine[i])) for i in range(n)])
        counts = [z3.Int(f"sch{n}_turns{k}_{i}") for i in range(n)]
        s.add(*[counts[i] == turns[i] + z3.If(mine[i], 1, 0) for i in range(n)])
        after = z3.Int(f"sch{n}_cur{k}")
        s.add(after == zm.next_seat(table, cur, nxt))
        had = [z3.Or(had[i], mine[i]) for i in range(n)]
        cur, early, turns = after, nxt, counts
    return None


def shepherd_play() -> tuple[list[tuple[Any, Any]], list[WoofMove]]:
    """A 4-player play ending in a Shepherd's fourth Wolf: seat 1 (the Shepherd) looks at seat
    2's Sheep on each of its turns; seat 2 suspects early on its second turn (W7 allows one
    before the round ends), seats 3 and 4 look; 12 turns."""
    c = parse_card
    hands = [(c("shepherd?"), c("sheep")), (c("sheep"), c("sheep")), (c("hunter"), c("sheep")),
             (c("wolf"), c("sheep")), (c("dog"), c("sheep"))]

    def look(v: int, t: int, i: int = 0) -> list[WoofMove]:
        return [Look(v, t), CardPick(i)]

    moves = [*look(1, 2), *look(2, 3), *look(3, 4), *look(4, 5),
             *look(1, 2), SuspectEarly(2, (5, 3)), *look(3, 4), *look(4, 5),
             *look(1, 2), *look(3, 1, 1), *look(4, 1),
             *look(1, 2)]
    return hands, moves


def no_token(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """The shortest legal play in which a seat must announce something it has no token left
    for. Lower bound (Z3): three clue announcements always fit and the pool holds 12, so a gap
    needs a seat's 4th look or a round's 13th; the turn order puts that at turn 12 (4 players)
    or 13 (5-8) at the earliest. Upper bound: a 4-player play of that length (a Shepherd's
    fourth Wolf) replayed in the model under test, which must record the W11 gap on its last
    look and on no earlier one. The gap gates the run unless accepted (WOOF-W11-NO-TOKEN)."""
    t0 = time.perf_counter()
    title = "Shortest play where a seat must announce with no token left (W11)"
    basis = "docs/rules.md W11: running out of tokens is a gap the checks must expose"
    clauses = ("W4", "W11")
    hands, moves = shepherd_play()
    turns = sum(1 for m in moves if not isinstance(m, CardPick))
    shortest: dict[str, int | None] = {}
    try:
        lemma = three_always_fit(budget)
        for table in zm.TABLES:
            shortest[str(table.players)] = earliest_turn(table, budget, zm.POOL + 1)
    except Undecided as exc:
        return gave_up(SECTION, "no-token", title, PROVED, clauses, basis, exc, t0)
    found = [k for k in shortest.values() if k is not None]
    least = min(found) if found else None
    if least is None or not lemma:
        return judged(SECTION, "no-token", title, False, PROVED, clauses,
                      f"the lower bound does not hold: three announcements always fit: "
                      f"{lemma}; earliest turns {shortest}", "", t0, basis)
    try:
        rnd = dealt_round(cfg.model, 4, hands)
        gaps_at = []
        for i, move in enumerate(moves):
            before = len(rnd.gaps)
            rnd = rnd.play(move)
            if len(rnd.gaps) > before:
                gaps_at.append(i)
    except FleeceError as exc:
        return judged(SECTION, "no-token", title, False, PROVED, clauses,
                      f"the model under test refuses the play: {exc}", "", t0, basis)
    data: dict[str, object] = {"shortest_turns": shortest, "replayed_turns": turns}
    if gaps_at != [len(moves) - 1] or least != turns:
        return judged(SECTION, "no-token", title, False, PROVED, clauses,
                      f"the model records W11 gaps after moves {gaps_at} of {len(moves)}; Z3's "
                      f"shortest play has {least} turns, the replay {turns}", "", t0, basis, data)
    tables = ", ".join(f"{k} at {p} players" for p, k in shortest.items())
    witness = ("4 players: seat 1 (shepherd? + sheep) is the Shepherd and looks at seat 2's "
               "Sheep on turns 1, 5, 9 and 12, announcing Wolf each time; seat 2 suspects "
               "early on turn 6, seats 3 and 4 look. Its Wolf/Hunter, Wolf/Sheep and Wolf/Dog "
               "tokens are out after turn 9: on turn 12 it must announce Wolf with no token "
               "showing Wolf left. No play is shorter: any three clue announcements fit a "
               "seat's tokens and the pool holds 12 '?' (Z3), and the turn order makes a 4th "
               f"look or a 13th turn come at turn {tables} at the earliest (bounded search)")
    gap = RulesGap(NO_TOKEN_GAP, UNSETTLED, "W11",
                   "a seat must announce something it has no token left for (the rules say "
                   "nothing: announce without a token? skip the look? the 13th '?' likewise)",
                   witness, variant="players 4", record=format_position(rnd))
    return gap_found(SECTION, "no-token", title, gap, clauses=clauses, basis=basis,
                     seconds=time.perf_counter() - t0, data=data)


def tokens_section(cfg: VerifyConfig, budget: Budget) -> list[CheckResult]:
    """Every check of the section."""
    return [w11_supply(cfg), w11_hall(cfg, budget), w11_three_each(cfg, budget),
            w11_matching_model(cfg, budget), w11_evidence(cfg, budget), no_token(cfg, budget)]
