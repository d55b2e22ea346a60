"""The Wolf! card games through the library API (docs/rules.md section 4): the deck, War (one game,
or the analysis: exact over every deal, the exact random-order chain, or a seeded Monte Carlo
estimate with 95% intervals), McCord's herd game, and Concentration with perfect memory.

    from fleece.api import cards
    report = cards.analyse_war(cards.WarAnalyseRequest(deck="pairs:4"))
    report.method, report.reason, report.cycles   # 'exact', 'every one of the 2520 deals ...', 70

Whether War's analysis is exact or estimated is decided here (`analyse_war`): exact when the
deck fits the budgets `max_deals` (fixed orders) or `max_states` (random order), else an
estimate from DEFAULT_SAMPLES seeded games; `samples` asks for the estimate outright. The
report says which method ran (`method`) and why (`reason`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from typing import Any

from fleece.api.report import ABSENT, Report
from fleece.rules.errors import BudgetExceeded, ParseError

__all__ = [
    "ConcentrationRequest",
    "DeckReport",
    "DeckRequest",
    "DuelReport",
    "HerdReport",
    "HerdRequest",
    "PairsReport",
    "PairsRequest",
    "PolicyReport",
    "PolicyRequest",
    "SolitaireReport",
    "VerifyVariant",
    "WarAnalyseRequest",
    "WarExactReport",
    "WarMarkovReport",
    "WarPlayReport",
    "WarPlayRequest",
    "WarReport",
    "WarSampledReport",
    "analyse_war",
    "concentration_pairs",
    "concentration_policy",
    "deck",
    "parse_deck",
    "play_war",
    "simulate_herd",
    "solve_concentration",
]


DEFAULT_SAMPLES = 20_000  # Monte Carlo games when a deck is too large for the exact analysis
MAX_DEALS = 2_000_000
MAX_CHAIN_STATES = 6_000
MAX_POSITIONS = 20_000_000  # = solver.cards.concentration.DEFAULT_MAX_STATES (a test holds it)

#: `progress(label, total, unit)` opens a progress display and yields `tick(done)`.
Progress = Callable[[str, int | None, str], AbstractContextManager[Callable[[int], None]]]


@contextmanager
def no_progress(label: str, total: int | None, unit: str) -> Iterator[Callable[[int], None]]:
    """A progress display that shows nothing."""
    yield lambda done: None


def parse_deck(text: str) -> Any:
    """A deck spec (`wolf`, `pairs:N`, `NAME*COUNT,...`); ParseError with field `deck`."""
    from fleece.rules.cards.deck import parse_deck as parse

    try:
        return parse(text)
    except ParseError as exc:
        raise ParseError(exc.message, line=exc.line, column=exc.column, field="deck") from None


# ---- the deck -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DeckRequest:
    """A deck spec."""

    deck: str = "wolf"


@dataclass(frozen=True, kw_only=True)
class DeckReport(Report):
    """A deck (`fleece cards deck --json`): kinds, counts, War ranks, the K4 partner check."""

    deck: str
    cards: int
    kinds: list[dict[str, Any]]
    deals: str
    every_card_has_a_partner: bool
    odd_kinds: list[str]
    war: bool
    herd: bool


def deck(request: DeckRequest) -> DeckReport:
    """What the deck holds and which games it can play."""
    d = parse_deck(request.deck)
    odd = [k.name for k in d.kinds if k.count % 2]
    return DeckReport(
        deck=d.spec(), cards=d.size,
        kinds=[{"name": k.name, "label": k.label, "count": k.count, "war_rank": k.rank}
               for k in d.kinds],
        deals=str(d.arrangements()), every_card_has_a_partner=not odd, odd_kinds=odd,
        war=d.ranked and d.size >= 2, herd=d.is_mccord)


# ---- War ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class WarPlayRequest:
    """One seeded War game: the deck and rules, or `position` (a War position file's text,
    whose options replace deck, order and runout)."""

    deck: str = "wolf"
    order: str = "winner-first"
    runout: str = "lose"
    seed: int = 1
    limit: int = 100_000
    position: str | None = None
    source: str = "position"


@dataclass(frozen=True, kw_only=True)
class WarPlayReport(Report):
    """One game battle by battle (`fleece cards war play --json`)."""

    deck: str
    order: str
    runout: str
    seed: int
    deal: str
    outcome: str
    battles: int
    record: list[dict[str, Any]]


def play_war(request: WarPlayRequest) -> WarPlayReport:
    """Play one game of the rules model (K1-K2) from the seeded deal or the position."""
    from fleece.rules.cards.war import WAR, Order, Runout, WarOptions
    from fleece.rules.errors import FleeceError
    from fleece.solver.cards.war import play_one

    start = None
    if request.position is not None:
        try:
            start = WAR.parse_position(request.position)
        except ParseError as exc:
            raise exc.located(request.source) from None
        if not start.record:
            raise FleeceError(f"{request.source}: the position has no deal yet")
        options = start.options
    else:
        options = WarOptions(parse_deck(request.deck), Order.parse(request.order),
                             Runout.parse(request.runout), request.limit)
    return WarPlayReport.from_json(play_one(options, request.seed, start).to_json())


@dataclass(frozen=True)
class WarAnalyseRequest:
    """`fleece cards war analyse`: the deck and rules, `samples` (Monte Carlo games; None:
    exact when within the budgets, else DEFAULT_SAMPLES games), the seed and battle limit of
    the estimate, and the exact budgets."""

    deck: str = "wolf"
    order: str = "winner-first"
    runout: str = "lose"
    samples: int | None = None
    seed: int = 1
    limit: int = 100_000
    max_deals: int = MAX_DEALS
    max_states: int = MAX_CHAIN_STATES


@dataclass(frozen=True, kw_only=True)
class WarExactReport(Report):
    """Every deal played under a fixed return order: exact counts and mean length."""

    method: str
    reason: str
    deck: str
    order: str
    runout: str
    deals: int
    a_wins: int
    b_wins: int
    draws: int
    cycles: int
    cycle_fraction: str
    longest: int
    longest_deal: str | None
    mean_battles: str
    mean_battles_float: float
    cycle_periods: dict[str, int]
    cycle_example: dict[str, Any] | None
    states: int


@dataclass(frozen=True, kw_only=True)
class WarMarkovReport(Report):
    """The random return order as a Markov chain, solved exactly."""

    method: str
    reason: str
    deck: str
    order: str
    runout: str
    deals: int
    states: int
    p_a: str
    p_b: str
    p_draw: str
    p_end: str
    p_end_float: float
    expected_battles: str | None
    expected_battles_float: float | None
    expected_battles_if_ends: str
    never_ending_states: int


@dataclass(frozen=True, kw_only=True)
class WarSampledReport(Report):
    """A seeded Monte Carlo estimate: counts with fractions and 95% intervals; `note` when it
    replaced an exact analysis the budgets did not allow."""

    method: str
    reason: str
    deck: str
    order: str
    runout: str
    games: int
    seed: int
    battle_limit: int
    a_wins: dict[str, Any]
    b_wins: dict[str, Any]
    draws: dict[str, Any]
    cycles: dict[str, Any]
    cut: dict[str, Any]
    mean_battles: dict[str, Any]
    longest: int
    cycle_period: dict[str, Any]
    cycle_example: dict[str, Any] | None
    note: str = ABSENT


WarReport = WarExactReport | WarMarkovReport | WarSampledReport


def analyse_war(request: WarAnalyseRequest, progress: Progress = no_progress) -> WarReport:
    """War's outcome distribution (K2): exact when the deck fits the budgets, else a seeded
    estimate; the report's `method` and `reason` say which and why."""
    from fleece.rules.cards.deck import war_deck
    from fleece.rules.cards.war import Order, Runout

    d = parse_deck(request.deck)
    war_deck(d)
    order, runout = Order.parse(request.order), Runout.parse(request.runout)
    samples = request.samples
    note: str = ABSENT
    if samples is None:
        try:
            if order is Order.RANDOM:
                from fleece.solver.cards.war import analyse_random

                with progress("chain states eliminated", None, "states") as tick:
                    markov = analyse_random(d, runout, max_states=request.max_states,
                                            progress=tick)
                reason = (f"the random-order chain of {markov.states} states is within "
                          f"max_states {request.max_states}: solved exactly")
                return WarMarkovReport.from_json(markov.to_json(), reason=reason)
            from fleece.solver.cards.war import analyse_fixed

            with progress("deals", d.arrangements(), "deals") as tick:
                exact = analyse_fixed(d, order, runout, max_deals=request.max_deals,
                                      progress=tick)
            reason = (f"all {exact.deals} deals are within max_deals {request.max_deals}: "
                      "every one played")
            return WarExactReport.from_json(exact.to_json(), reason=reason)
        except BudgetExceeded as exc:  # too large for the exact analysis: estimate instead
            samples = DEFAULT_SAMPLES
            note = f"{exc.message}: estimated from {samples} seeded games instead"
            reason = note
    else:
        reason = f"samples {samples}: a Monte Carlo estimate was asked for"
    from fleece.solver.cards.war_mc import simulate

    with progress("War games", samples, "games") as tick:
        sampled = simulate(d, order, samples, request.seed, runout=runout, limit=request.limit,
                           progress=tick)
    return WarSampledReport.from_json(sampled.to_json(), reason=reason, note=note)


