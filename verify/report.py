"""Report writers shared by every game's verification: markdown for people, a JSON twin for
tools, JUnit XML for CI, and the terminal summary. A Report names its game, title and sections,
so nothing here knows any one game.

The gate. `Report.ok` is false when any check failed, any outcome was UNKNOWN (or ERROR), or
any rules gap found in the variant under test was not accepted. `Report.with_accepted(ids)`
applies the user's `--accept GAP-ID`s (game-neutral: a game's runner never sees them); an ID
that matched no gap is kept in `accepted` and listed by `unmatched_accepts()` (a warning, not
a failure). Every report form lists the gaps found, accepted or not, with their witnesses;
JUnit shows an unaccepted gap (and an UNKNOWN) as a failure whose message names the gap ID.

File names: `report_stem` is the one rule (Mutton's reports keep the names they had before
other games had verification: reports/verification.md and .json). Files written here carry a
marker (the markdown's first line GENERATOR_LINE, the JSON's first key "generator"), and
`write_reports` replaces an existing report file only when it carries the marker, or with
force: a file it did not write is never replaced by accident.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple
from xml.sax.saxutils import escape, quoteattr

from fleece.verify.result import ERROR, GAP, REFUTED, UNKNOWN, CheckResult, RulesGap
from fleece.verify.trace import TraceRow

if TYPE_CHECKING:
    from rich.table import Table

# The game whose reports predate the others and keep their unqualified names.
FIRST_GAME = "mutton"

# The marker of the files write_reports writes (and may therefore replace).
GENERATOR = "fleece verify"
GENERATOR_LINE = f"<!-- generator: {GENERATOR}; this file is replaced on every run -->"
_JSON_HEAD = '{\n  "generator": ' + json.dumps(GENERATOR) + ","
_MARKER_BYTES = 256


def report_stem(game: str) -> str:
    """File stem of a game's reports: `verification` for Mutton (its committed
    reports/verification.md stays put), `verification-<game>` for every other game."""
    return "verification" if game == FIRST_GAME else f"verification-{game}"


def report_paths(game: str, report_dir: Path) -> list[Path]:
    """The markdown and JSON report files of a game in a report directory."""
    stem = report_stem(game)
    return [report_dir / f"{stem}.md", report_dir / f"{stem}.json"]


def _qualifier(game: str) -> str:
    """What tells this game's JUnit names and summary apart: nothing for the game whose
    report stem is unqualified, else the game's name (same rule as report_stem)."""
    return "" if report_stem(game) == "verification" else game


def _run_name(game: str) -> str:
    """The command a report stands for, as JUnit and the summary name it."""
    q = _qualifier(game)
    return f"fleece verify --game {q}" if q else "fleece verify"


class SectionSummary(NamedTuple):
    """One section's counts: checks, ok ones, expected refutations, rules gaps found (of
    which accepted), UNKNOWN outcomes, solver seconds."""

    section: str
    checks: int
    ok: int
    refuted: int
    gaps: int
    accepted: int
    unknown: int
    seconds: float


