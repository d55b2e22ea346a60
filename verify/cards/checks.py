"""The card games' checks (see the package docs). Each returns CheckResults whose expectation
comes from docs/rules.md section 4 (the `basis`), never from the outcome."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from fractions import Fraction
from itertools import combinations_with_replacement, product

from fleece.rules.cards.concentration import ConcentrationOptions, ConcState, Flip, position_name
from fleece.rules.cards.concentration import Deal as ConcDeal
from fleece.rules.cards.deck import WOLF_DECK, Deck, arrangements, pairs, parse_deck
from fleece.rules.cards.herd import (
    CROOK,
    FENCE,
    KINDS,
    SHEEP,
    WISC,
    WOLF1,
    WOLF2,
    Attack,
    Crook,
    Discard,
    Disguise,
    Draw,
    Herd,
    HerdMove,
    HerdOptions,
    HerdState,
    PlayFence,
    PlaySheep,
    format_move,
)
from fleece.rules.cards.war import (
    Battle,
    Order,
    Pile,
    Runout,
    WarOptions,
    WarState,
    format_position,
)
from fleece.rules.cards.war import Deal as WarDeal
from fleece.verify.cards import memory
from fleece.verify.cards.config import VerifyConfig
from fleece.verify.cards.ids import CONC_ENDLESS, HERD_ENDLESS, WAR_CYCLE
from fleece.verify.result import (
    NO_END,
    PASSED,
    PROVED,
    CheckResult,
    RulesGap,
    gap_found,
    judged,
)

RULES = "docs/rules.md section 4"


# ---- War battles (K1, K2) -----------------------------------------------------------------


def spec_battle(a: Pile, b: Pile, runout: Runout) -> tuple[int | None, int, int, bool]:
    """K2 read afresh: (winner or None, cards A played, cards B played, ended by a run-out).
    Face-up positions go 0, 2, 4, ... (one face-down card before each new face-up card)."""
    ua, ub = 0, 0
    while a[ua] == b[ub]:
        if runout is Runout.LOSE:
            short_a, short_b = ua + 2 >= len(a), ub + 2 >= len(b)
            if short_a or short_b:
                return (None if short_a and short_b else (1 if short_a else 0),
                        ua + 1, ub + 1, True)
            ua, ub = ua + 2, ub + 2
        else:
            na = min(ua + 2, len(a) - 1)
            nb = min(ub + 2, len(b) - 1)
            if na == ua and nb == ub:
                return None, ua + 1, ub + 1, True
            ua, ub = na, nb
    return (0 if a[ua] > b[ub] else 1), ua + 1, ub + 1, False


def _piles(max_len: int, ranks: int) -> Iterator[tuple[Pile, Pile]]:
    for la in range(1, max_len + 1):
        for lb in range(1, max_len + 1):
            for a in product(range(ranks), repeat=la):
                if a[0] != 0:  # ties are what matters; keep the others few
                    continue
                for b in product(range(ranks), repeat=lb):
                    yield a, b
            for b in product(range(ranks), repeat=lb):
                yield (ranks - 1,) + (0,) * (la - 1), b


def war_battles(cfg: VerifyConfig) -> CheckResult:
    """Every pile pair up to a size: the model's battle against K2 read afresh."""
    t0 = time.perf_counter()
    max_len = 5 if cfg.quick else 6
    checked = 0
    for runout in Runout:
        for a, b in _piles(max_len, 3):
            got = cfg.war_battle(a, b, runout)
            want = spec_battle(a, b, runout)
            have = (got.winner, len(got.played[0]), len(got.played[1]), got.runout)
            checked += 1
            if have != want or got.played != (a[:want[1]], b[:want[2]]):
                return judged("rules", "war-battle", "War battles and wars (K1, K2)", False,
                               PASSED, ("K1", "K2"), f"{checked} pile pairs; a mismatch",
                               f"A {a} B {b} run-out {runout.value}: model {have}, K2 {want}",
                               t0, f"{RULES} K1-K2")
    return judged("rules", "war-battle", "War battles and wars (K1, K2)", True, PASSED,
                   ("K1", "K2"), f"{checked} pile pairs up to {max_len} cards, both run-out "
                   "rules", "", t0, f"{RULES} K1-K2")


def war_orders(cfg: VerifyConfig) -> CheckResult:
    """K2's three return orders on every deal of a small deck's first battles."""
    t0 = time.perf_counter()
    deck = parse_deck("1*2,2*2,3")
    n = 0
    for order in Order:
        for deal in arrangements(deck.counts):
            s = WarState(WarOptions(deck, order, Runout.LOSE, 50)).play(WarDeal(deal))
            assert s.piles is not None
            res = cfg.war_battle(s.piles[0], s.piles[1], Runout.LOSE)
            moves = list(s.legal_moves())
            n += 1
            if res.winner is None or res.runout:
                ok = moves == [Battle(())]
            else:
                own, other = res.played[res.winner], res.played[1 - res.winner]
                if order is Order.WINNER_FIRST:
                    ok = moves == [Battle(own + other)]
                elif order is Order.LOSER_FIRST:
                    ok = moves == [Battle(other + own)]
                else:
                    want = {tuple(p) for p in _perms(own + other)}
                    ok = {m.returned for m in moves if isinstance(m, Battle)} == want and \
                        sum(s.chance_probability(m) for m in moves) == 1
            if not ok:
                return judged("rules", "war-orders", "Return orders (K2)", False, PASSED,
                               ("K2",), "a battle's return order differs", f"deal {deal} "
                               f"order {order.value}", t0, f"{RULES} K2")
    return judged("rules", "war-orders", "Return orders (K2)", True, PASSED, ("K2",),
                   f"first battle of {n} deals under the three orders", "", t0, f"{RULES} K2")


