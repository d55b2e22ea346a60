"""The project's rules reference and its traceability data: docs/rules.md has exactly the
clause IDs of the shared reference (RULES.md), in its own words; the committed clause index
(verify/clause_tests.json) is what the tests cite today; and an installed wheel, with no
tests/ beside it, traces every game exactly as the checkout does."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from fleece.rules.registry import GAMES
from fleece.verify import trace

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests"
# Beside a checkout, as the project's workspace and CI lay it out: the shared reference and
# the original rule texts (read only to compare with; never copied into the project).
SHARED = ROOT.parent / "shared"
# The clause IDs of the shared reference, section by section (its IDs, its order).
EXPECTED = {
    1: [f"M{i}" for i in range(1, 29)] + [f"C{i}" for i in range(1, 5)],
    2: [f"W{i}" for i in range(1, 12)],
    3: [f"U{i}" for i in range(1, 11)],
    4: [f"K{i}" for i in range(1, 5)],
}


def test_rules_doc_has_exactly_the_reference_clause_ids() -> None:
    """docs/rules.md: sections 1-4 with the clause IDs M1-M28 C1-C4, W1-W11, U1-U10, K1-K4 in
    order, each with a title and text; every registered game's section and ID prefixes
    select exactly its own clauses."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert text == trace.rules_doc_text()
    sections = trace.section_clauses(text)
    assert {s: list(t) for s, t in sections.items()} == EXPECTED
    assert len(re.findall(r"^### [A-Z]+[0-9]+ ", text, re.MULTILINE)) == 57
    for titles in sections.values():
        assert all(t and len(t) <= 60 for t in titles.values()), titles
    bodies = re.split(r"^### ", text, flags=re.MULTILINE)[1:]
    assert all(len(b.split("\n", 1)[1].split()) >= 5 for b in bodies)
    for game in GAMES:
        assert list(trace.clauses_for(game.name).titles) == EXPECTED[game.section], game.name


def _shared_sections(text: str) -> dict[int, list[str]]:
    """Section -> clause IDs of the shared RULES.md (`- M1  text` lines)."""
    out: dict[int, list[str]] = {}
    section = 0
    for line in text.splitlines():
        head = re.match(r"## (\d+)\.", line)
        if head:
            section = int(head.group(1))
        clause = re.match(r"- ([A-Z]+[0-9]+)\s", line.strip())
        if clause and section:
            out.setdefault(section, []).append(clause.group(1))
    return out


def test_expected_ids_are_the_shared_references() -> None:
    """EXPECTED above is the shared RULES.md's list, section by section (checked where the
    shared folder lies beside the checkout, as in the workspace and CI)."""
    rules_md = SHARED / "RULES.md"
    if not rules_md.is_file():
        pytest.skip(f"{rules_md} is not beside this checkout")
    assert _shared_sections(rules_md.read_text(encoding="utf-8")) == EXPECTED


def _prose_words(text: str) -> list[str]:
    """The words (two letters or more) of a text's prose: tables, code blocks, inline code and
    numbered lists are data (cell names, card lists, positions) and left out."""
    lines, fence = [], False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            fence = not fence
            continue
        if not fence and not line.lstrip().startswith("|") \
                and not re.match(r"\s*\d+\. ", line):
            lines.append(re.sub(r"`[^`]*`", " ", line))
    return re.findall(r"[a-z][a-z']+", "\n".join(lines).lower())


def test_rules_doc_is_written_in_its_own_words() -> None:
    """No run of 8 prose words of docs/rules.md appears in the shared RULES.md or in an
    original rule text: the reference says the same rules in the project's own sentences."""
    sources = [SHARED / "RULES.md", *sorted((SHARED / "seeds").glob("*.txt"))]
    sources = [s for s in sources if s.is_file()]
    if not sources:
        pytest.skip(f"{SHARED} is not beside this checkout")
    n = 8
    ours = _prose_words((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))
    grams = {tuple(ours[i:i + n]) for i in range(len(ours) - n + 1)}
    copied = []
    for source in sources:
        theirs = re.findall(r"[a-z][a-z']+", source.read_text(encoding="utf-8",
                                                               errors="replace").lower())
        copied += [f"{source.name}: {' '.join(theirs[i:i + n])}"
                   for i in range(len(theirs) - n + 1) if tuple(theirs[i:i + n]) in grams]
    assert copied == []


