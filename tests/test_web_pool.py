"""The web app's worker pool (fleece.web.pool) on its own: answers, input errors, internal
errors, a worker that dies, a job past its budget, a long job lowered in priority and its slot
handed to a fresh worker; after each, the pool still answers the next job."""

from __future__ import annotations

import asyncio
import math
import os
import time
from typing import Any

import pytest

from fleece.solver.core import check_engine
from fleece.web.pool import LONG_JOB, BadJobInput, TookTooLong, WorkerFailed, WorkerPool


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def test_the_pool_answers_refuses_fails_and_recovers() -> None:
    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        try:
            assert await pool.run(math.comb, 26, 4, budget=30) == 14950
            with pytest.raises(BadJobInput) as bad:
                await pool.run(check_engine, "magic", ("fast", "csp"), budget=30)
            assert str(bad.value) == "engine magic: choose one of fast, csp"
            assert (bad.value.error.field, bad.value.error.value) == ("engine", "magic")
            with pytest.raises(WorkerFailed) as failed:
                await pool.run(int, "x", budget=30)
            assert str(failed.value) == "ValueError: invalid literal for int() with base 10: 'x'"
            assert await pool.run(math.comb, 5, 2, budget=30) == 10
            with pytest.raises(WorkerFailed) as died:
                await pool.run(os._exit, 3, budget=30)
            assert "the worker process stopped" in str(died.value)
            assert await pool.run(math.comb, 6, 3, budget=30) == 20  # its replacement
        finally:
            await pool.close()

    run(scenario())


def test_a_job_past_its_budget_is_killed_and_replaced() -> None:
    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        try:
            t0 = time.monotonic()
            with pytest.raises(TookTooLong) as late:
                await pool.run(time.sleep, 60, budget=1.0)
            assert 1.0 <= time.monotonic() - t0 < 2.5
            assert str(late.value) == "took too long: stopped after the 1 s budget of a request"
            assert pool.killed == 1
            # the queue for the only worker counts against the next budget too
            assert await pool.run(math.comb, 4, 2, budget=30) == 6
        finally:
            await pool.close()

    run(scenario())


def test_a_long_job_is_lowered_in_priority_and_its_worker_replaced() -> None:
    """A job still running after LONG_JOB seconds drops to a lower priority (so quick requests
    keep the cores); its worker answers, then is replaced by a fresh one at normal priority."""

    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        try:
            mine = os.getpriority(os.PRIO_PROCESS, 0)
            assert await pool.run(time.sleep, 1.3, budget=30) is None
            assert pool.demoted == 1 and pool.killed == 0
            assert await pool.run(os.getpriority, os.PRIO_PROCESS, 0, budget=30) == mine
            assert await pool.run(time.sleep, 0.2, budget=30) is None
            assert pool.demoted == 1
        finally:
            await pool.close()

    run(scenario())


def test_a_long_job_hands_its_slot_to_a_fresh_worker() -> None:
    """With one worker busy on a long job, a quick job does not wait for it: after LONG_JOB
    seconds the spare takes the slot (and a new spare starts). At most `size` long jobs hold
    extra processes: a second long job beside the first gets no further process, so a quick
    job then waits; when the long jobs end the pool is back to `size` workers and a spare."""

    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        try:
            assert pool.processes() == 2  # the worker and the spare
            first = asyncio.create_task(pool.run(time.sleep, 2.5, budget=30))
            await asyncio.sleep(LONG_JOB + 0.3)
            t0 = time.monotonic()
            assert await pool.run(math.comb, 7, 3, budget=30) == 35
            assert time.monotonic() - t0 < 1.0  # not behind the long job
            assert pool.handed_over == 1 and pool.processes() == 3
            second = asyncio.create_task(pool.run(time.sleep, 0.9, budget=30))
            await asyncio.sleep(LONG_JOB + 0.1)
            assert pool.handed_over == 1 and pool.processes() == 3  # the cap: size 1
            t0 = time.monotonic()
            assert await pool.run(math.comb, 8, 3, budget=30) == 56
            assert time.monotonic() - t0 > 0.1  # it waited for a worker
            assert await first is None and await second is None
            await asyncio.sleep(0.5)  # the retired workers' replacements start
            assert pool.handed_over == 0 and pool.processes() == 2
            assert await pool.run(math.comb, 9, 3, budget=30) == 84
        finally:
            await pool.close()

    run(scenario())


def test_workers_are_ready_before_the_first_job() -> None:
    """start() returns once every worker has said it is ready: the first jobs do not pay for
    booting a process."""

    async def scenario() -> list[float]:
        pool = WorkerPool(2)
        await pool.start()
        try:
            times = []
            for _ in range(2):
                t0 = time.monotonic()
                await asyncio.gather(pool.run(math.comb, 5, 1, budget=30),
                                     pool.run(math.comb, 5, 2, budget=30))
                times.append(time.monotonic() - t0)
            return times
        finally:
            await pool.close()

    first, second = run(scenario())
    assert first < 0.5 and second < 0.5


def test_concurrent_jobs_share_the_workers() -> None:
    async def scenario() -> list[int]:
        pool = WorkerPool(2)
        await pool.start()
        try:
            return list(await asyncio.gather(*(pool.run(math.comb, 10, k, budget=30)
                                               for k in range(11))))
        finally:
            await pool.close()

    assert run(scenario()) == [math.comb(10, k) for k in range(11)]
