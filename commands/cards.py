"""`fleece cards ...`: the Wolf! card games of seed 002 (RULES.md section 4): War (`war play`,
`war analyse`), McCord's herd game (`herd simulate`), Concentration (`concentration solve`,
`concentration pairs`) and the deck itself (`deck`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from fleece.commands.base import (
    EXIT_OK,
    Parser,
    choice,
    echo,
    int_in,
    print_json,
)

DEFAULT_SAMPLES = 20_000  # Monte Carlo games when a deck is too large for the exact analysis
DECK_HELP = ("deck spec: wolf (McCord's 52 cards, Fences lowest in War), pairs:N, or "
             "NAME*COUNT,... (integer names are War ranks)")


def build(parser: Parser, argv: list[str]) -> None:
    """Add the card-game commands."""
    cmds = parser.commands()
    p = cmds.add("deck", deck_show, "Show a deck: kinds, counts, War ranks, partners (K2-K4).")
    p.add_argument("--deck", default="wolf", help=DECK_HELP)
    p.add_argument("--json", action="store_true", help="print JSON")

    war = cmds.add("war", None, "Wolf!, a War game for two (K1-K2).").commands()
    p = war.add("play", war_play, "Play one seeded game, battle by battle.")
    _war_options(p)
    p.add_argument("--seed", type=int_in(0, 10**12), default=1, help="seed of the deal")
    p.add_argument("--limit", type=int_in(1, 10**7), default=100_000,
                   help="stop after this many battles (default 100000)")
    p.add_argument("--position", metavar="FILE", default=None,
                   help="start from a War position file (options line, deal, battles) or "
                        "'-'; its options replace --deck/--order/--runout")
    p.add_argument("--json", action="store_true", help="print JSON")
    p = war.add("analyse", war_analyse,
                "Exact analysis over every deal (small decks) or a seeded Monte Carlo "
                "estimate (--samples N) with 95% intervals and cycle detection.")
    _war_options(p)
    p.add_argument("--samples", type=int_in(1, 10**7), default=None,
                   help="Monte Carlo games instead of the exact analysis (default: exact when "
                        "within --max-deals/--max-states, else 20000 games)")
    p.add_argument("--seed", type=int_in(0, 10**12), default=1, help="Monte Carlo seed")
    p.add_argument("--limit", type=int_in(1, 10**8), default=100_000,
                   help="Monte Carlo: cut a game after this many battles (counted)")
    p.add_argument("--max-deals", type=int_in(1, 10**9), default=2_000_000,
                   help="exact budget: the most deals to play (default 2000000)")
    p.add_argument("--max-states", type=int_in(1, 10**7), default=6_000,
                   help="exact random order: the most chain states (default 6000)")
    p.add_argument("--json", action="store_true", help="print JSON")

    herd = cmds.add("herd", None, "David McCord's herd-building game (K3).").commands()
    p = herd.add("simulate", herd_simulate,
                 "Seeded games: seat win rates, herd sizes, ties, lengths (95% intervals).")
    p.add_argument("--players", type=int_in(2, 4), default=2, help="2-4 players")
    p.add_argument("--games", type=int_in(1, 10**7), default=1000, help="how many games")
    p.add_argument("--seed", type=int_in(0, 10**12), default=1, help="seed")
    p.add_argument("--policy", type=choice("random", "greedy"), default="greedy",
                   help="random | greedy")
    p.add_argument("--deck", default="wolf", help="deck spec (McCord's kinds only)")
    p.add_argument("--limit", type=int_in(1, 10**7), default=1000,
                   help="cut a game after this many turns (default 1000; counted)")
    p.add_argument("--json", action="store_true", help="print JSON")

    conc = cmds.add("concentration", None, "Concentration with perfect memory (K4)."
                    ).commands()
    p = conc.add("solve", conc_solve, "Exact optimal play: solitaire expected turns "
                 "(--players 1) or two-player gain and chances (--players 2).")
    p.add_argument("--deck", default="wolf", help=DECK_HELP + "; every kind an even count")
    p.add_argument("--players", type=int_in(1, 2), default=1, help="1 (solitaire) or 2")
    p.add_argument("--max-states", type=int_in(1, 10**8), default=3_000_000,
                   help="the most positions to solve (default 3000000)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p = conc.add("pairs", conc_pairs, "Solitaire E(n) for n = 1..N pairs against "
                 "Velleman & Warrington's (3 - 2 ln 2) n + 7/8 - 2 ln 2.")
    p.add_argument("--up-to", type=int_in(1, 200), default=20, help="largest n (<= 200)")
    p.add_argument("--json", action="store_true", help="print JSON")


def _war_options(p: Parser) -> None:
    p.add_argument("--deck", default="wolf", help=DECK_HELP)
    p.add_argument("--order", type=choice("winner-first", "loser-first", "random"),
                   default="winner-first", help="winner-first | loser-first | random (K2)")
    p.add_argument("--runout", type=choice("lose", "last-card"), default="lose",
                   help="lose (K2: cannot finish a war, lose) | last-card")


def _deck(text: str) -> Any:
    from fleece.rules.cards.deck import parse_deck
    from fleece.rules.errors import ParseError

    try:
        return parse_deck(text)
    except ParseError as exc:
        raise ParseError(f"--deck: {exc}") from None


@contextmanager
def _bar(label: str, total: int | None, unit: str) -> Iterator[Callable[[int], None]]:
    """A transient rich progress bar on stderr, only when stderr is a terminal."""
    import sys

    if not sys.stderr.isatty():
        yield lambda done: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(TextColumn(label), BarColumn(), TextColumn("{task.completed} " + unit),
                  TimeElapsedColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


# ---- deck ------------------------------------------------------------------------------


def deck_show(args: argparse.Namespace) -> int:
    """`fleece cards deck`."""
    deck = _deck(args.deck)
    odd = [k.name for k in deck.kinds if k.count % 2]
    data = {
        "deck": deck.spec(), "cards": deck.size,
        "kinds": [{"name": k.name, "label": k.label, "count": k.count, "war_rank": k.rank}
                  for k in deck.kinds],
        "deals": str(deck.arrangements()),
        "every_card_has_a_partner": not odd, "odd_kinds": odd,
        "war": deck.ranked and deck.size >= 2, "herd": deck.is_mccord,
    }
    if args.json:
        print_json(data)
        return EXIT_OK
    echo(f"deck {deck.spec()}: {deck.size} cards, {len(deck.kinds)} kinds, "
         f"{deck.arrangements()} distinct deals")
    for k in deck.kinds:
        rank = "-" if k.rank is None else str(k.rank)
        echo(f"  {k.name:<10} {k.count:>4}  War rank {rank:>3}  {k.label}")
    echo("every card has a partner (K4): " + ("yes" if not odd else "NO: " + ", ".join(odd)))
    return EXIT_OK


# ---- War -------------------------------------------------------------------------------


def _war_opts(args: argparse.Namespace, limit: int | None) -> Any:
    from fleece.rules.cards.war import Order, Runout, WarOptions

    deck = _deck(args.deck)
    return WarOptions(deck, Order.parse(args.order), Runout.parse(args.runout), limit)


def war_play(args: argparse.Namespace) -> int:
    """`fleece cards war play`."""
    from fleece.solver.cards.war import play_one

    start = None
    if args.position is not None:
        from fleece.commands.base import read_input
        from fleece.rules.cards.war import WAR
        from fleece.rules.errors import FleeceError, ParseError

        text, name = read_input(args.position)
        try:
            start = WAR.parse_position(text)
        except ParseError as exc:
            raise exc.located(name) from None
        if not start.record:
            raise FleeceError(f"{name}: the position has no deal yet")
        options = start.options
    else:
        options = _war_opts(args, args.limit)
    game = play_one(options, args.seed, start)
    data = game.to_json()
    if args.json:
        print_json(data)
        return EXIT_OK
    echo(f"War, deck {data['deck']}, order {data['order']}, run-out {data['runout']}, "
         f"seed {data['seed']}")
    echo(f"deal (A gets the first half): {data['deal']}")
    for b in data["record"]:  # type: ignore[attr-defined]
        war = " (war)" if len(b["a"].split()) > 1 or len(b["b"].split()) > 1 else ""
        who = (f"{b['winner']} takes {len(b['returned'].split())}" if b["returned"] else
               ("draw: neither can finish the war" if b["winner"] is None else
                f"{b['winner']} wins: the other cannot finish the war"))
        echo(f"{b['battle']:>5}. A {b['a']} | B {b['b']}{war} -> {who}; "
             f"cards A {b['cards'][0]} B {b['cards'][1]}")
    outcome = data["outcome"]
    text = {"A": "A wins", "B": "B wins", "draw": "a draw", "limit": "stopped at the limit",
            "cycle": "a cycle: the piles repeat, the game never ends (K2)"}[str(outcome)]
    echo(f"result: {text} after {data['battles']} battles")
    return EXIT_OK


def war_analyse(args: argparse.Namespace) -> int:
    """`fleece cards war analyse`."""
    from fleece.rules.cards.war import Order, Runout

    deck = _deck(args.deck)
    from fleece.rules.cards.deck import war_deck

    war_deck(deck)
    order, runout = Order.parse(args.order), Runout.parse(args.runout)
    data: dict[str, Any] | None = None
    samples = args.samples
    if samples is None:
        from fleece.solver.cards.war import TooLarge

        try:
            if order is Order.RANDOM:
                from fleece.solver.cards.war import analyse_random

                with _bar("chain states eliminated", None, "states") as tick:
                    data = analyse_random(deck, runout, max_states=args.max_states,
                                          progress=tick).to_json()
            else:
                from fleece.solver.cards.war import analyse_fixed

                with _bar("deals", deck.arrangements(), "deals") as tick:
                    data = analyse_fixed(deck, order, runout, max_deals=args.max_deals,
                                         progress=tick).to_json()
        except TooLarge as exc:  # too large for the exact analysis: estimate instead
            samples = DEFAULT_SAMPLES
            reason = str(exc).split(" (use", 1)[0]
            note = f"{reason}: estimated from {samples} seeded games instead"
    if data is None:
        from fleece.solver.cards.war_mc import simulate

        with _bar("War games", samples, "games") as tick:
            data = simulate(deck, order, samples, args.seed, runout=runout, limit=args.limit,
                            progress=tick).to_json()
        if args.samples is None:
            data["note"] = note
    if args.json:
        print_json(data)
        return EXIT_OK
    _print_war(data)
    return EXIT_OK


def _frac(p: Any) -> str:
    return f"{p['count']} ({100 * p['fraction']:.3f}%, 95% CI {100 * p['ci95'][0]:.3f}-" \
           f"{100 * p['ci95'][1]:.3f}%)"


def _print_war(d: dict[str, Any]) -> None:
    echo(f"War, deck {d['deck']}, order {d['order']}, run-out {d['runout']}: {d['method']}")
    if d.get("note"):
        echo(f"note: {d['note']}")
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


# ---- herd ------------------------------------------------------------------------------


def herd_simulate(args: argparse.Namespace) -> int:
    """`fleece cards herd simulate`."""
    from fleece.rules.cards.deck import herd_deck
    from fleece.solver.cards.herd import simulate

    deck = herd_deck(_deck(args.deck))
    with _bar("herd games", args.games, "games") as tick:
        stats = simulate(args.players, args.games, args.seed, args.policy, deck=deck,
                         turn_limit=args.limit, progress=tick)
    d = stats.to_json()
    if args.json:
        print_json(d)
        return EXIT_OK
    echo(f"herd game: {d['players']} players, {d['games']} games, policy {d['policy']}, "
         f"seed {d['seed']}, deck {d['deck']}")
    echo(f"cut at the {d['turn_limit']}-turn limit: {_frac(d['cut_at_limit'])}")
    for i, (w, h) in enumerate(zip(d["seat_wins"], d["herd_size"], strict=True)):  # type: ignore[call-overload]
        echo(f"  seat {i + 1}: wins {_frac(w)}; herd {h['mean']} sheep "
             f"(95% CI {h['ci95'][0]}-{h['ci95'][1]})")
    echo(f"shared victories: {_frac(d['shared_victories'])}")
    t = d["turns"]
    echo(f"turns: mean {t['mean']} (95% CI {t['ci95'][0]}-{t['ci95'][1]}), "  # type: ignore[index]
         f"longest {d['longest']}")
    return EXIT_OK


# ---- Concentration ---------------------------------------------------------------------


def conc_solve(args: argparse.Namespace) -> int:
    """`fleece cards concentration solve`."""
    from fleece.rules.cards.deck import concentration_deck

    deck = concentration_deck(_deck(args.deck))
    if args.players == 1:
        from fleece.solver.cards.concentration import solve_solitaire

        with _bar("positions", None, "positions") as tick:
            res = solve_solitaire(deck, max_states=args.max_states, progress=tick)
        d = res.to_json()
        if args.json:
            print_json(d)
            return EXIT_OK
        echo(f"solitaire Concentration, deck {d['deck']} ({d['cards']} cards), perfect memory")
        echo(f"optimal expected turns: {d['expected_turns']} = {d['expected_turns_float']} "
             f"({d['per_pair']} per pair; {d['positions']} positions solved)")
        echo("optimal rule: " + str(d["rule"]))
        for e in d["exceptions"]:  # type: ignore[attr-defined]
            echo("  " + e)
        return EXIT_OK
    from fleece.solver.cards.concentration import solve_duel

    with _bar("positions", None, "positions") as tick:
        duel = solve_duel(deck, max_states=args.max_states, progress=tick)
    d = duel.to_json()
    if args.json:
        print_json(d)
        return EXIT_OK
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
        for name, row in table.items():  # type: ignore[attr-defined]
            echo(f"  {name:<5} {row}")
    return EXIT_OK


def conc_pairs(args: argparse.Namespace) -> int:
    """`fleece cards concentration pairs`."""
    import math

    from fleece.solver.cards.concentration import pairs_values

    values = pairs_values(args.up_to)
    c = 3 - 2 * math.log(2)
    rows = []
    for n, e in enumerate(values, start=1):
        asym = c * n + 7 / 8 - 2 * math.log(2)
        rows.append({"n": n, "expected_turns": str(e), "float": round(float(e), 9),
                     "per_pair": round(float(e) / n, 9),
                     "minus_asymptote": round(float(e) - asym, 9)})
    data = {"constant": round(c, 12), "rows": rows}
    if args.json:
        print_json(data)
        return EXIT_OK
    echo(f"solitaire E(n), optimal play; Velleman & Warrington: E(n) ~ (3 - 2 ln 2) n + 7/8 - "
         f"2 ln 2, constant {c:.9f}")
    for r in rows:
        echo(f"  n={r['n']:<4} E={r['expected_turns']:<28} {r['float']:<14} per pair "
             f"{r['per_pair']:<12} E - asymptote {r['minus_asymptote']}")
    return EXIT_OK


# ---- verify ----------------------------------------------------------------------------


def verify_options(parser: Parser) -> None:
    """The card games' own options of `fleece verify`: the War variant under test."""
    parser.add_argument("--order", type=choice("winner-first", "loser-first", "random"),
                        default="winner-first", help="War return order under test (K2)")
    parser.add_argument("--runout", type=choice("lose", "last-card"), default="lose",
                        help="War run-out rule under test (K2)")
    parser.add_argument("--seed", type=int_in(0, 10**9), default=1,
                        help="seed of the random-play checks")


def verify_config(args: argparse.Namespace, package: Any) -> Any:
    """The verification config of the variant named by the options."""
    from fleece.rules.cards.war import Order, Runout

    return package.VerifyConfig(quick=args.quick, order=Order.parse(args.order),
                                runout=Runout.parse(args.runout), seed=args.seed)
