"""What the Farmer knows, as a `Problem`, and the facts every engine turns into constraints.

A *consistent wolf set* is a set W of exactly K animals that the Farmer's public knowledge does
not rule out. The prior is uniform over consistent sets (each of the Wolf's possible choices is
equally likely before the game, M6). The knowledge is written down as a list of `Fact`s, each
one rule of the game applied to one piece of the chart, with a sentence a player can follow.
Every engine (fast, csp, smt, brute force) counts the sets satisfying the same facts, so the
interpretation of the rules lives here and only here.

Deduction clauses (each cites the docs/rules.md clauses it rests on):

- D1 (M18, M25) An animal shown as a dead wolf (`w`) is in W.
- D2 (M12) An escaped wolf (`e` in the chart, or `--escaped`) is in W.
- D3 (M18, M25) With the reveal option an animal shown as a dead sheep (`x`) is not in W.
  Without reveal an `x` is a dead animal of unknown identity: it may be a wolf (it may have
  been the killer of rows before its death).
- D4 (M6) W has exactly K animals.
- D5 (M8, M9, M26) Each chart row: the victim was next to a living wolf (the killer); every
  living neighbour of the victim ran, so the killer is among that row's runners and W meets the
  runners. Subtleties: a runner was alive and next to the victim at that time, so any runner
  that is a wolf qualifies as a killer, including one that died later (eaten or shot; with
  no_reveal such a dead animal stays a candidate); a runner known to be a sheep cannot be the
  killer (D3 already removes it from W); the victim itself may be a wolf (wolves eat wolves,
  M8) but is never a runner of its own row, so it is never that row's killer.
- D6 (M19) While the game is running at least one wolf is alive on the board. It is added
  when the chart hides an identity (no_reveal: the server reveals everything when the game
  ends), when the Wolf just passed (`--passed`), or for an unfinished game record. With reveal
  it is implied by D1-D4 whenever fewer than K wolves are known.
- D7 (M20, M12) A score line gives the Wolf's points: one per dead sheep plus three per escaped
  wolf. So exactly (#dead - (score - 3 * #escaped)) dead animals are wolves. Under reveal this
  only cross-checks the top row (a mismatch makes the chart inconsistent); under no_reveal it
  tells how many of the unrevealed dead were wolves.
- D8 (M23) Dictionary variant: W is the letter set of a word in the list.
- D9 (M10, M11) A Wolf pass at a known position: the Wolf must kill when a legal kill exists,
  so no living wolf stood next to a living animal whose kill was legal (its runners placeable,
  M10). Legality of a kill does not depend on W, so each such neighbour is simply not a wolf.
  Sources: `--passed` with the board in the paste (a pass this turn), and every `pass` of a
  full game record (board positions replayed from the record).

The true wolves line of a record is never used as knowledge: only what the Farmer publicly
learned (identities revealed on death under the reveal option, or everything once the game is
over, exactly as `rules.mutton.chart.farmer_chart` shows it) and the positions of the moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from fleece.rules.errors import FleeceError
from fleece.rules.mutton.chart import Chart, Status
from fleece.rules.mutton.diagram import BoardPicture
from fleece.rules.mutton.geometry import board as board_of_size
from fleece.solver.mutton.facts import (
    Fact,
    Kind,
    death_words,
    eaten_in,
    row_text,
)

if TYPE_CHECKING:  # the game model loads only for board questions (kill options)
    from fleece.rules.mutton.game import GameState

# ---- record knowledge ----------------------------------------------------------------------


@dataclass(frozen=True)
class PossibleKill:
    """A kill that was legal for *some* wolf at a Wolf turn: its victim and its runners (the
    living neighbours, i.e. the possible killers), with the number of runner placements."""

    victim: str
    runners: frozenset[str]
    placements: int


@dataclass(frozen=True)
class WolfTurn:
    """A Wolf move of a record with the public position before it (for D9 and the Wolf model).

    `move` is `kill`, `escape` or `pass`; `animal` the victim or the escaped wolf;
    `options` every kill that was legal for some wolf set (runners placeable, M10);
    `alive` the living animals; `isolated` the living animals without a living neighbour
    (the ones that could escape, M12); `escape_allowed` the escape option.
    """

    round: int
    move: str
    animal: str | None
    options: tuple[PossibleKill, ...]
    alive: frozenset[str]
    isolated: frozenset[str]
    escape_allowed: bool


# ---- the problem -------------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """Everything the Farmer knows: the chart (with `--escaped` already applied), the number of
    wolves K, the optional dictionary (M23), `passed` (the Wolf passed now; needs the board),
    the Wolf turns of a full record (`turns`, for D9 and the Wolf model) and `running`
    (None: inferred, see D6). Build it with `problem_from_chart` / `problem_from_record`."""

    chart: Chart
    num_wolves: int = 4
    dictionary: frozenset[frozenset[str]] | None = field(default=None, compare=False)
    passed: bool = False
    turns: tuple[WolfTurn, ...] | None = None
    running: bool | None = None
    source: str = "chart"
    notes: tuple[str, ...] = ()

    @property
    def animals(self) -> str:
        """All animal letters, in order."""
        return self.chart.animals

    @property
    def reveal(self) -> bool:
        """True when identities of dead animals are shown (M18)."""
        return self.chart.reveal

    @property
    def escaped(self) -> frozenset[str]:
        """Animals known to have escaped (wolves, M12)."""
        return frozenset(self.chart.letters_with(Status.ESCAPED))

    @property
    def board(self) -> BoardPicture | None:
        """The current board, when the paste or record gives it."""
        return self.chart.board

    @property
    def is_record(self) -> bool:
        """True when built from a full game record."""
        return self.turns is not None

    def status(self, letter: str) -> Status:
        """An animal's status as the Farmer knows it."""
        return self.chart.status_of(letter)

    def alive(self) -> list[str]:
        """Living animals in letter order."""
        return self.chart.letters_with(Status.ALIVE)

    def game_running(self) -> bool:
        """Whether D6 applies (see the module docstring)."""
        if self.running is not None:
            return self.running
        return self.passed or any(s is Status.DEAD for s in self.chart.status)

    @cached_property
    def facts(self) -> tuple[Fact, ...]:
        """Every fact of the problem, in chart order (see the D-clauses above)."""
        return tuple(derive_facts(self))