def _perms(cards: Pile) -> set[Pile]:
    from itertools import permutations

    return set(permutations(cards))


# ---- herd game (K3) ---------------------------------------------------------------------


# K3 read afresh: the wolf cards (strengths) that may attack a sheep card of each size
SPEC_GROUPS: dict[int, list[tuple[int, ...]]] = {1: [(1,)], 2: [(2,), (1, 1)],
                                                 3: [(2, 1), (1, 1, 1)]}


def _spec_moves(hand: tuple[int, ...], mine: Herd, other: Herd,
                discard: tuple[int, ...]) -> set[HerdMove]:
    """K3 read afresh for player 0 of two: every legal card play, else every discard."""
    moves: set[HerdMove] = set()
    for v in (1, 2, 3):
        if hand[SHEEP[v - 1]]:
            moves.add(PlaySheep(v))
        if hand[FENCE] and mine.open[v - 1]:
            moves.add(PlayFence(v))
        if other.open[v - 1]:
            groups = SPEC_GROUPS[v]
            for g in groups:
                if g.count(1) <= hand[WOLF1] and g.count(2) <= hand[WOLF2]:
                    moves.add(Attack(1, v, g))
            if hand[WISC]:
                moves.add(Disguise(1, v, False))
        if other.fenced[v - 1] and hand[WISC]:
            moves.add(Disguise(1, v, True))
    if hand[CROOK]:
        for k in range(len(KINDS)):
            if discard[k] or k == CROOK:
                moves.add(Crook(k))
    if not moves:
        moves = {Discard(k) for k in range(len(KINDS)) if hand[k]}
    return moves


def _herd_table(cfg: VerifyConfig, hand: tuple[int, ...], mine: Herd, other: Herd,
                discard: tuple[int, ...]) -> HerdState:
    totals = [hand[k] + discard[k] for k in range(len(KINDS))]
    for h in (mine, other):
        totals[FENCE] += sum(h.fenced)
        for v in range(3):
            totals[SHEEP[v]] += h.open[v] + h.fenced[v]
    totals[SHEEP[0]] += 1  # player 2's hand
    spec = ",".join(f"{KINDS[k]}*{c}" for k, c in enumerate(totals) if c)
    empty = (0,) * len(KINDS)
    other_hand = tuple(1 if k == SHEEP[0] else 0 for k in range(len(KINDS)))
    return cfg.herd_model(HerdOptions(2, parse_deck(spec), None), empty, (hand, other_hand),
                          (mine, other), discard)


def _effect_ok(before: HerdState, move: HerdMove, after: HerdState) -> bool:
    """K3's effect of a move by player 0 of two (before refills)."""
    h0, h1 = before.herds
    a0, a1 = after.herds
    hand, new = before.hands[0], after.hands[0]
    if after.kind_totals() != before.kind_totals():
        return False
    if isinstance(move, PlaySheep):
        return a1 == h1 and a0 == Herd(_add(h0.open, move.value, 1), h0.fenced)
    if isinstance(move, PlayFence):
        return a1 == h1 and a0 == Herd(_add(h0.open, move.value, -1),
                                       _add(h0.fenced, move.value, 1))
    if isinstance(move, Attack):
        return (a0 == h0 and a1 == Herd(_add(h1.open, move.value, -1), h1.fenced)
                and sum(move.wolves) == move.value)
    if isinstance(move, Disguise):
        if move.fence:
            return a0 == h0 and a1 == Herd(_add(h1.open, move.value, 1),
                                           _add(h1.fenced, move.value, -1))
        return a0 == h0 and a1 == Herd(_add(h1.open, move.value, -1), h1.fenced)
    if isinstance(move, Crook):
        want = list(hand)
        want[CROOK] -= 1
        want[move.take] += 1
        return a0 == h0 and a1 == h1 and tuple(new) == tuple(want)
    return a0 == h0 and a1 == h1


def _add(t: tuple[int, int, int], v: int, d: int) -> tuple[int, int, int]:
    lst = list(t)
    lst[v - 1] += d
    return (lst[0], lst[1], lst[2])


