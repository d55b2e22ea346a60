"""The Wolf! card games: War analysis with the lengths of seeded games, and Concentration with
perfect memory. JSON twins: `POST /api/cards/war/analyse` (`fleece cards war analyse
--json`) and `POST /api/cards/concentration/solve` (`fleece cards concentration solve
--json`). The War page's plot shows the lengths of seeded games played one by one (`war
play` with seeds seed, seed+1, ...), as many as fit in a second and a half, up to 200."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from pydantic import Field
from starlette.responses import Response

from fleece.api import cards
from fleece.web.body import parse_form, read_body
from fleece.web.jobs import cards as jobs
from fleece.web.models import (
    RequestModel,
    ShortText,
    body_schema,
    from_form,
    json_body,
    report_model,
)
from fleece.web.site import REFUSED, SiteDep, refusal

api = APIRouter(prefix="/api/cards", tags=["cards"])
pages = APIRouter(include_in_schema=False)
DECK = "`wolf` (McCord's 52 cards), `pairs:N`, or `NAME*COUNT,...`"


class WarBody(RequestModel):
    """What `fleece cards war analyse` takes (a field left out takes the command's
    default)."""

    deck: ShortText = Field("wolf", description=DECK)
    order: Literal["winner-first", "loser-first", "random"] = Field(
        "winner-first", description="the order won cards go back under the pile (K2)")
    runout: Literal["lose", "last-card"] = Field("lose", description=(
        "a player who runs out in a war loses, or plays the last card"))
    samples: int | None = Field(None, ge=1, le=10**8, description=(
        "Monte Carlo games (default: exact when the deck fits the budgets)"))
    seed: int = Field(1, ge=0, le=10**12, description="the estimate's seed")
    limit: int = Field(100_000, ge=1, le=10**8, description="battles a sampled game may last")
    max_deals: int = Field(cards.MAX_DEALS, ge=1, le=10**9, description=(
        "deals the exact analysis may play (fixed orders)"))
    max_states: int = Field(cards.MAX_CHAIN_STATES, ge=1, le=10**7, description=(
        "chain states the exact analysis may solve (random order)"))

    def to_request(self) -> cards.WarAnalyseRequest:
        """The library's request."""
        return cards.WarAnalyseRequest(**self.model_dump())


class ConcentrationBody(RequestModel):
    """What `fleece cards concentration solve` takes."""

    deck: ShortText = Field("wolf", description=DECK + "; every kind an even count")
    players: int = Field(1, ge=1, le=2, description="1: solitaire; 2: the duel")
    max_states: int = Field(cards.MAX_POSITIONS, ge=1, le=10**8, description=(
        "positions the solver may visit"))

    def to_request(self) -> cards.ConcentrationRequest:
        """The library's request."""
        return cards.ConcentrationRequest(**self.model_dump())


WarOut = (report_model(cards.WarExactReport, "WarExactReport")
          | report_model(cards.WarMarkovReport, "WarMarkovReport")
          | report_model(cards.WarSampledReport, "WarSampledReport"))
ConcentrationOut = (report_model(cards.SolitaireReport, "ConcentrationSolitaireReport")
                    | report_model(cards.DuelReport, "ConcentrationDuelReport"))


@api.post("/war/analyse", response_model=WarOut, openapi_extra=body_schema(WarBody),
          summary="Analyse War")
async def war(site: SiteDep, body: Annotated[WarBody, Depends(json_body(WarBody))]
              ) -> Response:
    """War's outcome distribution (K2): exact over every deal when the deck fits
    `max_deals` (fixed orders) or `max_states` (random order), else a seeded Monte Carlo
    estimate with 95% intervals; `method` and `reason` say which ran and why. What `fleece
    cards war analyse --json` prints."""
    return await site.api_job(jobs.war_analyse, body.to_request())


@api.post("/concentration/solve", response_model=ConcentrationOut,
          openapi_extra=body_schema(ConcentrationBody), summary="Solve Concentration")
async def concentration(site: SiteDep, body: Annotated[ConcentrationBody,
                                                       Depends(json_body(ConcentrationBody))]
                        ) -> Response:
    """Concentration with perfect memory, exact and optimal (K4): solitaire's expected turns,
    or the duel's first-player gain and win chances with the optimal move table. What
    `fleece cards concentration solve --json` prints."""
    return await site.api_job(jobs.concentration, body.to_request())


WAR_FORM = {"deck": "wolf", "order": "winner-first", "runout": "lose", "samples": "2000",
            "seed": "1", "limit": "100000", "max_deals": "2000000", "max_states": "6000"}
CONC_FORM = {"deck": "pairs:8", "players": "1", "max_states": "3000000"}


def _form(defaults: dict[str, str], submitted: dict[str, Any] | None) -> dict[str, str]:
    d = submitted or {}
    return {k: str(d.get(k, v)) for k, v in defaults.items()}


@pages.get("/cards")
async def cards_page(request: Request, site: SiteDep) -> Response:
    """The forms."""
    return site.page(request, "cards.html", war=_form(WAR_FORM, None),
                     conc=_form(CONC_FORM, None), game=None, result=None, display=None,
                     error=None)


@pages.post("/cards/war")
async def war_page(request: Request, site: SiteDep) -> Response:
    """War analysis from the form."""
    submitted = parse_form(await read_body(request))
    context: dict[str, Any] = {"war": _form(WAR_FORM, submitted),
                               "conc": _form(CONC_FORM, None), "game": "war", "result": None,
                               "display": None, "error": None}
    try:
        body = from_form(WarBody, submitted)
        out = await site.page_job(jobs.war_analyse, body.to_request(), True)
    except REFUSED as exc:
        status, context["error"] = refusal(exc)
        return site.page(request, "cards.html", status, **context)
    context.update(result=out["json"], result_text=out["json_text"], display=out["display"])
    return site.page(request, "cards.html", **context)


@pages.post("/cards/concentration")
async def concentration_page(request: Request, site: SiteDep) -> Response:
    """Concentration from the form."""
    submitted = parse_form(await read_body(request))
    context: dict[str, Any] = {"war": _form(WAR_FORM, None),
                               "conc": _form(CONC_FORM, submitted), "game": "concentration",
                               "result": None, "display": None, "error": None}
    try:
        body = from_form(ConcentrationBody, submitted)
        out = await site.page_job(jobs.concentration, body.to_request())
    except REFUSED as exc:
        status, context["error"] = refusal(exc)
        return site.page(request, "cards.html", status, **context)
    context.update(result=out["json"], result_text=out["json_text"], display=out["display"])
    return site.page(request, "cards.html", **context)
