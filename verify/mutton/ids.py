"""The rules-gap IDs Mutton's verification can report (stable; documented in README), kept in a
module without Z3 so that the command line can list and check `--accept` IDs cheaply."""

from __future__ import annotations

from fleece.verify.result import no_end_id

M10_GAP = "MUTTON-M10-UNPLACEABLE"
STALL_GAP = "MUTTON-SHOTGUN-STALL"
NO_END_GAP = no_end_id("MUTTON")

# ID -> meaning; `fleece verify --accept` refuses any other ID for Mutton.
GAPS: dict[str, str] = {
    M10_GAP: "M10: a kill whose runners cannot all be placed (the variant has too many "
             "animals for its board)",
    STALL_GAP: "M14/M17: with the shotgun, the Farmer must shoot after a Wolf pass but no "
               "blast can be placed",
    NO_END_GAP: "M24: a game that need not end (a repeating or unbounded play)",
}
