"""Section `crosscheck`: the Python model under test against the Z3 encoding on random deals and
action sequences.

Random rounds are played with the model under test (its own deals and legal moves; suspicions
are right, misled by a Shepherd's Wolf token, or random, so that every scoring rule is met).
At every turn the Z3 encoding, given the Python state (mapped component by component), must
agree on: which looks, asks and early suspicions are legal (and how many pick vectors), that
the move played is legal, the announcement of the card seen (W4), whether a token was free
(W11), the answer (W5), the successor state (the Z3 transition from the mapped state), and
whether W7 ended the round. At the end: every seat's character (W1), who makes a final
suspicion and how many it can make (W7), and the scores (W8, W9). Games (W10): random round
results fed to the game model, its end and winners against the Z3 encoding.

Speed: each table's claims are one formula over placeholder variables, built once; a turn
substitutes the values and z3.simplify decides the conjunction; only when it is false are the
claims evaluated one by one to name the disagreement.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import z3

from fleece.rules.errors import FleeceError, RulesError
from fleece.rules.woof.cards import (
    DEFAULT_DOG_SECOND_TARGET,
    EXPERT_CARDS,
    CardRules,
    Character,
    parse_card,
)
from fleece.rules.woof.moves import (
    Ask,
    CardPick,
    FinalSuspicion,
    Look,
    SuspectEarly,
    WoofMove,
)
from fleece.rules.woof.notation import format_move, format_position
from fleece.rules.woof.round import (
    AskEvent,
    LookEvent,
    Table,
    WoofOptions,
    WoofRound,
    default_deck,
)
from fleece.rules.woof.scoring import RoundScore
from fleece.verify.result import PASSED, CheckResult, judged
from fleece.verify.woof import encoding as zm
from fleece.verify.woof.common import (
    QUESTION_INDEX,
    RULES,
    TO_Z3,
    evaluate,
    new_round,
)
from fleece.verify.woof.config import VerifyConfig

SECTION = "crosscheck"


_CONSTANTS: dict[tuple[type, int], Any] = {}


def _val(x: Any) -> Any:
    """A Python value as a z3 constant (small constants are made once)."""
    key = (bool if isinstance(x, bool) else int, int(x))
    got = _CONSTANTS.get(key)
    if got is None:
        got = z3.BoolVal(bool(x)) if key[0] is bool else z3.IntVal(int(x))
        if len(_CONSTANTS) < 10_000:
            _CONSTANTS[key] = got
    return got


def substitute(expr: Any, pairs: Sequence[tuple[Any, Any]]) -> Any:
    """z3.substitute without its per-pair sort checks (the pairs are variables and constants
    of matching sorts by construction): one call of the C API."""
    num = len(pairs)
    froms = (z3.Ast * num)()
    tos = (z3.Ast * num)()
    for i, (a, b) in enumerate(pairs):
        froms[i] = a.as_ast()
        tos[i] = b.as_ast()
    ctx = expr.ctx
    return z3.BoolRef(z3.Z3_substitute(ctx.ref(), expr.as_ast(), num, froms, tos), ctx)


_TEMPLATES: dict[int, Templates] = {}


@dataclass
class Templates:
    """One table's claims over placeholder variables: per turn, at the final suspicions, and
    at the end of the round."""

    table: zm.SpecTable
    s: zm.RoundState
    s2: zm.RoundState
    turn: zm.Turn
    pic: list[list[Any]]
    app: list[list[Any]]
    dog2: Any
    obs: dict[str, Any]
    turn_claims: list[tuple[str, Any]]
    turn_all: Any
    final_claims: list[tuple[str, Any]]
    final_all: Any
    end_claims: list[tuple[str, Any]]
    end_all: Any

    @staticmethod
    def build(table: zm.SpecTable) -> Templates:
        """The claims of one table (built once per run)."""
        n, m = table.players, table.seats
        s = zm.RoundState.fresh(table, "x")
        s2 = zm.RoundState.fresh(table, "y")
        turn = zm.Turn.fresh("u")
        pic = [[z3.Int(f"pic{k}_{i}") for i in range(2)] for k in range(1, m + 1)]
        app = [[z3.Int(f"app{k}_{i}") for i in range(2)] for k in range(1, m + 1)]
        dog2 = z3.Int("dog2")
        obs: dict[str, Any] = {}

        def ob(name: str, sort: str = "int") -> Any:
            obs[name] = z3.Bool(f"o_{name}") if sort == "bool" else z3.Int(f"o_{name}")
            return obs[name]

        p0 = [p[0] for p in pic]
        p1 = [p[1] for p in pic]
        a0 = [a[0] for a in app]
        a1 = [a[1] for a in app]

        def char_at(seat: Any) -> Any:
            return zm.character(zm.select(p0, seat), zm.select(p1, seat))

        def picks_count(seat: Any) -> Any:
            dom = zm.count([zm.pick_ok(table, seat, p) for p in range(m + 1)])
            return z3.If(zm.target_count(char_at(seat)) == 2, dom * dom, dom)

        claims: list[tuple[str, Any]] = []
        for t in range(1, m + 1):
            claims.append((f"look at seat {t} legal", zm.legal(
                table, s, zm.Turn(zm.LOOK, t, 0, zm.UNKNOWN)) == ob(f"look{t}", "bool")))
        for t in range(1, n + 1):
            for q in range(5):
                claims.append((f"ask seat {t} {zm.QUESTIONS[q]} legal", zm.legal(
                    table, s, zm.Turn(zm.ASK, t, q, 0)) == ob(f"ask{t}_{q}", "bool")))
        early_ok = zm.legal(table, s, zm.Turn(zm.EARLY, 0, 0, 0))
        claims.append(("early suspicion legal (W6)", early_ok == ob("early", "bool")))
        claims.append(("number of early pick vectors (W2, W6)", z3.Implies(
            early_ok, ob("early_count") == picks_count(s.cur))))
        claims.append(("the move played is legal", zm.legal(table, s, turn)))
        tgt = turn.target
        seen = z3.Or(z3.And(ob("seen_pic") == zm.select(p0, tgt),
                            ob("seen_app") == zm.select(a0, tgt)),
                     z3.And(obs["seen_pic"] == zm.select(p1, tgt),
                            obs["seen_app"] == zm.select(a1, tgt)))
        claims.append(("announcement (W4)", z3.Implies(turn.kind == zm.LOOK, z3.And(
            seen, turn.said == zm.announcement(obs["seen_app"], char_at(s.cur))))))
        claims.append(("token laid or the W11 gap", z3.Implies(
            turn.kind == zm.LOOK, ob("gap", "bool") == zm.no_token(s, turn))))
        claims.append(("answer (W5)", z3.Implies(turn.kind == zm.ASK, ob("answer", "bool") == (
            zm.answer(turn.question, zm.select(p0, tgt), zm.select(p1, tgt))))))
        claims.append(("successor state", s2.same(zm.step(table, s, turn),
                                                   with_cur=z3.Not(zm.over(table, s2)))))
        claims.append(("round over (W7)", ob("over", "bool") == zm.over(table, s2)))
        final = [("final suspicion count (W7)", ob("final_count") == 1 + picks_count(
            ob("final_seat")))]
        chars = [zm.character(p[0], p[1]) for p in pic]
        kinds = [z3.Int(f"o_kind{k}") for k in range(1, n + 1)]
        picks = [[z3.Int(f"o_pick{k}_{i}") for i in range(2)] for k in range(1, n + 1)]
        obs.update({f"kind{k}": kinds[k - 1] for k in range(1, n + 1)})
        obs.update({f"pick{k}_{i}": picks[k - 1][i] for k in range(1, n + 1) for i in range(2)})
        sc = zm.score(chars, kinds, picks, [list(r) for r in s.wolf_at], dog2)
        end = [(f"seat {k} character (W1)", ob(f"char{k}") == chars[k - 1])
               for k in range(1, m + 1)]
        for k in range(1, n + 1):
            end += [(f"seat {k} makes a final suspicion (W7)",
                     ob(f"final{k}", "bool") == z3.Not(s.early[k - 1])),
                    (f"seat {k} points (W8, W9)", ob(f"points{k}") == sc.points[k - 1]),
                    (f"seat {k} error tokens (W8)", ob(f"errors{k}") == sc.errors[k - 1]),
                    (f"seat {k} Shepherd bonus (W9)", ob(f"bonus{k}") == sc.bonus[k - 1]),
                    (f"seat {k} barred next round (W8)",
                     ob(f"barred{k}", "bool") == sc.barred[k - 1])]
        return Templates(table, s, s2, turn, pic, app, dog2, obs, claims,
                         z3.And([c for _, c in claims]), final, z3.And([c for _, c in final]),
                         end, z3.And([c for _, c in end]))

    @staticmethod
    def of(players: int) -> Templates:
        """The claims of a table, built once per process (they depend on the table only)."""
        if players not in _TEMPLATES:
            _TEMPLATES[players] = Templates.build(zm.SpecTable(players))
        return _TEMPLATES[players]


def state_values(rnd: WoofRound, table: zm.SpecTable) -> list[Any]:
    """The Python state as the Z3 state's components, in RoundState.variables() order."""
    acting = table.acting
    turns = rnd.turns_taken
    early = set(rnd.early)
    wolf = {(e.viewer, e.target) for e in rnd.events
            if isinstance(e, LookEvent) and e.token_placed and e.announced is Character.WOLF}
    held = rnd.questions
    vals: list[Any] = [rnd.current, *[turns[s] >= 1 for s in acting],
                       *[s in early for s in acting], *[s in rnd.barred for s in acting],
                       rnd.tokens.question_marks]
    for s in acting:
        kinds = Counter(QUESTION_INDEX[q] for q in held.get(s, ()))
        vals += [kinds[q] for q in range(5)]
    for s in acting:
        sides = Counter(TO_Z3[c] for c in rnd.tokens.sides(s))
        vals += [sides[side] for side in zm.TOKEN_SIDES]
    for v in acting:
        vals += [(v, t) in wolf for t in range(1, table.seats + 1)]
    return vals


