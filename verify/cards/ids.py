"""The rules-gap IDs the card games' verification can report (stable; kept free of heavy
imports so the command line can check `--accept` IDs cheaply)."""

from __future__ import annotations

WAR_CYCLE = "CARDS-WAR-CYCLE"
HERD_ENDLESS = "CARDS-HERD-ENDLESS"
CONC_ENDLESS = "CARDS-CONC-ENDLESS"

GAPS: dict[str, str] = {
    WAR_CYCLE: "K2: with a fixed return order a War game can repeat its piles for ever "
               "(the toolkit ends it as `cycle`)",
    HERD_ENDLESS: "K3: a herd game need not end (a crook takes itself, or crooks take each "
                  "other, for ever)",
    CONC_ENDLESS: "K4: a Concentration game need not end (flipping two known, non-matching "
                  "cards, Zwick & Paterson's pass, for ever)",
}
