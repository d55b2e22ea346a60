"""The python-constraint engine: an independent check of which hand assignments are possible.

The model has one variable per seat (its hand type), unary constraints for `hand`, `ask` and the
target side of `saw`, binary constraints viewer-target for `look` (the announcement must be
producible) and viewer for `saw` with an announcement, and one deck constraint checked on partial
assignments (never more copies of a card than the deck has). Every solution is then weighed by
its number of physical deals times the look/saw likelihoods, which gives the exact posterior as
a cross-check of the fast engine. It enumerates solutions, so it is only for small or
well-constrained problems: past LIMIT assignments it stops with a Stopped error naming the fast
engine, and it stops at the deadline of `solver.deadline.time_limit`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

from fleece.rules.woof.cards import Card, Hand, character_of
from fleece.rules.woof.evidence import AskFact, Evidence, Fact, HandFact, LookFact, SawFact
from fleece.solver.deadline import Stopped, current
from fleece.solver.woof.shared import (
    CompiledEvidence,
    Posterior,
    ask_ok,
    compile_evidence,
    deletion_core,
    hand_ok,
    look_weight,
    posterior_from_assignments,
    saw_viewer_ok,
    saw_weight,
)


def _build(problem: CompiledEvidence) -> Any:
    import constraint  # lazy: only this engine needs python-constraint

    hands = problem.hand_types
    csp = constraint.Problem(constraint.BacktrackingSolver(forwardcheck=True))
    for seat in problem.seats:
        domain = []
        for ht in hands:
            ok = True
            for f in problem.facts:
                if isinstance(f, HandFact) and f.seat == seat:
                    ok = ok and hand_ok(ht.hand, f)
                elif isinstance(f, AskFact) and f.target == seat:
                    ok = ok and ask_ok(ht.hand, f)
                elif isinstance(f, SawFact):
                    if f.target == seat:
                        ok = ok and saw_weight(ht.hand, f) > 0
                    if f.viewer == seat:
                        ok = ok and saw_viewer_ok(ht.character, f)
            if ok:
                domain.append(ht.index)
        if not domain:
            return None
        csp.addVariable(seat, domain)
    for f in problem.facts:
        if isinstance(f, LookFact):
            def producible(v: int, t: int, fact: LookFact = f) -> bool:
                return look_weight(hands[v].character, hands[t].hand, fact) > 0
            csp.addConstraint(producible, [f.viewer, f.target])
    limit = dict(zip(problem.kinds, problem.counts, strict=True))
    unassigned = constraint.Unassigned

    def deck_ok(*values: Any) -> bool:
        used: Counter[Card] = Counter()
        for v in values:
            if v is not unassigned:
                used.update(hands[v].hand)
        return all(n <= limit[c] for c, n in used.items())

    csp.addConstraint(constraint.FunctionConstraint(deck_ok, assigned=False),
                      list(problem.seats))
    return csp


def assignments(evidence: Evidence) -> Iterator[dict[int, Hand]]:
    """Every hand assignment the constraints allow (the support of the posterior)."""
    problem = compile_evidence(evidence)
    csp = _build(problem)
    if csp is None:
        return
    deadline = current()
    for n, sol in enumerate(csp.getSolutionIter(), start=1):
        if not n % 256:
            deadline.check()
        yield {s: problem.hand_types[sol[s]].hand for s in problem.seats}


#: Beyond this many possible hand assignments the engine gives up (use the fast engine):
#: python-constraint lists about 2,000 a second here, so the limit keeps it near ten seconds.
LIMIT = 20_000


def solve(evidence: Evidence, limit: int = LIMIT) -> Posterior:
    """Exact posterior by enumerating the CSP's solutions and weighing each; FleeceError when
    there are more than `limit` of them."""
    def bounded() -> Iterator[dict[int, Hand]]:
        for n, hands in enumerate(assignments(evidence)):
            if n >= limit:
                raise Stopped(f"more than {limit} possible deals: the csp engine lists every "
                              "one and would take minutes; use --engine fast (exact at any "
                              "size)")
            yield hands

    return posterior_from_assignments(compile_evidence(evidence), bounded())


def consistent(evidence: Evidence) -> bool:
    """Whether the CSP has a solution."""
    return next(assignments(evidence), None) is not None


def possible_characters(evidence: Evidence) -> dict[int, set[str]]:
    """Per seat, the characters some solution gives it."""
    out: dict[int, set[str]] = {}
    for hands in assignments(evidence):
        for s, h in hands.items():
            out.setdefault(s, set()).add(character_of(h).value)
    return out



def minimal_core(evidence: Evidence) -> list[Fact]:
    """A minimal set of contradicting facts, by deletion with this engine's own check."""
    return deletion_core(evidence, consistent)
