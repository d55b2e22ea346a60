"""`fleece cards ...`: the Wolf! card games (docs/rules.md section 4; fleece.api.cards): War
(`war play`, `war analyse`), McCord's herd game (`herd simulate`), Concentration
(`concentration solve`, `concentration pairs`) and the deck itself (`deck`)."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

import typer

from fleece.api import cards as api
from fleece.api.report import ABSENT
from fleece.commands.base import (
    EXIT_OK,
    choice,
    complete_deck,
    echo,
    int_in,
    new_app,
    print_json,
    progress_bar,
    read_input,
    seconds_in,
    stopped_as_json,
)

app = new_app("Wolf! card games: War, McCord's herd game, Concentration: exact analysis, "
              "Monte Carlo, verify.")
war = new_app("Wolf!, a War game for two (K1-K2).")
herd = new_app("David McCord's herd-building game (K3).")
conc = new_app("Concentration with perfect memory (K4).")
app.add_typer(war, name="war")
app.add_typer(herd, name="herd")
app.add_typer(conc, name="concentration")

DECK_HELP = ("deck spec: wolf (McCord's 52 cards, Fences lowest in War), pairs:N, or "
             "NAME*COUNT,... (integer names are War ranks)")


class Order(StrEnum):
    """War's return orders (K2)."""

    WINNER_FIRST = "winner-first"
    LOSER_FIRST = "loser-first"
    RANDOM = "random"


class Runout(StrEnum):
    """War's run-out rules (K2)."""

    LOSE = "lose"
    LAST_CARD = "last-card"


class Policy(StrEnum):
    """The herd game's players."""

    RANDOM = "random"
    GREEDY = "greedy"


Deck = Annotated[str, typer.Option(help=DECK_HELP, autocompletion=complete_deck)]
Timeout = Annotated[float | None, typer.Option(
    parser=seconds_in(), metavar="SECONDS", show_default=False,
    help="stop with no answer after this many seconds (exit status 1; default: no limit)")]
OrderOpt = Annotated[Order, typer.Option(**choice(Order), help="return order (K2)")]
RunoutOpt = Annotated[Runout, typer.Option(
    **choice(Runout), help="a player who cannot finish a war: loses (K2) or plays the last "
                           "card")]
Json = Annotated[bool, typer.Option("--json", help="print JSON")]
Players = Annotated[int, typer.Option(parser=int_in(1, 2), help="1 (solitaire) or 2")]
MaxPositions = Annotated[int, typer.Option(parser=int_in(1, 10**8),
                                           help="the most positions to solve")]


@app.command("deck")
def deck_show(deck: Deck = "wolf", json: Json = False) -> int:
    """Show a deck: kinds, counts, War ranks, partners (K2-K4)."""
    report = api.deck(api.DeckRequest(deck=deck))
    if json:
        print_json(report)
        return EXIT_OK
    echo(f"deck {report.deck}: {report.cards} cards, {len(report.kinds)} kinds, "
         f"{report.deals} distinct deals")
    for k in report.kinds:
        rank = "-" if k["war_rank"] is None else str(k["war_rank"])
        echo(f"  {k['name']:<10} {k['count']:>4}  War rank {rank:>3}  {k['label']}")
    odd = report.odd_kinds
    echo("every card has a partner (K4): " + ("yes" if not odd else "NO: " + ", ".join(odd)))
    return EXIT_OK


