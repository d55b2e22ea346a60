"""Mutation score of the test suite on rules/, solver/ and verify/, with Cosmic Ray's mutation
operators and a sample of mutants per module; each mutant runs only the tests that execute the
mutated line.

    python benchmarks/mutation.py prepare WORK [--per-module 8] [--seed 21] [--only PATH ...]
    python benchmarks/mutation.py run WORK [--limit N]
    python benchmarks/mutation.py report WORK [--survivors]
    python benchmarks/mutation.py again WORK2 --before WORK --rerun tests/test_x.py ...

`prepare` copies the checkout to WORK/fleece (mutants are written there, never here), runs the
whole suite once under coverage with one context per test (`-n 0 --hypothesis-seed=0`), and
plans the mutants: every Cosmic Ray mutation of a module outside type annotations, grouped by
source line; `--per-module` lines drawn at random (seeded) per module, one mutant drawn on each.
`run` applies each planned mutant in WORK/fleece and runs, with `-x`, the tests that executed
its line in the coverage run (the module's tests when coverage saw no test on the line: lines
run at import, numba kernels), fastest first and at most `--max-seconds` of their time in the
coverage run; tests that failed in the coverage run are left out. It records killed /
survived in WORK/session.sqlite, a Cosmic Ray session (`cr-report WORK/session.sqlite` reads
it too). A mutant no test reaches counts as survived. A timeout (four times the selected
tests' own time, plus a minute) counts as killed. `run` resumes where it stopped. Run it
niced: it keeps one core busy for hours.

`again` measures today's checkout the same way and plans the mutants of an earlier run
anew: those killed by test files not named in `--rerun` stay killed; survivors and those
killed by the named (changed) files are tested again in the same place of the same code.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
AREAS = ("rules", "solver", "verify")
IGNORE = shutil.ignore_patterns(".git", "__pycache__", ".hypothesis", ".mypy_cache",
                                ".ruff_cache", ".pytest_cache", "*.pyc", "build", "dist",
                                "*.egg-info")
PYTEST = ["-m", "pytest", "-q", "-n", "0", "-p", "no:cacheprovider", "--hypothesis-seed=0"]


def _env(work: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(work)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.pop("CI", None)
    env.pop("HYPOTHESIS_PROFILE", None)
    return env


def modules(only: list[str]) -> list[str]:
    """The modules to mutate, as paths relative to the checkout (package `__init__` files,
    which only re-export, are left out)."""
    if only:
        return sorted(only)
    out = []
    for area in AREAS:
        out += [str(p.relative_to(ROOT)) for p in (ROOT / area).rglob("*.py")
                if p.name != "__init__.py" and "__pycache__" not in p.parts]
    return sorted(out)


def copy_tree(work: Path) -> Path:
    """A fresh copy of the checkout at WORK/fleece (its import path is WORK)."""
    dest = work / "fleece"
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(ROOT, dest, ignore=IGNORE, symlinks=True)
    return dest


def coverage_run(work: Path) -> None:
    """The whole suite once under coverage, one context per test, with a JUnit file for the
    tests' times and outcomes."""
    tree = work / "fleece"
    args = [sys.executable, *PYTEST, "-o", "addopts=", "--cov-context=test", "--cov-report=",
            *[f"--cov={tree / a}" for a in AREAS], f"--junitxml={work / 'junit.xml'}"]
    env = _env(work)
    env["COVERAGE_FILE"] = str(work / "coverage.db")
    shutil.rmtree(tree / ".hypothesis", ignore_errors=True)
    started = time.perf_counter()
    run = subprocess.run(args, cwd=tree, env=env, capture_output=True, text=True, check=False)
    (work / "coverage-run.txt").write_text(run.stdout + run.stderr, encoding="utf-8")
    print(f"coverage run: exit {run.returncode} in {time.perf_counter() - started:.0f} s; "
          f"{run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ''}")


def junit_times(work: Path) -> tuple[dict[str, float], set[str]]:
    """Each test's time and the tests that did not pass in the coverage run."""
    times: dict[str, float] = {}
    bad: set[str] = set()
    for case in ET.parse(work / "junit.xml").getroot().iter("testcase"):
        cls, name = case.get("classname", ""), case.get("name", "")
        parts = cls.split(".")
        # classname is tests.test_x or tests.test_x.TestClass
        stem = next(i for i, p in enumerate(parts) if p.startswith("test_")) + 1
        node = "/".join(parts[:stem]) + ".py::" + "::".join([*parts[stem:], name])
        times[node] = float(case.get("time", "0"))
        if any(child.tag in ("failure", "error", "skipped") for child in case):
            bad.add(node)
    return times, bad


