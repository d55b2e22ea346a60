"""Engines, solvers, puzzle generators and bots: one folder a game (mutton, woof, ulvtafl,
cards), the puzzle machinery every generator shares (puzzles), engine names and the
minimal-core search (core), and time budgets (deadline).

Imports: fleece.rules and fleece.solver; solver libraries (z3, python-constraint, numpy,
numba) inside the functions that need them.
"""

if __name__ != "fleece.solver":
    raise ImportError(f"import fleece.solver, not {__name__}: this folder is the package "
                      "fleece.solver (a bare name would load a second copy of its classes)")