def herd_moves(cfg: VerifyConfig) -> CheckResult:
    """Every hand of 1-3 cards against small herds and discard piles: the model's legal moves
    equal K3's, and each move has K3's effect."""
    t0 = time.perf_counter()
    hands = []
    for size in (1, 2, 3):
        for combo in combinations_with_replacement(range(len(KINDS)), size):
            c = Counter(combo)
            hands.append(tuple(c[k] for k in range(len(KINDS))))
    bits = [(0, 0, 0), (1, 0, 0), (0, 0, 1), (0, 1, 0), (1, 1, 1)]
    others = [Herd(o, f) for o in (bits if not cfg.quick else bits[:4])
              for f in (bits if not cfg.quick else bits[:2])]
    mines = [Herd(), Herd((0, 1, 0), (0, 0, 0))] + ([] if cfg.quick
                                                    else [Herd((1, 0, 1), (0, 1, 0))])
    discards = [(0,) * len(KINDS), tuple(1 if k == WOLF2 else 0 for k in range(len(KINDS)))]
    checked = 0
    for hand, mine, other, discard in product(hands, mines, others, discards):
        state = _herd_table(cfg, hand, mine, other, discard)
        want = _spec_moves(hand, mine, other, discard)
        got = set(state.legal_moves())
        checked += 1
        if got != want:
            extra = sorted(map(format_move, got - want))
            missing = sorted(map(format_move, want - got))
            return judged("rules", "herd-moves", "Herd card effects (K3)", False, PASSED,
                           ("K3",), f"{checked} tables; legal moves differ from K3",
                           f"hand {_hand_text(hand)}, own herd {mine}, other {other}, discard "
                           f"{_hand_text(discard)}: not in K3 {extra}, missing {missing}",
                           t0, f"{RULES} K3")
        for m in got:
            after = state.play(m)
            if not _effect_ok(state, m, after):
                return judged("rules", "herd-moves", "Herd card effects (K3)", False, PASSED,
                               ("K3",), "a move's effect differs from K3",
                               f"hand {_hand_text(hand)}: {format_move(m)}", t0, f"{RULES} K3")
    return judged("rules", "herd-moves", "Herd card effects (K3)", True, PASSED, ("K3",),
                   f"{checked} tables (every hand of 1-3 cards), every legal move's effect",
                   "", t0, f"{RULES} K3")


def _hand_text(counts: tuple[int, ...]) -> str:
    return ",".join(f"{KINDS[k]}*{c}" for k, c in enumerate(counts) if c) or "-"


# ---- Concentration (K4) -----------------------------------------------------------------


def _conc_states(cfg: VerifyConfig, deck: Deck, players: int
                 ) -> Iterator[tuple[ConcState, Flip, ConcState]]:
    """Every transition of the model under test reachable from every layout (positions
    repeat, so a visited set)."""
    start = cfg.conc_model(ConcentrationOptions(deck, players))
    seen: set[ConcState] = set()
    stack = [start.play(ConcDeal(layout)) for layout in arrangements(deck.counts)]
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        for m in s.legal_moves():
            assert isinstance(m, Flip)
            t = s.play(m)
            yield s, m, t
            if not t.is_terminal():
                stack.append(replace(t, turns=0))


def conc_turns(cfg: VerifyConfig) -> CheckResult:
    """K4 on every reachable position of small decks (2 players): a pair is two cards of one
    kind, kept, and the player goes again; a miss passes the turn."""
    t0 = time.perf_counter()
    n = 0
    for spec in ("a*2,b*2", "a*4,b*2") if not cfg.quick else ("a*2,b*2",):
        for s, m, t in _conc_states(cfg, parse_deck(spec), 2):
            n += 1
            assert s.layout is not None
            if s.first is None:
                ok = t.first == m.position and t.to_move == s.to_move and t.removed == s.removed
            else:
                match = s.layout[s.first] == s.layout[m.position]
                ok = (t.removed == s.removed | ({s.first, m.position} if match else set())
                      and t.pairs[s.to_move] == s.pairs[s.to_move] + match
                      and t.to_move == (s.to_move if match else 1 - s.to_move)
                      and t.turns == s.turns + 1)
            if not ok:
                return judged("rules", "conc-turns", "Concentration turns (K4)", False,
                               PASSED, ("K4",), "a flip's effect differs from K4",
                               f"deck {spec}: flip {position_name(m.position)}", t0,
                               f"{RULES} K4")
    return judged("rules", "conc-turns", "Concentration turns (K4)", True, PASSED, ("K4",),
                   f"{n} transitions of every reachable position", "", t0, f"{RULES} K4")


def rules_section(cfg: VerifyConfig) -> list[CheckResult]:
    """Section `rules`."""
    return [war_battles(cfg), war_orders(cfg), herd_moves(cfg), conc_turns(cfg)]


# ---- conservation -------------------------------------------------------------------------


