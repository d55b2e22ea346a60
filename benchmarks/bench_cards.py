"""Benchmark of the Wolf! card-game analyses (targets from the card-games issue):

- exact War over every deal of pairs:5 (5 ranks x 2, 113400 deals), each fixed order: < 5 s;
- Monte Carlo War with McCord's full 52-card deck: >= 5000 games per second per core (CPU
  time of this process, so other load on the machine does not count against it);
- exact solitaire Concentration for McCord's deck (16,753,158 positions, every K4 choice,
  exact rationals): < 30 s on one core. Printed as wall and CPU time of the compiled pass
  (compilation excluded: numba caches it), with the load average, since the machine is
  shared; then the whole `solve_solitaire` (the pass, the forward pass over the positions
  optimal play reaches, the departures from the natural rule).

It also prints the figures README quotes: the Wolf! deck's cycle fraction and mean length
under each order, and McCord's deck's Concentration values (the optimum, the natural rule's
value from a second pass, the two-player value with --duel).

    python benchmarks/bench_cards.py [--runs N] [--games G] [--seed S] [--duel]
"""

from __future__ import annotations

import argparse
import os
import time

from timing import median_time

from fleece.rules.cards.deck import WOLF_DECK, pairs
from fleece.rules.cards.war import Order
from fleece.solver.cards.concentration import solve, solve_solitaire
from fleece.solver.cards.war import analyse_fixed
from fleece.solver.cards.war_mc import simulate


def main() -> None:
    """Run the three measurements and print one line each, then the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3, help="timed runs per figure (median)")
    ap.add_argument("--games", type=int, default=20000, help="Monte Carlo games per order")
    ap.add_argument("--seed", type=int, default=1, help="Monte Carlo seed")
    ap.add_argument("--duel", action="store_true", help="also McCord's two-player value")
    ap.add_argument("--only-concentration", action="store_true", help="skip War")
    args = ap.parse_args()
    if not args.only_concentration:
        war(args)
    concentration(args)


def war(args: argparse.Namespace) -> None:
    """Exact War on pairs:5 and Monte Carlo War on McCord's deck."""

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



def concentration(args: argparse.Namespace) -> None:
    """McCord's deck solved exactly: the compiled pass, the whole solitaire result, the
    natural rule's value, optionally the two-player value."""
    solve([2, 2, 2])  # compile (or load the cached kernels) outside the timing
    runs = max(1, args.runs - 2)
    load = os.getloadavg()[0]
    wall = median_time(lambda: solve(WOLF_DECK), runs)
    cpu = median_time(lambda: solve(WOLF_DECK), runs, clock=time.process_time)
    print(f"\nexact solitaire Concentration, McCord's deck: compiled pass {wall:.2f} s wall, "
          f"{cpu:.2f} s CPU (target < 30 s on one core; load average {load:.2f} on "
          f"{os.cpu_count()} cores)")
    t = time.perf_counter()
    res = solve_solitaire(WOLF_DECK)
    print(f"  solve_solitaire {time.perf_counter() - t:.2f} s: E = {res.expected_turns} = "
          f"{float(res.expected_turns):.9f} turns ({res.positions:,} positions; "
          f"{res.reachable:,} reached under optimal play, {res.exception_count:,} of them "
          f"where the natural rule is not optimal, met with probability "
          f"{res.p_departure:.6f})")
    t = time.perf_counter()
    natural = solve(WOLF_DECK, natural=True).value()
    print(f"  the natural rule ({time.perf_counter() - t:.2f} s): {natural} = "
          f"{float(natural):.9f} turns, {float(natural - res.expected_turns):.6f} more")
    if args.duel:
        t = time.perf_counter()
        gain = solve(WOLF_DECK, players=2).value()
        print(f"  two players ({time.perf_counter() - t:.2f} s): the first player's expected "
              f"pairs minus the second's {gain} = {float(gain):.9f}")


if __name__ == "__main__":
    main()
