"""Short reasons a player can follow for every certain wolf and cleared animal.

Reasons come from a few sound rules, applied until nothing changes; each rule uses only some
of the facts, so whatever it derives holds in every consistent set:

- E1 known: the top row (dead wolf, dead sheep, escaped) or a Wolf pass (D9) says it.
- E2 only runner left: a row whose other runners are all sheep; the last one is the killer.
- E3 counter: a counter (K wolves, a wolf is alive, the score) is full, so the remaining
  candidates in its set are sheep; or it needs every remaining candidate, so they are wolves.
- E4 separate rounds: rounds whose possible killers share no animal need different wolves. If
  as many such rounds as unknown wolves exist, every unknown wolf ran in one of them, so an
  animal that ran in none of them is cleared.
- E5 what if: if assuming an animal is a sheep (or a wolf) leaves more separate rounds than
  wolves to cover them, or a single wolf to cover rounds that no animal ran in together, the
  assumption is impossible.
- E6 fallback: "a wolf in every one (none) of the N consistent sets" (the engine's count); with
  a dictionary and few fitting words, the fitting letter sets are listed instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from fleece.rules.mutton.chart import ChartRow, Status
from fleece.solver.mutton.facts import Fact, Kind, join_letters
from fleece.solver.mutton.problem import Problem
from fleece.solver.mutton.solution import Solution

MAX_PACKING_ROWS = 40  # exact maximum packing up to this many open rows, greedy above
MAX_LISTED_WORDS = 12  # dictionary fallback reasons list the fitting words up to this many


@dataclass(frozen=True)
class Reason:
    """Why an animal is a certain wolf (`wolf`) or cleared: rule E1-E6 and a sentence."""

    letter: str
    wolf: bool
    rule: str
    text: str


def _plural(letters: list[str], one: str, many: str) -> str:
    return one if len(letters) == 1 else many


class _Deriver:
    """The rule loop over one problem."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.facts = problem.facts
        self.rows: list[tuple[Fact, ChartRow | None]] = []
        by_round = {r.round: r for r in problem.chart.rows}
        for f in self.facts:
            if f.kind is Kind.AT_LEAST_ONE:
                rnd = int(f.key.split()[1]) if f.key.startswith("row ") else None
                self.rows.append((f, by_round.get(rnd) if rnd is not None else None))
        self.wolves: dict[str, Reason] = {}
        self.sheep: dict[str, Reason] = {}
        self.order: list[Reason] = []
        self.k_fact = next((f for f in self.facts if f.key == "wolves"), None)
        self.packings: dict[tuple[tuple[int, int], ...],
                            list[tuple[Fact, ChartRow | None, frozenset[str]]]] = {}
        self.bit = {a: 1 << i for i, a in enumerate(problem.animals)}
        self.row_masks = [sum(self.bit[a] for a in f.animals) for f, _ in self.rows]
        self.mask_letters: dict[int, frozenset[str]] = {}

    # -- bookkeeping -----------------------------------------------------------------------

    def add(self, letter: str, wolf: bool, rule: str, text: str) -> bool:
        if letter in self.wolves or letter in self.sheep:
            return False
        r = Reason(letter, wolf, rule, text)
        (self.wolves if wolf else self.sheep)[letter] = r
        self.order.append(r)
        return True

    def candidates(self, letters: frozenset[str]) -> frozenset[str]:
        return frozenset(a for a in letters if a not in self.sheep)

    def unknown(self, letters: frozenset[str]) -> list[str]:
        return sorted(a for a in letters if a not in self.sheep and a not in self.wolves)

    # -- phrases -----------------------------------------------------------------------------

    def sheep_phrase(self, letters: list[str]) -> str:
        """`D and S were shot as sheep; B is cleared (above)`."""
        by: dict[str, list[str]] = {}
        chart = self.problem.chart
        eaten = {r.victim for r in chart.rows}
        for a in letters:
            r = self.sheep[a]
            if r.rule == "E1" and chart.status_of(a) is Status.DEAD_SHEEP:
                key = "eaten" if a in eaten else "shot"
            elif r.rule == "E1":
                key = "pass"
            else:
                key = "derived"
            by.setdefault(key, []).append(a)
        parts = []
        for key, group in by.items():
            names = join_letters(group)
            if key in ("shot", "eaten"):
                verb = _plural(group, f"was {key} as a sheep", f"were {key} as sheep")
                parts.append(f"{names} {verb}")
            elif key == "pass":
                verb = _plural(group, "is not a wolf", "are not wolves")
                parts.append(f"{names} {verb} (the Wolf's pass)")
            else:
                parts.append(f"{names} {_plural(group, 'is', 'are')} cleared (above)")
        return "; ".join(parts)

    # -- rules ---------------------------------------------------------------------------------

    def known(self) -> None:
        """E1."""
        for f in self.facts:
            if f.kind is Kind.WOLF:
                self.add(f.animal, True, "E1", f.text)
            elif f.kind is Kind.SHEEP:
                self.add(f.animal, False, "E1", f.text)

    def only_runner(self) -> bool:
        """E2."""
        changed = False
        for f, row in self.rows:
            if f.animals & self.wolves.keys():
                continue
            cands = self.candidates(f.animals)
            if len(cands) != 1:
                continue
            (c,) = cands
            others = sorted(f.animals - {c})
            if row is not None and not others:
                text = f"{c} was the only runner in round {row.round}, so {c} killed {row.victim}"
            elif row is not None:
                text = (f"round {row.round}'s runners were {join_letters(f.animals)}; "
                        f"{self.sheep_phrase(others)}, so {c} killed {row.victim}")
            else:
                text = f"{f.text}; {self.sheep_phrase(others)}"
            changed |= self.add(c, True, "E2", text)
        return changed

    def counters(self) -> bool:
        """E3."""
        changed = False
        for f in self.facts:
            if f.kind is not Kind.COUNT:
                continue
            known = sorted(a for a in f.animals if a in self.wolves)
            rest = self.unknown(f.animals)
            if not rest:
                continue
            if len(known) >= f.hi:
                for a in rest:
                    changed |= self.add(a, False, "E3", self._full_text(f, known))
            elif len(known) + len(rest) <= f.lo:
                for a in rest:
                    changed |= self.add(a, True, "E3", self._needs_all_text(f, known, rest))
        return changed

    def _full_text(self, f: Fact, known: list[str]) -> str:
        if f.key == "wolves":
            if f.hi == 1:
                return f"the only wolf is known ({known[0]})"
            return f"all {f.hi} wolves are known ({join_letters(known)})"
        if f.key == "score":
            return (f"{f.text}, and the dead wolves are known "
                    f"({join_letters(known) if known else 'none'})")
        return f"{f.text}, and {join_letters(known)} already make up that number"

    def _needs_all_text(self, f: Fact, known: list[str], rest: list[str]) -> str:
        if f.key == "wolves":
            left = f.lo - len(known)
            return (f"{left} {_plural(rest, 'wolf is', 'wolves are')} still unknown and only "
                    f"{join_letters(rest)} {_plural(rest, 'is', 'are')} left that can be one")
        if f.key == "running":
            return (f"the game is still running, so a wolf is alive, and {join_letters(rest)} "
                    f"{_plural(rest, 'is the only living animal', 'are the only living animals')}"
                    " that can be one")
        return f"{f.text}, and only {join_letters(rest)} can be"

    def open_rows(self, extra_sheep: frozenset[str] = frozenset(),
                  extra_wolves: frozenset[str] = frozenset()
                  ) -> list[tuple[Fact, ChartRow | None, frozenset[str]]]:
        """Rows without a known wolf, with their candidates (not known sheep); an empty row
        is E2's business and left out."""
        return [(f, row, self.letters(c)) for f, row, c in self._open(extra_sheep, extra_wolves)]

    def _open(self, extra_sheep: frozenset[str], extra_wolves: frozenset[str]
              ) -> list[tuple[Fact, ChartRow | None, int]]:
        """`open_rows` with the candidates as bit masks over the animals."""
        bit = self.bit
        wolves = sum(bit[a] for a in self.wolves) | sum(bit[a] for a in extra_wolves)
        sheep = sum(bit[a] for a in self.sheep) | sum(bit[a] for a in extra_sheep)
        out = []
        for (f, row), m in zip(self.rows, self.row_masks, strict=True):
            if m & wolves:
                continue
            cands = m & ~sheep
            if cands:
                out.append((f, row, cands))
        return out

    def letters(self, mask: int) -> frozenset[str]:
        """The animals of a bit mask (cached)."""
        got = self.mask_letters.get(mask)
        if got is None:
            got = self.mask_letters[mask] = frozenset(
                a for a, b in self.bit.items() if mask & b)
        return got

    def packing(self, extra_sheep: frozenset[str] = frozenset(),
                extra_wolves: frozenset[str] = frozenset(), more_than: int | None = None
                ) -> list[tuple[Fact, ChartRow | None, frozenset[str]]]:
        """A maximum set of open rows whose candidates are pairwise disjoint. With
        `more_than`, an empty list when a counting bound shows that no packing is larger
        (callers only look at larger ones)."""
        open_rows = self._open(extra_sheep, extra_wolves)
        # Rows containing another open row's candidates add nothing to a packing.
        open_rows.sort(key=lambda t: (t[2].bit_count(), sorted(self.letters(t[2]))))
        # Sorted by size, so only earlier rows can be proper subsets, and a row containing a
        # dropped row also contains the kept row inside that one.
        minimal: list[tuple[Fact, ChartRow | None, int]] = []
        for t in open_rows:
            m = t[2]
            if not any(o & ~m == 0 and o != m for _, _, o in minimal):
                minimal.append(t)
        if more_than is not None and _packing_bound([c for _, _, c in minimal]) <= more_than:
            return []
        key = tuple((id(f), c) for f, _, c in minimal)
        got = self.packings.get(key)
        if got is None:
            got = self.packings[key] = [
                (f, row, self.letters(c)) for f, row, c in _max_packing(minimal)]
        return got

    def remaining_wolves(self) -> int | None:
        if self.k_fact is None:
            return None
        return self.k_fact.hi - len(self.wolves)

    def separate_rounds(self) -> bool:
        """E4."""
        r = self.remaining_wolves()
        if r is None or r <= 0:
            return False
        pack = self.packing()
        if len(pack) != r:
            return False
        covered = frozenset().union(*(c for _, _, c in pack))
        rest = [a for a in self.unknown(frozenset(self.problem.animals)) if a not in covered]
        if not rest:
            return False
        rounds = _rounds(pack)
        changed = False
        for a in rest:
            if r == 1:
                text = (f"the only wolf not yet known must be {rounds}'s killer, and {a} did "
                        f"not run in {rounds}")
            else:
                text = (f"{rounds} need {r} different killers (no possible killer ran in two "
                        f"of them), which uses up the {r} wolves not yet known; {a} ran in "
                        "none of those rounds")
            changed |= self.add(a, False, "E4", text)
        return changed

    def what_if(self) -> bool:
        """E5."""
        r = self.remaining_wolves()
        if r is None or r <= 0:
            return False
        changed = False
        for a in self.unknown(frozenset(self.problem.animals)):
            pack = self.packing(extra_sheep=frozenset(a), more_than=r)
            if len(pack) > r:
                text = (f"if {a} were a sheep, {_rounds(pack)} would need "
                        f"{len(pack)} different killers (no possible killer ran in two of "
                        f"them), but only {r} {_plural(['x'] * r, 'wolf is', 'wolves are')} "
                        "unknown")
                changed |= self.add(a, True, "E5", text)
                continue
            if r == 2:
                open_rows = self.open_rows(extra_wolves=frozenset(a))
                common = frozenset.intersection(*(c for _, _, c in open_rows)) \
                    if open_rows else frozenset()
                if len(open_rows) >= 2 and not common:
                    text = (f"if {a} were a wolf, the one wolf left would have run in each of "
                            f"{_rounds(open_rows)}, and no animal that can be a wolf ran in all "
                            "of them")
                    changed |= self.add(a, False, "E5", text)
                    continue
            pack = self.packing(extra_wolves=frozenset(a), more_than=r - 1)
            if len(pack) > r - 1:
                wolves = "wolf" if r == 2 else "wolves"
                left = "no wolf" if r == 1 else f"only {r - 1} {wolves}"
                need = ("a killer" if len(pack) == 1 else
                        f"{len(pack)} different killers (no possible killer ran in two of them)")
                text = (f"if {a} were a wolf, {_rounds(pack)} would still need {need}, but "
                        f"{left} would be left")
                changed |= self.add(a, False, "E5", text)
        return changed

    def run(self) -> None:
        self.known()
        while True:
            if self.only_runner() or self.counters() or self.separate_rounds():
                continue
            if self.what_if():
                continue
            break


