"""Sections `scoring` and `example`: W8 and W9 as invariants of the Z3 encoding's scoring for every
table, and the rulebook's worked example as proof obligations.

The worked example contradicts itself on the Shepherd's Wolf token: the narrative has Thomas
(the Shepherd) lay his Wolf token at Kenny, while the result gives Thomas a bonus point because
Paul (a Hunter) wrongly named Jason as Wolf "misled by the Wolf token Thomas laid at Jason".
Both readings are checked: (A) Thomas' Wolf tokens lie at Kenny and at Jason (the round model's
golden test plays it that way): the rulebook's result follows from W8-W9; (B) the narrative
only, a Wolf token at Kenny and none at Jason: W9 gives no bonus, so the rulebook's stated result
does not follow (REFUTED, with the score W9 gives). A third check shows the bonus comes exactly
from the token at Jason. The Python model implements W9 as docs/rules.md reads it (the token
must lie on the wrongly named seat), so it reproduces reading A's result and reading B's W9 score.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

from fleece.rules.errors import FleeceError
from fleece.rules.woof.cards import QuestionCard, parse_card
from fleece.rules.woof.moves import Ask as AskMove
from fleece.rules.woof.moves import CardPick, FinalSuspicion, Look, SuspectEarly, WoofMove
from fleece.rules.woof.round import WoofRound
from fleece.verify.budget import Budget, Undecided
from fleece.verify.result import PASSED, PROVED, REFUTED, CheckResult, judged
from fleece.verify.woof import encoding as zm
from fleece.verify.woof.common import (
    RULES,
    TO_Z3,
    dealt_round,
    evaluate,
    gave_up,
    prove,
)
from fleece.verify.woof.config import VerifyConfig

SECTION = "scoring"
EXAMPLE = "example"


@dataclass(frozen=True)
class Scoring:
    """A symbolic end of round for a table: characters, suspicions, Wolf tokens, the Dog's
    second target, their domains, and the Z3 encoding's score."""

    table: zm.SpecTable
    chars: list[Any]
    kinds: list[Any]
    picks: list[list[Any]]
    wolf_at: list[list[Any]]
    dog2: Any
    domain: list[Any]
    score: zm.Score


def symbolic(table: zm.SpecTable, tag: str) -> Scoring:
    """Every character, suspicion (none, early, final; picks 0 or another seat) and Wolf token
    possible at a table."""
    m, n = table.seats, table.players
    chars = [z3.Int(f"{tag}_c{s}") for s in range(1, m + 1)]
    kinds = [z3.Int(f"{tag}_k{s}") for s in range(1, n + 1)]
    picks = [[z3.Int(f"{tag}_p{s}_{i}") for i in range(2)] for s in range(1, n + 1)]
    wolf_at = [[z3.Bool(f"{tag}_w{v}_{t}") for t in range(1, m + 1)] for v in range(1, n + 1)]
    dog2 = z3.Int(f"{tag}_dog2")
    dom = [zm.is_character(c) for c in chars] + [zm.is_character(dog2)]
    dom += [z3.And(k >= zm.NONE, k <= zm.FINAL_SUSPICION) for k in kinds]
    dom += [zm.pick_ok(table, s + 1, p) for s in range(n) for p in picks[s]]
    return Scoring(table, chars, kinds, picks, wolf_at, dog2, dom,
                   zm.score(chars, kinds, picks, wolf_at, dog2))


def _tables(quick: bool) -> tuple[zm.SpecTable, ...]:
    return (zm.SpecTable(4), zm.SpecTable(8)) if quick else zm.TABLES