def war_conservation(cfg: VerifyConfig) -> CheckResult:
    """Every reachable War state of small decks (all deals, all orders): the piles hold the
    deck; then seeded random games on the Wolf! deck."""
    t0 = time.perf_counter()
    specs = ["pairs:3", "1*3,2*2,3"] + ([] if cfg.quick else ["pairs:4"])
    states = 0
    for spec in specs:
        deck = parse_deck(spec)
        want = sorted(deck.cards())
        for order in Order:
            options = WarOptions(deck, order, cfg.runout)
            seen: set[object] = set()
            stack = [WarState(options).play(WarDeal(d)) for d in arrangements(deck.counts)]
            while stack:
                s = stack.pop()
                key = (s.piles, s.outcome)
                if key in seen:
                    continue
                seen.add(key)
                states += 1
                assert s.piles is not None
                if sorted(s.piles[0] + s.piles[1]) != want:
                    return judged("conservation", "war-cards", "War conserves the deck (K2)",
                                   False, PROVED, ("K2",), "cards lost or made",
                                   format_position(s).replace("\n", " | "), t0, f"{RULES} K2")
                if not s.is_terminal():
                    stack.extend(s.play(m) for m in s.legal_moves())
    rng = random.Random(cfg.seed)
    games = 10 if cfg.quick else 30
    for i in range(games):
        order = list(Order)[i % 3]
        s = WarState(WarOptions(WOLF_DECK, order, cfg.runout, 3000))
        s = s.play(s.sample_chance(rng))
        want = sorted(WOLF_DECK.cards())
        while not s.is_terminal():
            s = s.play(s.sample_chance(rng))
            assert s.piles is not None
            if sorted(s.piles[0] + s.piles[1]) != want:
                return judged("conservation", "war-cards", "War conserves the deck (K2)",
                               False, PROVED, ("K2",), "cards lost or made in random play",
                               format_position(s).replace("\n", " | ")[:500], t0,
                               f"{RULES} K2")
    return judged("conservation", "war-cards", "War conserves the deck (K2)", True, PROVED,
                   ("K1", "K2"), f"exhaustive: {states} states of {', '.join(specs)} under the "
                   f"three orders; random: {games} games of the Wolf! deck", "", t0,
                   f"{RULES} K2")


def herd_conservation(cfg: VerifyConfig) -> CheckResult:
    """Every reachable herd state of a small deck (2 players, every draw and move), then
    seeded random games of McCord's deck with 2-4 players: each kind's cards add up."""
    t0 = time.perf_counter()
    deck = parse_deck("sheep1,sheep3,fence,wolf1*2,wisc,crook" if not cfg.quick
                      else "sheep1,sheep2,fence,wolf1*2,crook")
    options = HerdOptions(2, deck, 10)
    start = cfg.herd_model.new(options)
    seen: set[HerdState] = set()
    stack = [start]
    while stack:
        s = stack.pop()
        if s in seen:
            continue
        seen.add(s)
        if s.kind_totals() != options.counts():
            return judged("conservation", "herd-cards", "Herd game conserves the deck (K3)",
                           False, PROVED, ("K3",), "cards lost or made", str(s)[:400], t0,
                           f"{RULES} K3")
        if not s.is_terminal():
            stack.extend(s.play(m) for m in s.legal_moves())
    rng = random.Random(cfg.seed)
    games = 6 if cfg.quick else 120
    for i in range(games):
        opts = HerdOptions(2 + i % 3, WOLF_DECK, 400)
        s = cfg.herd_model.new(opts)
        while not s.is_terminal():
            moves = list(s.legal_moves())
            m = s.sample_chance(rng) if s.is_chance_node() else moves[rng.randrange(len(moves))]
            s = s.play(m)
            if s.kind_totals() != opts.counts():
                return judged("conservation", "herd-cards", "Herd game conserves the deck "
                               "(K3)", False, PROVED, ("K3",), "cards lost or made in play",
                               format_move(m), t0, f"{RULES} K3")
    return judged("conservation", "herd-cards", "Herd game conserves the deck (K3)", True,
                   PROVED, ("K3",), f"exhaustive: {len(seen)} states of {deck.spec()} "
                   f"(2 players, 10 turns); random: {games} games of McCord's deck", "", t0,
                   f"{RULES} K3")


def conc_conservation(cfg: VerifyConfig) -> CheckResult:
    """Every reachable Concentration state of small decks and random games of McCord's
    deck: removed cards are matched pairs counted once in the scores."""
    t0 = time.perf_counter()
    n = 0

    def ok(s: ConcState) -> bool:
        assert s.layout is not None
        kinds = Counter(s.layout[i] for i in s.removed)
        return sum(s.pairs) * 2 == len(s.removed) and all(c % 2 == 0 for c in kinds.values())

    spec = "a*2,b*2" if cfg.quick else "a*2,b*4"
    for _, _, t in _conc_states(cfg, parse_deck(spec), 2):
        n += 1
        if not ok(t):
            return judged("conservation", "conc-cards", "Concentration conserves the deck "
                           "(K4)", False, PROVED, ("K4",), "pairs do not add up", str(t)[:300],
                           t0, f"{RULES} K4")
    rng = random.Random(cfg.seed)
    from fleece.rules.cards.concentration import CONCENTRATION

    for _ in range(5 if cfg.quick else 50):
        s = cfg.conc_model(ConcentrationOptions(WOLF_DECK, 2, 2000))
        while not s.is_terminal():
            s = s.play(CONCENTRATION.random_move(s, rng))
            if s.layout is not None and not ok(s):
                return judged("conservation", "conc-cards", "Concentration conserves the "
                               "deck (K4)", False, PROVED, ("K4",), "pairs do not add up",
                               "", t0, f"{RULES} K4")
    return judged("conservation", "conc-cards", "Concentration conserves the deck (K4)", True,
                   PROVED, ("K4",), f"exhaustive: {n} transitions of {spec}; random games of "
                   "McCord's deck", "", t0, f"{RULES} K4")


