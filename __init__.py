"""fleece: solve, generate and verify games of the "wolf in sheep's clothing" family.

The repository's root is this package, and its folders are the layers, each importing only
the ones before it: `fleece.rules` (reference rules models of docs/rules.md),
`fleece.solver` (engines, solvers, puzzle generators), `fleece.verify` (Z3 verification and
traceability), `fleece.api` (the library API: one module a game, typed requests and
reports), then `fleece.commands` with `fleece.cli` (the command line) and `fleece.web` (the
web app). They import each other as `fleece.<folder>`, never by the bare folder name.
"""

__version__ = "0.2.0"