# ---- herd ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class HerdRequest:
    """`fleece cards herd simulate`: seeded games of McCord's herd game (K3)."""

    players: int = 2
    games: int = 1000
    seed: int = 1
    policy: str = "greedy"
    deck: str = "wolf"
    limit: int = 1000


@dataclass(frozen=True, kw_only=True)
class HerdReport(Report):
    """Seat win rates, herd sizes, ties and lengths with 95% intervals."""

    players: int
    games: int
    seed: int
    policy: str
    deck: str
    turn_limit: int | None
    cut_at_limit: dict[str, Any]
    seat_wins: list[dict[str, Any]]
    shared_victories: dict[str, Any]
    herd_size: list[dict[str, Any]]
    turns: dict[str, Any]
    longest: int


def simulate_herd(request: HerdRequest, progress: Progress = no_progress) -> HerdReport:
    """Play the seeded games (game i uses random.Random(f"{seed}:{i}"))."""
    from fleece.rules.cards.deck import herd_deck
    from fleece.solver.cards.herd import simulate

    d = herd_deck(parse_deck(request.deck))
    with progress("herd games", request.games, "games") as tick:
        stats = simulate(request.players, request.games, request.seed, request.policy, deck=d,
                         turn_limit=request.limit, progress=tick)
    return HerdReport.from_json(stats.to_json())


