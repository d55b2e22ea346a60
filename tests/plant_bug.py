"""Plant one bug by hand, run one test file, restore the source: does the new test fail?

    python tests/plant_bug.py SOURCE OLD NEW TESTFILE [PYTEST ARGS...]

OLD must occur exactly once in SOURCE; it is replaced by NEW, `pytest -x -q TESTFILE` runs,
and SOURCE is written back byte for byte whatever happens (also on Ctrl-C). The script prints
the first failing test and the wall time, and exits 0 when the bug was caught (the run
failed), 1 when every test still passed (the test cannot see this bug), 2 on bad arguments.
Never commit while a bug is planted; `git diff SOURCE` must be empty afterwards.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path


def plant(source: Path, old: str, new: str, testfile: str, extra: list[str]) -> int:
    """Replace `old` by `new` in `source`, run the tests, restore; the exit status above."""
    original = source.read_bytes()
    text = original.decode("utf-8")
    found = text.count(old)
    if found != 1:
        print(f"plant_bug: the text to replace occurs {found} times in {source} (need 1)")
        return 2
    started = time.perf_counter()
    try:
        source.write_text(text.replace(old, new), encoding="utf-8")
        run = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-n", "0",
                              "-p", "no:cacheprovider", testfile, *extra],
                             capture_output=True, text=True, check=False)
    finally:
        source.write_bytes(original)
    seconds = time.perf_counter() - started
    failed = [ln for ln in run.stdout.splitlines() if ln.startswith(("FAILED", "ERROR"))]
    if run.returncode == 0:
        print(f"NOT CAUGHT: every test passed with the bug planted ({seconds:.1f} s)")
        return 1
    print(f"caught in {seconds:.1f} s: {failed[0] if failed else run.stdout.strip()[-300:]}")
    return 0


def main(argv: list[str]) -> int:
    """Command-line entry: SOURCE OLD NEW TESTFILE [PYTEST ARGS...]."""
    if len(argv) < 4:
        print(__doc__)
        return 2
    return plant(Path(argv[0]), argv[1], argv[2], argv[3], argv[4:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
