"""The reference rules models, pure Python: one folder a game (mutton, woof, ulvtafl, cards),
each the model of its docs/rules.md section, and what they share: the game protocol
(protocol), the registry of games (registry), typed errors (errors), text and file helpers
(text, io).

Imports: fleece.rules only, and no solver library (z3, python-constraint, numpy, numba).
"""

if __name__ != "fleece.rules":
    raise ImportError(f"import fleece.rules, not {__name__}: this folder is the package "
                      "fleece.rules (a bare name would load a second copy of its classes)")
