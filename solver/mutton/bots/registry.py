"""The robots by name, and the checks that a robot can play a rule set."""

from __future__ import annotations

from collections.abc import Callable

from fleece.rules.errors import FleeceError
from fleece.rules.mutton.moves import Side
from fleece.rules.mutton.options import MuttonOptions
from fleece.solver.mutton.bots.base import Bot, WolfBot
from fleece.solver.mutton.bots.belief import MAX_SETS, set_count
from fleece.solver.mutton.bots.farmer import FleeceFarmer
from fleece.solver.mutton.bots.randombot import RandomFarmer, RandomWolf
from fleece.solver.mutton.bots.v2 import V2Farmer, V2Wolf
from fleece.solver.mutton.bots.wolf import FleeceWolf

BOTS = ("fleece", "random", "v2")
DESCRIPTIONS = {
    "fleece": "fleece's robots: the Farmer minimises the expected sheep lost by a lookahead "
              "against the random-Wolf model; the Wolf picks the meal and runner places that "
              "keep the Farmer least sure of its wolves",
    "random": "uniformly random legal moves",
    "v2": "boardspace.net's V2 robot, from the description of its behaviour",
}
FARMERS: dict[str, Callable[[MuttonOptions, int], Bot]] = {
    "fleece": FleeceFarmer, "random": RandomFarmer, "v2": V2Farmer,
}
WOLVES: dict[str, Callable[[MuttonOptions, int], WolfBot]] = {
    "fleece": FleeceWolf, "random": RandomWolf, "v2": V2Wolf,
}


def check_bot(name: str, field: str) -> str:
    """The robot's name, or a one-line FleeceError naming the field and the known names."""
    if name not in BOTS:
        raise FleeceError(f"{field}: unknown robot {name!r} (known: {', '.join(BOTS)})")
    return name


def check_rules(rules: MuttonOptions, field: str = "rules") -> None:
    """FleeceError when the robots cannot play a rule set: they track every wolf set, so at
    most MAX_SETS of them (26 animals and up to 6 wolves)."""
    total = set_count(rules.num_sheep, rules.num_wolves, rules.dictionary)
    if total > MAX_SETS:
        raise FleeceError(f"{field}: the robots track every wolf set, and {rules.num_wolves} "
                          f"wolves among {rules.num_sheep} animals make {total}; at most "
                          f"{MAX_SETS} (fewer wolves or animals)")


def make_bot(name: str, side: Side, rules: MuttonOptions, seed: int) -> Bot:
    """A robot by name for one side, seeded."""
    check_bot(name, "--farmer" if side is Side.FARMER else "--wolf")
    check_rules(rules)
    table: dict[str, Callable[[MuttonOptions, int], Bot]] = dict(
        FARMERS if side is Side.FARMER else WOLVES)
    return table[name](rules, seed)