def partners(cfg: VerifyConfig) -> CheckResult:
    """K4: every kind of McCord's deck has an even count, so every card has a partner."""
    t0 = time.perf_counter()
    odd = [k.name for k in WOLF_DECK.kinds if k.count % 2]
    return judged("conservation", "k4-partners", "Every card of McCord's deck has a partner "
                   "(K4)", not odd, PROVED, ("K3", "K4"), "counts " + ", ".join(
                       f"{k.name} {k.count}" for k in WOLF_DECK.kinds), ", ".join(odd), t0,
                   f"{RULES} K4 (a check should confirm it)")


def conservation_section(cfg: VerifyConfig) -> list[CheckResult]:
    """Section `conservation`."""
    return [war_conservation(cfg), herd_conservation(cfg), conc_conservation(cfg),
            partners(cfg)]


# ---- termination and gaps -----------------------------------------------------------------


def spec_game(deal: Pile, order: Order, runout: Runout) -> tuple[str, int, int]:
    """K2 read afresh: a whole game from a deal under a fixed return order: (outcome, battles,
    period), outcome `A`, `B`, `draw` or `cycle` (the piles after a battle repeat a pair seen
    at the start of an earlier battle, `period` battles before; 0 for a game that ends)."""
    half = (len(deal) + 1) // 2
    a, b = deal[:half], deal[half:]
    seen = {(a, b): 0}
    battles = 0
    while True:
        winner, na, nb, ended = spec_battle(a, b, runout)
        battles += 1
        if ended or winner is None:
            return ("draw" if winner is None else "AB"[winner]), battles, 0
        played = (a[:na], b[:nb])
        pot = (played[winner] + played[1 - winner] if order is Order.WINNER_FIRST
               else played[1 - winner] + played[winner])
        a, b = a[na:], b[nb:]
        if winner == 0:
            a += pot
        else:
            b += pot
        if not b or not a:
            return ("A" if a else "B"), battles, 0
        if (a, b) in seen:
            return "cycle", battles, battles - seen[(a, b)]
        seen[(a, b)] = battles


def _model_game(deck: Deck, deal: Pile, order: Order, runout: Runout) -> WarState:
    """The rules model's game from a deal, played to its end."""
    state = WarState(WarOptions(deck, order, runout)).play(WarDeal(deal))
    while not state.is_terminal():
        state = state.play(next(state.legal_moves()))
    return state


def war_cycles(deck: Deck, order: Order, runout: Runout
               ) -> tuple[int, int, tuple[Pile, int] | None, str]:
    """Every deal played by the rules model and by K2 read afresh (`spec_game`): (cycling
    deals, deals, the first cycling deal with its period, the first disagreement or "")."""
    cycles, deals = 0, 0
    example: tuple[Pile, int] | None = None
    for deal in arrangements(deck.counts):
        deals += 1
        state = _model_game(deck, deal, order, runout)
        assert state.outcome is not None
        want, battles, period = spec_game(deal, order, runout)
        if (state.outcome.value, state.battles) != (want, battles):
            return cycles, deals, example, (
                f"deal {deck.text(deal)}: model {state.outcome.value} after {state.battles} "
                f"battles, K2 {want} after {battles}")
        if want == "cycle":
            cycles += 1
            example = example or (deal, period)
    return cycles, deals, example, ""


def random_order_ends(deck: Deck, runout: Runout) -> tuple[bool, int, str]:
    """K2's random order on a small deck, over the rules model's own chance moves: every pile
    pair reachable from a deal can reach the end of the game, so (a finite chain) the game
    ends with probability 1. Returns (whether it does, pile pairs, a stuck pair)."""
    succ: dict[tuple[Pile, Pile], set[tuple[Pile, Pile]]] = {}
    ends: set[tuple[Pile, Pile]] = set()
    options = WarOptions(deck, Order.RANDOM, runout)
    stack = [WarState(options).play(WarDeal(d)) for d in arrangements(deck.counts)]
    while stack:
        s = stack.pop()
        assert s.piles is not None
        if s.piles in succ:
            continue
        succ[s.piles] = set()
        for m in s.legal_moves():
            if s.chance_probability(m) <= 0:
                continue
            t = s.play(m)
            if t.is_terminal():
                ends.add(s.piles)
            else:
                assert t.piles is not None
                succ[s.piles].add(t.piles)
                stack.append(replace(t, battles=0, record=()))
    good = set(ends)
    changed = True
    while changed:
        changed = False
        for piles, nxt in succ.items():
            if piles not in good and nxt & good:
                good.add(piles)
                changed = True
    stuck = next((p for p in succ if p not in good), None)
    return stuck is None, len(succ), "" if stuck is None else f"{stuck}"


