"""The z3 engine: certain facts, minimal unsat cores, and an enumerated exact posterior.

The encoding is independent of the other engines' code paths: every seat has an integer count
(0..2) per card kind, two cards in all; the deck bounds the totals; characters follow W1 as
Boolean formulas ("holds a Wolf picture", "holds the Shepherd and no Wolf", ...); every evidence
line is one tracked assertion, so an impossible file yields an unsat core naming lines, which is
then shrunk by deletion until it is minimal. A character is certain when its negation is
unsatisfiable. The posterior enumerates the models (hand assignments) and weighs each by its
physical-deal count and look likelihoods. Every z3 check is bounded by the deadline of
`solver.deadline.time_limit` (an undecided check is a Stopped error, never an answer), and the
enumeration stops past LIMIT models.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fleece.rules.woof.cards import CHARACTERS, Card, Character, Hand, QuestionCard, make_hand
from fleece.rules.woof.evidence import AskFact, Evidence, Fact, HandFact, LookFact
from fleece.solver.deadline import Stopped, z3_check
from fleece.solver.woof.shared import (
    CompiledEvidence,
    Posterior,
    compile_evidence,
    posterior_from_assignments,
)


class _Model:
    """z3 variables and formulas for one problem."""

    def __init__(self, problem: CompiledEvidence) -> None:
        import z3  # lazy: only this engine needs z3

        self.z3 = z3
        self.problem = problem
        self.x: dict[int, list[Any]] = {}
        base: list[Any] = []
        for s in problem.seats:
            row = [z3.Int(f"s{s}_k{k}") for k in range(len(problem.kinds))]
            self.x[s] = row
            base += [z3.And(v >= 0, v <= 2) for v in row]
            base.append(z3.Sum(row) == 2)
        for k, n in enumerate(problem.counts):
            base.append(z3.Sum([self.x[s][k] for s in problem.seats]) <= n)
        self.base = base

    def holds(self, seat: int, want: Any) -> Any:
        """Seat holds at least one card whose kind satisfies the predicate `want`."""
        z3 = self.z3
        terms = [self.x[seat][k] >= 1 for k, card in enumerate(self.problem.kinds) if want(card)]
        return z3.Or(terms) if terms else z3.BoolVal(False)

    def pic(self, seat: int, c: Character) -> Any:
        """Seat holds a card with picture `c`."""
        return self.holds(seat, lambda card: card.picture is c)

    def is_char(self, seat: int, c: Character) -> Any:
        """W1: `c` is the seat's character: it holds `c` and nothing of a higher value."""
        z3 = self.z3
        higher = [d for d in CHARACTERS if _rank(d) > _rank(c)]
        return z3.And(self.pic(seat, c), *[z3.Not(self.pic(seat, d)) for d in higher])

    def fact(self, f: Fact) -> Any:
        """The formula of one evidence line."""
        z3 = self.z3
        kinds = self.problem.kinds
        if isinstance(f, HandFact):
            want = [sum(1 for c in f.cards if c == k) for k in kinds]
            if sum(want) != 2:
                return z3.BoolVal(False)  # a card the deck does not have
            return z3.And([v == n for v, n in zip(self.x[f.seat], want, strict=True)])
        if isinstance(f, AskFact):
            t = f.target
            truth = {
                QuestionCard.Q1: z3.Or(self.is_char(t, Character.WOLF),
                                   self.is_char(t, Character.HUNTER),
                                   self.is_char(t, Character.SHEPHERD)),
                QuestionCard.Q2: z3.Or(self.is_char(t, Character.SHEEP),
                                   self.is_char(t, Character.HUNTER),
                                   self.is_char(t, Character.SHEPHERD)),
                QuestionCard.Q3: self.pic(t, Character.DOG),
                QuestionCard.Q4: self.pic(t, Character.HUNTER),
                QuestionCard.Q5: self.pic(t, Character.SHEEP),
            }[f.question]
            return truth if f.answer else z3.Not(truth)
        if isinstance(f, LookFact):
            return self._announces(f.viewer, f.target, f.announced, None)
        card = f.card
        if card not in kinds:
            return z3.BoolVal(False)
        seen = self.x[f.target][kinds.index(card)] >= 1
        if not f.announced_given:
            return seen
        return z3.And(seen, self._announces(f.viewer, f.target, f.announced, card))

    def _announces(self, viewer: int, target: int, said: Character | None,
                   card: Card | None) -> Any:
        """Some card (or the given card) of the target yields `said` from this viewer (W4)."""
        z3 = self.z3
        shepherd = self.is_char(viewer, Character.SHEPHERD)

        def shows(pred: Any) -> Any:
            if card is not None:
                return z3.BoolVal(bool(pred(card)))
            return self.holds(target, pred)

        if said is None:
            return shows(lambda c: c.appearance is None)
        by_shepherd = shows(lambda c: c.appearance is not None) if said is Character.WOLF \
            else z3.BoolVal(False)
        by_other = shows(lambda c: c.appearance is said)
        return z3.If(shepherd, by_shepherd, by_other)

    def solver(self) -> tuple[Any, dict[str, Fact]]:
        """A solver with the base constraints and one tracked label per evidence line."""
        z3 = self.z3
        s = z3.Solver()
        s.add(*self.base)
        labels: dict[str, Fact] = {}
        for i, f in enumerate(self.problem.facts):
            name = f"fact{i}"
            labels[name] = f
            s.assert_and_track(self.fact(f), z3.Bool(name))
        return s, labels


