"""Start-up stays near the interpreter's floor: `fleece --help` and the help page's
`fleece mutton solve` must not import heavy modules (issue 11).

Each case runs the real command in a fresh interpreter under `python -X importtime` and
reads the list of modules it imported; timing ratios are not asserted here (they are
flaky on a shared machine) but printed by benchmarks/bench_speed.py.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Never imported by start-up or by a group's help: solver libraries, web stacks, numerics,
#: validation and CLI frameworks, test tools.
HEAVY_LIBS = ("z3", "constraint", "pydantic", "numpy", "numba", "llvmlite", "starlette",
              "jinja2", "uvicorn", "fastapi", "anyio", "httpx", "typer", "click", "hypothesis",
              "pytest")
#: Nor, for --help and a plain solve, the standard library's heavier packages.
HEAVY = (*HEAVY_LIBS, "multiprocessing", "concurrent", "asyncio", "sqlite3", "xml", "email",
         "http")

_LINE = re.compile(r"import time:\s+\d+ \|\s+\d+ \|(\s*)(\S+)")


def _importtime(*args: str) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules `python -X importtime ARGS` imports, and the finished run."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLEECE_")}
    proc = subprocess.run([sys.executable, "-X", "importtime", *args],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    names = {m.group(2) for m in map(_LINE.match, proc.stderr.splitlines()) if m}
    assert names, "no -X importtime output"
    return names, proc


@functools.cache
def interpreter_floor() -> frozenset[str]:
    """What a bare `python -c pass` imports here: the interpreter's own start-up, including
    any `.pth` hooks of this installation (a CI image's certificate hook imports `tempfile`,
    hence `random`). Fleece is not charged for these."""
    names, proc = _importtime("-c", "pass")
    assert proc.returncode == 0
    return frozenset(names)


def imported(*args: str) -> tuple[set[str], subprocess.CompletedProcess[str]]:
    """The modules `python -X importtime -m fleece ARGS` imports beyond the interpreter's own
    start-up, and the finished run."""
    names, proc = _importtime("-m", "fleece", *args)
    return names - interpreter_floor(), proc


def heavy_in(names: set[str], extra: tuple[str, ...] = (), banned: tuple[str, ...] = HEAVY
             ) -> list[str]:
    """The imported modules that belong to a heavy top-level package."""
    banned = (*banned, *extra)
    return sorted(n for n in names if n.split(".")[0] in banned)


def test_help_imports_no_game_no_solver_no_rich() -> None:
    """`fleece --help` lists the groups from the registry alone: no game module, no solver,
    no rich, nothing heavy."""
    names, proc = imported("--help")
    assert proc.returncode == 0 and "commands:" in proc.stdout
    assert heavy_in(names, ("rich", "fractions", "decimal", "json", "random")) == []
    fleece = sorted(n for n in names if n.startswith("fleece."))
    assert not [n for n in fleece if n.startswith(("fleece.solver", "fleece.verify",
                                                   "fleece.web", "fleece.rules.mutton",
                                                   "fleece.rules.woof",
                                                   "fleece.rules.ulvtafl"))], fleece


def test_mutton_solve_of_the_help_page_imports_nothing_heavy() -> None:
    """The help page's solve loads the fast engine and the chart model only: not the csp or
    smt engines, not the game model (moves, records), not the puzzle or SVG code."""
    names, proc = imported("mutton", "solve", "examples/mutton/helppage.txt")
    assert proc.returncode == 0 and "219 consistent wolf sets" in proc.stdout
    assert heavy_in(names) == []
    for module in ("fleece.solver.mutton.csp", "fleece.solver.mutton.smt",
                   "fleece.solver.mutton.model", "fleece.solver.mutton.svg",
                   "fleece.solver.mutton.puzzle", "fleece.rules.mutton.game",
                   "fleece.rules.mutton.moves", "fleece.rules.mutton.record",
                   "fleece.solver.mutton.record_view", "fleece.verify", "fleece.web"):
        assert module not in names, module


@pytest.mark.parametrize("group", ["mutton", "woof", "cards", "ulvtafl", "serve"])
def test_group_help_imports_nothing_heavy(group: str) -> None:
    """`fleece GROUP --help` builds the group's parser only."""
    names, proc = imported(group, "--help")
    assert proc.returncode == 0
    assert heavy_in(names) == []


def test_verify_help_imports_no_solver_library() -> None:
    """`fleece verify --help` reads the games' verification options, never Z3 itself."""
    names, proc = imported("verify", "--help")
    assert proc.returncode == 0
    assert heavy_in(names, banned=HEAVY_LIBS) == []