def war_termination(cfg: VerifyConfig) -> CheckResult:
    """Fixed order: the smallest decks searched for a cycling deal, every deal played by the
    rules model and by K2 read afresh; one found is the gap CARDS-WAR-CYCLE. Random order:
    on small decks every reachable pile pair can reach the end (the game ends with
    probability 1: a repeated pile pair is no cycle there)."""
    t0 = time.perf_counter()
    title = "Does every War game end? (K2)"
    if cfg.order is Order.RANDOM:
        found = {spec: random_order_ends(parse_deck(spec), cfg.runout)
                 for spec in ("pairs:2", "pairs:3", "1,2,3,4,5")}
        stuck = [f"{spec}: {why}" for spec, (ok, _, why) in found.items() if not ok]
        return judged("termination", "war-ends", title, not stuck, PROVED, ("K2",),
                       "random order: P(end) = 1 on " + ", ".join(
                           f"{spec} ({n} pile pairs, each can reach the end)"
                           for spec, (_, n, _) in found.items()), "; ".join(stuck), t0,
                       f"{RULES} K2 (a cycle needs a fixed order)")
    for spec in ("pairs:3", "1,2,3,4", "pairs:4", "1,2,3,4,5", "1,2,3,4,5,6,7"):
        deck = parse_deck(spec)
        cycles, deals, example, differ = war_cycles(deck, cfg.order, cfg.runout)
        if differ:
            return judged("termination", "war-ends", title, False, PROVED, ("K2",),
                           "the rules model and K2 read afresh end a game differently",
                           differ, t0, f"{RULES} K2")
        if example is None:
            continue
        deal, period = example
        state = _model_game(deck, deal, cfg.order, cfg.runout)
        gap = RulesGap(WAR_CYCLE, NO_END, "K2", f"with the {cfg.order.value} order a deal of "
                       f"{spec} repeats its piles for ever ({cycles} of {deals} deals)",
                       f"deck {spec}, order {cfg.order.value}: deal {deck.text(deal)} "
                       f"repeats its piles after {state.battles} battles (period {period})",
                       variant=f"order={cfg.order.value} runout={cfg.runout.value}",
                       replay="fleece cards war play --position FILE",
                       record=format_position(WarState(WarOptions(deck, cfg.order,
                                                                  cfg.runout)).play(
                           WarDeal(deal))))
        return gap_found("termination", "war-ends", title, gap, clauses=("K2",),
                         basis=f"{RULES} K2 (a repeated pile pair never ends)",
                         seconds=time.perf_counter() - t0,
                         data={"deck": spec, "cycles": cycles, "deals": deals})
    return judged("termination", "war-ends", title, True, PROVED, ("K2",),
                   "no cycling deal in the decks searched", "", t0, f"{RULES} K2")


def _herd_key(s: HerdState) -> object:
    return replace(s, turns=0)


def herd_termination(cfg: VerifyConfig) -> CheckResult:
    """A play of McCord's deck (2 players) whose position repeats: draws dealt crooks first,
    players play any card but a crook, a crook only when nothing else is playable (taking a
    crook back): the gap CARDS-HERD-ENDLESS with the play as witness. Without crooks every
    turn moves a card out of the hands for good: exhaustively, no position of a crook-free
    deck repeats."""
    t0 = time.perf_counter()
    title = "Does every herd game end? (K3)"
    s = cfg.herd_model.new(HerdOptions(2, WOLF_DECK, None))
    seen: dict[object, int] = {}
    moves: list[str] = []
    for step in range(20_000):
        key = _herd_key(s)
        if key in seen and not s.is_chance_node():
            first = seen[key]
            witness = (f"McCord's deck, 2 players: {'; '.join(moves[:8])} ... ; after move "
                       f"{first} and again after move {step} the position is the same "
                       f"(moves {first + 1}-{step}: {'; '.join(moves[first:step])})")
            gap = RulesGap(HERD_ENDLESS, NO_END, "K3", "a herd game need not end: a crook "
                           "taken back from the discard pile returns a position", witness,
                           variant="players=2 deck=wolf", record="\n".join(moves) + "\n")
            return gap_found("termination", "herd-ends", title, gap, clauses=("K3",),
                             basis=f"{RULES} K3 (the game ends when all cards are played)",
                             seconds=time.perf_counter() - t0)
        seen.setdefault(key, step)
        if s.is_terminal():
            break
        if s.is_chance_node():
            m: HerdMove = Draw(CROOK) if s.draw[CROOK] else next(s.legal_moves())
        else:
            legal = list(s.legal_moves())
            plain = [x for x in legal if not isinstance(x, Crook)]
            m = plain[0] if plain else next((x for x in legal if isinstance(x, Crook)
                                             and x.take == CROOK), legal[0])
        moves.append(f"{'P' + str(s.to_move + 1) + ' ' if not s.is_chance_node() else ''}"
                     f"{format_move(m)}")
        s = s.play(m)
    # no repeat found: check that a crook-free deck ends (exhaustive on a small one)
    return judged("termination", "herd-ends", title, True, PROVED, ("K3",),
                   "no repeating play found", "", t0, f"{RULES} K3")


