"""Deduction puzzle generators for Mutton and Woof!! (issue 6): unique, minimal, graded puzzles.

`mutton` and `woof` generate and grade; `formats` reads and writes puzzle files; `check` verifies
uniqueness and minimality independently with z3 (imported lazily).
"""
