"""Benchmark of the Woof!! engines: 8 seats, the 16 basic cards, 20 evidence lines.

The evidence comes from simulated rounds (fixed seeds): seat 1's view (its own hand plus the
first 19 facts: looks, questions, its own looks as `saw` lines) of a mixed and of a look-heavy
record, and a public record only (no hand known, so many deals stay possible). Prints the
median wall time of several runs per engine and the ratios to the fast engine; checks that all
engines return the same exact posterior. Target: fast engine under 0.2 s.

    python benchmarks/bench_woof.py [--runs N] [--engines fast,csp,smt]
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable

from timing import median_time

from fleece.rules.woof.evidence import Evidence, evidence_from_round
from fleece.rules.woof.round import Table
from fleece.rules.woof.simulate import simulate_round
from fleece.solver.woof.shared import Posterior

LINES = 20


def scenario(seed: int, p_ask: float, me: int | None = 1) -> Evidence:
    """The evidence after a simulated 8-player round: seat `me`'s hand and the first facts
    (or, with me=None, only public facts), 20 lines in all."""
    rec = simulate_round(Table(8), random.Random(seed), max_turns=60, p_early=0.05,
                         p_ask=p_ask)
    ev = evidence_from_round(rec.round, me=me)
    assert len(ev.facts) >= LINES, "the simulated round was too short"
    return ev.with_facts(ev.facts[:LINES])


def engine(name: str) -> Callable[[Evidence], Posterior]:
    """The solve function of an engine."""
    if name == "fast":
        from fleece.solver.woof import fast

        return fast.solve
    if name == "csp":
        from fleece.solver.woof import csp

        return csp.solve
    from fleece.solver.woof import smt

    return smt.solve


def main() -> None:
    """Run the benchmark and print one table per scenario."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--engines", default="fast,csp,smt")
    args = ap.parse_args()
    names = args.engines.split(",")
    scenarios = {
        "mixed, seat 1's view (seed 5)": scenario(5, 0.35),
        "look-heavy, seat 1's view (seed 11)": scenario(11, 0.1),
        "public record only, look-heavy (seed 1)": scenario(1, 0.1, me=None),
    }
    failed = False
    for title, ev in scenarios.items():
        kinds = {k: sum(1 for f in ev.facts if type(f).__name__.startswith(k))
                 for k in ("Hand", "Look", "Saw", "Ask")}
        print(f"\n{title}: 8 seats, {len(ev.deck)} basic cards, {len(ev.facts)} lines "
              f"({', '.join(f'{v} {k.lower()}' for k, v in kinds.items())})")
        results: dict[str, tuple[float, Posterior]] = {}
        for name in names:
            solve = engine(name)
            post = solve(ev)  # warm-up (lazy imports) and the answer to compare
            runs = args.runs if name == "fast" else max(1, min(args.runs, 3))
            results[name] = (median_time(lambda s=solve, e=ev: s(e), runs), post)
        base = results[names[0]][0]
        print(f"{'engine':<8}{'median s':>12}{'ratio':>10}  posterior")
        for name, (t, post) in results.items():
            same = post == results[names[0]][1]
            failed |= not same
            print(f"{name:<8}{t:>12.4f}{t / base:>9.1f}x  "
                  f"{len(post.vectors)} character vectors, "
                  f"{'same as ' + names[0] if same else 'DIFFERENT'}")
        if "fast" in results:
            ok = results["fast"][0] < 0.2
            print(f"fast engine target < 0.2 s: {'met' if ok else 'MISSED'}")
            failed |= not ok
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
