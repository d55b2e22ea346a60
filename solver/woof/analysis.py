"""Turn an engine's posterior into the answer a player wants, as a value: the beliefs, the
contradicting lines, certain facts and a suggestion, with the JSON form `fleece woof solve
--json` prints (the command line renders it; fleece.commands.woof_document).

The suggestion for `me` is the suspicion (one seat or 0 per target of me's character,
W2/W6) with the highest probability of being entirely right (W8), computed from the exact
posterior of the character vectors.

Expected points (EXPECTED_POINTS_ASSUMPTION): counting points only, suspecting early now with
the best suspicion scores 2 * p; a final suspicion made with what is known now scores 1 * p; no
amount of waiting can score more than 1. So suspecting early now is advised when 2 * p >= 1,
i.e. it beats even a final suspicion with perfect knowledge. The risk of an error token is
1 - p either way (0 when abstaining at the end).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from fleece.rules.woof.cards import Character
from fleece.rules.woof.evidence import Evidence, Fact, fact_line
from fleece.solver.core import check_engine
from fleece.solver.woof.shared import Posterior
from fleece.solver.woof.supply import token_clash

ENGINES = ("fast", "csp", "smt")
DOG_NOTE = "the Dog's second target is an assumption (default shepherd; --dog-target)"

EXPECTED_POINTS_ASSUMPTION = (
    "points only: early now scores 2 with probability p; waiting is valued as a final "
    "suspicion with today's knowledge (1 point with probability p) and can never score more "
    "than 1, so early is advised when 2p >= 1; an error token is risked with probability 1-p "
    "either way (abstaining at the end risks nothing and scores nothing)"
)


@dataclass(frozen=True)
class Suggestion:
    """The best suspicion for `seat` and what it is worth (see EXPECTED_POINTS_ASSUMPTION)."""

    seat: int
    character: Character
    targets: tuple[Character, ...]
    picks: tuple[int, ...]
    probability: Fraction
    alternatives: tuple[tuple[tuple[int, ...], Fraction], ...] = ()

    @property
    def early_points(self) -> Fraction:
        """Expected points of suspecting early now (W8: 2 if right)."""
        return 2 * self.probability

    @property
    def final_points(self) -> Fraction:
        """Expected points of the same suspicion made at the end (W8: 1 if right)."""
        return self.probability

    @property
    def error_risk(self) -> Fraction:
        """Probability of an error token for this suspicion."""
        return 1 - self.probability

    @property
    def advice(self) -> str:
        """`suspect early now` when 2p >= 1, else `wait`."""
        return "suspect early now" if self.early_points >= 1 else "wait"


def suggest(posterior: Posterior, evidence: Evidence, seat: int, *, keep: int = 5
            ) -> Suggestion | str:
    """The best suspicion for `seat`, or a sentence saying why there is none."""
    if not posterior.consistent:
        return "the evidence is contradictory"
    own = posterior.certain().get(seat)
    if own is None:
        return (f"seat {seat}'s character is not certain from the evidence; add its hand "
                f"(`hand {seat} CARD CARD`)")
    targets = evidence.rules.targets(own)
    scores = posterior.suspicion_scores(seat, targets)
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
    best, prob = ranked[0]
    return Suggestion(seat, own, targets, best, prob, tuple(ranked[1:keep]))


@dataclass(frozen=True)
class WoofAnalysis:
    """Everything `fleece woof solve` prints, as data."""

    evidence: Evidence
    engine: str
    posterior: Posterior
    contradiction: tuple[Fact, ...] = ()
    suggestion: Suggestion | None = None
    suggestion_note: str | None = None
    certain: dict[int, Character] = field(default_factory=dict)

    @property
    def consistent(self) -> bool:
        """False when the evidence is impossible."""
        return self.posterior.consistent

    def to_json(self) -> dict[str, Any]:
        """The JSON document (floats; exact values are kept where cheap, as strings)."""
        ev = self.evidence
        out: dict[str, Any] = {
            "engine": self.engine,
            "players": ev.players,
            "seats": ev.table.seats,
            "dummy": ev.table.dummy,
            "me": ev.me,
            "deck": [c.name for c in ev.deck],
            "lines": len(ev.facts),
            "consistent": self.consistent,
            "notes": list(ev.notes),
            "warnings": ev.warnings(),
        }
        if not self.consistent:
            out["contradiction"] = [
                {"line": f.line, "fact": fact_line(f), "text": f.describe()}
                for f in self.contradiction
            ]
            return out
        post = self.posterior
        out["evidence_probability"] = float(post.evidence_probability)
        out["characters"] = {
            str(s): {c.value: float(p) for c, p in dist.items() if p > 0}
            for s, dist in post.marginals().items()
        }
        out["wolf_sets"] = [[list(ws), float(p)] for ws, p in post.wolf_sets()]
        out["certain"] = {str(s): c.value for s, c in self.certain.items()}
        if ev.me is not None:
            out["suggestion"] = _suggestion_json(self.suggestion, self.suggestion_note)
        return out


def _suggestion_json(sug: Suggestion | None, note: str | None) -> dict[str, Any] | None:
    if sug is None:
        return {"note": note} if note else None
    return {
        "seat": sug.seat,
        "character": sug.character.value,
        "targets": [t.value for t in sug.targets],
        "picks": {t.value: p for t, p in zip(sug.targets, sug.picks, strict=True)},
        "probability": float(sug.probability),
        "probability_exact": str(sug.probability),
        "expected_points": {
            "early_now": float(sug.early_points),
            "final_same_knowledge": float(sug.final_points),
            "waiting_upper_bound": 1.0,
        },
        "error_risk": float(sug.error_risk),
        "advice": sug.advice,
        "assumption": EXPECTED_POINTS_ASSUMPTION,
        "targets_note": DOG_NOTE if sug.character is Character.DOG else None,
        "alternatives": [
            {"picks": {t.value: p for t, p in zip(sug.targets, picks, strict=True)},
             "probability": float(q)}
            for picks, q in sug.alternatives
        ],
    }


# ---- running an engine -----------------------------------------------------------------------


def _engine(name: str) -> tuple[Callable[[Evidence], Posterior], Callable[[Evidence], list[Fact]],
                                Callable[[Evidence], dict[int, Character]] | None]:
    """The (solve, minimal core, certain characters) functions of one engine."""
    name = check_engine(name, ENGINES)
    if name == "fast":
        from fleece.solver.woof import fast

        return fast.solve, fast.minimal_core, None
    if name == "csp":
        from fleece.solver.woof import csp

        return csp.solve, csp.minimal_core, None
    from fleece.solver.woof import smt

    return smt.solve, smt.unsat_core, smt.certain_characters


def solve(evidence: Evidence, engine: str = "fast") -> Posterior:
    """The exact posterior of the seats' characters with one engine."""
    return _engine(engine)[0](evidence)


def analyse(evidence: Evidence, engine: str = "fast") -> WoofAnalysis:
    """Solve with one engine; on a contradiction, find a minimal set of contradicting lines
    (of the deal, else of the clue tokens: lines that cannot all be laid, W11)."""
    solve, core, certain_fn = _engine(engine)
    post = solve(evidence)
    if not post.consistent:
        return WoofAnalysis(evidence, engine, post, tuple(core(evidence)))
    clash = token_clash(evidence)
    if clash:
        return WoofAnalysis(evidence, engine, Posterior(post.seats, {}, Fraction(0)), clash)
    certain = certain_fn(evidence) if certain_fn is not None else post.certain()
    sug: Suggestion | None = None
    note: str | None = None
    if evidence.me is not None:
        got = suggest(post, evidence, evidence.me)
        if isinstance(got, Suggestion):
            sug = got
        else:
            note = got
    return WoofAnalysis(evidence, engine, post, (), sug, note, certain)
