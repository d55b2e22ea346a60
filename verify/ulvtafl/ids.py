"""The rules-gap IDs Ulvtafl's verification can report (stable), without Z3 so the command
line can check `--accept` IDs cheaply."""

from __future__ import annotations

from fleece.verify.result import no_end_id

NO_END_GAP = no_end_id("ULV")

# ID -> meaning; `fleece verify --game ulvtafl --accept` refuses any other ID.
GAPS: dict[str, str] = {
    NO_END_GAP: "U7: without the repetition rule a game need not end (sideways sheep steps "
                "and wolf steps can repeat a position forever)",
}
