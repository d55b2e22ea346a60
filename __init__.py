"""fleece: solve, generate and verify games of the "wolf in sheep's clothing" family.

The installed package maps the repository's top-level folders into one namespace:
`fleece.rules` (reference rules models), `fleece.solver` (engines and puzzle generators),
`fleece.verify` (Z3 verification), `fleece.api` (the library API: one module a game),
`fleece.commands` and `fleece.cli` (the command line), `fleece.web` (the web app).
"""

__version__ = "0.2.0"
