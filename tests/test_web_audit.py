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
    kernel is loaded late. The jobs' options are read from request bodies by the app's own
    readers, as the handlers do."""
    from starlette.testclient import TestClient

    from fleece.web import cards, jobs, mutton, ulvtafl, woof
    from fleece.web.app import Config, create_app
    from fleece.web.fields import Fields

    helppage = (EX / "mutton" / "helppage.txt").read_text(encoding="utf-8")
    typo = (EX / "mutton" / "typo.txt").read_text(encoding="utf-8")
    rulebook5 = (EX / "woof" / "rulebook5.txt").read_text(encoding="utf-8")

    def body(data: dict[str, Any]) -> Fields:
        return Fields.from_json(json.dumps(data).encode())

    app = create_app(Config(workers=1, budget=60.0))
    site = app.state.site
    war = cards.war_options(body({"deck": "pairs:3"}))
    war["lengths"] = True
    mutton_api = mutton.options(body({"chart": helppage, "dictionary": "CFRV\nKIND\n"}))
    mutton_api["view"] = False
    puzzle_m = site.puzzles["/puzzles/mutton/easy/001"]
    puzzle_w = site.puzzles["/puzzles/woof/easy/001"]
    calls: list[tuple[Any, ...]] = [
        (jobs.for_api, jobs.mutton_solve, mutton_api),
        (jobs.for_page, jobs.mutton_solve, mutton.options(body({"chart": helppage}))),
        (jobs.for_page, jobs.mutton_solve, mutton.options(body({"chart": typo}))),
        (jobs.for_api, jobs.mutton_solve, mutton.options(body({"chart": "Sheep : A\nQ\n"}))),
        (jobs.for_page, jobs.woof_solve, woof.options(body({"evidence": rulebook5}))),
        (jobs.for_page, jobs.mutton_solve, mutton.options(body({"chart": helppage,
                                                                "engine": "csp"}))),
        (jobs.for_page, jobs.mutton_solve, mutton.options(body({"chart": helppage,
                                                                "engine": "smt"}))),
        (jobs.for_page, jobs.woof_solve, woof.options(body({"evidence": rulebook5,
                                                            "engine": "csp"}))),
        (jobs.for_page, jobs.woof_solve, woof.options(body({"evidence": rulebook5,
                                                            "engine": "smt"}))),
        (jobs.for_api, jobs.ulvtafl_board, ulvtafl.position_options(body({"setup": "13"}))),
        (jobs.for_page, jobs.ulvtafl_move, ulvtafl.move_options(
            body({"move": "c7-d7", "solver": "sheep", "think": 0.2}), 60.0)),
        (jobs.for_page, jobs.ulvtafl_solve, ulvtafl.solve_options(body({"position": TRAPPED}),
                                                                  60.0)),
        (jobs.for_page, jobs.war_analyse, war),
        (jobs.for_api, jobs.concentration_solve,
         cards.concentration_options(body({"deck": "pairs:3", "players": 2}))),
        (jobs.for_api, jobs.mutton_puzzle_verdict, puzzle_m.text, puzzle_m.solution,
         "001.txt"),
        (jobs.for_api, jobs.woof_puzzle_verdict, puzzle_w.text, puzzle_w.solution, "001.txt"),
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