def _rounds(pack: list[tuple[Fact, ChartRow | None, frozenset[str]]]) -> str:
    names = [str(row.round) for _, row, _ in pack if row is not None]
    if len(names) == 1:
        return f"round {names[0]}"
    return "rounds " + (", ".join(names[:-1]) + " and " + names[-1] if names else "")


def _packing_bound(masks: list[int]) -> int:
    """An upper bound on the size of a packing: disjoint rows, smallest first, can use no more
    animals than the rows hold together."""
    union = 0
    for m in masks:
        union |= m
    animals = union.bit_count()
    n = used = 0
    for size in sorted(m.bit_count() for m in masks):
        used += size
        if used > animals:
            break
        n += 1
    return n


def _max_packing(rows: list[tuple[Fact, ChartRow | None, int]]
                 ) -> list[tuple[Fact, ChartRow | None, int]]:
    """Maximum set of pairwise disjoint candidate sets (bit masks; exact branch and bound for
    few rows, greedy by size above MAX_PACKING_ROWS; a greedy packing is still a valid
    packing). The search takes rows in order, each first in and then out, and keeps the first
    largest packing it meets; a branch stops when its rows still disjoint from the chosen ones
    cannot make it larger."""
    if len(rows) > MAX_PACKING_ROWS:
        out, used = [], 0
        for t in rows:
            if not t[2] & used:
                out.append(t)
                used |= t[2]
        return out
    masks = [t[2] for t in rows]
    n = len(rows)
    best: list[int] = []
    chosen: list[int] = []

    def rec(i: int, used: int) -> None:
        nonlocal best
        if len(chosen) > len(best):
            best = list(chosen)
        avail = [j for j in range(i, n) if not masks[j] & used]
        if len(chosen) + len(avail) <= len(best):
            return
        j = avail[0]  # the rows before it meet the chosen ones: they can only stay out
        chosen.append(j)
        rec(j + 1, used | masks[j])
        chosen.pop()
        rec(j + 1, used)

    rec(0, 0)
    return [rows[j] for j in best]