@dataclass
class Report:
    """Everything one verification run of one game produced.

    `game` is the registry name (`mutton`), `title` the game's display title (`Mutton`),
    `sections` each section's (key, title) in report order, `rules_section` the section of
    the rules reference (docs/rules.md) the trace covers. `meta` holds the run's description
    (options, mode, model, z3, notes) as the game's runner fills it. `accepted` holds the gap
    IDs the user accepted.
    """

    meta: dict[str, object]
    results: list[CheckResult]
    trace: list[TraceRow] = field(default_factory=list)
    seconds: float = 0.0
    game: str = field(kw_only=True)
    title: str = field(kw_only=True)
    sections: tuple[tuple[str, str], ...] = field(kw_only=True)
    rules_section: int | None = field(default=None, kw_only=True)
    accepted: tuple[str, ...] = field(default=(), kw_only=True)

    @property
    def ok(self) -> bool:
        """The gate: every check as expected, nothing UNKNOWN, every gap found accepted."""
        return all(r.ok for r in self.results)

    def failures(self) -> list[CheckResult]:
        """Every check that is not ok: unexpected outcomes, UNKNOWNs, unaccepted gaps."""
        return [r for r in self.results if not r.ok]

    def unexpected(self) -> list[CheckResult]:
        """Checks that decided, but not as expected (not gaps, not UNKNOWN)."""
        return [r for r in self.results
                if not r.ok and r.outcome not in (GAP, UNKNOWN)]

    def unknowns(self) -> list[CheckResult]:
        """Checks that could not decide."""
        return [r for r in self.results if r.outcome == UNKNOWN]

    def gaps(self) -> list[RulesGap]:
        """Every rules gap found in the variant under test, accepted or not, in run order."""
        return [r.gap for r in self.results if r.gap is not None]

    def open_gaps(self) -> list[RulesGap]:
        """Gaps found and not accepted: each fails the run."""
        return [g for g in self.gaps() if not g.accepted]

    def unmatched_accepts(self) -> list[str]:
        """Accepted IDs that matched no gap of this run (a warning: the gap is gone, was not
        searched in the sections run, or the ID names another variant's gap)."""
        found = {g.id for g in self.gaps()}
        return [a for a in self.accepted if a not in found]

    def with_accepted(self, ids: Iterable[str]) -> Report:
        """This report with the user's accepted gap IDs applied (canonical upper case)."""
        wanted = tuple(dict.fromkeys(i.upper() for i in ids))
        keep = frozenset(wanted)
        return replace(self, results=[r.accepting(keep) for r in self.results],
                       accepted=wanted)

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

    def summary(self) -> list[SectionSummary]:
        """Per section with results: checks, ok, expected refutations, gaps, accepted gaps,
        UNKNOWNs, seconds."""
        rows = []
        for sec in self.section_keys():
            rs = [r for r in self.results if r.section == sec]
            if rs:
                rows.append(SectionSummary(
                    sec, len(rs), sum(r.ok for r in rs),
                    sum(1 for r in rs if r.ok and r.expected == REFUTED
                        and r.outcome == REFUTED),
                    sum(1 for r in rs if r.gap is not None),
                    sum(1 for r in rs if r.gap is not None and r.gap.accepted),
                    sum(1 for r in rs if r.outcome == UNKNOWN),
                    sum(r.seconds for r in rs)))
        return rows

    def verdict(self) -> str:
        """One line: PASS or FAIL with the counts that decide it."""
        parts = []
        if self.unexpected():
            parts.append(f"{len(self.unexpected())} FAILED")
        if self.unknowns():
            parts.append(f"{len(self.unknowns())} UNKNOWN")
        if self.open_gaps():
            parts.append(f"{len(self.open_gaps())} rules gap(s) not accepted")
        accepted = len(self.gaps()) - len(self.open_gaps())
        if not parts:
            extra = f"; {accepted} accepted rules gap(s)" if accepted else ""
            return f"PASS: {len(self.results)} checks, all as expected{extra}"
        return "FAIL: " + ", ".join(parts)

    def paths(self, report_dir: Path) -> list[Path]:
        """The markdown and JSON report files of this game in a report directory."""
        return report_paths(self.game, report_dir)

    def to_json(self) -> dict[str, object]:
        """The whole report as a JSON-ready dict (the JSON report file, `--json`)."""
        return {
            "generator": GENERATOR, "game": self.game, "meta": self.meta, "ok": self.ok,
            "verdict": self.verdict(), "seconds": round(self.seconds, 2),
            "summary": [{"section": s.section, "checks": s.checks, "as_expected": s.ok,
                         "expected_refutations": s.refuted, "gaps": s.gaps,
                         "accepted_gaps": s.accepted, "unknown": s.unknown,
                         "seconds": round(s.seconds, 2)} for s in self.summary()],
            "gaps": [g.to_json() for g in self.gaps()],
            "accepted": list(self.accepted),
            "accepted_not_found": self.unmatched_accepts(),
            "results": [r.to_json() for r in self.results],
            "trace": [{"clause": t.clause, "title": t.title, "tests": list(t.tests),
                       "proofs": list(t.proofs), "covered": t.covered} for t in self.trace],
            "uncovered": [t.clause for t in self.trace if not t.covered],
        }


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def _mark(r: CheckResult) -> str:
    if r.gap is not None:
        return "GAP (accepted)" if r.gap.accepted else "**GAP (not accepted)**"
    if r.outcome == UNKNOWN:
        return "**UNKNOWN**"
    return r.outcome if r.ok else f"**{r.outcome} (unexpected)**"


