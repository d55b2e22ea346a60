"""Benchmark of `fleece verify`: wall time of the quick and full default verifications and of
each section (run: python benchmarks/bench_verify.py [--full-only | --quick-only]). A mode
fails when it is slow or its report is not ok (a failure, an UNKNOWN or an unaccepted gap)."""

from __future__ import annotations

import os
import sys
import time

from fleece.rules.mutton.options import MuttonOptions
from fleece.verify.mutton import SECTIONS, VerifyConfig, run

LIMITS = {"quick": 20.0, "full": 120.0}


def main() -> int:
    """Print a table of timings and exit 1 when a mode exceeds its limit."""
    modes = ["quick", "full"]
    if "--full-only" in sys.argv:
        modes = ["full"]
    if "--quick-only" in sys.argv:
        modes = ["quick"]
    print(f"cpus: {os.cpu_count()}  python {sys.version.split()[0]}")
    print(f"{'mode':<6} {'section':<12} {'checks':>6} {'seconds':>8}")
    failed = False
    for mode in modes:
        t0 = time.perf_counter()
        rep = run(VerifyConfig(rules=MuttonOptions(), quick=mode == "quick"))
        wall = time.perf_counter() - t0
        for sec in sorted(key for key, _ in SECTIONS):
            rs = [r for r in rep.results if r.section == sec]
            print(f"{mode:<6} {sec:<12} {len(rs):>6} {sum(r.seconds for r in rs):>8.1f}")
        ok = wall < LIMITS[mode] and rep.ok
        failed |= not ok
        verdict = "OK" if ok else "SLOW/FAIL"
        print(f"{mode:<6} {'TOTAL wall':<12} {len(rep.results):>6} {wall:>8.1f}  "
              f"(limit {LIMITS[mode]:.0f} s, {rep.verdict()}) {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