def herd_without_crook(cfg: VerifyConfig) -> CheckResult:
    """Without crooks every game ends: the reachable positions of a crook-free deck form no
    cycle (exhaustive), as every turn moves a card out of the hands for good."""
    t0 = time.perf_counter()
    deck = parse_deck("sheep1,sheep2,fence,wolf1*2,wisc" if not cfg.quick
                      else "sheep1,sheep2,fence,wolf1")
    start = cfg.herd_model.new(HerdOptions(2, deck, None))
    colour: dict[object, int] = {}
    stack: list[tuple[HerdState, Iterator[HerdMove]]] = [(start, start.legal_moves())]
    colour[_herd_key(start)] = 1
    while stack:
        s, it = stack[-1]
        m = next(it, None)
        if m is None:
            colour[_herd_key(s)] = 2
            stack.pop()
            continue
        t = s.play(m)
        k = _herd_key(t)
        c = colour.get(k, 0)
        if c == 1:
            return judged("termination", "herd-ends-without-crook", "Herd games without a "
                           "crook end (K3)", False, PROVED, ("K3",), "a position repeats",
                           format_move(m), t0, f"{RULES} K3")
        if c == 0:
            colour[k] = 1
            stack.append((t, t.legal_moves()))
    return judged("termination", "herd-ends-without-crook", "Herd games without a crook end "
                   "(K3)", True, PROVED, ("K3",), f"{len(colour)} positions of {deck.spec()}, "
                   "no cycle", "", t0, f"{RULES} K3 (every card is played or discarded)")


def conc_termination(cfg: VerifyConfig) -> CheckResult:
    """A solitaire game of McCord's deck that returns to a position: flip two known cards of
    different kinds again and again (the gap CARDS-CONC-ENDLESS)."""
    t0 = time.perf_counter()
    layout = tuple(WOLF_DECK.cards())
    s = cfg.conc_model(ConcentrationOptions(WOLF_DECK, 1)).play(ConcDeal(layout))
    a, b = 0, len(layout) - 1  # a Fence and a Wolf in sheep's clothing
    first = s.play(Flip(a)).play(Flip(b))
    again = first.play(Flip(a)).play(Flip(b))
    if replace(again, turns=0) == replace(first, turns=0) and not again.is_terminal():
        witness = (f"McCord's deck in kind order: flip {position_name(a)} "
                   f"({WOLF_DECK.kinds[layout[a]].name}), {position_name(b)} "
                   f"({WOLF_DECK.kinds[layout[b]].name}); the same two again: the position "
                   "repeats (turn 1 = turn 2)")
        gap = RulesGap(CONC_ENDLESS, NO_END, "K4", "a Concentration game need not end: two "
                       "known, non-matching cards can be flipped for ever", witness,
                       variant="deck=wolf players=1")
        return gap_found("termination", "conc-ends", "Does every Concentration game end? "
                         "(K4)", gap, clauses=("K4",), basis=f"{RULES} K4 (the game is over "
                         "when every pair is taken)", seconds=time.perf_counter() - t0)
    return judged("termination", "conc-ends", "Does every Concentration game end? (K4)", True,
                   PROVED, ("K4",), "no repeat", "", t0, f"{RULES} K4")


def termination_section(cfg: VerifyConfig) -> list[CheckResult]:
    """Section `termination`."""
    return [war_termination(cfg), herd_termination(cfg), herd_without_crook(cfg),
            conc_termination(cfg)]


# ---- literature ---------------------------------------------------------------------------

VW_SMALL = (Fraction(1), Fraction(8, 3), Fraction(13, 3))  # Velleman & Warrington E(1..3)
# Zwick & Paterson (1993): the optimal move for n pairs, k = 0..n known (0 pass, 1, 2 new)
ZP_ROWS = {1: "21", 2: "221", 3: "2121", 4: "22121", 5: "212101", 6: "2112101",
           7: "21212101", 8: "221212101", 9: "2121212101", 10: "22121212101",
           11: "212121210101", 12: "2212121210101", 13: "21212121210101",
           14: "221212121210101", 15: "2121212121210101"}
# K4 with four cards of a kind: deck a*4,b*4 (solitaire turns, first player's pair lead); a
# kind with 4 left, 2 known, and a pair never seen: a new card first, the known pair first
MULTI = {"a*4,b*4": (Fraction(188, 35), Fraction(-8, 35)),
         "hand": (Fraction(7, 2), Fraction(11, 3))}


def vw_small(cfg: VerifyConfig) -> CheckResult:
    """E(1), E(2), E(3) by exhaustive search over every layout, each turn played by the
    rules model under test, and by Velleman & Warrington's recurrence."""
    t0 = time.perf_counter()
    search = tuple(memory.LayoutSearch(pairs(n), 1, cfg.conc_model).value() for n in (1, 2, 3))
    recurrence = tuple(memory.vw_pairs(3))
    wrong = [f"pairs:{n}: search {a}, recurrence {b}, published {c}"
             for n, (a, b, c) in enumerate(zip(search, recurrence, VW_SMALL, strict=True), 1)
             if not a == b == c]
    return judged("literature", "vw-small", "Solitaire E(1), E(2), E(3) = 1, 8/3, 13/3 "
                   "(Velleman & Warrington)", not wrong, PASSED,
                   ("K4",), "layouts through the rules model: " + ", ".join(map(str, search))
                   + "; the recurrence: " + ", ".join(map(str, recurrence)), "; ".join(wrong),
                   t0, "docs/rules.md known results (arXiv:1208.4854)")