class RoundChecker:
    """Plays random rounds with the model under test and checks them against the Z3 encoding."""

    def __init__(self, cfg: VerifyConfig, rng: random.Random) -> None:
        self.cfg = cfg
        self.rng = rng
        self.turns = 0

    # ---- evaluation ----------------------------------------------------------------------

    def _decide(self, claims: Sequence[tuple[str, Any]], conj: Any, pairs: list[tuple[Any, Any]]
                ) -> list[str]:
        """The labels of the claims that are false under the substitution (none: one
        simplify of the conjunction)."""
        if z3.is_true(z3.simplify(substitute(conj, pairs))):
            return []
        return [label for label, c in claims
                if not z3.is_true(z3.simplify(substitute(c, pairs)))]

    def _hand_pairs(self, tpl: Templates, rnd: WoofRound) -> list[tuple[Any, Any]]:
        pairs = [(tpl.dog2, _val(TO_Z3[rnd.rules.dog_second_target]))]
        for s in range(1, tpl.table.seats + 1):
            for i, c in enumerate(rnd.hand(s)):
                pairs.append((tpl.pic[s - 1][i], _val(TO_Z3[c.picture])))
                app = zm.UNKNOWN if c.appearance is None else TO_Z3[c.appearance]
                pairs.append((tpl.app[s - 1][i], _val(app)))
        return pairs

    @staticmethod
    def _state_pairs(st: zm.RoundState, rnd: WoofRound, table: zm.SpecTable
                     ) -> list[tuple[Any, Any]]:
        return [(v, _val(x)) for v, x in zip(st.variables(), state_values(rnd, table),
                                              strict=True)]

    # ---- the policy ----------------------------------------------------------------------

    def _picks(self, rnd: WoofRound, seat: int) -> tuple[int, ...]:
        """Right picks half the time, a Wolf pick misled by a Wolf token a quarter, else
        random (the model under test's own targets and characters)."""
        rng = self.rng
        targets = rnd.rules.targets(rnd.character(seat))
        others = [s for s in rnd.table.seat_numbers if s != seat]
        roll = rng.random()
        picks = []
        tokened = sorted({e.target for e in rnd.events if isinstance(e, LookEvent)
                          and e.announced is Character.WOLF and e.target != seat})
        for t in targets:
            having = [s for s in others if rnd.character(s) is t]
            if roll < 0.5:
                picks.append(having[0] if having else 0)
            elif roll < 0.75 and t is Character.WOLF and tokened:
                picks.append(rng.choice(tokened))
            else:
                picks.append(rng.choice([0, *others]))
        return tuple(picks)

    def _choose(self, rnd: WoofRound, moves: list[WoofMove], turn: int) -> WoofMove:
        rng = self.rng
        seat = rnd.current
        earlies = [m for m in moves if isinstance(m, SuspectEarly)]
        asks = [m for m in moves if isinstance(m, Ask)]
        looks = [m for m in moves if isinstance(m, Look)]
        players = rnd.table.players
        p_early = 0.1 if turn < 2 * players else (0.5 if turn < 6 * players else 1.0)
        if earlies and rng.random() < p_early:
            wanted = SuspectEarly(seat, self._picks(rnd, seat))
            return wanted if wanted in earlies else rng.choice(earlies)
        if asks and rng.random() < 0.3:
            return rng.choice(asks)
        rest: list[WoofMove] = [*looks] or [*asks] or [*earlies]
        return rng.choice(rest)

    # ---- one round -----------------------------------------------------------------------

    def options(self, index: int) -> WoofOptions:
        """Random options: 4-8 players, the default deck with expert cards swapped in for
        Sheep or extra cards out of play, the Dog target under test first and others later
        (never the Dog itself, W8), random bans and start seat."""
        rng = self.rng
        table = Table(rng.randint(4, 8))
        deck = list(default_deck(table))
        sheep = parse_card("sheep")
        roll = rng.random()
        if roll < 0.4:
            for c in rng.sample(EXPERT_CARDS, rng.randint(1, 4)):
                if deck.count(sheep) > 1:
                    deck.remove(sheep)
                deck.append(c)
        elif roll < 0.55:
            deck += rng.sample(EXPERT_CARDS, rng.randint(1, 4))
        dog2 = self.cfg.dog_target
        if index % 3 == 2:
            dog2 = rng.choice([c for c in Character if c is not Character.DOG])
        barred = frozenset(rng.sample(table.acting, rng.randint(0, table.early_limit)))
        return WoofOptions(table.players, tuple(deck), CardRules(dog2), rng.choice(table.acting),
                           barred)

    def play(self, options: WoofOptions) -> list[str]:
        """One random round; the disagreements found (at the first failing turn)."""
        tpl = Templates.of(options.players)
        table = tpl.table
        rnd = new_round(self.cfg.model, options)
        rnd = rnd.play(rnd.sample_chance(self.rng))
        hands = self._hand_pairs(tpl, rnd)
        turn = 0
        while not rnd.over:
            if turn > 40 * table.players:
                return [f"the round has not ended after {turn} turns although the policy "
                        "suspects early whenever it may"]
            moves = list(rnd.legal_moves())
            move = self._choose(rnd, moves, turn)
            try:
                after, said, card, gap, answer = self._apply(rnd, move)
            except FleeceError as exc:
                return [f"{format_move(move)}: the model refuses its own legal move: {exc}"]
            bad = self._check_turn(tpl, rnd, after, moves, move, said, card, gap, answer, hands)
            if bad:
                return [f"{format_move(move)}: " + ", ".join(bad[:4])
                        + f" | position before: {format_position(rnd)}"]
            rnd = after
            turn += 1
            self.turns += 1
        return self._finish(tpl, rnd, hands)

    def _apply(self, rnd: WoofRound, move: WoofMove) -> tuple[WoofRound, int, Any, bool, bool]:
        """Play a move (a look with a random card pick): the state after, the announcement,
        the card seen, whether a W11 gap was recorded, the answer."""
        if isinstance(move, Look):
            mid = rnd.play(move)
            if mid.chance_probability(CardPick(0)) != Fraction(1, 2):
                raise FleeceError("the card seen is not a fair pick (W4)")
            after = mid.play(CardPick(self.rng.randrange(2)))
            event = after.events[-1]
            assert isinstance(event, LookEvent)
            said = zm.UNKNOWN if event.announced is None else TO_Z3[event.announced]
            return after, said, event.card, len(after.gaps) > len(rnd.gaps), False
        after = rnd.play(move)
        event = after.events[-1]
        answer = event.answer if isinstance(event, AskEvent) else False
        return after, 0, None, False, answer

    def _check_turn(self, tpl: Templates, rnd: WoofRound, after: WoofRound,
                    moves: list[WoofMove], move: WoofMove, said: int, card: Any, gap: bool,
                    answer: bool, hands: list[tuple[Any, Any]]) -> list[str]:
        table, o = tpl.table, tpl.obs
        seat = rnd.current
        kind, target, question = zm.EARLY, 0, 0
        if isinstance(move, Look):
            kind, target = zm.LOOK, move.target
        elif isinstance(move, Ask):
            kind, target, question = zm.ASK, move.target, QUESTION_INDEX[move.question]
        obs: list[tuple[Any, Any]] = []
        for t in range(1, table.seats + 1):
            obs.append((o[f"look{t}"], _val(Look(seat, t) in moves)))
        asked = {(m.target, QUESTION_INDEX[m.question]) for m in moves if isinstance(m, Ask)}
        for t in range(1, table.players + 1):
            for q in range(5):
                obs.append((o[f"ask{t}_{q}"], _val((t, q) in asked)))
        earlies = sum(1 for m in moves if isinstance(m, SuspectEarly))
        obs += [(o["early"], _val(earlies > 0)), (o["early_count"], _val(earlies)),
                (o["seen_pic"], _val(TO_Z3[card.picture] if card is not None else 0)),
                (o["seen_app"], _val(0 if card is None else (
                    zm.UNKNOWN if card.appearance is None else TO_Z3[card.appearance]))),
                (o["gap"], _val(gap)), (o["answer"], _val(answer)),
                (o["over"], _val(after.over)),
                (tpl.turn.kind, _val(kind)), (tpl.turn.target, _val(target)),
                (tpl.turn.question, _val(question)), (tpl.turn.said, _val(said))]
        pairs = (hands + obs + self._state_pairs(tpl.s, rnd, table)
                 + self._state_pairs(tpl.s2, after, table))
        return self._decide(tpl.turn_claims, tpl.turn_all, pairs)

    def _finish(self, tpl: Templates, rnd: WoofRound, hands: list[tuple[Any, Any]]
                ) -> list[str]:
        """Final suspicions (checked one by one), then characters, final seats and scores."""
        table, o = tpl.table, tpl.obs
        final_seats = set(rnd.final_seats)
        while not rnd.is_terminal():
            seat = rnd.current
            pairs = [*hands, (o["final_seat"], _val(seat)),
                     (o["final_count"], _val(rnd.count_legal_moves()))]
            bad = self._decide(tpl.final_claims, tpl.final_all, pairs)
            if bad:
                return [f"final suspicion of seat {seat}: {', '.join(bad)}"]
            picks = None if self.rng.random() < 0.2 else self._picks(rnd, seat)
            try:
                rnd = rnd.play(FinalSuspicion(seat, picks))
            except FleeceError as exc:
                return [f"final suspicion of seat {seat} {picks}: refused: {exc}"]
        try:
            score = rnd.score()
        except FleeceError as exc:
            return [f"the model cannot score the round: {exc}"]
        finals = {f.seat: f.suspicion for f in rnd.finals}
        early = rnd.early
        pairs = hands + self._state_pairs(tpl.s, rnd, table)
        for k in range(1, table.seats + 1):
            pairs.append((o[f"char{k}"], _val(TO_Z3[rnd.character(k)])))
        for k in table.acting:
            sus = early.get(k) or finals.get(k)
            kind = zm.EARLY_SUSPICION if k in early else (
                zm.FINAL_SUSPICION if finals.get(k) is not None else zm.NONE)
            named = [*sus.picks, 0][:2] if sus else [0, 0]
            pairs += [(o[f"kind{k}"], _val(kind)), (o[f"pick{k}_0"], _val(named[0])),
                      (o[f"pick{k}_1"], _val(named[1])),
                      (o[f"final{k}"], _val(k in final_seats)),
                      (o[f"points{k}"], _val(score.points[k])),
                      (o[f"errors{k}"], _val(score.errors[k])),
                      (o[f"bonus{k}"], _val(score.bonus[k])),
                      (o[f"barred{k}"], _val(k in score.barred_next_round))]
        bad = self._decide(tpl.end_claims, tpl.end_all, pairs)
        if table.dummy is not None and (score.points.get(table.dummy, 0)
                                        or score.errors.get(table.dummy, 0)):
            bad.append("the dummy seat scores (W3)")
        if bad:
            return [f"end of round: {', '.join(bad[:5])} | {format_position(rnd)}"]
        return []