def derive_facts(problem: Problem) -> list[Fact]:
    """Translate the problem into facts (D1-D9)."""
    chart = problem.chart
    facts: list[Fact] = []
    k = problem.num_wolves
    everyone = frozenset(chart.animals)
    for a, st in zip(chart.animals, chart.status, strict=True):
        one = frozenset(a)
        if st is Status.DEAD_WOLF:
            facts.append(Fact(f"status {a}", "D1",
                              f"{a} {death_words(chart, a)} and revealed as a wolf",
                              Kind.WOLF, one))
        elif st is Status.ESCAPED:
            facts.append(Fact(f"status {a}", "D2", f"{a} escaped, so it is a wolf",
                              Kind.WOLF, one))
        elif st is Status.DEAD_SHEEP:
            facts.append(Fact(f"status {a}", "D3",
                              f"{a} {death_words(chart, a)} and revealed as a sheep",
                              Kind.SHEEP, one))
    facts.append(Fact("wolves", "D4", f"there are exactly {k} wolves", Kind.COUNT, everyone,
                      k, k))
    for row in chart.rows:
        facts.append(Fact(f"row {row.round}", "D5", row_text(row), Kind.AT_LEAST_ONE,
                          row.runners))
    if problem.game_running():
        alive = frozenset(chart.letters_with(Status.ALIVE))
        facts.append(Fact("running", "D6",
                          "the game is still running, so at least one wolf is alive",
                          Kind.COUNT, alive, 1, len(everyone)))
    if chart.score is not None:
        dead = frozenset(chart.letters_with(Status.DEAD, Status.DEAD_SHEEP, Status.DEAD_WOLF))
        escaped = len(chart.letters_with(Status.ESCAPED))
        sheep = chart.score - 3 * escaped
        m = len(dead) - sheep
        esc = f" and {escaped} escaped wolves score 3 each" if escaped else ""
        if 0 <= m <= len(dead):
            verb = "is a wolf" if m == 1 else "are wolves"
            tail = f"so {m} of the {len(dead)} dead animals {verb}"
        else:
            tail = f"but only {len(dead)} animals are dead"
        facts.append(Fact("score", "D7",
                          f"the score is {chart.score}: one point per dead sheep{esc}; "
                          f"that makes {sheep} dead sheep, {tail}",
                          Kind.COUNT, dead, m, m))
    if problem.dictionary is not None:
        usable = frozenset(w for w in problem.dictionary if len(w) == k and w <= everyone)
        facts.append(Fact("dictionary", "D8",
                          f"the wolves' letters spell a word of the list ({len(usable)} "
                          f"words of {k} letters)", Kind.WORDS, words=usable))
    facts.extend(_pass_facts(problem))
    return facts


def _pass_facts(problem: Problem) -> list[Fact]:
    out: list[Fact] = []
    seen: set[str] = set()
    turns: list[tuple[str, tuple[PossibleKill, ...]]] = []
    if problem.turns is not None:
        turns = [(f"in round {t.round}", t.options) for t in problem.turns if t.move == "pass"]
    if problem.passed:
        if problem.board is None:
            raise FleeceError("needs the board in the paste (the positions decide which "
                              "kills were possible)", field="passed")
        turns.append(("this turn", kill_options_on_board(problem.chart)))
    for when, options in turns:
        for opt in options:
            for a in sorted(opt.runners):
                if a in seen:
                    continue
                seen.add(a)
                round_key = when.removeprefix("in round ").replace("this turn", "now")
                out.append(Fact(f"pass {round_key} {a}", "D9",
                                f"the Wolf passed {when} although {a} stood next to "
                                f"{opt.victim}, whose kill was legal, so {a} is not a wolf",
                                Kind.SHEEP, frozenset(a)))
    return out


