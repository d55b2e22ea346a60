"""Section `cards`: characters (W1), targets (W2), the dummy seat (W3), looks (W4) and answers
(W5): Z3 proofs over the Z3 encoding, settled rulebook-style claims with witnesses, and the Python
model under test against the Z3 encoding on every card, pair of cards, viewer and question."""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations_with_replacement

import z3

from fleece.rules.errors import FleeceError
from fleece.rules.woof.cards import (
    BASIC_CARDS,
    CARD_VALUE,
    EXPERT_CARDS,
    CardRules,
    Character,
    QuestionCard,
)
from fleece.rules.woof.moves import Ask, CardPick, Look
from fleece.rules.woof.round import AskEvent, LookEvent
from fleece.verify.budget import Budget, Undecided
from fleece.verify.result import PASSED, PROVED, REFUTED, CheckResult, judged
from fleece.verify.woof import encoding as zm
from fleece.verify.woof.common import (
    FROM_Z3,
    QUESTION_INDEX,
    RULES,
    SHEEP_HAND,
    TO_Z3,
    card,
    dealt_round,
    evaluate,
    find,
    gave_up,
    hand_for,
    prove,
)
from fleece.verify.woof.config import VerifyConfig

SECTION = "cards"
ALL_CARDS = zm.BASIC_SET + zm.EXPERT_SET


def kinds() -> list[zm.SpecCard]:
    """The distinct cards of the basic and expert sets."""
    return sorted(set(ALL_CARDS), key=lambda c: (c.picture, c.appearance))


def card_pairs() -> list[tuple[zm.SpecCard, zm.SpecCard]]:
    """Every pair of physical cards of the basic and expert sets, as pairs of kinds (a kind
    twice only when the sets hold two copies)."""
    have = Counter(ALL_CARDS)
    return [(a, b) for a, b in combinations_with_replacement(kinds(), 2)
            if a != b or have[a] >= 2]


def _pictures(tag: str) -> tuple[z3.ArithRef, z3.ArithRef, list[z3.BoolRef]]:
    a, b = z3.Ints(f"{tag}_a {tag}_b")
    return a, b, [zm.is_character(a), zm.is_character(b)]


# ---- W1 ------------------------------------------------------------------------------------


def w1_character(budget: Budget) -> CheckResult:
    """W1 against the card values: distinct pictures have distinct values (so "the higher
    card" always exists), the character is one of the two pictures, and its value is the
    larger one; for any two pictures."""
    t0 = time.perf_counter()
    title = "W1: the character is the picture of the higher value (well defined)"
    basis = "docs/rules.md W1 and the card values (Sheep 1 ... Wolf 5)"
    a, b, dom = _pictures("w1")
    c = zm.character(a, b)
    claim = z3.And(z3.Implies(a != b, zm.value(a) != zm.value(b)), z3.Or(c == a, c == b),
                   zm.value(c) == z3.If(zm.value(a) >= zm.value(b), zm.value(a), zm.value(b)))
    try:
        ok, model = prove(budget, claim, *dom)
    except Undecided as exc:
        return gave_up(SECTION, "w1-character", title, PROVED, ("W1",), basis, exc, t0)
    witness = "" if ok else f"pictures {model.eval(a)}, {model.eval(b)}"
    return judged(SECTION, "w1-character", title, ok, PROVED, ("W1",),
                  "for all pictures: character in {a, b} with value max(value a, value b); "
                  "equal values only for equal pictures", witness, t0, basis)


