"""The outcome of one verification check, shared by every section and the report writers."""

from __future__ import annotations

from dataclasses import dataclass, field

PROVED = "PROVED"
REFUTED = "REFUTED"
PASSED = "PASSED"
FAILED = "FAILED"
ERROR = "ERROR"


@dataclass(frozen=True)
class CheckResult:
    """One check: what was asked, what came out, what was expected, and the evidence.

    `ok` is true when the outcome is the expected one; an expected refutation is recorded
    with expected=REFUTED and is not a failure.
    """

    section: str
    name: str
    title: str
    outcome: str
    expected: str
    clauses: tuple[str, ...] = ()
    detail: str = ""
    witness: str = ""
    seconds: float = 0.0
    data: dict[str, object] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """The outcome is the expected one."""
        return self.outcome == self.expected

    @property
    def ident(self) -> str:
        """`section/name`, unique within a run."""
        return f"{self.section}/{self.name}"

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {"id": self.ident, "section": self.section, "name": self.name,
                "title": self.title, "outcome": self.outcome, "expected": self.expected,
                "ok": self.ok, "clauses": list(self.clauses), "detail": self.detail,
                "witness": self.witness, "seconds": round(self.seconds, 3), "data": self.data}
