"""Report writers shared by every game's verification: markdown for people, a JSON twin for
tools, JUnit XML for CI, and the terminal summary. A Report names its game, title and sections,
so nothing here knows any one game.

File names: `report_stem` is the one rule (Mutton's reports keep the names they had before
other games had verification: reports/verification.md and .json).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from fleece.verify.result import REFUTED, CheckResult
from fleece.verify.trace import TraceRow

if TYPE_CHECKING:
    from rich.table import Table

# The game whose reports predate the others and keep their unqualified names.
FIRST_GAME = "mutton"


def report_stem(game: str) -> str:
    """File stem of a game's reports: `verification` for Mutton (its committed
    reports/verification.md stays put), `verification-<game>` for every other game."""
    return "verification" if game == FIRST_GAME else f"verification-{game}"


def _qualifier(game: str) -> str:
    """What tells this game's JUnit names and summary apart: nothing for the game whose
    report stem is unqualified, else the game's name (same rule as report_stem)."""
    return "" if report_stem(game) == "verification" else game


def _run_name(game: str) -> str:
    """The command a report stands for, as JUnit and the summary name it."""
    q = _qualifier(game)
    return f"fleece verify --game {q}" if q else "fleece verify"


@dataclass
class Report:
    """Everything one verification run of one game produced.

    `game` is the registry name (`mutton`), `title` the game's display title (`Mutton`),
    `sections` each section's (key, title) in report order, `rules_section` the RULES.md
    section the trace covers. `meta` holds the run's description (options, mode, model, z3,
    notes) as the game's runner fills it.
    """

    meta: dict[str, object]
    results: list[CheckResult]
    trace: list[TraceRow] = field(default_factory=list)
    seconds: float = 0.0
    game: str = field(kw_only=True)
    title: str = field(kw_only=True)
    sections: tuple[tuple[str, str], ...] = field(kw_only=True)
    rules_section: int | None = field(default=None, kw_only=True)

    @property
    def ok(self) -> bool:
        """Every check has its expected outcome."""
        return all(r.ok for r in self.results)

    def failures(self) -> list[CheckResult]:
        """Checks whose outcome differs from the expected one."""
        return [r for r in self.results if not r.ok]

    def section_keys(self) -> list[str]:
        """Section keys in report order: the declared ones, then any other section a result
        names (in order of appearance), so no result is left out of a report."""
        keys = [k for k, _ in self.sections]
        for r in self.results:
            if r.section not in keys:
                keys.append(r.section)
        return keys

    def section_title(self, key: str) -> str:
        """A section's title (its key when the game declares none)."""
        return dict(self.sections).get(key, key)

    def summary(self) -> list[tuple[str, int, int, int, float]]:
        """Per section: checks, as expected, expected refutations, seconds."""
        rows = []
        for sec in self.section_keys():
            rs = [r for r in self.results if r.section == sec]
            if rs:
                rows.append((sec, len(rs), sum(r.ok for r in rs),
                             sum(1 for r in rs if r.ok and r.expected == REFUTED),
                             sum(r.seconds for r in rs)))
        return rows

    def paths(self, report_dir: Path) -> list[Path]:
        """The markdown and JSON report files of this game in a report directory."""
        stem = report_stem(self.game)
        return [report_dir / f"{stem}.md", report_dir / f"{stem}.json"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def to_markdown(rep: Report) -> str:
    """The human-readable report."""
    m = rep.meta
    lines = [
        f"# {rep.title} rules verification", "",
        f"Rules: `{m.get('options')}`; mode: {m.get('mode')}; model under test: "
        f"`{m.get('model')}`; z3 {m.get('z3')}; {rep.seconds:.1f} s.", "",
        f"**Result: {'all checks as expected' if rep.ok else f'{len(rep.failures())} FAILED'}**"
        " (an expected refutation is a settled question, not a failure).", "",
        "| section | checks | as expected | expected refutations | seconds |",
        "|---|---:|---:|---:|---:|",
    ]
    for sec, n, ok, refuted, secs in rep.summary():
        lines.append(f"| {rep.section_title(sec)} | {n} | {ok} | {refuted} | {secs:.1f} |")
    notes = m.get("notes")
    if isinstance(notes, list) and notes:
        lines += ["", "## How to read it", ""] + [f"- {n}" for n in notes]
    for sec in rep.section_keys():
        rs = [r for r in rep.results if r.section == sec]
        if not rs:
            continue
        lines += ["", f"## {rep.section_title(sec)}", "",
                  "| check | outcome | expected | clauses | detail | witness |",
                  "|---|---|---|---|---|---|"]
        for r in rs:
            mark = r.outcome if r.ok else f"**{r.outcome} (unexpected)**"
            lines.append(f"| {_cell(r.title)} | {mark} | {r.expected} | {', '.join(r.clauses)}"
                         f" | {_cell(r.detail)} | {_cell(r.witness[:400])} |")
    if rep.trace:
        where = f" (RULES.md section {rep.rules_section})" if rep.rules_section is not None \
            else ""
        lines += ["", f"## Traceability{where}", "",
                  "| clause | rule | tests | verify checks |", "|---|---|---|---|"]
        for t in rep.trace:
            tests = ", ".join(t.tests[:4]) + (f" (+{len(t.tests) - 4})" if len(t.tests) > 4
                                              else "")
            proofs = ", ".join(t.proofs[:3]) + (f" (+{len(t.proofs) - 3})"
                                                if len(t.proofs) > 3 else "")
            lines.append(f"| {t.clause} | {_cell(t.title[:70])} | {tests or '-'} | "
                         f"{proofs or '-'} |")
        uncovered = [t.clause for t in rep.trace if not t.covered]
        lines += ["", "Clauses nothing covers yet: " + (", ".join(uncovered) or "none") + "."]
    return "\n".join(lines) + "\n"


def to_json(rep: Report) -> str:
    """The JSON twin of the markdown report."""
    doc = {
        "meta": rep.meta, "ok": rep.ok, "seconds": round(rep.seconds, 2),
        "summary": [{"section": s, "checks": n, "as_expected": ok, "expected_refutations": rf,
                     "seconds": round(sec, 2)} for s, n, ok, rf, sec in rep.summary()],
        "results": [r.to_json() for r in rep.results],
        "trace": [{"clause": t.clause, "title": t.title, "tests": list(t.tests),
                   "proofs": list(t.proofs), "covered": t.covered} for t in rep.trace],
        "uncovered": [t.clause for t in rep.trace if not t.covered],
    }
    return json.dumps(doc, indent=2, default=str) + "\n"


def to_junit(rep: Report) -> str:
    """JUnit XML: one test suite per section, one test case per check (class names
    `verify.<section>`, or `verify.<game>.<section>` for a game with qualified report names)."""
    q = _qualifier(rep.game)
    prefix = f"verify.{q}." if q else "verify."
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name={quoteattr(_run_name(rep.game))} tests="{len(rep.results)}" '
           f'failures="{len(rep.failures())}" time="{rep.seconds:.3f}">']
    for sec in rep.section_keys():
        rs = [r for r in rep.results if r.section == sec]
        if not rs:
            continue
        fails = sum(1 for r in rs if not r.ok)
        out.append(f'  <testsuite name={quoteattr(sec)} tests="{len(rs)}" failures="{fails}" '
                   f'time="{sum(r.seconds for r in rs):.3f}">')
        for r in rs:
            out.append(f'    <testcase classname={quoteattr(prefix + sec)} '
                       f'name={quoteattr(r.name)} time="{r.seconds:.3f}">')
            if not r.ok:
                msg = f"{r.outcome}, expected {r.expected}: {r.detail}"
                out.append(f'      <failure message={quoteattr(msg[:500])}>'
                           f'{escape(r.witness)}</failure>')
            else:
                out.append(f'      <system-out>{escape(r.outcome + ": " + r.detail)}'
                           '</system-out>')
            out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


