"""Mutton deduction puzzles: exact answers (answer), the rule-limited human solver and grades
(human), generation (generate), files (formats) and the independent z3 check (check).

Imports: fleece.rules and fleece.solver.
"""
