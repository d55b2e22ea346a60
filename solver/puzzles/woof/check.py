"""Independent verification of a Woof!! puzzle: z3 (the smt engine of the Woof solver, not the
fast engine the generator uses) decides the answer and which fact lines are needed; the
rule-limited solver grades it; the verdict compares both with the file's labels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fleece.rules.woof.cards import Character
from fleece.rules.woof.evidence import Evidence
from fleece.solver.puzzles.core import Grade
from fleece.solver.puzzles.woof.answer import answer_from, question_text, without
from fleece.solver.puzzles.woof.human import human_solve

Possible = dict[int, set[Character]]
"""Per seat, the characters some consistent deal gives it (z3's answer)."""


def z3_answer(ev: Evidence, q: int, first: Possible | None = None
              ) -> tuple[str | None, list[int]]:
    """The answer and the redundant fact indices, decided with the z3 engine of the Woof solver
    (independent of the fast engine the generator uses). `first`: z3's possible characters of
    the whole evidence when the caller has them already."""
    from fleece.solver.woof.smt import possible_characters

    def ans(poss: Possible) -> str | None:
        return answer_from({s: set(cs) for s, cs in poss.items()}, q)

    a = ans(first if first is not None else possible_characters(ev))
    if a is None:
        return None, []
    return a, [i for i in range(len(ev.facts)) if ans(possible_characters(without(ev, i))) == a]


@dataclass(frozen=True)
class WoofVerdict:
    """The outcome of `fleece woof puzzle check`: printable lines, whether every check passes,
    and the same as data."""

    lines: tuple[str, ...]
    ok: bool
    data: dict[str, Any]


def check_puzzle(ev: Evidence, q: int, labelled: Grade | None, claimed: str | None,
                 name: str) -> WoofVerdict:
    """Uniqueness and minimality with z3, the grade with the rule-limited solver, and the
    labelled grade and the solution file's answer (`claimed`, None when there is no file)."""
    from fleece.solver.woof.smt import possible_characters

    first = possible_characters(ev)  # one z3 pass serves the answer and the consistency:
    # a seat with no possible character means no deal fits, which tells a puzzle with no
    # answer at all apart from one with several
    ans, redundant = z3_answer(ev, q, first)
    ok = ans is not None and not redundant
    lines = [f"{name}: {question_text(q)}"]
    data: dict[str, Any] = {"question": question_text(q), "unique": ans is not None,
                            "answer": ans}
    if ans is None and not all(first.values()):
        data["consistent"] = False
        lines.append("answer: NONE (no deal fits the evidence, z3)")
        return WoofVerdict(tuple(lines), False, data)
    lines.append(f"answer: {ans or 'no wolf'} (unique, z3)" if ans is not None
                 else "answer: NOT UNIQUE (z3)")
    if ans is not None:
        data["minimal"] = not redundant
        data["redundant"] = [i + 1 for i in redundant]
        lines.append("minimal: yes (every fact line is needed, z3)" if not redundant else
                     "minimal: NO, not needed: " + ", ".join(f"fact {i + 1}" for i in redundant))
        sol = human_solve(ev, q)
        data["grade"] = sol.grade.label if sol.grade else None
        lines.append(f"grade: {sol.grade.label if sol.grade else 'NOT SOLVABLE by the rules'}")
        ok = ok and sol.grade is not None and labelled in (None, sol.grade)
        if labelled is not None and labelled != sol.grade:
            lines.append(f"label: MISMATCH, the file says {labelled.label}")
        if claimed is not None:
            match = claimed == ans
            lines.append("solution file: answer matches" if match else
                         f"solution file: MISMATCH, it says {claimed}")
            ok = ok and match
    lines.append("result: " + ("ok" if ok else "FAILED"))
    data["ok"] = ok
    return WoofVerdict(tuple(lines), ok, data)