def write_reports(rep: Report, report_dir: Path | None, junit: Path | None,
                  force: bool) -> list[Path]:
    """Write the game's markdown and JSON reports into the report directory (its own report
    files are replaced) and the JUnit XML (an existing file only with `force`); return the
    paths written. Nothing is written when the JUnit file would be refused."""
    from fleece.rules.errors import FleeceError
    from fleece.rules.io import atomic_write

    if junit is not None and junit.exists() and not force:
        raise FleeceError(f"{junit}: already exists (use --force to overwrite)")
    written: list[Path] = []
    if report_dir is not None:
        if report_dir.exists() and not report_dir.is_dir():
            raise FleeceError(f"{report_dir}: not a directory")
        md, js = rep.paths(report_dir)
        atomic_write(md, to_markdown(rep), overwrite=True)
        atomic_write(js, to_json(rep), overwrite=True)
        written += [md, js]
    if junit is not None:
        atomic_write(junit, to_junit(rep), overwrite=force)
        written.append(junit)
    return written


def summary_table(rep: Report) -> Table:
    """A rich table of the per-section summary (rows with unexpected outcomes in red)."""
    from rich.table import Table

    m = rep.meta
    table = Table(title=f"{_run_name(rep.game)}: {m.get('options')} ({m.get('mode')}, "
                        f"{rep.seconds:.1f} s)")
    for col in ("section", "checks", "as expected", "expected refutations", "seconds"):
        table.add_column(col, justify="left" if col == "section" else "right")
    for sec, n, ok, refuted, secs in rep.summary():
        style = "" if ok == n else "bold red"
        table.add_row(rep.section_title(sec), str(n), str(ok), str(refuted), f"{secs:.1f}",
                      style=style)
    return table
