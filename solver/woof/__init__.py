"""Woof!! deduction solver: exact posteriors over deals from an evidence file.

Engines: `fast` (exact dynamic programming over hand types), `csp` (python-constraint
enumeration, an independent check), `smt` (z3: certain facts and minimal unsat cores).
"""
