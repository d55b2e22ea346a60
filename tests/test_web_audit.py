"""No request makes the web app's workers touch the file system: every kind of job runs in
a worker under an audit hook that records each file opened, listed or changed.

This module stays light to import (the standard library and fleece's error type at the top;
the app inside the test): each worker that runs `_watched` imports it by name, and a slow
import there would make every job a long one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fleece.rules.errors import FleeceError

EX = Path(__file__).resolve().parent.parent / "examples"
TRAPPED = "WSS/.SS/..S.S../..S..../SS...../.../... w"

_FILE_EVENTS = ("open", "os.listdir", "os.scandir", "os.remove", "os.rename", "os.mkdir",
                "os.rmdir", "os.truncate", "shutil.copyfile", "shutil.rmtree")
_SEEN: list[str] = []  # in a worker: the file events of the job that _watched runs
_HOOKED: list[bool] = []


def _record(event: str, args: tuple[Any, ...]) -> None:
    if event in _FILE_EVENTS:
        _SEEN.append(f"{event} {args[0] if args else ''}")


def _watched(fn: Any, *args: Any) -> tuple[str, list[str]]:
    """(A job for the pool) Run the job `fn(*args)` in this worker under an audit hook; its
    outcome ("ok" or its input error) and every file-system event it caused."""
    import sys as worker_sys

    if not _HOOKED:
        worker_sys.addaudithook(_record)
        _HOOKED.append(True)
    _SEEN.clear()
    outcome = "ok"
    try:
        fn(*args)
    except FleeceError as exc:
        outcome = str(exc)
    seen = list(_SEEN)
    _SEEN.clear()
    return outcome, seen


def test_no_job_touches_the_file_system_in_the_worker() -> None:
    """The workers too: every kind of job (solves for the API and for the pages with every
    engine, boards, moves with a solver reply, a solve, the card games, both z3 puzzle
    verdicts, a refused input) runs under an audit hook without opening, listing or changing
    a file - nothing is read from disk on a request's behalf, and no module or compiled
    kernel is loaded late. The jobs' requests are read from JSON bodies by the app's own
    models, as the handlers do."""
    from starlette.testclient import TestClient

    from fleece.api import mutton as mutton_api
    from fleece.api import ulvtafl as ulvtafl_api
    from fleece.api import woof as woof_api
    from fleece.web import jobs
    from fleece.web.app import Config, create_app
    from fleece.web.jobs import cards as cards_jobs
    from fleece.web.jobs import mutton as mutton_jobs
    from fleece.web.jobs import mutton_play as play_jobs
    from fleece.web.jobs import ulvtafl as ulvtafl_jobs
    from fleece.web.jobs import woof as woof_jobs
    from fleece.web.models import from_json
    from fleece.web.routers import cards, mutton, mutton_play, ulvtafl, ulvtafl_puzzles, woof

    helppage = (EX / "mutton" / "helppage.txt").read_text(encoding="utf-8")
    typo = (EX / "mutton" / "typo.txt").read_text(encoding="utf-8")
    rulebook5 = (EX / "woof" / "rulebook5.txt").read_text(encoding="utf-8")

    def body(model: Any, data: dict[str, Any]) -> Any:
        """The library request of a JSON body, read by the app's own model."""
        return from_json(model, json.dumps(data).encode())

    def solve_m(data: dict[str, Any]) -> Any:
        return body(mutton.SolveBody, data).to_request()

    def solve_w(data: dict[str, Any]) -> Any:
        return body(woof.SolveBody, data).to_request()

    app = create_app(Config(workers=1, budget=60.0))
    site = app.state.site
    puzzle_m = site.puzzles["/puzzles/mutton/easy/001"]
    puzzle_w = site.puzzles["/puzzles/woof/easy/001"]
    puzzle_u = site.ulvtafl_puzzles["/ulvtafl/puzzles/hard/004"]
    calls: list[tuple[Any, ...]] = [
        (jobs.for_api, mutton_jobs.solve, solve_m({"chart": helppage,
                                                   "dictionary": "CFRV\nKIND\n"}), False),
        (jobs.for_page, mutton_jobs.solve, solve_m({"chart": helppage})),
        (jobs.for_page, mutton_jobs.solve, solve_m({"chart": typo})),
        (jobs.for_api, mutton_jobs.solve, solve_m({"chart": "Sheep : A\nQ\n"}), False),
        (jobs.for_page, woof_jobs.solve, solve_w({"evidence": rulebook5})),
        (jobs.for_page, mutton_jobs.solve, solve_m({"chart": helppage, "engine": "csp"})),
        (jobs.for_page, mutton_jobs.solve, solve_m({"chart": helppage, "engine": "smt"})),
        (jobs.for_page, woof_jobs.solve, solve_w({"evidence": rulebook5, "engine": "csp"})),
        (jobs.for_page, woof_jobs.solve, solve_w({"evidence": rulebook5, "engine": "smt"})),
        (jobs.for_api, ulvtafl_jobs.board, body(ulvtafl.PositionBody,
                                                {"setup": 13}).to_request()),
        (jobs.for_page, ulvtafl_jobs.move, body(ulvtafl.MoveBody, {
            "move": "c7-d7", "solver": "sheep", "think": 0.2}).to_request(60.0)),
        (jobs.for_page, ulvtafl_jobs.solve, body(ulvtafl.SolveBody,
                                                 {"position": TRAPPED}).to_request(60.0)),
        (jobs.for_page, cards_jobs.war_analyse, body(cards.WarBody,
                                                     {"deck": "pairs:3"}).to_request(), True),
        (jobs.for_page, cards_jobs.concentration, body(cards.ConcentrationBody, {
            "deck": "pairs:3", "players": 2}).to_request()),
        (jobs.for_api, mutton_jobs.puzzle_verdict, mutton_api.PuzzleCheckRequest(
            puzzle=puzzle_m.text, solution=puzzle_m.solution, source="001.txt",
            solution_source="001.txt")),
        (jobs.for_api, woof_jobs.puzzle_verdict, woof_api.PuzzleCheckRequest(
            puzzle=puzzle_w.text, solution=puzzle_w.solution, source="001.txt")),
        (jobs.for_page, ulvtafl_jobs.puzzle_step, body(ulvtafl_puzzles.PlayBody, {
            "move": "g5-f5"}).to_request(puzzle_u)),
        (jobs.for_page, ulvtafl_jobs.puzzle_hint, body(ulvtafl_puzzles.HintBody, {
            "moves": ["g5-f5", "c4-b4"]}).to_request(puzzle_u)),
        (jobs.for_api, ulvtafl_jobs.puzzle_check, ulvtafl_api.PuzzleCheckRequest(
            puzzle=puzzle_u.text, source="004.txt")),
        (jobs.for_page, play_jobs.start, body(mutton_play.StartBody, {
            "seed": 7, "bot": "fleece"}).to_request()),
        (jobs.for_page, play_jobs.move, body(mutton_play.MoveBody, {
            "seed": 7, "bot": "fleece", "moves": ["Z:V-d2,Y-c3"], "move": "V"}).to_request()),
        (jobs.for_page, play_jobs.move, body(mutton_play.MoveBody, {
            "seed": 7, "person": "wolf", "move": "wolves=ABCD"}).to_request()),
        (jobs.for_page, play_jobs.state, body(mutton_play.GameBody, {
            "seed": 7, "moves": ["Z:V-d2,Y-c3"]}).to_request()),
        (jobs.for_api, play_jobs.record, body(mutton_play.GameBody, {
            "seed": 7, "moves": ["Z:V-d2,Y-c3"]}).to_request()),
    ]
    outcomes: list[str] = []
    with TestClient(app, base_url="http://localhost") as c:
        portal = c.portal
        assert portal is not None
        for call in calls:
            outcome, seen = portal.call(
                lambda call=call: site.pool.run(_watched, *call, budget=60))
            assert seen == [], (call[1].__name__, seen)
            outcomes.append(outcome)
    refused = "chart, line 2, column 1: "
    assert [o if not o.startswith(refused) else refused for o in outcomes] == \
        ["ok"] * 3 + [refused] + ["ok"] * (len(calls) - 4)
