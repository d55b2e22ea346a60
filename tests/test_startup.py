"""Start-up stays near a minimal Typer app's: `fleece --help` imports no game module, and
neither it nor the help page's `fleece mutton solve` imports a heavy library (solvers,
numerics, pydantic, the web stack, rich for piped output).

Each case runs the real command in a fresh interpreter under `python -X importtime` and
reads the list of modules it imported; timing ratios are not asserted here (they are
flaky on a shared machine) but printed by benchmarks/bench_speed.py. One test imports every
command module the top-level group loads lazily and runs every group's and command's --help,
so a renamed module fails here rather than when a user types that command.
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
#: validation frameworks, test tools. (Typer and its vendored Click are the command line.)
HEAVY_LIBS = ("z3", "constraint", "pydantic", "numpy", "numba", "llvmlite", "starlette",
              "jinja2", "uvicorn", "fastapi", "anyio", "httpx", "hypothesis", "pytest")
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
    """`fleece --help` lists the groups from the registry alone: no command module, no game,
    no solver, no API module, no rich, nothing heavy."""
    names, proc = imported("--help")
    assert proc.returncode == 0 and "Commands:" in proc.stdout
    assert heavy_in(names, ("rich", "fractions", "decimal", "json")) == []
    fleece = sorted(n for n in names if n.startswith("fleece."))
    assert fleece == ["fleece.cli", "fleece.rules", "fleece.rules.errors",
                      "fleece.rules.registry"], fleece


def test_mutton_solve_of_the_help_page_imports_nothing_heavy() -> None:
    """The help page's solve loads the fast engine and the chart model only: not the csp or
    smt engines, not the game model (moves, records), not the puzzle or SVG code."""
    names, proc = imported("mutton", "solve", "examples/mutton/helppage.txt")
    assert proc.returncode == 0 and "219 consistent wolf sets" in proc.stdout
    assert heavy_in(names) == []
    assert "rich" not in names  # the output is piped: plain text
    for module in ("fleece.solver.mutton.csp", "fleece.solver.mutton.smt",
                   "fleece.solver.mutton.wolf_prior", "fleece.solver.mutton.svg",
                   "fleece.solver.puzzles.mutton", "fleece.rules.mutton.game",
                   "fleece.rules.mutton.moves", "fleece.rules.mutton.record",
                   "fleece.solver.mutton.public_record", "fleece.verify", "fleece.web"):
        assert module not in names, module


@pytest.mark.parametrize("group", ["mutton", "woof", "cards", "ulvtafl", "serve"])
def test_group_help_imports_nothing_heavy(group: str) -> None:
    """`fleece GROUP --help` imports the group's command module and its API module only."""
    names, proc = imported(group, "--help")
    assert proc.returncode == 0
    assert heavy_in(names) == []


def test_verify_help_imports_no_solver_library() -> None:
    """`fleece verify --help` reads the games' verification options, never Z3 itself."""
    names, proc = imported("verify", "--help")
    assert proc.returncode == 0
    assert heavy_in(names, banned=HEAVY_LIBS) == []


def _help_paths() -> list[list[str]]:
    """Every group and command of `fleece`, as the words that name it (the lazy groups'
    modules imported on the way)."""
    from typer.main import get_command

    from fleece.cli import FleeceGroup, command, groups

    top = command()
    assert isinstance(top, FleeceGroup)
    paths: list[list[str]] = [[]]

    def walk(cmd: object, words: list[str]) -> None:
        subs = getattr(cmd, "commands", None)
        for name, sub in (subs or {}).items():
            paths.append([*words, name])
            walk(sub, [*words, name])

    import importlib

    for name, (module, _) in groups().items():
        mod = importlib.import_module(module)
        paths.append([name])
        if hasattr(mod, "app"):
            walk(get_command(mod.app), [name])
    from fleece.rules.registry import GAMES

    paths += [["verify", "--game", g.name] for g in GAMES if g.verify is not None]
    return paths


def test_every_group_and_command_has_its_help() -> None:
    """Every lazily loaded command module imports, and every group's and command's --help
    (and each game's `verify --game NAME --help`) prints a usage and exits 0, through the
    real entry point's error handling (tests/clirun.py) and through Typer's CliRunner."""
    from helpers.clirun import invoke
    from typer.testing import CliRunner

    from fleece.cli import app

    paths = _help_paths()
    assert len(paths) >= 25
    runner = CliRunner()
    for words in paths:
        r = invoke([*words, "--help"])
        assert (r.exit_code, r.stderr) == (0, ""), (words, r.output)
        assert r.stdout.startswith("Usage: fleece"), (words, r.stdout[:200])
        if words[:1] != ["verify"]:  # verify's command is built from its --game (cli.main)
            c = runner.invoke(app, [*words, "--help"], catch_exceptions=False)
            assert c.exit_code == 0 and c.output.startswith("Usage: "), (words, c.output)
