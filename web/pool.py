"""Solver calls off the event loop, each with a deadline: a small pool of worker processes.

A request hands a job (a module-level function of fleece.web.jobs and its plain arguments) to
an idle worker and waits, without blocking the event loop, until the answer arrives or its
time budget runs out. A worker past the deadline is killed and replaced, so a runaway search
costs one process for at most the budget and the server keeps answering everyone else. Threads
could not be stopped; processes can.

Priorities: a job still running after LONG_JOB seconds is a long job. Its worker lowers
itself to nice LONG_NICE (the cores go to quick requests and the web process first) and a
spare worker, booted and waiting for this, takes its slot at once (a new spare is started in
the background), so the quick requests keep every worker slot while long jobs run. At most
`size` long jobs hold extra processes; past that, a long job's worker is replaced only when it
ends. The event loop never waits on a worker: a reply is awaited with a reader callback, and
pipes are written and read on a small thread pool.

Workers are started through a fork server that has imported every module a job needs and run
each compiled kernel once (web.preload), and a new worker takes jobs only once it says it is
ready, so no request pays for booting a process.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from fleece.rules.errors import FleeceError

PRELOAD = "fleece.web.preload"
LONG_JOB = 0.25  # seconds after which a job yields the cores (and its worker slot) to quick ones
LONG_NICE = 4  # mild: a long job still gets a fair share of a busy machine
READY = "ready"  # a new worker's first message: it takes jobs from now on
START_WAIT = 120.0  # seconds a new worker may take to say READY (a busy machine's fork server)


class TookTooLong(Exception):
    """A job did not finish within its budget (its worker was stopped)."""

    def __init__(self, budget: float) -> None:
        self.budget = budget
        super().__init__(f"took too long: stopped after the {budget:g} s budget of a request")


class WorkerFailed(Exception):
    """A job raised an unexpected error or its worker died (an internal error, one line)."""


class BadJobInput(FleeceError):
    """A job refused its input: the library's error (`error`, with its field, line and
    column) as it crossed the worker boundary; its message names a field as the web's JSON
    and forms do (`max_states`, where the command line writes `--max-states`)."""

    def __init__(self, error: FleeceError) -> None:
        super().__init__(error.text(web_name), field=error.field, value=error.value,
                         limit=error.limit)
        self.error = error

    def __str__(self) -> str:
        return self.message


def web_name(field: str) -> str:
    """A library field as the web names it: the JSON and form field itself."""
    return field


@dataclass(eq=False)
class _Worker:
    process: Any
    conn: Connection
    handed_over: bool = False  # a long job: a fresh worker already took this one's slot


def _worker_main(conn: Connection) -> None:
    """The worker's loop: say READY, then receive (function, args), send back (status, value,
    demoted):
    ("ok", value), ("bad", error) for a FleeceError (the error itself, every field kept),
    ("error", message) for anything else;
    `demoted` says the job ran long enough to be lowered in priority (see _run_one)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    conn.send(READY)
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
    retires this worker (a process cannot raise its priority back)."""
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
        status, value = "bad", exc
    except RecursionError:
        status, value = "bad", FleeceError("the input is nested too deeply")
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
        self._workers: list[_Worker] = []  # every process: idle, busy, long-running, spare
        self._spare: _Worker | None = None
        self._io: ThreadPoolExecutor | None = None
        self._closed = False
        self.handed_over = 0  # long jobs running now whose slot a fresh worker has taken
        self.killed = 0  # workers stopped at a deadline (for tests and the log)
        self.demoted = 0  # workers retired after a long job lowered their priority
        self.cancelled = 0  # jobs whose request went away (their workers were retired)
        self.started = 0  # worker processes started and ready
        self._count = threading.Lock()  # `started` grows in the threads that start workers

    def _spawn(self) -> _Worker:
        """Start a worker and wait (blocking: call it in a thread) until it says READY, so
        that no request waits for a process to boot."""
        for _ in range(3):
            parent, child = self._ctx.Pipe()
            proc = self._ctx.Process(target=_worker_main, args=(child,), daemon=True,
                                     name="fleece-web-worker")
            proc.start()
            child.close()
            try:
                if parent.poll(START_WAIT) and parent.recv() == READY:
                    with self._count:
                        self.started += 1
                    return _Worker(proc, parent)
            except (EOFError, OSError):
                pass
            parent.close()
            proc.kill()
            proc.join(5)
            if self._closed:
                break
        raise WorkerFailed("a worker process did not start")

    async def start(self) -> None:
        """Start the workers (the fork server imports the solvers first, a few seconds)."""
        self._idle = asyncio.Queue()
        # sends and reads of the workers' pipes: one thread a worker, long jobs included
        self._io = ThreadPoolExecutor(max_workers=2 * self.size + 2,
                                      thread_name_prefix="fleece-web-pipe")
        workers = await asyncio.to_thread(lambda: [self._spawn()
                                                   for _ in range(self.size + 1)])
        self._workers.extend(workers)
        self._spare = workers.pop()
        for w in workers:
            self._idle.put_nowait(w)

    async def close(self) -> None:
        """Stop every worker."""
        self._closed = True
        for w in self._workers:
            with contextlib.suppress(OSError):
                w.conn.close()
            w.process.kill()
        await asyncio.to_thread(lambda: [w.process.join(5) for w in self._workers])
        self._workers.clear()
        if self._io is not None:
            self._io.shutdown(wait=False, cancel_futures=True)

    def processes(self) -> int:
        """Worker processes alive now (idle, busy, long-running and the spare)."""
        return sum(1 for w in self._workers if w.process.is_alive())

    def _add_worker(self, spare: bool = False) -> None:
        """Start one worker in the background; when it is ready it becomes idle (or the
        spare)."""

        async def add() -> None:
            try:
                new = await asyncio.to_thread(self._spawn)
            except WorkerFailed as exc:  # the pool runs on with one worker less
                sys.stderr.write(f"fleece serve: {exc}\n")
                return
            if self._closed:
                new.process.kill()
                return
            self._workers.append(new)
            if spare and self._spare is None:
                self._spare = new
                return
            assert self._idle is not None
            self._idle.put_nowait(new)

        task = asyncio.get_running_loop().create_task(add())
        _BACKGROUND.add(task)
        task.add_done_callback(_BACKGROUND.discard)

    def _retire(self, worker: _Worker) -> None:
        """Kill a worker; start its replacement unless a fresh worker already took its slot
        while its long job ran."""
        with contextlib.suppress(OSError):
            worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
        if worker in self._workers:
            self._workers.remove(worker)
        _reap(worker.process)
        if worker.handed_over:
            self.handed_over -= 1
        elif not self._closed:
            self._add_worker()

    def _hand_over(self, worker: _Worker) -> None:
        """The job has run LONG_JOB seconds (its worker has lowered its priority): a fresh
        worker takes its slot now, unless `size` long jobs already hold extra processes."""
        if self._closed or worker.handed_over or self.handed_over >= self.size:
            return
        worker.handed_over = True
        self.handed_over += 1
        if self._spare is not None:
            assert self._idle is not None
            self._idle.put_nowait(self._spare)
            self._spare = None
            self._add_worker(spare=True)
        else:  # the spare is still starting: this slot gets the next new worker
            self._add_worker()

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
        long_timer = loop.call_later(LONG_JOB, self._hand_over, worker)
        try:
            await loop.run_in_executor(self._io, worker.conn.send, (fn, args))
            loop.add_reader(fd, _settle, ready)
            try:
                await asyncio.wait_for(ready, timeout=max(0.0, deadline - time.monotonic()))
            finally:
                loop.remove_reader(fd)
            status, value, demoted = await loop.run_in_executor(self._io, worker.conn.recv)
        except TimeoutError:
            self.killed += 1
            self._retire(worker)
            raise TookTooLong(budget) from None
        except (EOFError, OSError) as exc:
            self._retire(worker)
            raise WorkerFailed(f"the worker process stopped ({type(exc).__name__})") from None
        except BaseException:  # cancelled (client gone): the worker may still be busy
            self.cancelled += 1
            self._retire(worker)
            raise
        finally:
            long_timer.cancel()
        if demoted or worker.handed_over:
            self.demoted += demoted
            self._retire(worker)
        else:
            self._idle.put_nowait(worker)
        if status == "ok":
            return value
        if status == "bad":
            raise BadJobInput(value)
        raise WorkerFailed(value)


def _reap(process: Any) -> None:
    """Collect a killed worker's exit status in the background (no zombie, no waiting)."""
    thread = threading.Thread(target=process.join, args=(5,), daemon=True,
                              name="fleece-web-reap")
    thread.start()


_BACKGROUND: set[asyncio.Task[None]] = set()


def _settle(future: asyncio.Future[None]) -> None:
    """Mark a reply as arrived (the reader callback; once is enough)."""
    if not future.done():
        future.set_result(None)


def default_size() -> int:
    """Workers by default: one per core, at least two (a slow job leaves one free)."""
    return max(2, os.cpu_count() or 2)