@war.command("play")
def war_play(
    deck: Deck = "wolf", order: OrderOpt = Order.WINNER_FIRST,
    runout: RunoutOpt = Runout.LOSE,
    seed: Annotated[int, typer.Option(parser=int_in(0, 10**12), help="seed of the deal")] = 1,
    limit: Annotated[int, typer.Option(parser=int_in(1, 10**7),
                                       help="stop after this many battles")] = 100_000,
    position: Annotated[str | None, typer.Option(
        metavar="FILE", show_default=False,
        help="start from a War position file (options line, deal, battles) or '-'; its "
             "options replace --deck/--order/--runout")] = None,
    json: Json = False,
) -> int:
    """Play one seeded game, battle by battle."""
    text, name = read_input(position) if position is not None else (None, "position")
    d = api.play_war(api.WarPlayRequest(deck=deck, order=order.value, runout=runout.value,
                                        seed=seed, limit=limit, position=text, source=name))
    if json:
        print_json(d)
        return EXIT_OK
    echo(f"War, deck {d.deck}, order {d.order}, run-out {d.runout}, seed {d.seed}")
    echo(f"deal (A gets the first half): {d.deal}")
    for b in d.record:
        war_ = " (war)" if len(b["a"].split()) > 1 or len(b["b"].split()) > 1 else ""
        who = (f"{b['winner']} takes {len(b['returned'].split())}" if b["returned"] else
               ("draw: neither can finish the war" if b["winner"] is None else
                f"{b['winner']} wins: the other cannot finish the war"))
        echo(f"{b['battle']:>5}. A {b['a']} | B {b['b']}{war_} -> {who}; "
             f"cards A {b['cards'][0]} B {b['cards'][1]}")
    text_ = {"A": "A wins", "B": "B wins", "draw": "a draw", "limit": "stopped at the limit",
             "cycle": "a cycle: the piles repeat, the game never ends (K2)"}[str(d.outcome)]
    echo(f"result: {text_} after {d.battles} battles")
    return EXIT_OK


@war.command("analyse")
def war_analyse(
    deck: Deck = "wolf", order: OrderOpt = Order.WINNER_FIRST,
    runout: RunoutOpt = Runout.LOSE,
    samples: Annotated[int | None, typer.Option(
        parser=int_in(1, 10**7), show_default=False,
        help="Monte Carlo games instead of the exact analysis (default: exact when within "
             "--max-deals/--max-states, else 20000 games)")] = None,
    seed: Annotated[int, typer.Option(parser=int_in(0, 10**12),
                                      help="Monte Carlo seed")] = 1,
    limit: Annotated[int, typer.Option(
        parser=int_in(1, 10**8),
        help="Monte Carlo: cut a game after this many battles (counted)")] = 100_000,
    max_deals: Annotated[int, typer.Option(
        parser=int_in(1, 10**9), help="exact budget: the most deals to play")] = api.MAX_DEALS,
    max_states: Annotated[int, typer.Option(
        parser=int_in(1, 10**7),
        help="exact random order: the most chain states")] = api.MAX_CHAIN_STATES,
    json: Json = False,
) -> int:
    """Exact analysis over every deal (small decks) or a seeded Monte Carlo estimate
    (--samples N) with 95% intervals and cycle detection; says which and why."""
    report = api.analyse_war(api.WarAnalyseRequest(
        deck=deck, order=order.value, runout=runout.value, samples=samples, seed=seed,
        limit=limit, max_deals=max_deals, max_states=max_states), progress_bar)
    if json:
        print_json(report)
    else:
        _print_war(report.to_json())
    return EXIT_OK


def _frac(p: Any) -> str:
    return f"{p['count']} ({100 * p['fraction']:.3f}%, 95% CI {100 * p['ci95'][0]:.3f}-" \
           f"{100 * p['ci95'][1]:.3f}%)"


def _print_war(d: dict[str, Any]) -> None:
    echo(f"War, deck {d['deck']}, order {d['order']}, run-out {d['runout']}: {d['method']}")
    echo(f"why: {d['reason']}")
    if d["method"] == "exact":
        echo(f"deals {d['deals']}: A wins {d['a_wins']}, B wins {d['b_wins']}, draws "
             f"{d['draws']}, cycles {d['cycles']} ({d['cycle_fraction']})")
        echo(f"battles: mean {d['mean_battles']} (= {d['mean_battles_float']}) over the games "
             f"that end; longest {d['longest']} (deal {d['longest_deal']})")
        if d["cycle_example"]:
            c = d["cycle_example"]
            echo(f"a cycle: deal {c['deal']} repeats its piles after {c['battles_until_repeat']}"
                 f" battles, period {c['period']}")
    elif d["method"] == "markov":
        echo(f"deals {d['deals']}, chain states {d['states']}")
        echo(f"P(A wins) {d['p_a']}, P(B wins) {d['p_b']}, P(draw) {d['p_draw']}")
        echo(f"P(the game ends) {d['p_end']}; expected battles "
             f"{d['expected_battles'] or 'infinite'}"
             + (f" (= {d['expected_battles_float']})" if d["expected_battles"] else
                f"; if it ends {d['expected_battles_if_ends']}"))
    else:
        echo(f"{d['games']} games, seed {d['seed']}, battle limit {d['battle_limit']}")
        for name in ("a_wins", "b_wins", "draws", "cycles", "cut"):
            echo(f"  {name:<7} {_frac(d[name])}")
        mb = d["mean_battles"]
        echo(f"battles: mean {mb['mean']} (95% CI {mb['ci95'][0]}-{mb['ci95'][1]}) over "
             f"{mb['n']} games that ended; longest {d['longest']}")
        if d["cycle_example"]:
            cp = d["cycle_period"]
            echo(f"cycle periods: mean {cp['mean']}; a cycling deal "
                 f"{d['cycle_example']['deal']} (period {d['cycle_example']['period']})")


