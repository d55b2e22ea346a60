"""Benchmark of the Wolf! card-game analyses (targets from the card-games issue):

- exact War over every deal of pairs:5 (5 ranks x 2, 113400 deals), each fixed order: < 5 s;
- Monte Carlo War with McCord's full 52-card deck: >= 5000 games per second per core (CPU
  time of this process, so other load on the machine does not count against it);
- exact solitaire Concentration for McCord's deck: < 30 s.

It also prints the figures README quotes: the Wolf! deck's cycle fraction and mean length
under each order, and the McCord deck's Concentration value.

    python benchmarks/bench_cards.py [--runs N] [--games G] [--seed S]
"""

from __future__ import annotations

import argparse
import time

from timing import median_time

from fleece.rules.cards.deck import WOLF_DECK, pairs
from fleece.rules.cards.war import Order
from fleece.solver.cards.concentration import solve_solitaire
from fleece.solver.cards.war import analyse_fixed
from fleece.solver.cards.war_mc import simulate


def main() -> None:
    """Run the three measurements and print one line each, then the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="timed runs per figure (median)")
    ap.add_argument("--games", type=int, default=20000, help="Monte Carlo games per order")
    ap.add_argument("--seed", type=int, default=1, help="Monte Carlo seed")
    args = ap.parse_args()

    for order in (Order.WINNER_FIRST, Order.LOSER_FIRST):
        t = median_time(lambda o=order: analyse_fixed(pairs(5), o), args.runs)
        r = analyse_fixed(pairs(5), order)
        print(f"exact War pairs:5 {order.value:<12} {t:6.2f} s (target < 5 s)  "
              f"deals {r.deals} A {r.a_wins} B {r.b_wins} draws {r.draws} cycles {r.cycles} "
              f"longest {r.longest}")

    print(f"\nMonte Carlo War, McCord's deck, {args.games} games per order, seed {args.seed}:")
    for order in Order:
        cpu = time.process_time()
        wall = time.perf_counter()
        mc = simulate(WOLF_DECK, order, args.games, args.seed)
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - wall
        d = mc.to_json()
        cyc = d["cycles"]
        mb = d["mean_battles"]
        print(f"  {order.value:<12} {args.games / cpu:8.0f} games/s per core (CPU {cpu:.2f} s, "
              f"wall {wall:.2f} s; target >= 5000)  cycles {cyc['count']} "  # type: ignore[index]
              f"({100 * cyc['fraction']:.3f}%, 95% CI {100 * cyc['ci95'][0]:.3f}-"  # type: ignore[index]
              f"{100 * cyc['ci95'][1]:.3f}%)  mean battles {mb['mean']} "  # type: ignore[index]
              f"[{mb['ci95'][0]}, {mb['ci95'][1]}]  longest {d['longest']}")  # type: ignore[index]

    t = median_time(lambda: solve_solitaire(WOLF_DECK), max(1, args.runs - 2))
    res = solve_solitaire(WOLF_DECK)
    print(f"\nexact solitaire Concentration, McCord's deck: {t:.2f} s (target < 30 s)  "
          f"E = {res.expected_turns} = {float(res.expected_turns):.9f} turns "
          f"({res.positions} positions)")


if __name__ == "__main__":
    main()
