"""The web load test's machinery, shared by tests/test_web_load.py (outcomes) and
benchmarks/bench_web_load.py (latency): a served app, a burst of requests from many clients
with one slow solve among them, and each answer with its status, body and times."""

from __future__ import annotations

import gc
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from helpers.serve import served

ROOT = Path(__file__).resolve().parents[2]
HELPPAGE = (ROOT / "examples" / "mutton" / "helppage.txt").read_text(encoding="utf-8")
RULEBOOK5 = (ROOT / "examples" / "woof" / "rulebook5.txt").read_text(encoding="utf-8")
BUDGET = 10.0
WORKERS = 2
CLIENTS = 20
REQUESTS = 200


@dataclass(frozen=True)
class Plan:
    """One kind of request: method, path, a JSON body or a form (or neither), and what a
    good answer contains."""

    method: str
    path: str
    expect: str
    json_body: object = None
    form: dict[str, str] | None = None


FAST = [
    Plan("POST", "/api/mutton/solve", '"count": 219', json_body={"chart": HELPPAGE}),
    Plan("GET", "/", "fleece"),
    Plan("POST", "/api/woof/solve", '"consistent": true', json_body={"evidence": RULEBOOK5}),
    Plan("POST", "/mutton", "<strong>219</strong> consistent wolf sets",
         form={"chart": HELPPAGE, "wolves": "4"}),
    Plan("GET", "/mutton?example=mutton", "Score: 5 (10 to beat)."),
    Plan("POST", "/api/ulvtafl/board", '"to_move": "wolves"', json_body={}),
    Plan("GET", "/static/style.css", "svg.board"),
    Plan("POST", "/api/puzzles/mutton/easy/001/check", '"correct": ',
         json_body={"answer": ["A"]}),
    Plan("GET", "/puzzles/woof/easy/001", "What is seat 7?"),
]
# A Monte Carlo War of 10^7 games: hours of work, stopped at the budget.
SLOW = Plan("POST", "/api/cards/war/analyse", "",
            json_body={"deck": "wolf", "samples": 10**7})


@dataclass(frozen=True)
class Answer:
    """One request's outcome: status, seconds it took, body, and when it came back
    (time.monotonic())."""

    index: int
    status: int
    seconds: float
    body: str
    done: float  # when it came back (time.monotonic())


def call(base: str, index: int, plan: Plan) -> Answer:
    """Send one request (a new connection, as a browser tab would) and time it."""
    data, kind = None, "application/json"
    if plan.form is not None:
        data = urllib.parse.urlencode(plan.form).encode()
        kind = "application/x-www-form-urlencoded"
    elif plan.json_body is not None:
        data = json.dumps(plan.json_body).encode()
    req = urllib.request.Request(base + plan.path, data=data, method=plan.method,
                                 headers={"content-type": kind})
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            status, text = r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read().decode()
    done = time.monotonic()
    return Answer(index, status, done - t0, text, done)


def load(budget: float = BUDGET) -> tuple[list[Plan], list[Answer], Answer, float]:
    """The load: the plan, every answer (the slow one first), one more request after the
    burst, and the wall time of the burst."""
    plan = [SLOW] + [FAST[i % len(FAST)] for i in range(REQUESTS - 1)]
    with served(budget=budget, workers=WORKERS) as base:
        # the clients' own garbage collections (this test process holds the whole test
        # session's objects) would pause every client thread and count as server time
        gc.collect()
        gc.freeze()
        try:
            t0 = time.monotonic()
            with ThreadPoolExecutor(max_workers=CLIENTS) as clients:
                answers = list(clients.map(lambda i: call(base, i, plan[i]),
                                           range(REQUESTS)))
            wall = time.monotonic() - t0
        finally:
            gc.unfreeze()
        after = call(base, -1, FAST[0])  # the server still answers after the burst
    return plan, answers, after, wall