def statement_lines(source: str) -> dict[int, int]:
    """Each line -> the first line of the innermost statement holding it (coverage records a
    statement under its first line)."""
    first: dict[int, int] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.stmt):
            end = node.end_lineno or node.lineno
            if isinstance(node, (ast.If, ast.For, ast.While, ast.With, ast.Try,
                                 ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)):
                body = getattr(node, "body", [])
                end = body[0].lineno - 1 if body else end
            for line in range(node.lineno, end + 1):
                first[line] = node.lineno
    return first


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(start, end) positions of every type annotation: with `from __future__ import
    annotations` they are strings at run time, so mutating them changes nothing."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        found = []
        if isinstance(node, ast.arg) and node.annotation is not None:
            found.append(node.annotation)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns:
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
        for a in found:
            spans.append(((a.lineno, a.col_offset),
                          (a.end_lineno or a.lineno, a.end_col_offset or 0)))
    return spans


class Selector:
    """The tests that ran a module's lines in the coverage run of WORK (see `selected`)."""

    def __init__(self, work: Path, max_seconds: float) -> None:
        from coverage import CoverageData

        self.tree = work / "fleece"
        self.times, self.bad = junit_times(work)
        self.data = CoverageData(basename=str(work / "coverage.db"))
        self.data.read()
        self.max_seconds = max_seconds

    def selected(self, rel: str, line: int) -> dict[str, object]:
        """The tests to run for a mutant on `line` of module `rel`: those that ran the line
        (the module's tests when none did), fastest first, at most max_seconds of their time
        in the coverage run; tests that failed there are left out."""
        contexts = self.data.contexts_by_lineno(str(self.tree / rel))
        first = statement_lines((self.tree / rel).read_text(encoding="utf-8"))

        def tests_of(n: int) -> set[str]:
            return {c.split("|")[0] for c in contexts.get(n, []) if c} - self.bad

        covering = tests_of(first.get(line, line))
        tests = covering or set().union(*(tests_of(n) for n in contexts))
        kept: list[str] = []
        spent = 0.0
        for t in sorted(tests, key=lambda t: (self.times.get(t, 0.0), t)):
            if kept and spent + self.times.get(t, 0.0) > self.max_seconds:
                break
            kept.append(t)
            spent += self.times.get(t, 0.0)
        return {"tests": kept, "seconds": round(spent, 1), "covering": len(tests),
                "line_covered": bool(covering)}


def mutable_lines(tree: Path, rel: str) -> dict[int, list[Any]]:
    """Every Cosmic Ray mutation of a module outside type annotations, by source line."""
    from cosmic_ray.commands.init import _all_work_items

    skip = annotation_spans((tree / rel).read_text(encoding="utf-8"))
    by_line: dict[int, list[Any]] = defaultdict(list)
    here = Path.cwd()
    os.chdir(tree)
    try:
        for item in _all_work_items([Path(rel)], {}):
            m = item.mutations[0]
            if not any(a <= tuple(m.start_pos) < b for a, b in skip):
                by_line[m.start_pos[0]].append(item)
    finally:
        os.chdir(here)
    return by_line


def measured(work: Path, remap: bool) -> None:
    """Copy the checkout and run the suite under coverage, unless WORK has a coverage run and
    not `remap` (the copy measured is kept, so a plan can be redrawn for the same tree)."""
    work.mkdir(parents=True, exist_ok=True)
    if remap or not (work / "coverage.db").exists():
        copy_tree(work)
        coverage_run(work)


def prepare(work: Path, per_module: int, seed: int, only: list[str], remap: bool,
            max_seconds: float) -> None:
    """Measure (see `measured`) and plan a seeded sample of mutants."""
    from cosmic_ray.work_db import WorkDB, use_db

    measured(work, remap)
    tree = work / "fleece"
    select = Selector(work, max_seconds)
    rng = random.Random(seed)
    plan: dict[str, dict[str, object]] = {}
    db_path = work / "session.sqlite"
    if db_path.exists():
        db_path.unlink()
    with use_db(str(db_path), WorkDB.Mode.create) as db:
        for rel in modules(only):
            by_line = mutable_lines(tree, rel)
            lines = sorted(by_line)
            chosen = sorted(rng.sample(lines, min(per_module, len(lines))))
            for line in chosen:
                item = rng.choice(by_line[line])
                db.add_work_item(item)
                plan[item.job_id] = {"module": rel, "line": line,
                                     "operator": item.mutations[0].operator_name,
                                     **select.selected(rel, line)}
            print(f"{rel}: {len(lines)} mutable lines, {len(chosen)} sampled", flush=True)
    (work / "plan.json").write_text(json.dumps({"seed": seed, "per_module": per_module,
                                                "max_seconds": max_seconds, "jobs": plan},
                                               indent=1), encoding="utf-8")