def w1_catalogue(cfg: VerifyConfig) -> CheckResult:
    """The Python model's card catalogue is docs/rules.md's: the basic and expert sets and
    values."""
    t0 = time.perf_counter()
    want_basic = Counter(c.name for c in zm.BASIC_SET)
    want_expert = Counter(c.name for c in zm.EXPERT_SET)
    got_basic = Counter(c.name for c in BASIC_CARDS)
    got_expert = Counter(c.name for c in EXPERT_CARDS)
    values = {c.value: CARD_VALUE[c] for c in Character}
    want_values = {zm.NAMES[c]: v for c, v in zm.VALUES.items()}
    problems = []
    if got_basic != want_basic:
        problems.append(f"basic set {dict(got_basic)} != {dict(want_basic)}")
    if got_expert != want_expert:
        problems.append(f"expert set {dict(got_expert)} != {dict(want_expert)}")
    if values != want_values:
        problems.append(f"values {values} != {want_values}")
    return judged(SECTION, "w1-catalogue", "The model's cards and values are docs/rules.md's",
                  not problems, PASSED, ("W1",),
                  f"{sum(want_basic.values())} basic and {sum(want_expert.values())} expert "
                  "cards, five values", "; ".join(problems), t0, "docs/rules.md section 2 facts")


def w1_pairs(cfg: VerifyConfig) -> CheckResult:
    """Every pair of cards of the basic and expert sets: the model under test's character (a
    seat dealt the pair) equals the Z3 encoding's."""
    t0 = time.perf_counter()
    pairs = card_pairs()
    bad: list[str] = []
    for a, b in pairs:
        want = FROM_Z3[evaluate(zm.character(a.picture, b.picture))]
        try:
            got = dealt_round(cfg.model, 5, [(card(a), card(b)), *[SHEEP_HAND] * 4]).character(1)
        except FleeceError as exc:
            bad.append(f"{a.name}+{b.name}: the model refuses the deal: {exc}")
            continue
        if got is not want:
            bad.append(f"{a.name}+{b.name}: model {got.value}, Z3 {want.value}")
    return judged(SECTION, "w1-pairs", "W1 on every pair of basic and expert cards: model = Z3",
                  not bad, PASSED, ("W1",), f"{len(pairs)} pairs of cards; {len(bad)} disagree",
                  "; ".join(bad[:5]), t0, f"{RULES}: the model implements W1 exactly",
                  {"pairs": len(pairs)})


# ---- W2 ------------------------------------------------------------------------------------


def w2_targets(budget: Budget) -> CheckResult:
    """W2: the Wolf has one target, every other character two; targets are characters; for
    every Dog second target but the Dog itself no character targets itself (so W8's "0: no seat
    has it" and "no other seat has it" agree)."""
    t0 = time.perf_counter()
    title = "W2: targets are other characters; one for the Wolf, two for the rest"
    basis = "docs/rules.md W2 (the Dog's second target is the labelled assumption)"
    c, d = z3.Ints("w2_c w2_d")
    t1, t2 = zm.target(c, 0, d), zm.target(c, 1, d)
    claim = z3.And(zm.is_character(t1), t1 != c, z3.If(c == zm.WOLF, t2 == zm.NO_TARGET,
                                                         z3.And(zm.is_character(t2), t2 != c)))
    try:
        ok, model = prove(budget, claim, zm.is_character(c), zm.is_character(d), d != zm.DOG)
        own = find(budget, zm.is_character(c), zm.target(c, 1, zm.DOG) == c)
    except Undecided as exc:
        return gave_up(SECTION, "w2-targets", title, PROVED, ("W2", "W8"), basis, exc, t0)
    witness = "" if ok else f"character {model.eval(c)}, Dog target {model.eval(d)}"
    note = (f"; only a Dog whose second target is the Dog would target itself "
            f"({zm.NAMES[own.eval(c).as_long()]})" if own is not None else "")
    return judged(SECTION, "w2-targets", title, ok, PROVED, ("W2", "W8"),
                  "for every character and every Dog second target other than the Dog" + note,
                  witness, t0, basis)


