"""Regenerate golden CLI transcripts (tests/golden/out/NAME.txt).

Text cases (cases.txt: reports as plain text, help pages) are regenerated after a change meant
to alter what a person reads; read the diff. Contract cases (contract.txt: --json objects,
error lines, exit statuses) are what scripts rely on and are regenerated only with --contract,
for a change of the contract itself:
    python tests/golden/regen.py                 # every text case
    python tests/golden/regen.py NAME ...        # some text cases
    python tests/golden/regen.py --contract NAME # a contract case, on purpose
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from runner import OUT, load_cases, run_case


def main(args: list[str]) -> None:
    contract = "--contract" in args
    names = [a for a in args if a != "--contract"]
    OUT.mkdir(exist_ok=True)
    for case in load_cases(("contract",) if contract else ("text",)):
        if names and case.name not in names:
            continue
        text = run_case(case)
        (OUT / f"{case.name}.txt").write_text(text, encoding="utf-8")
        print(f"wrote {case.name}")


if __name__ == "__main__":
    main(sys.argv[1:])
