"""Shared machinery of the puzzle generators: seeded attempts run in order, on one core or in a
process pool, and a rich progress bar for long runs.

Every attempt is a pure function of its job (its seed is in the job), and results are handed to
the caller in job order, so the puzzles found do not depend on the number of workers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")
P = TypeVar("P")


def run_attempts(attempt: Callable[[J], R], jobs: Iterable[J], take: Callable[[R], bool],
                 workers: int = 1) -> None:
    """Call `take(attempt(job))` for each job in order until `take` returns True.

    With `workers` > 1 the attempts run in a process pool (`attempt` must be a module-level
    function, jobs and results picklable); results are still taken strictly in job order, so the
    outcome is the same as on one core. Workers still busy when `take` is satisfied are
    terminated rather than awaited (a late attempt can take seconds)."""
    if workers <= 1:
        for job in jobs:
            if take(attempt(job)):
                return
        return
    import signal
    from multiprocessing import Pool

    # workers ignore Ctrl-C: the parent gets KeyboardInterrupt and terminates them quietly
    with Pool(workers, signal.signal, (signal.SIGINT, signal.SIG_IGN)) as pool:
        for result in pool.imap(attempt, jobs):
            if take(result):
                return


def collect(attempt: Callable[[J], P | None], jobs: Iterable[J], count: int, *,
            key: Callable[[P], str], named: Callable[[P, int], P], workers: int = 1,
            progress: Callable[[int, int], None] | None = None) -> tuple[list[P], int]:
    """Up to `count` distinct puzzles from the attempts, in job order: (puzzles, attempts made).

    A result whose `key` was already seen is dropped; a kept one is renamed by
    `named(puzzle, number)` (numbers from 1); `progress(found, attempts)` runs after each
    attempt. The same jobs give the same puzzles whatever `workers` is."""
    found: list[P] = []
    seen: set[str] = set()
    tried = 0

    def take(p: P | None) -> bool:
        nonlocal tried
        tried += 1
        if p is not None:
            k = key(p)
            if k not in seen:
                seen.add(k)
                found.append(named(p, len(found) + 1))
        if progress is not None:
            progress(len(found), tried)
        return len(found) >= count

    run_attempts(attempt, jobs, take, workers)
    return found, tried


@contextmanager
def progress_bar(label: str, total: int, unit: str) -> Iterator[Callable[[int, int], None]]:
    """A transient rich bar on stderr (only when stderr is a terminal) counting puzzles found out
    of `total`, with the attempts so far in `unit`s; yields the `progress(found, tries)` callback
    the generators take."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[tries]} " + unit), TimeElapsedColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        task = bar.add_task(label, total=total, tries=0)

        def update(found: int, tries: int) -> None:
            bar.update(task, completed=found, tries=tries)

        yield update
