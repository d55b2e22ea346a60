"""Proof search split into work units: one per move from the root (mirror images once), each
a Prover with its own table, run by several workers - threads of this process (the compiled
search releases the GIL) or Ray actors on a local or remote cluster (the `scale` extra).

The root combines the units: when the attacker moves at the root, one proved unit proves it
and every unit disproved disproves it; when the defender moves, every unit must be proved.
Workers take turns on the open units in chunks of nodes, so a unit that settles frees its
worker for the others. The certificate is the units' certificates joined (a mirrored unit's
reflected), checked by the reference model like any other.

    result = prove_split(initial_state(UlvtaflOptions(setup=20)), SHEEP, workers=2, seconds=600)
    result = prove_split(state, SHEEP, workers=8, ray_address="auto")   # an existing cluster
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any

from fleece.rules.errors import FleeceError
from fleece.rules.ulvtafl.game import Move, UlvState
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.ulvtafl import engine as e
from fleece.solver.ulvtafl.budget import check_positive, resolve
from fleece.solver.ulvtafl.prover import (
    DEFAULT_EPSILON,
    DEFAULT_PROFILE,
    SIDE,
    Prover,
    check_options,
    mirror_points,
)

CHUNK = 2_000_000  # nodes a worker searches in one unit before it picks again
REPORT_EVERY = 10.0  # seconds between two progress reports


class UnitRunner:
    """One work unit: a proof search from a position (text) for an attacker ("sheep" or
    "wolves"), run in chunks. The same class serves threads and Ray actors."""

    def __init__(self, position: str, attacker: str, memory: int,
                 profile: str = DEFAULT_PROFILE, safe_only: bool = False,
                 forward_only: bool = False, focus: int = 0,
                 epsilon: float = DEFAULT_EPSILON) -> None:
        self.prover = Prover(parse_position(position), SIDE.index(attacker), memory=memory,
                             profile=profile, safe_only=safe_only, forward_only=forward_only,
                             focus=focus, epsilon=epsilon)

    def run(self, nodes: int) -> dict[str, Any]:
        """Search `nodes` more nodes; the unit's summary (outcome, nodes, pn, dn, ...)."""
        t0 = time.perf_counter()
        self.prover.step(nodes)
        return {**self.prover.summary(), "seconds": time.perf_counter() - t0}

    def certificate(self) -> dict[str, str] | None:
        """The unit's certificate once proved."""
        return self.prover.certificate()


@dataclass
class Unit:
    """A move from the root and the unit that searches the position it leads to
    (`mirror_of`: the index of the unit whose mirror image it is, searched instead)."""

    move: str
    position: str
    mirror_of: int | None = None
    outcome: str = "open"
    nodes: int = 0
    proof_number: object = 1
    disproof_number: object = 1
    certificate: dict[str, str] | None = None


@dataclass
class SplitResult:
    """The combined outcome at the root, the units, and the work done."""

    outcome: str
    units: list[Unit]
    nodes: int
    seconds: float
    workers: int
    executor: str
    certificate: dict[str, str] | None = field(default=None, repr=False)

    @property
    def nodes_per_second(self) -> float:
        """Total work rate of all workers."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary (without the certificate)."""
        return {"outcome": self.outcome, "nodes": self.nodes,
                "seconds": round(self.seconds, 3), "workers": self.workers,
                "executor": self.executor, "nodes_per_second": round(self.nodes_per_second),
                "units": [{"move": u.move, "position": u.position, "mirror_of": u.mirror_of,
                           "outcome": u.outcome, "nodes": u.nodes,
                           "proof_number": u.proof_number,
                           "disproof_number": u.disproof_number} for u in self.units]}


def split(state: UlvState) -> list[Unit]:
    """The root's moves as units; a move leading to the mirror image of an earlier unit's
    position shares that unit."""
    units: list[Unit] = []
    seen: dict[int, int] = {}
    for m in state.legal_moves():
        child = state.play(m)
        child = UlvState.create(child.rules, child.sheep, child.wolves, child.to_move)
        s, w = e.to_grid(child.sheep), e.to_grid(child.wolves)
        h, mh = e.hash_of(e.Z, s, w, child.to_move)
        key = int(e.canon(h, mh))
        text = position_text(child)
        if key in seen:
            units.append(Unit(m.text(), text, mirror_of=seen[key]))
        else:
            seen[key] = len(units)
            units.append(Unit(m.text(), text))
    return units