def vw_asymptote(cfg: VerifyConfig) -> CheckResult:
    """V&W's recurrence up to n pairs against their asymptote and Foerster & Wattenhofer's
    bounds."""
    import math

    t0 = time.perf_counter()
    n = 20 if cfg.quick else 80
    values = memory.vw_pairs(n)
    c = 3 - 2 * math.log(2)
    gap = float(values[-1]) - (c * n + 7 / 8 - 2 * math.log(2))
    bounds = all(1.5 * k - 1 <= v < 1.75 * k for k, v in enumerate(values, start=1))
    return judged("literature", "vw-asymptote", "E(n) approaches (3 - 2 ln 2) n + 7/8 - "
                   "2 ln 2; 1.5 n - 1 <= E(n) < 1.75 n", abs(gap) < 0.01 and bounds,
                   PASSED, ("K4",), f"E({n}) = {float(values[-1]):.6f}, minus the "
                   f"asymptote {gap:+.6f}; bounds hold for n <= {n}: {bounds}", "", t0,
                   "docs/rules.md known results (V&W; Foerster & Wattenhofer)")


def war_cycle_counts(cfg: VerifyConfig) -> CheckResult:
    """Cycling deals of 1,2,3,4,5 under both fixed orders, every deal played by the rules
    model and by K2 read afresh."""
    t0 = time.perf_counter()
    deck = parse_deck("1,2,3,4,5")
    found = {o.value: war_cycles(deck, o, Runout.LOSE)
             for o in (Order.WINNER_FIRST, Order.LOSER_FIRST)}
    differ = "; ".join(d for _, _, _, d in found.values() if d)
    return judged("literature", "war-cycles", "Fixed return orders cycle on small decks "
                   "with strict ranks (Spivey; Lakshtanov & Roshchina)",
                   not differ and all(c > 0 for c, _, _, _ in found.values()), PROVED,
                   ("K2",), "cycling deals of 1,2,3,4,5 (of 120): " + ", ".join(
                       f"{k} {c}" for k, (c, _, _, _) in found.items()), differ, t0,
                   "docs/rules.md known results")


def zp_table_check(cfg: VerifyConfig) -> CheckResult:
    """Zwick & Paterson's table of optimal moves from their recurrence, whose values on two
    and three pairs equal the exhaustive search through the rules model."""
    t0 = time.perf_counter()
    top = 10 if cfg.quick else 15
    rows = memory.zp_moves(top)
    bad = [n for n in range(1, top + 1) if rows[n - 1] != ZP_ROWS[n]]
    search = [memory.LayoutSearch(pairs(n), 2, cfg.conc_model).value() for n in (2, 3)]
    recurrence = [memory.zp_value(n) for n in (2, 3)]
    wrong = [f"n={n}: {rows[n - 1]}, published {ZP_ROWS[n]}" for n in bad]
    wrong += [f"pairs:{n}: search {a}, recurrence {b}"
              for n, a, b in zip((2, 3), search, recurrence, strict=True) if a != b]
    return judged("literature", "zp-moves", "Two-player optimal move classes (Zwick & "
                   "Paterson's table)", not wrong, PASSED, ("K4",),
                   f"n = 1..{top}: " + ("all rows equal" if not bad else f"rows {bad} differ")
                   + f"; e(2), e(3) by search {search[0]}, {search[1]}, by the recurrence "
                   f"{recurrence[0]}, {recurrence[1]}", "; ".join(wrong), t0,
                   "Zwick & Paterson, The memory game, TCS 110 (1993): 0 pass, 1 one new "
                   "card, 2 two new")


def conc_multi(cfg: VerifyConfig) -> CheckResult:
    """K4 with four cards of a kind, by exhaustive search over layouts through the rules
    model: deck a*4,b*4 alone and for two players; a kind with 4 left of which 2 known plus
    a pair never seen: a card never seen first beats taking the known pair first."""
    t0 = time.perf_counter()
    deck = parse_deck("a*4,b*4")
    got = (memory.LayoutSearch(deck, 1, cfg.conc_model).value(),
           memory.LayoutSearch(deck, 2, cfg.conc_model).value())
    hand = memory.LayoutSearch(parse_deck("a*4,b*2"), 1, cfg.conc_model)
    known = (0, 0, memory.UNSEEN, memory.UNSEEN, memory.UNSEEN, memory.UNSEEN)
    hand_values = (hand.value(known), hand.place_value(known, 0, 1))
    ok = got == MULTI["a*4,b*4"] and hand_values == MULTI["hand"]
    want = MULTI["a*4,b*4"] + MULTI["hand"]
    witness = "" if ok else f"found {', '.join(map(str, got + hand_values))}, expected " \
        f"{', '.join(map(str, want))}"
    return judged("literature", "conc-multi", "Concentration with four cards of a kind: a "
                   "known card partners every later card of its kind (K4)", ok, PASSED,
                   ("K4",), f"a*4,b*4: {got[0]} turns alone, first player {got[1]} pairs; "
                   f"4 left 2 known + a new pair: {hand_values[0]} with a new card first, "
                   f"{hand_values[1]} taking the known pair first", witness, t0,
                   f"{RULES} K4 (known pairs never forced; values worked by hand)")


def literature_section(cfg: VerifyConfig) -> list[CheckResult]:
    """Section `literature`: docs/rules.md's known results (and Zwick & Paterson's table), each
    from the verifier's own computation."""
    return [vw_small(cfg), vw_asymptote(cfg), war_cycle_counts(cfg), zp_table_check(cfg),
            conc_multi(cfg)]
