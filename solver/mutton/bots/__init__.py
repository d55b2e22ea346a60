"""Mutton robots: the `random`, `v2` and `fleece` Farmers and Wolves, and a match runner.

The modules split by weight: `belief` (the consistent wolf sets as bit columns), `board` (kill
options from the geometry) and `lookahead` (the Farmer's expected-loss search) are pure Python
and load no game model, so the chart advice of `fleece mutton solve` can use them; the bots
(`farmer`, `wolf`, `v2`, `randombot`), the registry (`registry`) and the runner (`match`) play
through the rules model. This package's `__init__` imports nothing, so that importing one light
module does not load the heavy ones.

Imports: fleece.rules and fleece.solver.
"""