def mirror_position(text: str) -> str:
    """A position text reflected left-right (files a <-> g)."""
    state = parse_position(text)
    return position_text(UlvState.create(state.rules, mirror_points(state.sheep),
                                         mirror_points(state.wolves), state.to_move))


def mirror_move(text: str) -> str:
    """A move text reflected left-right."""
    move = parse_move(text)
    path = tuple(mirror_points(1 << p).bit_length() - 1 for p in move.path)
    return Move(path, move.capture).text()


def _combine(root_attacks: bool, outcomes: list[str]) -> str:
    """The root's outcome from its units': "failed" (a restricted search's disproof, which
    says nothing of the game) wherever a disproof would need it."""
    lost = ("disproved", "failed")
    if root_attacks:
        if "proved" in outcomes:
            return "proved"
        if all(o in lost for o in outcomes):
            return "failed" if "failed" in outcomes else "disproved"
        return "open"
    if "disproved" in outcomes:
        return "disproved"
    if "failed" in outcomes:
        return "failed"
    return "proved" if all(o == "proved" for o in outcomes) else "open"


class _Threads:
    """Units run by threads of this process."""

    name = "threads"

    def __init__(self, workers: int) -> None:
        self.pool = ThreadPoolExecutor(max_workers=workers)
        self.futures: dict[Future[dict[str, Any]], int] = {}

    def make(self, position: str, attacker: str, memory: int, profile: str,
             restrict: tuple[bool, bool, int, float]) -> Any:
        return UnitRunner(position, attacker, memory, profile, *restrict)

    def submit(self, runner: Any, index: int, nodes: int) -> None:
        self.futures[self.pool.submit(runner.run, nodes)] = index

    def wait_any(self) -> list[tuple[int, dict[str, Any]]]:
        done, _ = wait(list(self.futures), return_when=FIRST_COMPLETED)
        return [(self.futures.pop(f), f.result()) for f in done]

    def certificate(self, runner: Any) -> dict[str, str] | None:
        return runner.certificate()  # type: ignore[no-any-return]

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


def start_ray(address: str, workers: int) -> tuple[Any, bool]:
    """The ray module, initialised unless it already is ("local": on this machine with
    `workers` CPUs; otherwise an existing cluster's address), and whether this call started
    it (so the caller shuts it down). FleeceError when Ray is not installed."""
    try:
        import ray
    except ImportError:
        raise FleeceError("Ray is not installed: pip install 'fleece-toolkit[scale]'",
                          field="ray") from None
    if ray.is_initialized():
        return ray, False
    if address == "local":
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    else:
        ray.init(address=address, log_to_driver=False)
    return ray, True


class _Ray:
    """Units run by Ray actors (`ray.init()` locally, or an existing cluster's address)."""

    name = "ray"

    def __init__(self, address: str, workers: int) -> None:
        self.ray, self.started = start_ray(address, workers)
        ray = self.ray
        self.actor = ray.remote(num_cpus=1)(UnitRunner)
        self.refs: dict[Any, int] = {}

    def make(self, position: str, attacker: str, memory: int, profile: str,
             restrict: tuple[bool, bool, int, float]) -> Any:
        return self.actor.remote(position, attacker, memory, profile, *restrict)

    def submit(self, runner: Any, index: int, nodes: int) -> None:
        self.refs[runner.run.remote(nodes)] = index

    def wait_any(self) -> list[tuple[int, dict[str, Any]]]:
        done, _ = self.ray.wait(list(self.refs), num_returns=1)
        return [(self.refs.pop(r), self.ray.get(r)) for r in done]

    def certificate(self, runner: Any) -> dict[str, str] | None:
        return self.ray.get(runner.certificate.remote())  # type: ignore[no-any-return]

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()


def next_unit(free: list[int], last: int) -> int:
    """The unit to search next: the first free one (ascending) after the one given out
    last, round the list. Every open unit gets a chunk in turn, whichever worker finishes
    first (indexing the free list by a counter instead starved one unit when two workers
    took turns)."""
    return next((i for i in free if i > last), free[0])


