"""The outcome of one verification check, shared by every game's verify package and the report
writers: what a check may conclude, what it expected, and the rules gaps it found.

Outcomes. A check ends PROVED or REFUTED (a logical question settled, with a witness for a
refutation), PASSED or FAILED (a test, such as a cross-check of two models), GAP (the rules
under test leave a situation unsettled: see RulesGap), UNKNOWN (the check could not decide:
a solver said "unknown" even after its retry, a budget ran out) or ERROR. A check's `expected`
is one of PROVED, REFUTED, PASSED and must come from the rules reference (docs/rules.md: "M24 says
every game ends" -> PROVED; a claim known to be false -> REFUTED), never from the outcome;
`basis` says where it comes from. `ok` is:

- UNKNOWN and ERROR: never ok (not deciding is not success);
- GAP: ok only when the user accepted the gap (`fleece verify --accept GAP-ID`);
- otherwise: the outcome equals the expectation.

Rules gaps, for every game. A RulesGap is a situation the rules of the variant under test do
not settle, found with a concrete witness: a stable ID (`<GAME>-<CLAUSE or topic>-<WHAT>`, upper
case, e.g. MUTTON-M10-UNPLACEABLE; the ID never includes the variant, which the report names),
its kind, the clause it concerns, a one-line witness and, when the game can, a record that
replays it (`replay` names the command). Two standard kinds:

- UNSETTLED: a position where the rules give no legal continuation or leave a move's effect
  undefined (Mutton's M10 kill with unplaceable runners, the shotgun stall);
- NO_END: a game that need not end (`no_end_id(PREFIX)` = `PREFIX-NO-END`; the witness is a
  repeating cycle or an unbounded play).

A game's verify package reports a gap of the variant under test with `gap_found(...)` (a
CheckResult with outcome GAP, expected PROVED: the rules settle every situation); gaps it finds
in other variants for information are data of an ordinary check, not RulesGaps, and never gate.
A solver's unknown becomes `undecided(...)` (outcome UNKNOWN). The package may export
`GAPS: dict[str, str]` (every gap ID it can report -> one line of meaning) so that `--accept`
can refuse IDs that cannot occur.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field, replace

PROVED = "PROVED"
REFUTED = "REFUTED"
PASSED = "PASSED"
FAILED = "FAILED"
ERROR = "ERROR"
GAP = "GAP"
UNKNOWN = "UNKNOWN"

# What a check may expect: an expectation is a claim about the rules, so never GAP or UNKNOWN.
EXPECTATIONS = (PROVED, REFUTED, PASSED)
OUTCOMES = (PROVED, REFUTED, PASSED, FAILED, ERROR, GAP, UNKNOWN)

# Standard kinds of rules gaps.
UNSETTLED = "unsettled"
NO_END = "no-end"
GAP_KINDS = (UNSETTLED, NO_END)

MAX_GAP_ID = 60
_GAP_ID = re.compile(r"[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+")


def gap_id(text: str) -> str:
    """A gap ID in its canonical (upper-case) form; ValueError saying what is wrong for
    anything else (only ASCII letters, digits and single hyphens, at most 60 characters)."""
    if len(text) > MAX_GAP_ID:
        raise ValueError(f"{text[:30]!r}... is not a gap ID (at most {MAX_GAP_ID} characters)")
    canon = text.upper()
    if not text.isascii() or not _GAP_ID.fullmatch(canon):
        raise ValueError(f"{text[:40]!r} is not a gap ID (like MUTTON-M10-UNPLACEABLE: "
                         "letters, digits and hyphens)")
    return canon


def no_end_id(prefix: str) -> str:
    """The standard ID of the 'game need not end' gap of a game (`ULV` -> `ULV-NO-END`)."""
    return gap_id(f"{prefix}-NO-END")


@dataclass(frozen=True)
class RulesGap:
    """A situation the rules of the variant under test leave unsettled, with its witness.

    `witness` is one line (a position or play in the game's notation); `record`, when given,
    is text that replays it with the command `replay` (e.g. a Mutton game record for
    `fleece mutton replay FILE`); `variant` the rules under test in the game's option text.
    """

    id: str
    kind: str
    clause: str
    summary: str
    witness: str
    variant: str = ""
    record: str = ""
    replay: str = ""
    accepted: bool = False

    def __post_init__(self) -> None:
        if gap_id(self.id) != self.id:
            raise ValueError(f"gap ID {self.id!r} is not upper case")
        if self.kind not in GAP_KINDS:
            raise ValueError(f"gap kind {self.kind!r} is not one of {', '.join(GAP_KINDS)}")

    def line(self, width: int = 280) -> str:
        """One line for a terminal: ID, clause, what, a short witness and how to accept."""
        head = f"GAP {self.id} ({self.clause}): {self.summary}"
        tail = "" if self.accepted else f" - accept with --accept {self.id}"
        room = max(20, width - len(head) - len(tail) - len("; witness: "))
        wit = self.witness if len(self.witness) <= room else self.witness[: room - 3] + "..."
        return f"{head}; witness: {wit}{tail}"

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {"id": self.id, "kind": self.kind, "clause": self.clause,
                "summary": self.summary, "witness": self.witness, "variant": self.variant,
                "record": self.record, "replay": self.replay, "accepted": self.accepted}


@dataclass(frozen=True)
class CheckResult:
    """One check: what was asked, what came out, what was expected (and from where), the
    evidence, and the rules gap when the outcome is GAP."""

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
    basis: str = ""
    gap: RulesGap | None = None

    def __post_init__(self) -> None:
        if self.expected not in EXPECTATIONS:
            raise ValueError(f"{self.ident}: a check expects one of {', '.join(EXPECTATIONS)}, "
                             f"not {self.expected!r}")
        if self.outcome not in OUTCOMES:
            raise ValueError(f"{self.ident}: unknown outcome {self.outcome!r}")
        if (self.outcome == GAP) != (self.gap is not None):
            raise ValueError(f"{self.ident}: a GAP outcome carries its RulesGap, and only it")

    @property
    def ok(self) -> bool:
        """The check succeeded: the expected outcome, or a gap the user accepted; UNKNOWN and
        ERROR never are."""
        if self.outcome in (UNKNOWN, ERROR):
            return False
        if self.gap is not None:
            return self.gap.accepted
        return self.outcome == self.expected

    @property
    def ident(self) -> str:
        """`section/name`, unique within a run."""
        return f"{self.section}/{self.name}"

    def accepting(self, ids: frozenset[str]) -> CheckResult:
        """This result with its gap marked accepted when its ID is among `ids`."""
        if self.gap is None or self.gap.accepted == (self.gap.id in ids):
            return self
        return replace(self, gap=replace(self.gap, accepted=self.gap.id in ids))

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {"id": self.ident, "section": self.section, "name": self.name,
                "title": self.title, "outcome": self.outcome, "expected": self.expected,
                "basis": self.basis, "ok": self.ok, "clauses": list(self.clauses),
                "detail": self.detail, "witness": self.witness,
                "seconds": round(self.seconds, 3), "data": self.data,
                "gap": self.gap.to_json() if self.gap is not None else None}


def gap_found(section: str, name: str, title: str, gap: RulesGap, *,
              clauses: tuple[str, ...] = (), basis: str = "", detail: str = "",
              seconds: float = 0.0, data: dict[str, object] | None = None) -> CheckResult:
    """The check of the variant under test that found a rules gap: outcome GAP, expected
    PROVED (the rules settle every situation), the gap's witness as the check's witness."""
    return CheckResult(section, name, title, GAP, PROVED, clauses or (gap.clause,),
                       detail or gap.summary, gap.witness, seconds, dict(data or {}),
                       basis, gap)


def undecided(section: str, name: str, title: str, *, expected: str, reason: str,
              clauses: tuple[str, ...] = (), basis: str = "", seconds: float = 0.0,
              data: dict[str, object] | None = None) -> CheckResult:
    """A check that could not decide (solver unknown after its retry, budget out): outcome
    UNKNOWN, which fails the run; `reason` says what gave up."""
    return CheckResult(section, name, title, UNKNOWN, expected, clauses,
                       f"undecided: {reason}", "", seconds, dict(data or {}), basis)


def judged(section: str, name: str, title: str, ok: bool, expected: str,
           clauses: tuple[str, ...], detail: str, witness: str, t0: float, basis: str,
           data: dict[str, object] | None = None) -> CheckResult:
    """A check whose outcome is the expectation when `ok`, else its opposite (PASSED and
    FAILED, PROVED and REFUTED), timed from `t0` (time.perf_counter())."""
    opposite = {PASSED: FAILED, PROVED: REFUTED, REFUTED: PROVED}[expected]
    return CheckResult(section, name, title, expected if ok else opposite, expected, clauses,
                       detail, witness, time.perf_counter() - t0, dict(data or {}), basis)
