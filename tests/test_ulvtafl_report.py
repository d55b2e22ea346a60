"""The committed Ulvtafl start report: its markdown is exactly its JSON rendered by the
benchmark's own renderer (no figure typed by hand, none left behind by an older run), and
every value it claims comes with the figures of a checked proof."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import ModuleType

from helpers.benchmarks import load_benchmark

ROOT = Path(__file__).resolve().parent.parent
REPORT = ROOT / "reports" / "ulvtafl-start"


def _bench() -> ModuleType:
    return load_benchmark("bench_ulvtafl")


def test_the_report_markdown_is_its_json_rendered() -> None:
    bench = _bench()
    data = json.loads(REPORT.with_suffix(".json").read_text(encoding="utf-8"))
    text = bench.markdown(bench.public_command(data["command"]), data["speed"],
                          data["setups"], data["variants"], data["started"], data["seconds"])
    written = REPORT.with_suffix(".md").read_text(encoding="utf-8")
    # `--render` writes the markdown again from the JSON and says so in one sentence
    written = re.sub(r"\n\nMarkdown written again from the JSON by `[^`]*`\.", "", written)
    assert written == text + "\n"
    assert "/tmp/" not in text  # the checkpoint folder is the reader's DIR


def test_every_claimed_value_has_a_checked_proof_size() -> None:
    """A start or variant is 'sheep' or 'wolves' only with the proof size its certificate
    check counted; 'unknown' rows carry the work spent."""
    data = json.loads(REPORT.with_suffix(".json").read_text(encoding="utf-8"))
    rows = data["setups"] + data["variants"]["limits"] + [
        v for v in data["variants"]["wolf_anywhere"] if v.get("nodes", 0) > 0]
    assert rows
    for row in rows:
        if row["value"] in ("sheep", "wolves"):
            assert isinstance(row["proof_size"], int) and row["proof_size"] > 0, row
        else:
            assert row["value"] in ("unknown", "draw") and row["nodes"] > 0, row
