"""`fleece serve` in a subprocess for the web tests: started on a free local port, waited for,
and stopped with Ctrl-C (its clean stop is part of what the tests check)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def free_port() -> int:
    """A TCP port nobody listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def served(budget: float = 20.0, workers: int = 2, timeout: float = 90.0) -> Iterator[str]:
    """`fleece serve` on a free port in its own process group; yields the base URL and stops
    the server (and its workers) at the end."""
    port = free_port()
    cmd = [sys.executable, "-m", "fleece", "serve", "--port", str(port), "--budget",
           str(budget), "--workers", str(workers)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                out = proc.stdout.read() if proc.stdout else ""
                raise AssertionError(f"fleece serve exited with {proc.returncode}: {out}")
            try:
                with urllib.request.urlopen(url + "/", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise AssertionError("fleece serve did not answer in time")
            time.sleep(0.2)
        # the workers are ready once a job has run
        req = urllib.request.Request(url + "/api/ulvtafl/board", data=b"{}", method="POST",
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=timeout) as r:
            assert r.status == 200
        yield url
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(15)
        out = proc.stdout.read() if proc.stdout else ""
        if proc.stdout:
            proc.stdout.close()
    # Ctrl-C stops the server cleanly: its start line, its stop line, nothing else
    assert proc.returncode == 0, out
    assert out.splitlines()[0].startswith(f"fleece serve: {url}/ (budget "), out
    assert out.splitlines()[1:] == ["fleece serve: stopped"], out
