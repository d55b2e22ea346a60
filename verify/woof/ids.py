"""The rules-gap IDs Woof!!'s verification can report (stable; kept free of heavy imports so
the command line can check `--accept` IDs cheaply)."""

from __future__ import annotations

from fleece.verify.result import no_end_id

NO_END_GAP = no_end_id("WOOF")
NO_TOKEN_GAP = "WOOF-W11-NO-TOKEN"

# ID -> meaning; `fleece verify --game woof --accept` refuses any other ID.
GAPS: dict[str, str] = {
    NO_END_GAP: "W7: a round need not end: no rule makes a seat suspect early, and looks go on "
                "for ever (a repeating play)",
    NO_TOKEN_GAP: "W11: a seat must announce something it has no clue token (or pool '?' "
                  "token) left for, e.g. a Shepherd's fourth Wolf",
}
