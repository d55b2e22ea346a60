"""Every CLI command prints what it printed before on the bundled examples: each case of
tests/golden/contract.txt (--json objects, error lines, exit statuses: what scripts rely on)
and tests/golden/cases.txt (text reports and help pages: what a person reads) runs through the
installed `fleece` command and must reproduce its transcript in tests/golden/out/ exactly
(stdout, stderr, exit status and files written).

The contract transcripts are regression values of the command line's interface: they stay
as they are across changes of presentation. A change meant to alter what a person reads
regenerates the text cases with `python tests/golden/regen.py` and shows the diff."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))

from runner import OUT, Case, load_cases, run_case

CASES = load_cases()


@pytest.fixture(scope="module")
def transcripts() -> dict[str, str]:
    """Run every case once, two at a time (the CI machine has two cores)."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip((c.name for c in CASES), pool.map(run_case, CASES), strict=True))


def test_every_case_has_a_transcript() -> None:
    names = {c.name for c in CASES}
    assert len(names) == len(CASES), "case names must be unique"
    stored = {p.stem for p in OUT.glob("*.txt")}
    assert stored == names, f"missing: {names - stored}, stale: {stored - names}"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_cli_output_unchanged(case: Case, transcripts: dict[str, str]) -> None:
    expected = (OUT / f"{case.name}.txt").read_text(encoding="utf-8")
    assert transcripts[case.name] == expected