# ---- Concentration ------------------------------------------------------------------------


@dataclass(frozen=True)
class ConcentrationRequest:
    """`fleece cards concentration solve`: solitaire (players 1) or the two-player game."""

    deck: str = "wolf"
    players: int = 1
    max_states: int = MAX_POSITIONS
    timeout: float | None = None


@dataclass(frozen=True, kw_only=True)
class SolitaireReport(Report):
    """Solitaire Concentration with perfect memory: the exact optimal expected turns."""

    deck: str
    cards: int
    pairs: int
    expected_turns: str
    expected_turns_float: float
    per_pair: float
    positions: int
    reachable_positions: int
    rule: str
    exceptions: list[str]
    exception_count: int
    p_meet_exception: float
    departures_anywhere: int
    natural_rule_turns: str = ABSENT
    natural_rule_turns_float: float = ABSENT
    natural_rule_excess: str = ABSENT


@dataclass(frozen=True, kw_only=True)
class DuelReport(Report):
    """Two-player Concentration, optimal for expected pairs (Zwick & Paterson)."""

    deck: str
    players: int
    first_player_gain: str
    first_player_gain_float: float
    positions: int
    p_first_wins: str = ABSENT
    p_first_wins_float: float = ABSENT
    p_second_wins: str = ABSENT
    p_second_wins_float: float = ABSENT
    p_tie: str = ABSENT
    p_tie_float: float = ABSENT
    p_stalemate: str = ABSENT
    p_stalemate_float: float = ABSENT
    move_table: dict[str, str]


