"""The web app's routers, one module a game: each has `api` (an APIRouter under /api/<game>,
the JSON twins, in the OpenAPI schema) and `pages` (the HTML pages, outside it). A new page
is one more module here, its template, and its entry in ROUTERS.

Imports: fleece.web, fleece.api, fleece.solver and fleece.rules; never fleece.commands.
"""

from __future__ import annotations

from fleece.web.routers import (
    cards,
    mutton,
    mutton_play,
    puzzles,
    ulvtafl,
    ulvtafl_puzzles,
    woof,
)

ROUTERS = (mutton, mutton_play, puzzles, woof, ulvtafl, ulvtafl_puzzles, cards)