def rounds(cfg: VerifyConfig, advance: Callable[[], None] | None = None) -> CheckResult:
    """Random rounds of the model under test against the Z3 encoding (see the module docs)."""
    t0 = time.perf_counter()
    rng = random.Random(cfg.seed)
    checker = RoundChecker(cfg, rng)
    failed: list[str] = []
    played = Counter[int]()
    for i in range(cfg.round_count):
        options = checker.options(i)
        played[options.players] += 1
        found = checker.play(options)
        if found:
            failed.append(f"round {i} ({options.players} players): {found[0]}")
        if advance is not None:
            advance()
    dog = DEFAULT_DOG_SECOND_TARGET
    return judged(SECTION, "rounds", "Random rounds: model = Z3 (legal moves, announcements, "
                  "answers, tokens, end, scores)", not failed, PASSED,
                  ("W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W11"),
                  f"{cfg.round_count} rounds ({dict(sorted(played.items()))} by players), "
                  f"{checker.turns} turns; {len(failed)} disagree", " || ".join(failed[:2])[:2000],
                  t0, f"{RULES}: the Python model implements exactly the reading the Z3 encoding "
                  f"encodes (Dog target under test: {cfg.dog_target.value}; default "
                  f"{dog.value})", {"rounds": cfg.round_count, "turns": checker.turns,
                                    "failed": len(failed)})


