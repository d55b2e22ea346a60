"""The web app's worker pool (fleece.web.pool) on its own: answers, input errors, internal
errors, a worker that dies, a job past its budget, a cancelled job, a long job lowered in
priority and its slot handed to a fresh worker; after each, the pool still answers the next
job.

The tests count events, not seconds (the machine is shared): jobs that wait for a gate file
or for their own demotion (tests/helpers/pool_jobs.py), process ids, the pool's counters. A time
appears only as a lower bound (a job is not stopped before its budget) or as a safety cap."""

from __future__ import annotations

import asyncio
import math
import os
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import pool_jobs

from fleece.solver.core import check_engine
from fleece.web.pool import (
    LONG_JOB,
    LONG_NICE,
    BadJobInput,
    TookTooLong,
    WorkerFailed,
    WorkerPool,
)


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def alive(pid: int) -> bool:
    """Whether a process of this pid runs (a reaped worker does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def until(condition: Any, limit: float = 60.0) -> None:
    """Wait for `condition()` (an event the pool records), failing after `limit` s."""
    deadline = time.monotonic() + limit
    while not condition():
        assert time.monotonic() < deadline, "the event never came"
        await asyncio.sleep(0.02)


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


def test_a_job_past_its_budget_is_killed_and_replaced(tmp_path: Path) -> None:
    """A job that would wait 20 s (its gate never opens) is stopped at its 1 s
    budget: TookTooLong, its worker process is gone (killed, not left running), and a new
    process answers the next job."""

    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        try:
            first = await pool.run(pool_jobs.pid, budget=30)
            t0 = time.monotonic()
            with pytest.raises(TookTooLong) as late:
                await pool.run(pool_jobs.wait_for, str(tmp_path / "never"), 20.0, budget=1.0)
            assert time.monotonic() - t0 >= 1.0  # not stopped before its budget
            assert str(late.value) == "took too long: stopped after the 1 s budget of a request"
            assert pool.killed == 1
            await until(lambda: not alive(first))
            # the queue for the only worker counts against the next budget too
            assert await pool.run(math.comb, 4, 2, budget=30) == 6
            assert await pool.run(pool_jobs.pid, budget=30) != first
        finally:
            await pool.close()

    run(scenario())


def test_a_cancelled_job_frees_its_worker(tmp_path: Path) -> None:
    """A request that goes away (its task cancelled) while its job runs: the worker is
    retired (counted, its process gone), and the pool goes on with a fresh one."""

    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        try:
            busy = await pool.run(pool_jobs.pid, budget=30)
            never = str(tmp_path / "never")
            task = asyncio.create_task(pool.run(pool_jobs.wait_for, never, 3600.0,
                                                budget=3600))
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert pool.cancelled == 1 and pool.killed == 0
            await until(lambda: not alive(busy))
            assert await pool.run(math.comb, 4, 2, budget=30) == 6
            assert await pool.run(pool_jobs.pid, budget=30) != busy
        finally:
            await pool.close()

    run(scenario())


def test_a_long_job_is_lowered_in_priority_and_its_worker_replaced() -> None:
    """A job still running after LONG_JOB seconds drops to nice LONG_NICE (so quick requests
    keep the cores): the job itself sees its priority lowered. Its worker answers, then is
    replaced by a fresh one at normal priority; a quick job is not lowered."""

    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        try:
            mine = os.getpriority(os.PRIO_PROCESS, 0)
            long_pid = await pool.run(pool_jobs.pid, budget=30)
            assert await pool.run(pool_jobs.until_demoted, 10.0, budget=30) == LONG_NICE
            assert pool.demoted == 1 and pool.killed == 0
            assert await pool.run(os.getpriority, os.PRIO_PROCESS, 0, budget=30) == mine
            assert await pool.run(pool_jobs.pid, budget=30) != long_pid
            assert await pool.run(math.comb, 5, 2, budget=30) == 10
            assert pool.demoted == 1
        finally:
            await pool.close()

    run(scenario())


def test_a_long_job_hands_its_slot_to_a_fresh_worker(tmp_path: Path) -> None:
    """With one worker busy on a long job, a quick job does not wait for it: once the job has
    run LONG_JOB seconds the spare takes the slot (and a new spare starts). At most `size`
    long jobs hold extra processes: a second long job beside the first gets no further
    process, so a quick job then waits until a long job ends; when the long jobs end the pool
    is back to `size` workers and a spare. The long jobs wait for gates the test opens, so
    every step is an event, not a length of time."""

    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        gate1, gate2 = tmp_path / "one", tmp_path / "two"
        try:
            assert pool.processes() == 2  # the worker and the spare
            first = asyncio.create_task(pool.run(pool_jobs.wait_for, str(gate1), budget=90))
            await until(lambda: pool.handed_over == 1)
            assert await pool.run(math.comb, 7, 3, budget=30) == 35  # not behind the long job
            assert not first.done()
            await until(lambda: pool.processes() == 3)  # the new spare has started
            second = asyncio.create_task(pool.run(pool_jobs.wait_for, str(gate2), budget=90))
            await asyncio.sleep(LONG_JOB * 2)
            quick = asyncio.create_task(pool.run(math.comb, 8, 3, budget=90))
            await asyncio.sleep(LONG_JOB * 2)
            assert pool.handed_over == 1 and pool.processes() == 3  # the cap: size 1
            assert not quick.done()  # it waits for a worker
            gate2.touch()
            assert await quick == 56
            gate1.touch()
            assert await first != await second
            await until(lambda: pool.handed_over == 0 and pool.processes() == 2)
            assert await pool.run(math.comb, 9, 3, budget=30) == 84
        finally:
            gate1.touch()
            gate2.touch()
            await pool.close()

    run(scenario())


def test_workers_are_ready_before_the_first_job() -> None:
    """start() returns once every worker has said it is ready: the first jobs run in the
    processes that were already there (none is booted for them) and the spare is idle."""

    async def scenario() -> None:
        pool = WorkerPool(2)
        await pool.start()
        try:
            booted = {w.process.pid for w in pool._workers}
            assert len(booted) == 3 and pool.processes() == 3
            assert all(w.conn.poll() is False for w in pool._workers)  # READY was read
            pids = await asyncio.gather(pool.run(pool_jobs.pid, budget=30),
                                        pool.run(pool_jobs.pid, budget=30))
            assert set(pids) <= booted
            assert pool.processes() == 3
        finally:
            await pool.close()

    run(scenario())


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
