"""Solver calls off the event loop, each with a deadline: a small pool of worker processes.

A request hands a job (a module-level function of fleece.web.jobs and its plain arguments) to
an idle worker and waits, without blocking the event loop, until the answer arrives or its
time budget runs out. A worker past the deadline is killed and replaced, so a runaway search
costs one process for at most the budget and the server keeps answering everyone else. Threads
could not be stopped; processes can.

Workers are started through a fork server that has imported the solvers once (and compiled
the numba kernels), so a replacement is ready in milliseconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from fleece.rules.errors import FleeceError

PRELOAD = "fleece.web.preload"
LONG_JOB = 1.0  # seconds after which a job yields the cores to quick ones
LONG_NICE = 4  # mild: a long job still gets a fair share of a busy machine


class TookTooLong(Exception):
    """A job did not finish within its budget (its worker was stopped)."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        super().__init__(f"took too long: stopped after the {budget:g} s budget of a request")


class WorkerFailed(Exception):
    """A job raised an unexpected error or its worker died (an internal error, one line)."""


class BadJobInput(FleeceError):
    """A job refused its input: the one-line message the command line prints."""


@dataclass
class _Worker:
    process: Any
    conn: Connection


def _worker_main(conn: Connection) -> None:
    """The worker's loop: receive (function, args), send back (status, value, demoted):
    ("ok", value), ("bad", message) for a FleeceError, ("error", message) for anything else;
    `demoted` says the job ran long enough to be lowered in priority (see _run_one)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        reply = _run_one(fn, args)
        try:
            conn.send(reply)
        except Exception as exc:  # an unpicklable result is a bug: say so, keep serving
            conn.send(("error", f"result not sendable: {type(exc).__name__}: {exc}", reply[2]))


def _run_one(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, Any, bool]:
    """Run one job. A job still running after LONG_JOB seconds is lowered to nice LONG_NICE,
    so a long search leaves the cores to quick requests and the web process; the pool then
    replaces this worker (a process cannot raise its priority back)."""
    tid = threading.get_native_id()
    lock = threading.Lock()
    state = {"done": False, "demoted": False}

    def demote() -> None:
        with lock:
            if not state["done"]:
                with contextlib.suppress(OSError):
                    os.setpriority(os.PRIO_PROCESS, tid, LONG_NICE)
                state["demoted"] = True

    timer = threading.Timer(LONG_JOB, demote)
    timer.daemon = True
    timer.start()
    try:
        status, value = "ok", fn(*args)
    except FleeceError as exc:
        status, value = "bad", str(exc)
    except RecursionError:
        status, value = "bad", "the input is nested too deeply"
    except Exception as exc:
        status, value = "error", f"{type(exc).__name__}: {exc}"
    finally:
        with lock:
            state["done"] = True
        timer.cancel()
    return status, value, state["demoted"]


class WorkerPool:
    """`size` worker processes; `run(fn, *args, budget=)` in any coroutine."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload([PRELOAD])
        self._idle: asyncio.Queue[_Worker] | None = None
        self._all: set[int] = set()
        self._workers: list[_Worker] = []
        self._closed = False
        self.killed = 0  # workers stopped at a deadline (for tests and the log)
        self.demoted = 0  # workers replaced after a long job lowered their priority

    def _spawn(self) -> _Worker:
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=_worker_main, args=(child,), daemon=True,
                                 name="fleece-web-worker")
        proc.start()
        child.close()
        return _Worker(proc, parent)

    async def start(self) -> None:
        """Start the workers (the fork server imports the solvers first, a few seconds)."""
        self._idle = asyncio.Queue()
        workers = await asyncio.to_thread(lambda: [self._spawn() for _ in range(self.size)])
        for w in workers:
            self._workers.append(w)
            self._idle.put_nowait(w)

    async def close(self) -> None:
        """Stop every worker."""
        self._closed = True
        for w in self._workers:
            w.conn.close()
            w.process.kill()
        await asyncio.to_thread(lambda: [w.process.join(5) for w in self._workers])
        self._workers.clear()

    def _retire(self, worker: _Worker) -> None:
        """Kill a worker and start its replacement in the background."""
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
        if worker in self._workers:
            self._workers.remove(worker)
        if self._closed:
            return

        async def replace() -> None:
            await asyncio.to_thread(worker.process.join, 5)
            new = await asyncio.to_thread(self._spawn)
            if self._closed:
                new.process.kill()
                return
            self._workers.append(new)
            assert self._idle is not None
            self._idle.put_nowait(new)

        task = asyncio.get_running_loop().create_task(replace())
        _BACKGROUND.add(task)
        task.add_done_callback(_BACKGROUND.discard)

    async def run(self, fn: Callable[..., Any], *args: Any, budget: float) -> Any:
        """`fn(*args)` in a worker; its value, or BadJobInput (the input's one-line error),
        TookTooLong (past `budget` seconds, waiting for a worker included) or WorkerFailed."""
        assert self._idle is not None, "start() the pool first"
        deadline = time.monotonic() + budget
        try:
            worker = await asyncio.wait_for(self._idle.get(), timeout=budget)
        except TimeoutError:
            raise TookTooLong(budget) from None
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()
        fd = worker.conn.fileno()
        try:
            worker.conn.send((fn, args))
            loop.add_reader(fd, _settle, ready)
            try:
                await asyncio.wait_for(ready, timeout=max(0.0, deadline - time.monotonic()))
            finally:
                loop.remove_reader(fd)
            status, value, demoted = worker.conn.recv()
        except TimeoutError:
            self.killed += 1
            self._retire(worker)
            raise TookTooLong(budget) from None
        except (EOFError, OSError) as exc:
            self._retire(worker)
            raise WorkerFailed(f"the worker process stopped ({type(exc).__name__})") from None
        except BaseException:  # cancelled (client gone): the worker may still be busy
            self._retire(worker)
            raise
        if demoted:
            self.demoted += 1
            self._retire(worker)
        else:
            self._idle.put_nowait(worker)
        if status == "ok":
            return value
        if status == "bad":
            raise BadJobInput(value)
        raise WorkerFailed(value)


_BACKGROUND: set[asyncio.Task[None]] = set()


def _settle(future: asyncio.Future[None]) -> None:
    """Mark a reply as arrived (the reader callback; once is enough)."""
    if not future.done():
        future.set_result(None)


def default_size() -> int:
    """Workers by default: one per core, at least two (a slow job leaves one free)."""
    return max(2, os.cpu_count() or 2)
