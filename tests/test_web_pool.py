"""The web app's worker pool (fleece.web.pool) on its own: answers, input errors, internal
errors, a worker that dies, a job past its budget, a cancelled job, a long job lowered in
priority and its slot handed to a fresh worker; after each, the pool still answers the next
job. The tests assert what happened (which process ran a job, which were stopped, what the
pool counted), not how long it took."""

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


def test_a_job_past_its_budget_is_killed_and_replaced() -> None:
    """A job that would run for an hour, with a 1 s budget: TookTooLong, its worker process
    is killed (counted, and gone), and the next job runs in another process."""

    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        try:
            first = await pool.run(os.getpid, budget=30)
            with pytest.raises(TookTooLong) as late:
                await pool.run(time.sleep, 3600, budget=1.0)
            assert str(late.value) == "took too long: stopped after the 1 s budget of a request"
            assert pool.killed == 1
            await until(lambda: not alive(first))
            second = await pool.run(os.getpid, budget=30)
            assert second != first
        finally:
            await pool.close()

    run(scenario())


def test_a_cancelled_job_frees_its_worker() -> None:
    """A request that goes away (its task cancelled) while its job runs: the worker is
    retired (counted, its process gone), and the pool goes on with a fresh one."""

    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        try:
            busy = await pool.run(os.getpid, budget=30)
            task = asyncio.create_task(pool.run(time.sleep, 3600, budget=3600))
            await asyncio.sleep(0.2)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert pool.cancelled == 1 and pool.killed == 0
            await until(lambda: not alive(busy))
            assert await pool.run(math.comb, 4, 2, budget=30) == 6
            assert await pool.run(os.getpid, budget=30) != busy
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
            assert await pool.run(time.sleep, LONG_JOB * 5, budget=30) is None
            assert pool.demoted == 1 and pool.killed == 0
            assert await pool.run(os.getpriority, os.PRIO_PROCESS, 0, budget=30) == mine
            assert await pool.run(math.comb, 5, 1, budget=30) == 5
            assert pool.demoted == 1
        finally:
            await pool.close()

    run(scenario())


def test_a_long_job_hands_its_slot_to_a_fresh_worker() -> None:
    """With the only worker busy on a long job, a quick job does not wait for it: once the
    job counts as long the spare takes the slot, and the quick job is answered while the
    long one still runs. At most `size` long jobs hold extra processes: with a second long
    job beside the first, a quick job is answered only after one of them has ended; when
    they end the pool is back to `size` workers and a spare."""

    async def scenario() -> None:
        pool = WorkerPool(1)
        await pool.start()
        try:
            assert pool.processes() == 2  # the worker and the spare
            first = asyncio.create_task(pool.run(time.sleep, 600, budget=30))
            await until(lambda: pool.handed_over == 1)
            assert await pool.run(math.comb, 7, 3, budget=30) == 35
            assert not first.done()  # answered beside the long job, not after it
            await until(lambda: pool.processes() == 3)  # the new spare
            second = asyncio.create_task(pool.run(time.sleep, LONG_JOB * 8, budget=30))
            await asyncio.sleep(LONG_JOB * 2)
            assert pool.handed_over == 1 and pool.processes() == 3  # the cap: size 1
            assert await pool.run(math.comb, 8, 3, budget=30) == 56
            assert second.done()  # it had to wait for the second long job's worker
            assert not first.done()
            first.cancel()
            with pytest.raises(asyncio.CancelledError):
                await first
            assert await second is None
            await until(lambda: pool.handed_over == 0 and pool.processes() == 2)
            assert await pool.run(math.comb, 9, 3, budget=30) == 84
        finally:
            await pool.close()

    run(scenario())


def test_workers_are_ready_before_the_first_job() -> None:
    """start() returns once every worker (and the spare) has said it is ready: the first
    jobs run in those processes, and no process is started on their behalf."""

    async def scenario() -> None:
        pool = WorkerPool(2)
        await pool.start()
        try:
            assert pool.started == 3 and pool.processes() == 3
            pids = set()
            for _ in range(3):
                pids |= set(await asyncio.gather(pool.run(os.getpid, budget=30),
                                                 pool.run(os.getpid, budget=30)))
            assert pool.started == 3 and 1 <= len(pids) <= 2
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