def derive(problem: Problem) -> list[Reason]:
    """Everything rules E1-E5 derive, in order (sound: tests check it against the engines)."""
    d = _Deriver(problem)
    d.run()
    return d.order


def reasons(problem: Problem, solution: Solution) -> list[Reason]:
    """One reason per certain wolf and cleared animal, in the order they were derived (known
    facts first); E6 for whatever the rules do not reach."""
    if not solution.consistent:
        return []
    certain = set(solution.certain_wolves)
    cleared = set(solution.cleared)
    # Keep only what the count confirms (a derivation the count denies would be a bug).
    out = [r for r in derive(problem)
           if (r.letter in certain if r.wolf else r.letter in cleared)]
    done = {r.letter for r in out}
    n = solution.count
    sets = f"{n} consistent wolf {'set' if n == 1 else 'sets'}"
    words: list[str] = []
    if n <= MAX_LISTED_WORDS and any(f.kind is Kind.WORDS for f in problem.facts):
        from fleece.solver.mutton.fast import iter_sets

        words = ["".join(sorted(w)) for w in iter_sets(problem.animals, problem.facts)]
    for a in problem.animals:
        if a in done:
            continue
        if words:
            if a in certain:
                out.append(Reason(a, True, "E6", f"every letter set of the word list that fits "
                                                 f"the chart contains {a} ({', '.join(words)})"))
            elif a in cleared:
                out.append(Reason(a, False, "E6", f"no letter set of the word list that fits "
                                                  f"the chart contains {a} ({', '.join(words)})"))
        elif a in certain:
            out.append(Reason(a, True, "E6", f"a wolf in {'the' if n == 1 else 'every one of the'}"
                                             f" {sets}"))
        elif a in cleared:
            out.append(Reason(a, False, "E6", f"a wolf in none of the {sets}"))
    return out


def explain(problem: Problem, solution: Solution) -> dict[str, str]:
    """letter -> reason sentence for every certain wolf and cleared animal."""
    return {r.letter: r.text for r in reasons(problem, solution)}
