"""The Wolf! card games of seed 002 (docs/rules.md section 4, K1-K4): the deck, War (Wolf!),
David McCord's herd-building game and Concentration, as pure reference models.

Imports: fleece.rules.
"""