@herd.command("simulate")
def herd_simulate(
    players: Annotated[int, typer.Option(parser=int_in(2, 4), help="2-4 players")] = 2,
    games: Annotated[int, typer.Option(parser=int_in(1, 10**7), help="how many games")] = 1000,
    seed: Annotated[int, typer.Option(parser=int_in(0, 10**12), help="seed")] = 1,
    policy: Annotated[Policy, typer.Option(**choice(Policy), help="the players' policy")
                      ] = Policy.GREEDY,
    deck: Annotated[str, typer.Option(help="deck spec (McCord's kinds only)",
                                      autocompletion=complete_deck)] = "wolf",
    limit: Annotated[int, typer.Option(parser=int_in(1, 10**7),
                                       help="cut a game after this many turns (counted)")
                     ] = 1000,
    json: Json = False,
) -> int:
    """Seeded games: seat win rates, herd sizes, ties, lengths (95% intervals)."""
    d = api.simulate_herd(api.HerdRequest(players=players, games=games, seed=seed,
                                          policy=policy.value, deck=deck, limit=limit),
                          progress_bar)
    if json:
        print_json(d)
        return EXIT_OK
    echo(f"herd game: {d.players} players, {d.games} games, policy {d.policy}, "
         f"seed {d.seed}, deck {d.deck}")
    echo(f"cut at the {d.turn_limit}-turn limit: {_frac(d.cut_at_limit)}")
    for i, (w, h) in enumerate(zip(d.seat_wins, d.herd_size, strict=True)):
        echo(f"  seat {i + 1}: wins {_frac(w)}; herd {h['mean']} sheep "
             f"(95% CI {h['ci95'][0]}-{h['ci95'][1]})")
    echo(f"shared victories: {_frac(d.shared_victories)}")
    t = d.turns
    echo(f"turns: mean {t['mean']} (95% CI {t['ci95'][0]}-{t['ci95'][1]}), "
         f"longest {d.longest}")
    return EXIT_OK


@conc.command("solve")
def conc_solve(
    deck: Annotated[str, typer.Option(help=DECK_HELP + "; every kind an even count",
                                      autocompletion=complete_deck)] = "wolf",
    players: Players = 1,
    max_states: MaxPositions = api.MAX_POSITIONS,
    timeout: Timeout = None,
    json: Json = False,
) -> int:
    """Exact optimal play: solitaire expected turns (--players 1) or two-player gain and
    chances (--players 2)."""
    with stopped_as_json(json):
        report = api.solve_concentration(api.ConcentrationRequest(
            deck=deck, players=players, max_states=max_states, timeout=timeout),
            progress_bar)
    if json:
        print_json(report)
        return EXIT_OK
    if isinstance(report, api.SolitaireReport):
        echo(f"solitaire Concentration, deck {report.deck} ({report.cards} cards), perfect "
             "memory")
        echo(f"optimal expected turns: {report.expected_turns} = "
             f"{report.expected_turns_float} ({report.per_pair} per pair; {report.positions} "
             "positions solved)")
        if report.natural_rule_turns is not ABSENT:
            echo(f"the natural rule (take a known pair; else an unseen card, then its partner "
                 f"if known, else another unseen card): {report.natural_rule_turns} = "
                 f"{report.natural_rule_turns_float} turns, {report.natural_rule_excess} more")
        echo("optimal rule: " + report.rule)
        for e in report.exceptions:
            echo("  " + e)
        return EXIT_OK
    d = report.to_json()
    echo(f"two-player Concentration, deck {d['deck']}, perfect memory, optimal play "
         "(Zwick & Paterson's expected-pairs objective)")
    echo(f"first player's expected pairs minus the second's: {d['first_player_gain']} = "
         f"{d['first_player_gain_float']}")
    if "p_first_wins" in d:
        echo(f"first player wins {d['p_first_wins']} ({d['p_first_wins_float']:.6f}), second "
             f"{d['p_second_wins']} ({d['p_second_wins_float']:.6f}), tie {d['p_tie']}, "
             f"stalemate (both pass for ever) {d['p_stalemate']}")
    table = d["move_table"]
    if table:
        echo("optimal move by known cards k = 0..n (0 pass, 1 one new card, 2 two new cards):")
        for name, row in table.items():
            echo(f"  {name:<5} {row}")
    return EXIT_OK