def w2_model(cfg: VerifyConfig) -> CheckResult:
    """The model under test's targets (of a seat dealt each character, under each Dog second
    target) equal the Z3 encoding's, in pointer order."""
    t0 = time.perf_counter()
    bad = []
    tried = 0
    for dog2 in (cfg.dog_target, *Character):
        rules = CardRules(dog2)
        for ch in zm.CHARACTERS:
            rnd = dealt_round(cfg.model, 5, [hand_for(ch), *[SHEEP_HAND] * 4],
                              options={"rules": rules})
            want = [zm.target(ch, i, TO_Z3[dog2]) for i in range(2)]
            want_t = tuple(FROM_Z3[v] for v in map(evaluate, want) if v != zm.NO_TARGET)
            try:
                got = rnd.make_suspicion(1, (0,) * len(want_t)).targets
            except FleeceError as exc:
                got = (str(exc),)  # type: ignore[assignment]
            tried += 1
            if tuple(got) != want_t:
                bad.append(f"{zm.NAMES[ch]} (Dog target {dog2.value}): model {got}, Z3 "
                           f"{[t.value for t in want_t]}")
    return judged(SECTION, "w2-model", "W2 targets: model = Z3 (every Dog second target)",
                  not bad, PASSED, ("W2",), f"{tried} characters x Dog targets", "; ".join(bad[:4]),
                  t0, f"{RULES}: the model implements W2 exactly")


# ---- W3 ------------------------------------------------------------------------------------


def w3_dummy(budget: Budget) -> CheckResult:
    """W3 with 4 players: the dummy seat 5 is never asked and never to move in a legal turn,
    but may be looked at (at the deal already) and named in a suspicion."""
    t0 = time.perf_counter()
    title = "W3: the dummy seat is looked at and suspected, never asked, never acts"
    basis = "docs/rules.md W3"
    table = zm.SpecTable(4)
    st = zm.RoundState.fresh(table, "w3")
    turn = zm.Turn.fresh("w3u")
    try:
        ok, model = prove(budget, z3.And(st.cur != 5, z3.Implies(turn.kind == zm.ASK,
                                                                  turn.target != 5)),
                          zm.legal(table, st, turn))
        look = find(budget, zm.initial(table, st, 1), zm.legal(
            table, st, zm.Turn(zm.LOOK, 5, 0, zm.UNKNOWN)))
        named = evaluate(zm.pick_ok(table, 1, 5))
    except Undecided as exc:
        return gave_up(SECTION, "w3-dummy", title, PROVED, ("W3",), basis, exc, t0)
    good = ok and look is not None and named is True
    witness = "" if ok else f"a legal turn with seat {model.eval(st.cur)} to move"
    return judged(SECTION, "w3-dummy", title, good, PROVED, ("W3",),
                  "every legal turn: the seat to move acts (1-4) and asks an acting seat; a look "
                  "at seat 5 is legal at the deal; seat 5 may be named", witness, t0, basis)


# ---- W4 ------------------------------------------------------------------------------------


def w4_announce(budget: Budget) -> CheckResult:
    """W4: "?" is announced as "?" by every viewer, the Shepherd included; a Shepherd announces
    Wolf for every other card; others announce the appearance; and for every card of the basic
    and expert sets the announcement is a token side or "?" (so W11 can lay it)."""
    t0 = time.perf_counter()
    title = "W4: '?' always '?'; the Shepherd says Wolf; others the appearance"
    basis = "docs/rules.md W4"
    app, viewer = z3.Ints("w4_app w4_viewer")
    said = zm.announcement(app, viewer)
    claim = z3.And(z3.Implies(app == zm.UNKNOWN, said == zm.UNKNOWN),
                   z3.Implies(z3.And(app != zm.UNKNOWN, viewer == zm.SHEPHERD), said == zm.WOLF),
                   z3.Implies(viewer != zm.SHEPHERD, said == app))
    sides = z3.And([zm.said_ok(zm.announcement(c.appearance, viewer)) for c in kinds()])
    try:
        ok, model = prove(budget, claim, zm.is_character(viewer),
                          z3.Or(zm.is_character(app), app == zm.UNKNOWN))
        ok2, model2 = prove(budget, sides, zm.is_character(viewer))
    except Undecided as exc:
        return gave_up(SECTION, "w4-announce", title, PROVED, ("W4", "W11"), basis, exc, t0)
    witness = ""
    if not ok:
        witness = f"appearance {model.eval(app)}, viewer {model.eval(viewer)}"
    elif not ok2:
        witness = f"viewer {model2.eval(viewer)}"
    return judged(SECTION, "w4-announce", title, ok and ok2, PROVED, ("W4", "W11"),
                  "for every appearance and viewer; every card's announcement is a token side "
                  "or '?'", witness, t0, basis)