def test_clause_index_is_up_to_date_with_the_tests() -> None:
    """The committed verify/clause_tests.json is byte for byte the index made from tests/
    now (after adding or renaming a test that cites a clause, run
    `python -m fleece.verify.trace`); it lists every clause of docs/rules.md."""
    fresh = trace.build_index(TESTS)
    assert list(fresh) == [c for ids in EXPECTED.values() for c in ids]
    committed = (ROOT / "verify" / "clause_tests.json").read_text(encoding="utf-8")
    assert committed == trace.index_text(fresh), (
        "verify/clause_tests.json is out of date: run python -m fleece.verify.trace")
    assert trace.read_index() == fresh
    assert any("test_rules_reference.py::" in t for t in fresh["U10"])


def test_u10_perft_counts_are_cited_here() -> None:
    """U10 and K4: the clarified readings are in docs/rules.md with both perft counts, and
    known Concentration pairs are never forced (this test's docstring cites U10 and K4,
    so the index must list it there)."""
    text = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    u10 = text[text.index("### U10 "):text.index("## 4.")]
    assert "2,647,826" in u10 and "2,639,706" in u10 and "repetition" in u10
    k4 = text[text.index("### K4 "):text.index("### Facts: known results")]
    assert "never obliged" in k4 and "4 or more copies" in k4
    index = trace.read_index()
    assert f"{Path(__file__).name}::test_u10_perft_counts_are_cited_here" in index["K4"]


def test_trace_command_checks_the_committed_index(tmp_path: Path) -> None:
    """`python -m fleece.verify.trace --check`, run from anywhere, finds the checkout's
    tests/ and passes on the committed index."""
    proc = subprocess.run([sys.executable, "-m", "fleece.verify.trace", "--check"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().endswith("up to date")


def _copy_sources(dest: Path) -> None:
    """The checkout without tests, benchmarks, git data, caches and build output."""
    skip = {".git", "build", "dist", "tests", "benchmarks", ".hypothesis", ".mypy_cache",
            ".ruff_cache", ".pytest_cache", "__pycache__"}
    shutil.copytree(ROOT, dest, ignore=lambda _d, names: [
        n for n in names if n in skip or n.endswith(".egg-info")])


_TRACE_ALL = """
import json, sys
from pathlib import Path
import fleece
from fleece.rules.registry import GAMES
from fleece.verify import trace
print(json.dumps({"file": str(Path(fleece.__file__).resolve()),
                  "rows": {g.name: [[r.clause, r.title, list(r.tests)]
                                    for r in trace.trace_table([], g.name)] for g in GAMES}}))
"""


def test_an_installed_wheel_traces_like_the_checkout(tmp_path: Path) -> None:
    """pip builds a wheel of the sources (no tests in it); unpacked on its own path, with no
    tests/ folder anywhere near, the installed fleece gives every game the same
    traceability table (clauses, titles, covering tests) as the checkout."""
    src, dist, site = tmp_path / "src", tmp_path / "dist", tmp_path / "site"
    _copy_sources(src)
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                            "-w", str(dist), str(src)], capture_output=True, text=True,
                           timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    (wheel,) = dist.glob("fleece_toolkit-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert {"fleece/docs/rules.md", "fleece/verify/clause_tests.json"} <= names
        assert not any(n.startswith("fleece/tests/") for n in names)
        z.extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site)}
    run = subprocess.run([sys.executable, "-c", _TRACE_ALL], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    installed = json.loads(run.stdout)
    assert Path(installed["file"]).is_relative_to(site.resolve())
    writer = subprocess.run([sys.executable, "-m", "fleece.verify.trace"], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=120)
    assert writer.returncode == 2 and "no tests/ folder" in writer.stdout, writer.stdout
    here = {g.name: [[r.clause, r.title, list(r.tests)] for r in trace.trace_table([], g.name)]
            for g in GAMES}
    assert installed["rows"] == here
    assert all(any(row[2] for row in rows) for rows in here.values())
