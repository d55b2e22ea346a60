"""A bounded load test of `fleece serve` on a local port: 200 requests from 20 concurrent
clients, one of them a slow solve that runs past the request budget. The slow one must come
back as 503 "took too long" soon after its budget; every other request must succeed (200)
within 1 s, so one runaway search never holds the server up."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from test_web_browser import served

ROOT = Path(__file__).resolve().parent.parent
HELPPAGE = (ROOT / "examples" / "mutton" / "helppage.txt").read_text(encoding="utf-8")
RULEBOOK5 = (ROOT / "examples" / "woof" / "rulebook5.txt").read_text(encoding="utf-8")
BUDGET = 3.0
CLIENTS = 20
REQUESTS = 200
FAST_LIMIT = 1.0

# (method, path, JSON body or None, what a good answer contains)
FAST = [
    ("POST", "/api/mutton/solve", {"chart": HELPPAGE}, '"count": 219'),
    ("GET", "/", None, "fleece"),
    ("POST", "/api/woof/solve", {"evidence": RULEBOOK5}, '"consistent": true'),
    ("GET", "/mutton?example=mutton", None, "Score: 5 (10 to beat)."),
    ("POST", "/api/ulvtafl/board", {}, '"to_move": "wolves"'),
    ("GET", "/static/style.css", None, "svg.board"),
    ("POST", "/api/puzzles/mutton/easy/001/check", {"answer": ["A"]}, '"correct": '),
    ("GET", "/puzzles/woof/easy/001", None, "What is seat 7?"),
]
# A Monte Carlo War of 10^7 games: hours of work, stopped at the budget.
SLOW = ("POST", "/api/cards/war/analyse", {"deck": "wolf", "samples": 10**7}, "")


@dataclass(frozen=True)
class Answer:
    """One request's outcome."""

    index: int
    status: int
    seconds: float
    body: str


def call(base: str, index: int, request: tuple[str, str, object, str]) -> Answer:
    method, path, body, _ = request
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"content-type": "application/json"})
    t0 = time.monotonic()
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            status, text = r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        status, text = exc.code, exc.read().decode()
    return Answer(index, status, time.monotonic() - t0, text)


def test_200_requests_from_20_clients_with_one_slow_solve() -> None:
    plan = [SLOW] + [FAST[i % len(FAST)] for i in range(REQUESTS - 1)]
    with served(budget=BUDGET, workers=3) as base:
        t0 = time.monotonic()
        with ThreadPoolExecutor(max_workers=CLIENTS) as clients:
            answers = list(clients.map(lambda i: call(base, i, plan[i]), range(REQUESTS)))
        wall = time.monotonic() - t0
    assert len(answers) == REQUESTS
    slow = answers[0]
    assert slow.status == 503, slow.body
    assert json.loads(slow.body) == {
        "error": f"took too long: stopped after the {BUDGET:g} s budget of a request"}
    assert BUDGET <= slow.seconds < BUDGET + 1.5
    fast = answers[1:]
    bad = [(a.index, a.status, a.body[:200]) for a in fast if a.status != 200]
    assert bad == []
    for a in fast:
        assert plan[a.index][3] in a.body, (plan[a.index][1], a.body[:300])
    slowest = max(fast, key=lambda a: a.seconds)
    assert slowest.seconds < FAST_LIMIT, (plan[slowest.index][1], slowest.seconds)
    assert wall < 30
