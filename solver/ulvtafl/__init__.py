"""Exact solver of Ulvtafl (docs/rules.md section 3): compiled move generation and perft,
retrograde analysis of a position's reachable set (value and distance to the end), and a
proof-number search (df-pn with a transposition table) for larger positions.

Imports: fleece.rules and fleece.solver; numpy and numba for the compiled kernels.
"""

from fleece.solver.ulvtafl.search import PerftResult, perft, perft_counts
from fleece.solver.ulvtafl.solve import SolveResult, solve

__all__ = ["PerftResult", "SolveResult", "perft", "perft_counts", "solve"]