def w8_suspicion(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """W8 per suspicion, at every table: no suspicion scores nothing; a suspicion scores points
    or an error token, never both; correct early 2, correct final 1, wrong 1 error token;
    barred next round exactly after a wrong early suspicion (points here exclude the bonus)."""
    t0 = time.perf_counter()
    title = "W8: points and error tokens per suspicion"
    basis = "docs/rules.md W8"
    for table in _tables(cfg.quick):
        sc = symbolic(table, f"w8_{table.players}")
        claims = []
        for s in range(table.players):
            base = sc.score.points[s] - sc.score.bonus[s]
            err, kind = sc.score.errors[s], sc.kinds[s]
            claims += [
                z3.Implies(kind == zm.NONE, z3.And(base == 0, err == 0)),
                z3.Implies(kind != zm.NONE, z3.Xor(base > 0, err == 1)),
                z3.Implies(sc.score.right[s], base == z3.If(kind == zm.EARLY_SUSPICION, 2, 1)),
                z3.Implies(z3.And(kind != zm.NONE, z3.Not(sc.score.right[s])), err == 1),
                sc.score.barred[s] == z3.And(kind == zm.EARLY_SUSPICION, err == 1),
                z3.Or(base == 0, base == 1, base == 2), z3.Or(err == 0, err == 1)]
        try:
            ok, model = prove(budget, z3.And(claims), *sc.domain)
        except Undecided as exc:
            return gave_up(SECTION, "w8-suspicion", title, PROVED, ("W8",), basis, exc, t0)
        if not ok:
            return judged(SECTION, "w8-suspicion", title, False, PROVED, ("W8",),
                          f"{table.players} players", str(model)[:300], t0, basis)
    return judged(SECTION, "w8-suspicion", title, True, PROVED, ("W8",),
                  f"every character, suspicion and Wolf token at {len(_tables(cfg.quick))} "
                  "table size(s)", "", t0, basis)


def w8_nobody(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """W8's "0: no seat has it" equals "no other seat has it" whenever the Dog does not target
    itself (W2): a seat never looks for its own character."""
    t0 = time.perf_counter()
    title = "W8: '0' means no seat has it (= no other seat, as no one targets itself)"
    basis = "docs/rules.md W2 and W8"
    for table in _tables(cfg.quick):
        sc = symbolic(table, f"w8n_{table.players}")
        claims = []
        for s in range(table.players):
            for i in range(2):
                t = zm.target(sc.chars[s], i, sc.dog2)
                anyone = z3.And([c != t for c in sc.chars])
                others = z3.And([c != t for j, c in enumerate(sc.chars) if j != s])
                claims.append(anyone == others)
        try:
            ok, model = prove(budget, z3.And(claims), *sc.domain, sc.dog2 != zm.DOG)
        except Undecided as exc:
            return gave_up(SECTION, "w8-nobody", title, PROVED, ("W2", "W8"), basis, exc, t0)
        if not ok:
            return judged(SECTION, "w8-nobody", title, False, PROVED, ("W2", "W8"),
                          f"{table.players} players", str(model)[:300], t0, basis)
    return judged(SECTION, "w8-nobody", title, True, PROVED, ("W2", "W8"),
                  "every table, character and Dog second target but the Dog", "", t0, basis)


def w9_bonus(cfg: VerifyConfig, budget: Budget) -> CheckResult:
    """W9: a seat's bonus is positive only when it is the Shepherd and a Hunter or Dog named as
    Wolf a seat that is no Wolf and carries this Shepherd's Wolf token; it never exceeds the
    number of suspecting Hunters and Dogs; without a Wolf token of the Shepherd there is none."""
    t0 = time.perf_counter()
    title = "W9: the Shepherd bonus only with his Wolf token on the wrongly named seat"
    basis = "docs/rules.md W9"
    for table in _tables(cfg.quick):
        sc = symbolic(table, f"w9_{table.players}")
        n, m = table.players, table.seats
        hunters = zm.count([z3.And(sc.kinds[s] != zm.NONE, z3.Or(
            sc.chars[s] == zm.HUNTER, sc.chars[s] == zm.DOG)) for s in range(n)])
        for sh in range(n):
            misled = []
            for s in range(n):
                named = zm.wolf_pick(sc.chars[s], sc.picks[s], sc.dog2)
                misled.append(z3.And(
                    sc.kinds[s] != zm.NONE,
                    z3.Or(sc.chars[s] == zm.HUNTER, sc.chars[s] == zm.DOG),
                    z3.Or([z3.And(named == t + 1, sc.chars[t] != zm.WOLF, sc.wolf_at[sh][t])
                           for t in range(m)])))
            bonus = sc.score.bonus[sh]
            claims = [z3.Implies(bonus > 0, z3.And(sc.chars[sh] == zm.SHEPHERD, z3.Or(misled))),
                      z3.And(bonus >= 0, bonus <= hunters),
                      z3.Implies(z3.Not(z3.Or(sc.wolf_at[sh])), bonus == 0)]
            for claim in claims:  # one query each: much faster than their conjunction
                try:
                    ok, model = prove(budget, claim, *sc.domain)
                except Undecided as exc:
                    return gave_up(SECTION, "w9-bonus", title, PROVED, ("W9",), basis, exc, t0)
                if not ok:
                    return judged(SECTION, "w9-bonus", title, False, PROVED, ("W9",),
                                  f"{table.players} players, seat {sh + 1}", str(model)[:300],
                                  t0, basis)
    return judged(SECTION, "w9-bonus", title, True, PROVED, ("W9",),
                  f"every character, suspicion and Wolf token at {len(_tables(cfg.quick))} "
                  "table size(s)", "", t0, basis)


# ---- the rulebook's worked example -----------------------------------------------------------

EVA, THOMAS, PAUL, JASON, KENNY = 1, 2, 3, 4, 5
NAMES = {EVA: "Eva", THOMAS: "Thomas", PAUL: "Paul", JASON: "Jason", KENNY: "Kenny"}
EXAMPLE_CHARS = (zm.WOLF, zm.SHEPHERD, zm.HUNTER, zm.SHEEP, zm.HUNTER)


def example_scoring(tag: str, dog2: int) -> Scoring:
    """The example's end of round: Eva (Wolf) early names Jason as Sheep; Thomas (Shepherd)
    early names Eva as Wolf and Paul as Sheep; Paul (Hunter) finally names Jason as Wolf and
    nobody as Dog; Jason (Sheep) suspects finally with picks the rulebook does not give (free);
    Kenny (Hunter) abstains. Wolf tokens are free; each reading fixes Thomas' at Kenny/Jason."""
    table = zm.SpecTable(5)
    sc = symbolic(table, tag)
    fixed = [c == v for c, v in zip(sc.chars, EXAMPLE_CHARS, strict=True)]
    fixed += [sc.kinds[0] == zm.EARLY_SUSPICION, sc.picks[0][0] == JASON, sc.picks[0][1] == 0,
              sc.kinds[1] == zm.EARLY_SUSPICION, sc.picks[1][0] == EVA,
              sc.picks[1][1] == PAUL,
              sc.kinds[2] == zm.FINAL_SUSPICION, sc.picks[2][0] == JASON, sc.picks[2][1] == 0,
              sc.kinds[3] == zm.FINAL_SUSPICION, sc.kinds[4] == zm.NONE, sc.dog2 == dog2]
    return Scoring(sc.table, sc.chars, sc.kinds, sc.picks, sc.wolf_at, sc.dog2,
                   sc.domain + fixed, sc.score)


def rulebook_result(sc: Scoring) -> Any:
    """The rulebook's result paragraph: Eva 2 points; Thomas an error token, barred next round,
    a bonus point (1 point in all); Paul an error token and no points; Kenny nothing."""
    p, e, b = sc.score.points, sc.score.errors, sc.score.bonus
    i = {k: k - 1 for k in NAMES}
    return z3.And(p[i[EVA]] == 2, e[i[EVA]] == 0,
                  e[i[THOMAS]] == 1, sc.score.barred[i[THOMAS]], b[i[THOMAS]] == 1,
                  p[i[THOMAS]] == 1, e[i[PAUL]] == 1, p[i[PAUL]] == 0,
                  p[i[KENNY]] == 0, e[i[KENNY]] == 0)


def _token(sc: Scoring, at: int) -> Any:
    return sc.wolf_at[THOMAS - 1][at - 1]


def _score_text(model: Any, sc: Scoring) -> str:
    """The scores W8-W9 give in a model of the example (Jason's, which the rulebook does not
    state, left out)."""
    return ", ".join(f"{NAMES[s]} {model.eval(sc.score.points[s - 1])} point(s) (bonus "
                     f"{model.eval(sc.score.bonus[s - 1])}), {model.eval(sc.score.errors[s - 1])}"
                     " error token(s)" for s in NAMES if s != JASON)


def example_readings(cfg: VerifyConfig, budget: Budget) -> list[CheckResult]:
    """Reading A (Wolf tokens at Kenny and Jason) PROVED, reading B (at Kenny only) REFUTED,
    and the bonus holds exactly when Thomas' Wolf token lies at Jason (PROVED)."""
    dog2 = TO_Z3[cfg.dog_target]
    out: list[CheckResult] = []
    t0 = time.perf_counter()
    title = "Example, reading A (result text): Thomas' Wolf tokens at Kenny and Jason"
    basis = "the rulebook's result paragraph with docs/rules.md W8-W9"
    sc = example_scoring("exa", dog2)
    try:
        ok, model = prove(budget, rulebook_result(sc), *sc.domain, _token(sc, KENNY),
                          _token(sc, JASON))
        out.append(judged(EXAMPLE, "example-reading-a", title, ok, PROVED, ("W8", "W9"),
                          "Eva 2, Thomas 1 (bonus) with an error token and barred, Paul an "
                          "error token, Kenny nothing; for every pick of Jason's and every "
                          "other token", "" if ok else _score_text(model, sc), t0, basis))
    except Undecided as exc:
        out.append(gave_up(EXAMPLE, "example-reading-a", title, PROVED, ("W8", "W9"), basis,
                           exc, t0))
    t0 = time.perf_counter()
    title = "Example, reading B (narrative): Thomas' Wolf token at Kenny only"
    basis = ("docs/rules.md W9: the bonus needs the Shepherd's Wolf token on the seat wrongly "
             "named as Wolf (Paul named Jason)")
    sc = example_scoring("exb", dog2)
    try:
        ok, model = prove(budget, rulebook_result(sc), *sc.domain, _token(sc, KENNY),
                          z3.Not(_token(sc, JASON)))
        out.append(judged(EXAMPLE, "example-reading-b", title, not ok, REFUTED, ("W9",),
                          "the rulebook's stated result does not follow: no bonus for Thomas",
                          "" if ok else _score_text(model, sc), t0, basis))
    except Undecided as exc:
        out.append(gave_up(EXAMPLE, "example-reading-b", title, REFUTED, ("W9",), basis, exc,
                           t0))
    t0 = time.perf_counter()
    title = "Example: Thomas' bonus holds exactly when his Wolf token lies at Jason"
    basis = "docs/rules.md W9"
    sc = example_scoring("exc", dog2)
    try:
        ok, model = prove(budget, (sc.score.bonus[THOMAS - 1] == 1) == _token(sc, JASON),
                          *sc.domain)
        out.append(judged(EXAMPLE, "example-token", title, ok, PROVED, ("W9",),
                          "for every placement of every seat's Wolf tokens and Jason's picks; "
                          "otherwise the bonus is 0", "" if ok else _score_text(model, sc), t0,
                          basis))
    except Undecided as exc:
        out.append(gave_up(EXAMPLE, "example-token", title, PROVED, ("W9",), basis, exc, t0))
    return out


def example_round(model: type[WoofRound], reading: str) -> WoofRound:
    """The worked example played with the model under test (5 players, start Eva): the opening
    turns as the rulebook tells them, more looks, then Eva's and Thomas' early suspicions and the
    final ones (Jason names nobody as Dog and Kenny as Hunter). Reading A: Thomas' second look
    lays a Wolf token at Jason; reading B: it is a "?" at Kenny."""
    c = parse_card
    hands = [(c("wolf"), c("sheep")), (c("shepherd?"), c("dog")), (c("hunter"), c("sheep")),
             (c("sheep"), c("sheep")), (c("hunter"), c("hunter?"))]
    q = QuestionCard
    questions = ((q.Q2, q.Q2), (q.Q3, q.Q3), (q.Q4, q.Q4), (q.Q1, q.Q2), (q.Q3, q.Q4))
    rnd = dealt_round(model, 5, hands, questions=questions)
    second = (Look(THOMAS, JASON), CardPick(0)) if reading == "A" else (
        Look(THOMAS, KENNY), CardPick(1))
    moves: list[WoofMove] = [
        Look(EVA, JASON), CardPick(0), Look(THOMAS, KENNY), CardPick(0),
        Look(PAUL, THOMAS), CardPick(1), AskMove(JASON, PAUL, q.Q1), Look(KENNY, EVA),
        CardPick(0), Look(EVA, PAUL), CardPick(0), *second, Look(PAUL, EVA), CardPick(1),
        Look(JASON, THOMAS), CardPick(0), Look(KENNY, PAUL), CardPick(1),
        SuspectEarly(EVA, (JASON,)), SuspectEarly(THOMAS, (EVA, PAUL)),
        FinalSuspicion(PAUL, (JASON, 0)), FinalSuspicion(JASON, (0, KENNY)),
        FinalSuspicion(KENNY, None)]
    for move in moves:
        rnd = rnd.play(move)
    return rnd


def example_model(cfg: VerifyConfig) -> CheckResult:
    """The model under test plays both readings: reading A scores the rulebook's result, and
    both readings score what the Z3 encoding's W8-W9 give (reading B: no bonus)."""
    t0 = time.perf_counter()
    problems = []
    scores: dict[str, object] = {}
    for reading in ("A", "B"):
        try:
            rnd = example_round(cfg.model, reading)
            got = rnd.score()
        except FleeceError as exc:
            problems.append(f"reading {reading}: the model refuses the play: {exc}")
            continue
        chars = [TO_Z3[rnd.character(s)] for s in range(1, 6)]
        kinds = [zm.EARLY_SUSPICION, zm.EARLY_SUSPICION, zm.FINAL_SUSPICION,
                 zm.FINAL_SUSPICION, zm.NONE]
        picks = [[JASON, 0], [EVA, PAUL], [JASON, 0], [0, KENNY], [0, 0]]
        wolf = [[False] * 5 for _ in range(5)]
        wolf[THOMAS - 1][KENNY - 1] = True
        wolf[THOMAS - 1][JASON - 1] = reading == "A"
        want = zm.score(chars, kinds, picks, wolf, TO_Z3[cfg.dog_target])
        for s in NAMES:
            have = (got.points[s], got.errors[s], got.bonus[s], s in got.barred_next_round)
            exp = (evaluate(want.points[s - 1]), evaluate(want.errors[s - 1]),
                   evaluate(want.bonus[s - 1]), evaluate(want.barred[s - 1]))
            if have != exp:
                problems.append(f"reading {reading}, {NAMES[s]}: model (points, errors, bonus, "
                                f"barred) {have}, Z3 {exp}")
        scores[reading] = {NAMES[s]: got.points[s] for s in NAMES}
        if chars != list(EXAMPLE_CHARS):
            problems.append(f"reading {reading}: characters {chars}, the example's "
                            f"{list(EXAMPLE_CHARS)}")
    if scores.get("A") != {"Eva": 2, "Thomas": 1, "Paul": 0, "Jason": 1, "Kenny": 0}:
        problems.append(f"reading A points {scores.get('A')}: not the rulebook's result")
    return judged(EXAMPLE, "example-model", "Example played by the model: reading A = the "
                  "rulebook, both readings = Z3", not problems, PASSED, ("W8", "W9"),
                  f"points A {scores.get('A')}, B {scores.get('B')}", "; ".join(problems[:3]),
                  t0, f"{RULES}: the model implements W9 (token on the named seat)",
                  {"points": scores})


def scoring_section(cfg: VerifyConfig, budget: Budget) -> list[CheckResult]:
    """Every check of the section `scoring`."""
    return [w8_suspicion(cfg, budget), w8_nobody(cfg, budget), w9_bonus(cfg, budget)]


def example_section(cfg: VerifyConfig, budget: Budget) -> list[CheckResult]:
    """Every check of the section `example`."""
    return [*example_readings(cfg, budget), example_model(cfg)]