def _gap_lines(rep: Report) -> list[str]:
    """The markdown section listing the rules gaps of the variant under test."""
    lines = ["", "## Rules gaps found in the variant under test", ""]
    gaps = rep.gaps()
    if not gaps:
        lines.append("None found by the checks run: the rules under test settle every "
                     "situation they examined.")
    for g in gaps:
        status = "accepted (--accept)" if g.accepted else \
            f"**not accepted: fails the run** (accept with `--accept {g.id}`)"
        lines += [f"### {g.id}", "",
                  f"- clause: {g.clause}; kind: {g.kind}; status: {status}",
                  f"- what: {g.summary}"]
        if g.variant:
            lines.append(f"- variant: `{g.variant}`")
        lines.append(f"- witness: {g.witness}")
        if g.record:
            how = f" (replay with `{g.replay}`)" if g.replay else ""
            lines += [f"- record{how}:", "", "```", g.record.rstrip("\n"), "```"]
        lines.append("")
    unmatched = rep.unmatched_accepts()
    if unmatched:
        lines += ["", "Accepted with --accept but not found in this run: "
                  + ", ".join(f"`{a}`" for a in unmatched) + "."]
    return lines


def to_markdown(rep: Report) -> str:
    """The human-readable report."""
    m = rep.meta
    lines = [
        GENERATOR_LINE,
        f"# {rep.title} rules verification", "",
        f"Rules: `{m.get('options')}`; mode: {m.get('mode')}; model under test: "
        f"`{m.get('model')}`; z3 {m.get('z3')}; {rep.seconds:.1f} s.", "",
        f"**Result: {rep.verdict()}** (an expected refutation is a settled question, not a "
        "failure; a rules gap or an UNKNOWN fails the run unless the gap is accepted).", "",
        "| section | checks | as expected | expected refutations | gaps (accepted) | unknown "
        "| seconds |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for s in rep.summary():
        lines.append(f"| {rep.section_title(s.section)} | {s.checks} | {s.ok} | {s.refuted} | "
                     f"{s.gaps} ({s.accepted}) | {s.unknown} | {s.seconds:.1f} |")
    lines += _gap_lines(rep)
    notes = m.get("notes")
    if isinstance(notes, list) and notes:
        lines += ["", "## How to read it", ""] + [f"- {n}" for n in notes]
    for sec in rep.section_keys():
        rs = [r for r in rep.results if r.section == sec]
        if not rs:
            continue
        lines += ["", f"## {rep.section_title(sec)}", "",
                  "| check | outcome | expected (from) | clauses | detail | witness |",
                  "|---|---|---|---|---|---|"]
        for r in rs:
            expected = f"{r.expected} ({r.basis})" if r.basis else r.expected
            lines.append(f"| {_cell(r.title)} | {_mark(r)} | {_cell(expected)} | "
                         f"{', '.join(r.clauses)} | {_cell(r.detail)} | "
                         f"{_cell(r.witness[:400])} |")
    if rep.trace:
        where = f" (docs/rules.md section {rep.rules_section})" \
            if rep.rules_section is not None else ""
        lines += ["", f"## Traceability{where}", "",
                  "A test covers a clause when its name or docstring cites the clause ID (the "
                  "package's clause index, made by `python -m fleece.verify.trace`); a check "
                  "covers the clauses it names.", "",
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
    """The JSON twin of the markdown report (its first key is "generator")."""
    return json.dumps(rep.to_json(), indent=2, default=str) + "\n"


def _failure(r: CheckResult) -> tuple[str, str, str]:
    """(type, message, body) of a JUnit failure for a check that is not ok."""
    if r.gap is not None:
        g = r.gap
        return ("gap", f"GAP {g.id} ({g.clause}): {g.summary}; accept with --accept {g.id}",
                g.witness + ("\n\n" + g.record if g.record else ""))
    if r.outcome in (UNKNOWN, ERROR):
        return (r.outcome.lower(), f"{r.outcome}, expected {r.expected}: {r.detail}", r.witness)
    return ("unexpected", f"{r.outcome}, expected {r.expected}: {r.detail}", r.witness)


def to_junit(rep: Report) -> str:
    """JUnit XML: one test suite per section, one test case per check (class names
    `verify.<section>`, or `verify.<game>.<section>` for a game with qualified report names);
    a check that is not ok is a failure (type gap, unknown or unexpected; a gap's message
    names its ID), an accepted gap passes and says so. Accepted IDs are a last suite `accept`
    (one case each, passing, telling whether the gap was found)."""
    q = _qualifier(rep.game)
    prefix = f"verify.{q}." if q else "verify."
    accepts = list(rep.accepted)
    unmatched = set(rep.unmatched_accepts())
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f"<!-- generator: {GENERATOR} -->",
           f'<testsuites name={quoteattr(_run_name(rep.game))} '
           f'tests="{len(rep.results) + len(accepts)}" failures="{len(rep.failures())}" '
           f'time="{rep.seconds:.3f}">']
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
                kind, msg, body = _failure(r)
                out.append(f'      <failure type={quoteattr(kind)} '
                           f'message={quoteattr(msg[:500])}>{escape(body)}</failure>')
            elif r.gap is not None:
                out.append(f"      <system-out>{escape('ACCEPTED ' + r.gap.line())}"
                           "</system-out>")
            else:
                out.append(f'      <system-out>{escape(r.outcome + ": " + r.detail)}'
                           '</system-out>')
            out.append("    </testcase>")
        out.append("  </testsuite>")
    if accepts:
        out.append(f'  <testsuite name="accept" tests="{len(accepts)}" failures="0" '
                   'time="0.000">')
        for a in accepts:
            said = "accepted, but no such gap was found in this run" if a in unmatched \
                else "accepted gap, found in this run"
            out.append(f'    <testcase classname={quoteattr(prefix + "accept")} '
                       f'name={quoteattr(a)} time="0.000">')
            out.append(f"      <system-out>{escape(said)}</system-out>")
            out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


def written_by_us(path: Path) -> bool:
    """The file at `path` is a report this module wrote (it carries the generator marker)."""
    if path.is_symlink() or not path.is_file():
        return False
    with path.open("rb") as handle:
        head = handle.read(_MARKER_BYTES).decode("utf-8", errors="replace")
    if path.suffix == ".json":
        return head.startswith(_JSON_HEAD)
    return head.startswith(GENERATOR_LINE)


def check_targets(game: str, report_dir: Path | None, junit: Path | None,
                  force: bool) -> None:
    """Refuse (FleeceError, before anything runs or is written) report files that would
    replace a file this module did not write, and an existing JUnit file, unless `force`."""
    from fleece.rules.errors import FleeceError

    if junit is not None and (junit.exists() or junit.is_symlink()) and not force:
        raise FleeceError(f"{junit}: already exists (use --force to overwrite)")
    if report_dir is None:
        return
    if report_dir.exists() and not report_dir.is_dir():
        raise FleeceError(f"{report_dir}: not a directory")
    for path in report_paths(game, report_dir):
        if path.is_dir():
            raise FleeceError(f"{path}: is a directory")
        if (path.exists() or path.is_symlink()) and not force and not written_by_us(path):
            raise FleeceError(f"{path}: exists and was not written by {GENERATOR} "
                              "(use --force to replace it)")


def write_reports(rep: Report, report_dir: Path | None, junit: Path | None,
                  force: bool) -> list[Path]:
    """Write the game's markdown and JSON reports into the report directory and the JUnit
    XML; return the paths written. A report file is replaced only when this module wrote it
    (its marker) or with `force`; an existing JUnit file only with `force`. Nothing is
    written when any target is refused."""
    from fleece.rules.io import atomic_write

    check_targets(rep.game, report_dir, junit, force)
    written: list[Path] = []
    if report_dir is not None:
        md, js = rep.paths(report_dir)
        atomic_write(md, to_markdown(rep), overwrite=True)
        atomic_write(js, to_json(rep), overwrite=True)
        written += [md, js]
    if junit is not None:
        atomic_write(junit, to_junit(rep), overwrite=force)
        written.append(junit)
    return written


def summary_table(rep: Report) -> Table:
    """A rich table of the per-section summary (rows that are not all ok in red)."""
    from rich.table import Table

    m = rep.meta
    table = Table(title=f"{_run_name(rep.game)}: {m.get('options')} ({m.get('mode')}, "
                        f"{rep.seconds:.1f} s)")
    for col in ("section", "checks", "ok", "exp. refuted", "gaps", "unknown", "seconds"):
        table.add_column(col, justify="left" if col == "section" else "right")
    for s in rep.summary():
        style = "" if s.ok == s.checks else "bold red"
        gaps = f"{s.gaps} ({s.accepted} acc.)" if s.gaps else "0"
        table.add_row(rep.section_title(s.section), str(s.checks), str(s.ok), str(s.refuted),
                      gaps, str(s.unknown), f"{s.seconds:.1f}", style=style)
    return table