# ---- positions -------------------------------------------------------------------------------


def kill_options(state: GameState) -> tuple[PossibleKill, ...]:
    """Every kill legal for *some* wolf set at a position: victims next to a living animal
    whose runners can be placed (M8-M10). Uses the rules model with every living animal
    treated as a hidden wolf, so the answer does not depend on who the wolves are."""
    from fleece.rules.mutton.game import Phase

    living = frozenset(state.living())
    probe = replace(state, wolves=living, phase=Phase.WOLF)
    out = []
    for opt in probe.legal_kills():
        out.append(PossibleKill(opt.victim, frozenset(opt.runners), opt.placements))
    return tuple(out)


def state_from_chart(chart: Chart) -> GameState:
    """A rules-model position equivalent to the chart's board (living animals on their cells,
    corpses), for the legality of kills. Needs the board."""
    pic = chart.board
    if pic is None:
        raise FleeceError("the board is needed for this question")
    n = len(chart.animals)
    from fleece.rules.mutton.game import Fate, GameState, Phase
    from fleece.rules.mutton.options import MuttonOptions

    rules = MuttonOptions(size=pic.size, num_sheep=n, num_wolves=1)
    positions = tuple(pic.animals.get(a) for a in chart.animals)
    fates = tuple(Fate.ALIVE if a in pic.animals else Fate.SHOT for a in chart.animals)
    return GameState(rules=rules, positions=positions, fates=fates, corpses=pic.corpses,
                     phase=Phase.WOLF, round=1)


def kill_options_on_board(chart: Chart) -> tuple[PossibleKill, ...]:
    """`kill_options` for the board of a paste."""
    return kill_options(state_from_chart(chart))


def living_neighbours(chart: Chart) -> dict[str, list[str]]:
    """Living animal -> its living neighbours on the board (empty when no board)."""
    pic = chart.board
    if pic is None:
        return {}
    b = board_of_size(pic.size)
    at = {c: a for a, c in pic.animals.items()}
    return {a: sorted(at[n] for n in b.neighbours(c) if n in at) for a, c in pic.animals.items()}


# ---- builders ------------------------------------------------------------------------------


def _check_wolves(k: int, n: int) -> None:
    if not 1 <= k <= n // 2:
        raise FleeceError(f"the number of wolves must be in 1..{n // 2} for {n} animals "
                          f"(M6), got {k}")


def apply_escaped(chart: Chart, escaped: str | set[str] | frozenset[str]) -> tuple[Chart,
                                                                                   list[str]]:
    """The chart with the given animals marked as escaped wolves (M12), and notes for the
    user when a shown mark is overridden."""
    letters = sorted(set(escaped))
    notes: list[str] = []
    status = list(chart.status)
    victims = eaten_in(chart)
    for a in letters:
        if a not in chart.animals:
            raise FleeceError(f"there is no animal {a!r} in the chart "
                              f"({chart.animals[0]}..{chart.animals[-1]})", field="escaped")
        if a in victims:
            raise FleeceError(f"{a} was eaten in round {victims[a]}, so it did not escape",
                              field="escaped")
        i = chart.animals.index(a)
        if status[i] is Status.ALIVE and chart.board is not None:
            raise FleeceError(f"{a} still stands on the board", field="escaped")
        if status[i] is not Status.ESCAPED:
            notes.append(f"{a} is shown as {status[i].value}; taken as an escaped wolf "
                         "(--escaped)")
        status[i] = Status.ESCAPED
    return replace(chart, status=tuple(status)), notes


def problem_from_chart(chart: Chart, wolves: int = 4, *, escaped: str | frozenset[str] = "",
                       dictionary: frozenset[frozenset[str]] | None = None,
                       passed: bool = False, running: bool | None = None) -> Problem:
    """A problem from a parsed chart (`rules.mutton.chart.parse_chart`). `escaped` lists
    escaped wolves the paste does not mark; `passed` says the Wolf passed this turn (needs the
    board); `running` overrides the D6 inference."""
    _check_wolves(wolves, len(chart.animals))
    notes: list[str] = []
    if escaped:
        chart, notes = apply_escaped(chart, escaped)
    if passed and chart.board is None:
        raise FleeceError("needs the board in the paste (the positions decide which kills "
                          "were possible)", field="passed")
    return Problem(chart, wolves, dictionary, passed, None, running, "chart", tuple(notes))