def killer(output: str | None) -> str | None:
    """The test file whose failure killed a mutant (None: a timeout or no test output)."""
    for line in (output or "").splitlines():
        if line.startswith(("FAILED ", "ERROR ")) and "::" in line:
            return line.split()[1].split("::")[0]
    return None


def again(work: Path, before: Path, rerun: list[str], remap: bool, max_seconds: float) -> None:
    """The mutants of the run in `before`, planned again on today's checkout: a mutant killed
    there by a test file not in `rerun` (files changed since) stays killed (carried over);
    every other one (survivors, and those killed by a changed file) is tested again, in the
    same place of the same code (its line found by its text when the module changed; a
    mutant whose code is gone is counted apart)."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import MutationSpec, TestOutcome, WorkItem

    measured(work, remap)
    tree, old_tree = work / "fleece", before / "fleece"
    select = Selector(work, max_seconds)
    old_plan = json.loads((before / "plan.json").read_text(encoding="utf-8"))["jobs"]
    plan: dict[str, dict[str, object]] = {}
    carried: dict[str, dict[str, object]] = {}
    cache: dict[str, dict[int, list[Any]]] = {}
    db_path = work / "session.sqlite"
    if db_path.exists():
        db_path.unlink()
    with use_db(str(before / "session.sqlite"), WorkDB.Mode.open) as old, \
            use_db(str(db_path), WorkDB.Mode.create) as db:
        for item, result in old.completed_work_items:
            job = dict(old_plan[item.job_id])
            m = item.mutations[0]
            rel = job["module"]
            by = killer(result.output)
            if result.test_outcome is not TestOutcome.SURVIVED and by not in rerun:
                carried[item.job_id] = {**job, "outcome": "killed", "by": by or "timeout"}
                continue
            spec = m
            old_src, new_src = (old_tree / rel).read_bytes(), (tree / rel).read_bytes()
            if old_src != new_src:
                old_line = old_src.decode().splitlines()[m.start_pos[0] - 1]
                new_lines = new_src.decode().splitlines()
                if rel not in cache:
                    cache[rel] = mutable_lines(tree, rel)
                same = [w.mutations[0] for items in cache[rel].values() for w in items
                        if w.mutations[0].operator_name == m.operator_name
                        and w.mutations[0].start_pos[1] == m.start_pos[1]
                        and new_lines[w.mutations[0].start_pos[0] - 1] == old_line]
                if not same:
                    carried[item.job_id] = {**job, "outcome": "gone"}
                    continue
                spec = min(same, key=lambda x: abs(x.start_pos[0] - m.start_pos[0]))
            spec = MutationSpec(module_path=spec.module_path, operator_name=spec.operator_name,
                                occurrence=spec.occurrence, start_pos=spec.start_pos,
                                end_pos=spec.end_pos, operator_args=spec.operator_args,
                                definition_name=spec.definition_name)
            db.add_work_item(WorkItem.single(item.job_id, spec))
            line = spec.start_pos[0]
            plan[item.job_id] = {**job, "line": line, **select.selected(rel, line)}
    (work / "plan.json").write_text(json.dumps({"from": str(before), "rerun": rerun,
                                                "max_seconds": max_seconds, "jobs": plan,
                                                "carried": carried}, indent=1),
                                    encoding="utf-8")
    print(f"{len(plan)} mutants to test again, {len(carried)} carried over "
          f"({sum(c['outcome'] == 'gone' for c in carried.values())} gone)")


def run(work: Path, limit: int | None) -> None:
    """Test every pending planned mutant (see the module docstring)."""
    from cosmic_ray.mutating import mutate_and_test
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome, WorkerOutcome, WorkResult

    plan = json.loads((work / "plan.json").read_text(encoding="utf-8"))["jobs"]
    tree = work / "fleece"
    os.chdir(tree)
    os.environ.update(_env(work))
    # a stop (SIGTERM, or Ctrl-C) unwinds the mutant's `with` block, which writes the source back
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(130))
    with use_db(str(work / "session.sqlite"), WorkDB.Mode.open) as db:
        pending = sorted(db.pending_work_items, key=lambda w: (plan[w.job_id]["module"],
                                                              plan[w.job_id]["line"]))
        for count, item in enumerate(pending[:limit], 1):
            job = plan[item.job_id]
            started = time.perf_counter()
            if not job["tests"]:
                result = WorkResult(worker_outcome=WorkerOutcome.NORMAL,
                                    test_outcome=TestOutcome.SURVIVED,
                                    output="no test runs this module", diff="")
            else:
                shutil.rmtree(tree / ".hypothesis", ignore_errors=True)
                command = shlex.join([sys.executable, *PYTEST, "-x", *job["tests"]])
                timeout = 60 + 4 * float(job["seconds"])
                result = mutate_and_test(item.mutations, command, timeout)
            db.set_result(item.job_id, result)
            outcome = result.test_outcome.value if result.test_outcome else "-"
            print(f"[{count}/{len(pending)}] {job['module']}:{job['line']} "
                  f"{job['operator'].split('/')[-1]}: {outcome} "
                  f"({time.perf_counter() - started:.1f} s)", flush=True)


def report(work: Path, survivors: bool) -> None:
    """Killed / survived per module and in all, and optionally every survivor's diff."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome

    whole = json.loads((work / "plan.json").read_text(encoding="utf-8"))
    plan = whole["jobs"]
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    lost = []
    gone = []
    for job in whole.get("carried", {}).values():  # killed before by an unchanged test file
        if job["outcome"] == "gone":
            gone.append(job)
            continue
        for key in (job["module"], job["module"].split("/")[0], "all"):
            per[key][0] += 1
    with use_db(str(work / "session.sqlite"), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            job = plan[item.job_id]
            area = job["module"].split("/")[0]
            killed = result.test_outcome is not TestOutcome.SURVIVED
            for key in (job["module"], area, "all"):
                per[key][0 if killed else 1] += 1
            if not killed:
                lost.append((job, result))
        total = db.num_work_items
    for key in sorted(per, key=lambda k: (k in ("all", *AREAS), k)):
        k, s, _ = per[key]
        print(f"{key:45} {k:4} killed {s:4} survived  score {100 * k / max(1, k + s):5.1f}%")
    carried = len(whole.get("carried", {})) - len(gone)
    print(f"{sum(per['all'][:2])} mutants: {total} planned here ({carried} killed earlier by "
          f"unchanged tests, carried over); {len(gone)} whose code is gone")
    if survivors:
        for job, result in sorted(lost, key=lambda jr: (jr[0]["module"], jr[0]["line"])):
            covered = "" if job["line_covered"] else " (line not covered)"
            print(f"\n### {job['module']}:{job['line']} {job['operator']}{covered}")
            print(result.diff or result.output)


def main(argv: list[str]) -> int:
    """Command-line entry (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = p.add_subparsers(dest="command", required=True)
    pp = sub.add_parser("prepare")
    pp.add_argument("work", type=Path)
    pp.add_argument("--per-module", type=int, default=8)
    pp.add_argument("--seed", type=int, default=21)
    pp.add_argument("--only", nargs="*", default=[])
    pp.add_argument("--remap", action="store_true", help="copy and measure coverage again")
    pp.add_argument("--max-seconds", type=float, default=90.0,
                    help="run at most this much of the covering tests (their time in the "
                         "coverage run), fastest first")
    pr = sub.add_parser("run")
    pr.add_argument("work", type=Path)
    pr.add_argument("--limit", type=int)
    pa = sub.add_parser("again")
    pa.add_argument("work", type=Path)
    pa.add_argument("--before", type=Path, required=True)
    pa.add_argument("--rerun", nargs="*", default=[],
                    help="test files changed since: mutants they killed are tested again")
    pa.add_argument("--remap", action="store_true")
    pa.add_argument("--max-seconds", type=float, default=90.0)
    rp = sub.add_parser("report")
    rp.add_argument("work", type=Path)
    rp.add_argument("--survivors", action="store_true")
    a = p.parse_args(argv)
    work = a.work.resolve()
    if a.command == "prepare":
        prepare(work, a.per_module, a.seed, a.only, a.remap, a.max_seconds)
    elif a.command == "again":
        again(work, a.before.resolve(), a.rerun, a.remap, a.max_seconds)
    elif a.command == "run":
        run(work, a.limit)
    else:
        report(work, a.survivors)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