def games(cfg: VerifyConfig) -> CheckResult:
    """W10: random round results (each seat 0-3 points, at most one error token) recorded by
    the game model under test: its end after every round and its winners equal the Z3
    model's; a round recorded after the end is refused."""
    t0 = time.perf_counter()
    rng = random.Random(cfg.seed + 1)
    bad = []
    count = 40 if cfg.quick else 300
    for g in range(count):
        players = list(range(1, rng.randint(4, 8) + 1))
        game = cfg.game_model(players)
        errors = dict.fromkeys(players, 0)
        points = dict.fromkeys(players, 0)
        rounds_played = 0
        while True:
            want = evaluate(zm.game_over(rounds_played, [errors[p] for p in players]))
            if game.over != want:
                bad.append(f"game {g} after {rounds_played} rounds, errors {errors}: model "
                           f"over={game.over}, Z3 {want}")
                break
            if want:
                break
            pts = {p: rng.choice([0, 0, 1, 2, 3]) for p in players}
            err = {p: int(rng.random() < 0.25) for p in players}
            game.record(RoundScore(pts, err, {}, {}, frozenset()))
            rounds_played += 1
            for p in players:
                points[p] += pts[p]
                errors[p] += err[p]
        if bad:
            break
        try:
            game.record(RoundScore({}, {}, {}, {}, frozenset()))
            bad.append(f"game {g}: a round was recorded after the end (W10)")
        except RulesError:
            pass
        pv, ev = [points[p] for p in players], [errors[p] for p in players]
        want_w = [p for i, p in enumerate(players) if evaluate(zm.winner(pv, ev, i))]
        if game.winners() != want_w:
            bad.append(f"game {g}: points {points}, errors {errors}: model winners "
                       f"{game.winners()}, Z3 {want_w}")
    return judged(SECTION, "games", "Random games: end and winners, model = Z3 (W10)",
                  not bad, PASSED, ("W10",), f"{count} games", "; ".join(bad[:3]), t0,
                  f"{RULES}: the game model implements W10 exactly")
