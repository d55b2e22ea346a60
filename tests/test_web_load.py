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

import json

from helpers.web_load import BUDGET, CLIENTS, FAST, REQUESTS, WORKERS, load


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
