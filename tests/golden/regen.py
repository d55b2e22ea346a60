"""Regenerate the golden CLI outputs (tests/golden/out/NAME.txt) from tests/golden/cases.txt.

Run it only after a change that is meant to alter what a command prints, and review the diff:
    python tests/golden/regen.py            # every case
    python tests/golden/regen.py NAME ...   # some cases
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from runner import OUT, load_cases, run_case


def main(names: list[str]) -> None:
    OUT.mkdir(exist_ok=True)
    for case in load_cases():
        if names and case.name not in names:
            continue
        text = run_case(case)
        (OUT / f"{case.name}.txt").write_text(text, encoding="utf-8")
        print(f"wrote {case.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