def w4_wolf_claim(budget: Budget) -> CheckResult:
    """Claim settled: "an announced Wolf means the card shows a Wolf" - false (the Shepherd
    says Wolf for anything but "?", W4; the expert Dog appears as a Wolf)."""
    t0 = time.perf_counter()
    title = "Claim: an announced Wolf means a Wolf picture"
    basis = "docs/rules.md W4 (the Shepherd announces Wolf) and the expert Dog appearing as Wolf"
    viewer = z3.Int("w4c_viewer")
    found = []
    try:
        for c in kinds():
            for who in (viewer != zm.SHEPHERD, viewer == zm.SHEPHERD):
                m = find(budget, zm.is_character(viewer), who,
                         zm.announcement(c.appearance, viewer) == zm.WOLF, c.picture != zm.WOLF)
                if m is not None:
                    found.append(f"{zm.NAMES[m.eval(viewer).as_long()]} looks at {c.name}")
                    break
    except Undecided as exc:
        return gave_up(SECTION, "w4-wolf-claim", title, REFUTED, ("W4",), basis, exc, t0)
    found.sort(key=lambda text: text.startswith("shepherd"))
    return judged(SECTION, "w4-wolf-claim", title, bool(found), REFUTED, ("W4",),
                  f"{len(found)} cards announced Wolf without a Wolf picture",
                  "; ".join(found[:3]), t0, basis)


def w4_model(cfg: VerifyConfig) -> CheckResult:
    """Every card of the basic and expert sets seen by a viewer of every character: the model
    under test's announcement equals the Z3 encoding's."""
    t0 = time.perf_counter()
    bad = []
    tried = 0
    for c in kinds():
        for viewer in zm.CHARACTERS:
            seen = card(c)
            try:
                rnd = dealt_round(cfg.model, 5, [hand_for(viewer), (seen, seen),
                                                 *[SHEEP_HAND] * 3])
                rnd = rnd.play(Look(1, 2)).play(CardPick(0))
            except FleeceError as exc:
                bad.append(f"{zm.NAMES[viewer]} looks at {c.name}: refused: {exc}")
                continue
            said = [e.announced for e in rnd.events if isinstance(e, LookEvent)][-1]
            got = zm.UNKNOWN if said is None else TO_Z3[said]
            want = evaluate(zm.announcement(c.appearance, zm.character(viewer, zm.SHEEP)))
            tried += 1
            if got != want:
                bad.append(f"{zm.NAMES[viewer]} sees {c.name}: model {zm.face_name(got)}, Z3 "
                           f"{zm.face_name(want)}")
    return judged(SECTION, "w4-model", "W4 on every card and viewer: model = Z3", not bad,
                  PASSED, ("W4",), f"{tried} card x viewer looks; {len(bad)} disagree",
                  "; ".join(bad[:4]), t0, f"{RULES}: the model implements W4 exactly")


# ---- W5 ------------------------------------------------------------------------------------


