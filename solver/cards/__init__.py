"""Exact analysis and simulation of the Wolf! card games (docs/rules.md section 4): War over every
deal or by Monte Carlo, solitaire and two-player Concentration with perfect memory, and herd
game simulations. Entry points: `war`, `war_mc`, `concentration`, `herd`.

Imports: fleece.rules and fleece.solver; numpy for the Monte Carlo runs.
"""
