"""The proof table's replacement rule under pressure: nodes to settle positions on tables far
smaller than their searches, with replacement by subtree size (a settled entry's work counts
4 times plus 64, the engine's rule) and with settled entries kept before any open one (the
rule before), in one run. Each search stops at --nodes; "open" there means it did not settle.

    python benchmarks/ulvtafl_replacement.py [--nodes 60000000] [--cases 17@13,17@14,...]

Cases: NAME@BITS, a start (13, 15, 17 sheep), a ply of the horizon game with the sheep on
safe focused moves (p33f, p35f) or a small test position with the wolves attacking (s4W,
s14W: two of the tests' small positions), searched on a table of 2**BITS entries.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from fleece.rules.ulvtafl.game import SHEEP, WOLVES, UlvState, UlvtaflOptions, initial_state
from fleece.rules.ulvtafl.notation import parse_position
from fleece.solver.ulvtafl.prover import Prover

FOCUSED: dict[str, Any] = {"safe_only": True, "focus": 2, "profile": "steps"}
PLIES = {"p33f": "W../W../.SSSS.S/SSSSSS./.S.SSSS/S.S/.SS s",
         "p35f": "W../.WS/.SSS..S/SSSSSS./.S.SSSS/S.S/.SS s"}
SMALL = {"s4": "S../SSS/SSS.SS./....W../......./.../... s",  # tests' small_position(4)
         "s14": "SSS/.SS/SWS.S.S/......S/......./.../... s"}  # and (14)
DEFAULT_CASES = ("17@13,17@14,15@19,13@18,13@19,p35f@19,p33f@16,p33f@18,"
                 "s4W@16,s4W@18,s14W@12")


def case(name: str) -> tuple[UlvState, int, int, dict[str, Any]]:
    """The root, attacker, table bits and search options a case name stands for."""
    what, bits = name.split("@")
    if what.isdigit():
        return initial_state(UlvtaflOptions(setup=int(what))), SHEEP, int(bits), {}
    if what in PLIES:
        return parse_position(PLIES[what]), SHEEP, int(bits), FOCUSED
    return parse_position(SMALL[what[:-1]]), WOLVES if what.endswith("W") else SHEEP, \
        int(bits), {}


def settle(name: str, settled_first: bool, nodes: int) -> tuple[str, int, float]:
    """Outcome, nodes and seconds of one case under one rule."""
    root, attacker, bits, options = case(name)
    prover = Prover(root, attacker, table_bits=bits, settled_first=settled_first, **options)
    t0 = time.perf_counter()
    prover.run(nodes=nodes)
    return prover.outcome(), prover.nodes, time.perf_counter() - t0


def main() -> None:
    """Print one row a case: each rule's outcome and nodes, and their ratio."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=60_000_000)
    ap.add_argument("--cases", default=DEFAULT_CASES)
    args = ap.parse_args()
    print("| case | by subtree size | settled first | nodes, settled first / by size |")
    print("|---|---|---|---|")
    for name in args.cases.split(","):
        size = settle(name, False, args.nodes)
        first = settle(name, True, args.nodes)
        ratio = f"{first[1] / size[1]:.2f}"  # a bound where one search stayed open
        if (first[0] == "open") != (size[0] == "open"):
            ratio = ("> " if first[0] == "open" else "< ") + ratio
        elif first[0] == "open":
            ratio = "-"
        print(f"| {name} | {size[0]}, {size[1]:,} | {first[0]}, {first[1]:,} | {ratio} |",
              flush=True)


if __name__ == "__main__":
    main()
