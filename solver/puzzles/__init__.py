"""What every puzzle generator shares: the grade scale and the clue-removal loop (core),
packs of puzzle files written as a whole (pack), and seeded attempts on one core or a process
pool with a progress bar (pool). Each game's generator is a folder here:
mutton/, woof/ (deduction puzzles) and ulvtafl/ (to move and win).

Imports: fleece.rules and fleece.solver (a game's folder its own solver); rich for the progress
bar.
"""