def _rank(c: Character) -> int:
    from fleece.rules.woof.cards import CARD_VALUE

    return CARD_VALUE[c]


def consistent(evidence: Evidence) -> bool:
    """Whether z3 finds a deal satisfying every line."""
    model = _Model(compile_evidence(evidence))
    s, _ = model.solver()
    return z3_check(model.z3, s)


def unsat_core(evidence: Evidence) -> list[Fact]:
    """A minimal set of contradicting lines ([] when consistent): z3's core, then deletion."""
    model = _Model(compile_evidence(evidence))
    z3 = model.z3
    s = z3.Solver()
    s.add(*model.base)
    flags = [z3.Bool(f"fact{i}") for i in range(len(evidence.facts))]
    for flag, f in zip(flags, evidence.facts, strict=True):
        s.add(z3.Implies(flag, model.fact(f)))
    if z3_check(z3, s, *flags):
        return []
    core = [flags.index(c) for c in _core_flags(s, flags)]
    core.sort()
    i = 0
    while i < len(core):
        trial = core[:i] + core[i + 1:]
        if not z3_check(z3, s, *[flags[j] for j in trial]):
            core = trial
        else:
            i += 1
    return [evidence.facts[j] for j in core]


def _core_flags(s: Any, flags: Sequence[Any]) -> list[Any]:
    names = {str(c) for c in s.unsat_core()}
    return [f for f in flags if str(f) in names]


def possible_characters(evidence: Evidence) -> dict[int, set[Character]]:
    """Per seat, the characters that some consistent deal gives it."""
    problem = compile_evidence(evidence)
    model = _Model(problem)
    s, _ = model.solver()
    out: dict[int, set[Character]] = {}
    for seat in problem.seats:
        out[seat] = set()
        for c in CHARACTERS:
            if z3_check(model.z3, s, model.is_char(seat, c)):
                out[seat].add(c)
    return out


def certain_characters(evidence: Evidence) -> dict[int, Character]:
    """Seats whose character is forced: exactly one character is satisfiable."""
    return {s: next(iter(cs)) for s, cs in possible_characters(evidence).items() if len(cs) == 1}


#: Beyond this many possible hand assignments the engine gives up (use the fast engine): z3
#: finds a few hundred models a second here, so the limit keeps it near ten seconds.
LIMIT = 2_000


def assignments(evidence: Evidence, limit: int = LIMIT) -> list[dict[int, Hand]]:
    """All hand assignments z3 allows, by blocking-clause enumeration; Stopped over `limit`.

    A model gives every seat's card counts; since each seat holds exactly two cards, another
    assignment must hold fewer copies of one of the (at most two) kinds a seat holds, so the
    blocking clause lists only those: `Or(x[s][k] < n for the model's n = x[s][k] > 0)`.
    Models are read through z3's C API (the Python wrappers cost more than the checks)."""
    problem = compile_evidence(evidence)
    model = _Model(problem)
    z3 = model.z3
    s, _ = model.solver()
    seats = list(problem.seats)
    kinds = problem.kinds
    variables = [(seat, k, model.x[seat][k]) for seat in seats for k in range(len(kinds))]
    ctx = s.ctx.ref()
    out: list[dict[int, Hand]] = []
    while z3_check(z3, s):
        m = s.model()
        held: dict[int, list[Card]] = {seat: [] for seat in seats}
        block = []
        for seat, k, v in variables:
            res = (z3.Ast * 1)()
            if not z3.Z3_model_eval(ctx, m.model, v.as_ast(), True, res):
                raise AssertionError("z3 could not evaluate a model")
            n = int(z3.Z3_get_numeral_string(ctx, res[0]))
            if n:
                held[seat] += [kinds[k]] * n
                block.append(v < n)
        out.append({seat: make_hand(cards[0], cards[1]) for seat, cards in held.items()})
        if len(out) > limit:
            raise Stopped(f"more than {limit} possible deals: the smt engine lists every one "
                          "and would take minutes; use --engine fast (exact at any size)")
        s.add(z3.Or(block))
    return out


def solve(evidence: Evidence) -> Posterior:
    """Exact posterior from the enumerated models."""
    return posterior_from_assignments(compile_evidence(evidence), assignments(evidence))