def w5_answers(budget: Budget) -> CheckResult:
    """W5 facts for any two pictures: two "no" to q1 and q2 mean a Dog (and a Dog answers both
    no); two "yes" mean a Hunter or the Shepherd; a Dog answers yes to q3; a "no" to q5 rules
    out a Sheep."""
    t0 = time.perf_counter()
    title = "W5: what truthful answers tell (q1+q2 no = Dog, ...)"
    basis = "docs/rules.md W5 and the question cards"
    a, b, dom = _pictures("w5")
    c = zm.character(a, b)

    def ans(q: int) -> z3.BoolRef:
        return zm.answer(q, a, b)

    claim = z3.And(
        (z3.And(z3.Not(ans(0)), z3.Not(ans(1)))) == (c == zm.DOG),
        z3.And(ans(0), ans(1)) == z3.Or(c == zm.HUNTER, c == zm.SHEPHERD),
        z3.Implies(c == zm.DOG, ans(2)),
        z3.Implies(z3.Not(ans(4)), c != zm.SHEEP))
    try:
        ok, model = prove(budget, claim, *dom)
    except Undecided as exc:
        return gave_up(SECTION, "w5-answers", title, PROVED, ("W1", "W5"), basis, exc, t0)
    witness = "" if ok else f"pictures {model.eval(a)}, {model.eval(b)}"
    return judged(SECTION, "w5-answers", title, ok, PROVED, ("W1", "W5"),
                  "for all pairs of pictures", witness, t0, basis)


def w5_hunter_claim(budget: Budget) -> CheckResult:
    """Claim settled: "a yes to q4 (a card shows the Hunter) means a Hunter" - false."""
    t0 = time.perf_counter()
    title = "Claim: a yes to q4 means the seat is a Hunter"
    basis = "docs/rules.md W1 (a higher card decides) and W5 (q4 asks about pictures)"
    a, b, dom = _pictures("w5c")
    try:
        m = find(budget, *dom, zm.answer(3, a, b), zm.character(a, b) != zm.HUNTER)
    except Undecided as exc:
        return gave_up(SECTION, "w5-hunter-claim", title, REFUTED, ("W5",), basis, exc, t0)
    witness = ""
    if m is not None:
        pa, pb = m.eval(a).as_long(), m.eval(b).as_long()
        witness = (f"cards {zm.NAMES[pa]} + {zm.NAMES[pb]}: yes to q4, character "
                   f"{zm.NAMES[evaluate(zm.character(pa, pb))]}")
    return judged(SECTION, "w5-hunter-claim", title, m is not None, REFUTED, ("W5",),
                  "a Hunter picture under a higher card", witness, t0, basis)


def w5_model(cfg: VerifyConfig) -> CheckResult:
    """Every question card asked of a seat holding every pair of cards of the basic and expert
    sets: the model under test's (truthful) answer equals the Z3 encoding's."""
    t0 = time.perf_counter()
    bad = []
    tried = 0
    for q in QuestionCard:
        for a, b in card_pairs():
            try:
                rnd = dealt_round(cfg.model, 5, [SHEEP_HAND, (card(a), card(b)),
                                                 *[SHEEP_HAND] * 3], first_questions=(q,))
                rnd = rnd.play(Ask(1, 2, q))
            except FleeceError as exc:
                bad.append(f"{q.value} to {a.name}+{b.name}: refused: {exc}")
                continue
            event = rnd.events[-1]
            got = event.answer if isinstance(event, AskEvent) else None
            want = evaluate(zm.answer(QUESTION_INDEX[q], a.picture, b.picture))
            tried += 1
            if got != want:
                bad.append(f"{q.value} to {a.name}+{b.name}: model {got}, Z3 {want}")
    return judged(SECTION, "w5-model", "W5 on every question and pair of cards: model = Z3",
                  not bad, PASSED, ("W5",), f"{tried} questions asked; {len(bad)} disagree",
                  "; ".join(bad[:4]), t0, f"{RULES}: the model implements W5 exactly")


def cards_section(cfg: VerifyConfig, budget: Budget) -> list[CheckResult]:
    """Every check of the section."""
    return [w1_character(budget), w1_catalogue(cfg), w1_pairs(cfg), w2_targets(budget),
            w2_model(cfg), w3_dummy(budget), w4_announce(budget), w4_wolf_claim(budget),
            w4_model(cfg), w5_answers(budget), w5_hunter_claim(budget), w5_model(cfg)]