@conc.command("policy")
def conc_policy(
    position: Annotated[str, typer.Argument(
        help="cards left/known per kind, e.g. '4/2,2/0' or '2/0*3' (three such kinds)",
        show_default=False)],
    players: Players = 1,
    max_states: MaxPositions = api.MAX_POSITIONS,
    timeout: Timeout = None,
    json: Json = False,
) -> int:
    """The optimal choice at a position, every choice's exact value, and where the natural
    rule (take a known pair; else an unseen card, then its partner if known, else another
    unseen card) departs from it."""
    with stopped_as_json(json):
        report = api.concentration_policy(api.PolicyRequest(
            position=position, players=players, max_states=max_states, timeout=timeout),
            progress_bar)
    if json:
        print_json(report)
        return EXIT_OK
    echo(f"position {report.position} ({report.unseen} unseen cards), "
         f"{'solitaire' if report.players == 1 else 'two players'}: {report.objective}")
    echo(f"value with optimal play: {report.value} = {report.value_float}")
    for c in report.choices:
        kind = f" {c['kind']}" if "kind" in c else ""
        marks = ", ".join(m for m, on in (("best", c["optimal"]), ("natural rule", c["natural"]))
                          if on)
        echo(f"  {c['choice'] + kind:<20} {c['value']:<24} {c['value_float']:<14}"
             f"{'  <- ' + marks if marks else ''}".rstrip())
    if report.natural_optimal:
        echo("the natural rule's choice is optimal here")
    else:
        echo(f"the natural rule departs here: {report.natural} is worth {report.natural_value}, "
             f"the best ({report.best}) {report.value}")
    small = report.smallest_departure
    if small is not None:
        echo(f"smallest deck where the natural rule is not optimal: {small['deck']} "
             f"(optimum {small['optimal_turns']} turns, natural rule "
             f"{small['natural_rule_turns']})")
    return EXIT_OK


@conc.command("pairs")
def conc_pairs(
    up_to: Annotated[int, typer.Option(parser=int_in(1, 200), help="largest n (<= 200)")] = 20,
    json: Json = False,
) -> int:
    """Solitaire E(n) for n = 1..N pairs against Velleman & Warrington's (3 - 2 ln 2) n +
    7/8 - 2 ln 2."""
    report = api.concentration_pairs(api.PairsRequest(up_to=up_to))
    if json:
        print_json(report)
        return EXIT_OK
    echo(f"solitaire E(n), optimal play; Velleman & Warrington: E(n) ~ (3 - 2 ln 2) n + 7/8 - "
         f"2 ln 2, constant {report.constant:.9f}")
    for r in report.rows:
        echo(f"  n={r['n']:<4} E={r['expected_turns']:<28} {r['float']:<14} per pair "
             f"{r['per_pair']:<12} E - asymptote {r['minus_asymptote']}")
    return EXIT_OK


# ---- verify ----------------------------------------------------------------------------


def verify_options(
    order: Annotated[Order, typer.Option(**choice(Order), help="War return order under test "
                                                                "(K2)")] = Order.WINNER_FIRST,
    runout: Annotated[Runout, typer.Option(**choice(Runout), help="War run-out rule under "
                                                                  "test (K2)")] = Runout.LOSE,
    seed: Annotated[int, typer.Option(parser=int_in(0, 10**9),
                                      help="seed of the random-play checks")] = 1,
) -> api.VerifyVariant:
    """The card games' own options of `fleece verify`: the War variant under test."""
    return api.VerifyVariant(order=order.value, runout=runout.value, seed=seed)
