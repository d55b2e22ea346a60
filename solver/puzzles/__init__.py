"""What every puzzle generator shares: the grade scale and the clue-removal loop (core),
packs of puzzle files written as a whole (pack), and seeded attempts on one core or a process
pool with a progress bar (pool). The games' generators live in solver/<game>/puzzle/ and
solver/puzzles/ulvtafl/.

Imports: fleece.rules and fleece.solver.puzzles; rich for the progress bar.
"""
