"""A bounded load test of `fleece serve` on a local port: 200 requests from 20 concurrent
clients, one of them a slow solve that runs past the request budget. The slow one must come
back as 503 "took too long", not before its budget; every other request must succeed (200)
with the right answer, and requests must be answered while the slow solve still holds its
worker, so one runaway search never holds the server up.

The server runs as `fleece serve` does by default on a 2-core machine (two worker processes),
so the slow solve holds one of the two workers until the pool hands its slot to a fresh one
(web.pool: after LONG_JOB seconds). The fast requests are a mix of JSON solves, a page
solve (the Mutton page: the view computed in a worker, the page rendered by the server),
pages, static files and a puzzle check.

The test asserts what happens, in which order, never how fast (the machine is shared): the
latency figures (median, 95th percentile, slowest) and their targets live in
benchmarks/bench_web_load.py, which runs this same load.
"""

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

ROOT = Path(__file__).resolve().parent.parent
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


def test_200_requests_from_20_clients_with_one_slow_solve() -> None:
    plan, answers, after, wall = load()
    assert len(answers) == REQUESTS
    slow = answers[0]
    assert slow.status == 503, slow.body
    assert json.loads(slow.body) == {
        "error": f"took too long: stopped after the {BUDGET:g} s budget of a request"}
    assert slow.seconds >= BUDGET
    fast = answers[1:]
    bad = [(a.index, a.status, a.body[:200]) for a in fast if a.status != 200]
    assert bad == []
    for a in fast:
        assert plan[a.index].expect in a.body, (plan[a.index].path, a.body[:300])
    times = sorted(a.seconds for a in fast)
    print(f"\nload: {len(fast)} fast requests from {CLIENTS} clients beside one slow solve "
          f"({WORKERS} workers): median {times[len(times) // 2]:.3f} s, 95th percentile "
          f"{times[int(len(times) * 0.95)]:.3f} s, slowest {times[-1]:.3f} s; slow solve "
          f"{slow.status} after {slow.seconds:.2f} s; wall {wall:.2f} s")
    beside = sum(1 for a in fast if a.done < slow.done)
    print(f"load: {beside} fast answers came back while the slow solve ran")
    assert beside >= CLIENTS  # the slow solve held no one up
    assert after.status == 200 and FAST[0].expect in after.body
