"""Run the `fleece` command line in-process for tests (faster than a subprocess per call):
the exit status, standard output and standard error of one call."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass

from fleece.cli import main


@dataclass(frozen=True)
class Result:
    """What one call printed and returned."""

    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        """Standard output and standard error together."""
        return self.stdout + self.stderr


def invoke(args: list[str], stdin: str | None = None) -> Result:
    """Call `fleece ARGS...` in this process."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = old_stdin
    return Result(code, out.getvalue(), err.getvalue())
