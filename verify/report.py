"""Report writers: verification.md for people, a JSON twin for tools, JUnit XML for CI."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from xml.sax.saxutils import escape, quoteattr

from fleece.verify.result import CheckResult
from fleece.verify.trace import TraceRow

SECTIONS = ("invariants", "gaps", "claims", "termination", "crosscheck")
SECTION_TITLES = {
    "invariants": "Step invariants (Z3, inductive)",
    "gaps": "Rule gaps (M10) and the shotgun stall",
    "claims": "Rulebook claims C1-C4",
    "termination": "Termination bound (M24)",
    "crosscheck": "Python model vs Z3 model",
}


@dataclass
class Report:
    """Everything one verification run produced."""

    meta: dict[str, object]
    results: list[CheckResult]
    trace: list[TraceRow] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        """Every check has its expected outcome."""
        return all(r.ok for r in self.results)

    def failures(self) -> list[CheckResult]:
        """Checks whose outcome differs from the expected one."""
        return [r for r in self.results if not r.ok]

    def summary(self) -> list[tuple[str, int, int, int, float]]:
        """Per section: checks, as expected, expected refutations, seconds."""
        rows = []
        for sec in SECTIONS:
            rs = [r for r in self.results if r.section == sec]
            if rs:
                rows.append((sec, len(rs), sum(r.ok for r in rs),
                             sum(1 for r in rs if r.ok and r.expected == "REFUTED"),
                             sum(r.seconds for r in rs)))
        return rows


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", "<br>")


def to_markdown(rep: Report) -> str:
    """The human-readable report."""
    m = rep.meta
    lines = [
        "# Mutton rules verification", "",
        f"Rules: `{m.get('options')}`; mode: {m.get('mode')}; model under test: "
        f"`{m.get('model')}`; z3 {m.get('z3')}; {rep.seconds:.1f} s.", "",
        f"**Result: {'all checks as expected' if rep.ok else f'{len(rep.failures())} FAILED'}**"
        " (an expected refutation is a settled question, not a failure).", "",
        "| section | checks | as expected | expected refutations | seconds |",
        "|---|---:|---:|---:|---:|",
    ]
    for sec, n, ok, refuted, secs in rep.summary():
        lines.append(f"| {SECTION_TITLES[sec]} | {n} | {ok} | {refuted} | {secs:.1f} |")
    notes = m.get("notes")
    if isinstance(notes, list) and notes:
        lines += ["", "## How to read it", ""] + [f"- {n}" for n in notes]
    for sec in SECTIONS:
        rs = [r for r in rep.results if r.section == sec]
        if not rs:
            continue
        lines += ["", f"## {SECTION_TITLES[sec]}", "",
                  "| check | outcome | expected | clauses | detail | witness |",
                  "|---|---|---|---|---|---|"]
        for r in rs:
            mark = r.outcome if r.ok else f"**{r.outcome} (unexpected)**"
            lines.append(f"| {_cell(r.title)} | {mark} | {r.expected} | {', '.join(r.clauses)}"
                         f" | {_cell(r.detail)} | {_cell(r.witness[:400])} |")
    if rep.trace:
        lines += ["", "## Traceability (RULES.md section 1)", "",
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
    """JUnit XML: one test suite per section, one test case per check."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="fleece verify" tests="{len(rep.results)}" '
           f'failures="{len(rep.failures())}" time="{rep.seconds:.3f}">']
    for sec in SECTIONS:
        rs = [r for r in rep.results if r.section == sec]
        if not rs:
            continue
        fails = sum(1 for r in rs if not r.ok)
        out.append(f'  <testsuite name={quoteattr(sec)} tests="{len(rs)}" failures="{fails}" '
                   f'time="{sum(r.seconds for r in rs):.3f}">')
        for r in rs:
            out.append(f'    <testcase classname={quoteattr("verify." + sec)} '
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
