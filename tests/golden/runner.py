"""Shared by regen.py and tests/test_golden_cli.py: read the cases (contract.txt: --json
objects, error lines, exit statuses; cases.txt: text reports and help pages) and run one
through the installed `fleece` command with a fixed environment (100 columns, no colour)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUT = HERE / "out"


FILES = {"contract": "contract.txt", "text": "cases.txt"}


@dataclass(frozen=True)
class Case:
    """One command line of contract.txt or cases.txt."""

    name: str
    args: tuple[str, ...]
    kind: str  # "contract" or "text"


def load_cases(kinds: tuple[str, ...] = ("contract", "text")) -> list[Case]:
    """Every case of the files of `kinds`, in file order."""
    cases = []
    for kind in kinds:
        for raw in (HERE / FILES[kind]).read_text(encoding="utf-8").splitlines():
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            name, _, args = raw.partition("|")
            cases.append(Case(name.strip(), tuple(shlex.split(args)), kind))
    return cases


def run_case(case: Case) -> str:
    """The case's transcript: command, exit status, stdout, stderr, files written."""
    tmp = Path(tempfile.mkdtemp(prefix="fleece-golden-"))
    try:
        args = [a.replace("{tmp}", str(tmp)) for a in case.args]
        env = {**os.environ, "COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
        env.pop("FORCE_COLOR", None)
        fleece = shutil.which("fleece") or "fleece"
        proc = subprocess.run([fleece, *args], cwd=ROOT, capture_output=True, text=True,
                              env=env, timeout=300)
        parts = [f"$ fleece {' '.join(case.args)}", f"exit: {proc.returncode}",
                 "--- stdout", proc.stdout.replace(str(tmp), "{tmp}"),
                 "--- stderr", proc.stderr.replace(str(tmp), "{tmp}")]
        for path in sorted(p for p in tmp.rglob("*") if p.is_file()):
            rel = path.relative_to(tmp).as_posix()
            parts += [f"--- file {rel}", path.read_text(encoding="utf-8")]
        return "\n".join(parts) + "\n"
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
