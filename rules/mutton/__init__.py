"""Reference rules model of Mutton (docs/rules.md section 1, M1-M28): board geometry,
layouts, rule options, the game and its moves, matches, the Farmer's chart, game records,
diagrams and summaries.

Imports: fleece.rules.
"""