def solve_concentration(request: ConcentrationRequest, progress: Progress = no_progress
                        ) -> SolitaireReport | DuelReport:
    """Exact optimal play (K4); BudgetExceeded (field `max_states`) past the budget."""
    from fleece.rules.cards.deck import concentration_deck

    d = concentration_deck(parse_deck(request.deck))
    if request.players == 1:
        from fleece.solver.cards.concentration import solve_solitaire

        with progress("positions", None, "positions") as tick:
            solo = solve_solitaire(d, max_states=request.max_states, progress=tick,
                                   timeout=request.timeout)
        return SolitaireReport.from_json(solo.to_json())
    from fleece.solver.cards.concentration import solve_duel

    with progress("positions", None, "positions") as tick:
        duel = solve_duel(d, max_states=request.max_states, progress=tick,
                          timeout=request.timeout)
    return DuelReport.from_json(duel.to_json())


@dataclass(frozen=True)
class PolicyRequest:
    """`fleece cards concentration policy`: a position written per kind as cards left /
    cards known (`4/2,2/0`, `2/0*3` for three such kinds), solitaire or two players."""

    position: str
    players: int = 1
    max_states: int = MAX_POSITIONS
    timeout: float | None = None


@dataclass(frozen=True, kw_only=True)
class PolicyReport(Report):
    """Every choice K4 allows at the position with its exact value, the best one, the
    natural rule's choice and its value, and the smallest deck on which the natural rule
    is not optimal somewhere optimal play goes."""

    position: str
    players: int
    unseen: int
    objective: str
    value: str
    value_float: float
    best: str
    natural: str
    natural_optimal: bool
    natural_value: str
    choices: list[dict[str, Any]]
    smallest_departure: dict[str, Any] | None


DEPARTURE_SEARCH_CARDS = 8  # decks searched for the natural rule's first departure


def concentration_policy(request: PolicyRequest, progress: Progress = no_progress
                         ) -> PolicyReport:
    """The optimal choice at a position and every choice's exact value (solving the
    positions that can follow it), against the natural rule (take a known pair; else flip
    an unseen card, then its partner when known, else another unseen card)."""
    from fleece.solver.cards.concentration import natural_departure, policy

    if request.players not in (1, 2):
        raise ParseError(f"{request.players} players: Concentration is solved for 1 or 2",
                         field="players")
    with progress("positions", None, "positions") as tick:
        result = policy(request.position, players=request.players,
                        max_states=request.max_states, progress=tick,
                        timeout=request.timeout)
    found = natural_departure(DEPARTURE_SEARCH_CARDS)
    smallest = None
    if found is not None:
        deck, solo = found
        smallest = {"deck": deck.spec(), "optimal_turns": str(solo.expected_turns),
                    "natural_rule_turns": str(solo.natural_turns)
                    if solo.natural_turns is not None else None,
                    "where": list(solo.exceptions)}
    return PolicyReport.from_json(result.to_json(), smallest_departure=smallest)


@dataclass(frozen=True)
class PairsRequest:
    """Solitaire E(n) for n = 1..up_to pairs."""

    up_to: int = 20


@dataclass(frozen=True, kw_only=True)
class PairsReport(Report):
    """E(n) against Velleman & Warrington's (3 - 2 ln 2) n + 7/8 - 2 ln 2."""

    constant: float
    rows: list[dict[str, Any]]


def concentration_pairs(request: PairsRequest) -> PairsReport:
    """The exact E(n), per pair, and the distance to the asymptote."""
    import math

    from fleece.solver.cards.concentration import pairs_values

    c = 3 - 2 * math.log(2)
    rows = []
    for n, e in enumerate(pairs_values(request.up_to), start=1):
        asym = c * n + 7 / 8 - 2 * math.log(2)
        rows.append({"n": n, "expected_turns": str(e), "float": round(float(e), 9),
                     "per_pair": round(float(e) / n, 9),
                     "minus_asymptote": round(float(e) - asym, 9)})
    return PairsReport(constant=round(c, 12), rows=rows)


# ---- verification -------------------------------------------------------------------------


@dataclass(frozen=True)
class VerifyVariant:
    """What `fleece verify --game cards` checks: the War variant (K2) and the seed of the
    random-play checks."""

    order: str = "winner-first"
    runout: str = "lose"
    seed: int = 1

    def config(self, quick: bool, package: Any) -> Any:
        """The verify package's VerifyConfig of this variant."""
        from fleece.rules.cards.war import Order, Runout

        return package.VerifyConfig(quick=quick, order=Order.parse(self.order),
                                    runout=Runout.parse(self.runout), seed=self.seed)