def prove_split(state: UlvState, attacker: int, *, workers: int = 2,
                nodes: int | None = None, seconds: float | None = None,
                memory: int | str | None = None, chunk: int = CHUNK,
                ray_address: str | None = None, profile: str = DEFAULT_PROFILE,
                safe_only: bool = False, forward_only: bool = False, focus: int = 0,
                epsilon: float = DEFAULT_EPSILON,
                progress: Callable[[dict[str, Any]], None] | None = None) -> SplitResult:
    """Prove (or refute) an attacker win from `state` with its root moves as work units
    shared by `workers` workers: threads, or Ray actors with `ray_address` ("local" starts
    Ray on this machine; "auto" or "ray://host:port" joins a cluster). The `memory` budget
    is split between the units' tables; `nodes` (total) and `seconds` bound the work.
    `safe_only`, `forward_only` and `focus` restrict the sheep as in Prover (a sheep
    attacker only; the root is then "failed" where the restricted sheep cannot win).
    `epsilon` is each unit's 1+epsilon (Prover).
    Ctrl-C stops cleanly with what is known."""
    if workers < 1:
        raise FleeceError(f"workers must be at least 1, not {workers}")
    # before any worker starts
    check_options(attacker, profile, safe_only, forward_only, focus, epsilon)
    check_positive("the node budget", nodes)
    check_positive("the time budget", seconds)
    if state.is_terminal():
        raise FleeceError("the game is over in this position: nothing to prove")
    units = split(state)
    searched = [i for i, u in enumerate(units) if u.mirror_of is None]
    share = resolve(memory) // max(1, len(searched))
    pool: _Threads | _Ray = _Ray(ray_address, workers) if ray_address else _Threads(workers)
    t0 = time.perf_counter()
    root_attacks = state.to_move == attacker
    reported = t0
    runners: dict[int, Any] = {}
    total = 0
    outcome = "open"
    try:
        for i in searched:
            runners[i] = pool.make(units[i].position, SIDE[attacker], share, profile,
                                   (safe_only, forward_only, focus, epsilon))
        last = -1  # the unit given out last: the next goes to the one after it

        def open_units() -> list[int]:
            return [i for i in searched if units[i].outcome == "open"]

        busy: set[int] = set()

        def feed() -> None:
            nonlocal last
            free = [i for i in open_units() if i not in busy]
            while free and len(busy) < workers:
                last = next_unit(free, last)
                free.remove(last)
                busy.add(last)
                pool.submit(runners[last], last, chunk)

        feed()
        while busy:
            for i, info in pool.wait_any():
                busy.discard(i)
                u = units[i]
                total += int(info["nodes"]) - u.nodes
                u.nodes = int(info["nodes"])
                u.outcome = str(info["outcome"])
                u.proof_number = info["proof_number"]
                u.disproof_number = info["disproof_number"]
            outcome = _combine(root_attacks, [units[i].outcome for i in searched])
            now = time.perf_counter()
            stop = outcome != "open" or (nodes is not None and total >= nodes) or \
                (seconds is not None and now - t0 >= seconds)
            if progress is not None and (stop or now - reported >= REPORT_EVERY):
                reported = now
                progress({"nodes": total, "seconds": round(now - t0, 1),
                          "nodes_per_second": round(total / max(now - t0, 1e-9)),
                          "open": len(open_units()), "outcome": outcome,
                          "units": {units[i].move: units[i].outcome for i in searched}})
            if not stop:
                feed()
        certificate = None
        if outcome == "proved":
            certificate = _join(state, units, runners, pool, root_attacks)
    except KeyboardInterrupt:
        certificate = None
    finally:
        pool.close()
    for u in units:
        if u.mirror_of is not None:
            src = units[u.mirror_of]
            u.outcome, u.proof_number, u.disproof_number = \
                src.outcome, src.proof_number, src.disproof_number
    return SplitResult(outcome, units, total, time.perf_counter() - t0, workers, pool.name,
                       certificate)


def _join(state: UlvState, units: list[Unit], runners: dict[int, Any], pool: Any,
          root_attacks: bool) -> dict[str, str] | None:
    """The root's certificate from the units' (earlier units take precedence where two
    strategies meet, so every line stays inside one unit's acyclic strategy once it
    enters it)."""
    cert: dict[str, str] = {}
    chosen = [i for i, u in enumerate(units)
              if units[i if u.mirror_of is None else u.mirror_of].outcome == "proved"]
    if root_attacks:
        chosen = chosen[:1]
        cert[position_text(UlvState.create(state.rules, state.sheep, state.wolves,
                                           state.to_move))] = units[chosen[0]].move
    for i in chosen:
        u = units[i]
        src = i if u.mirror_of is None else u.mirror_of
        part = units[src].certificate
        if part is None:
            part = pool.certificate(runners[src])
            units[src].certificate = part
        if part is None:
            return None
        if u.mirror_of is not None:
            part = {mirror_position(p): mirror_move(m) for p, m in part.items()}
        for p, m in part.items():
            cert.setdefault(p, m)
    return cert

