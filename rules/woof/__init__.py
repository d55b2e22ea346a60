"""Reference rules model of Woof!! (docs/rules.md section 2, W1-W11): cards and characters,
deals, a round with its moves and scoring, clue tokens, evidence and their text.

Imports: fleece.rules.
"""
