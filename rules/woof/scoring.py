"""Suspicions, round scoring with the Shepherd bonus (W8-W9) and the game end (W10).

Scoring works on characters and on who laid which Wolf clue token; it does not need the round's
history, so the rulebook's worked example can be scored directly (golden test).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from fleece.rules.errors import IllegalMoveError, RulesError
from fleece.rules.woof.cards import Character

#: Physical error tokens in the box (facts: 8). More can be needed; see Game.gaps.
ERROR_TOKENS = 8
ROUNDS_PER_GAME = 3


@dataclass(frozen=True)
class Suspicion:
    """One pick per target of the suspecting seat's character (W6): a seat number, or 0 for
    "nobody has this character". `targets` and `picks` have the same length."""

    targets: tuple[Character, ...]
    picks: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.targets) != len(self.picks):
            raise IllegalMoveError(
                f"a suspicion needs one pick per target ({len(self.targets)}), got "
                f"{len(self.picks)}"
            )

    def pick_for(self, target: Character) -> int | None:
        """The seat (or 0) named for `target`, None when it is not a target."""
        for t, p in zip(self.targets, self.picks, strict=True):
            if t is target:
                return p
        return None


def suspicion_correct(
    suspicion: Suspicion, seat: int, characters: Mapping[int, Character]
) -> bool:
    """W8: right for every target: a seat with that character, or 0 when no other seat has it."""
    for target, pick in zip(suspicion.targets, suspicion.picks, strict=True):
        if pick == 0:
            if any(c is target for s, c in characters.items() if s != seat):
                return False
        elif characters.get(pick) is not target:
            return False
    return True


@dataclass(frozen=True)
class RoundScore:
    """What one round gives each seat: points (incl. Shepherd bonus), error tokens, bans."""

    points: Mapping[int, int]
    errors: Mapping[int, int]
    bonus: Mapping[int, int]
    correct: Mapping[int, bool]
    barred_next_round: frozenset[int]


def score_round(
    characters: Mapping[int, Character],
    early: Mapping[int, Suspicion],
    final: Mapping[int, Suspicion | None],
    shepherd_wolf_tokens: Mapping[int, frozenset[int]],
    *,
    dummy: int | None = None,
) -> RoundScore:
    """Score a round (W8-W9).

    `characters`: every seat's character (the dummy's too); `early`/`final`: the suspicions
    (None = abstained); `shepherd_wolf_tokens`: for each seat, the seats where it laid a Wolf clue
    token (only Shepherds' count). Correct early = 2 points, correct final = 1, wrong = 1 error
    token, and a wrong early suspicion bars early suspicion next round. Each Shepherd gets +1 for
    every Hunter or Dog whose suspicion wrongly named as Wolf a seat carrying that Shepherd's Wolf
    token.
    """
    overlap = set(early) & {s for s, v in final.items() if v is not None}
    if overlap:
        raise RulesError(f"seat(s) {sorted(overlap)} suspected both early and finally")
    if dummy is not None and (dummy in early or final.get(dummy) is not None):
        raise RulesError("the dummy seat never suspects (W3)")
    points = dict.fromkeys(characters, 0)
    errors = dict.fromkeys(characters, 0)
    bonus = dict.fromkeys(characters, 0)
    correct: dict[int, bool] = {}
    barred: set[int] = set()
    made: list[tuple[int, Suspicion, bool]] = [(s, v, True) for s, v in early.items()]
    made += [(s, v, False) for s, v in final.items() if v is not None]
    for seat, suspicion, is_early in made:
        ok = suspicion_correct(suspicion, seat, characters)
        correct[seat] = ok
        if ok:
            points[seat] += 2 if is_early else 1
        else:
            errors[seat] += 1
            if is_early:
                barred.add(seat)
    shepherds = [s for s, c in characters.items() if c is Character.SHEPHERD]
    for seat, suspicion, _ in made:
        if characters[seat] not in (Character.HUNTER, Character.DOG):
            continue
        named = suspicion.pick_for(Character.WOLF)
        if not named or characters.get(named) is Character.WOLF:
            continue
        for shepherd in shepherds:
            if named in shepherd_wolf_tokens.get(shepherd, frozenset()):
                bonus[shepherd] += 1
                points[shepherd] += 1
    return RoundScore(points, errors, bonus, correct, frozenset(barred))


@dataclass
class Game:
    """Totals over the rounds of one game and the end rule (W10).

    The game ends after 3 rounds or as soon as a seat holds 2 error tokens. `gaps` records rules
    gaps met on the way (more error tokens needed than the box holds).
    """

    players: Sequence[int]
    points: dict[int, int] = field(default_factory=dict)
    errors: dict[int, int] = field(default_factory=dict)
    rounds: int = 0
    barred: frozenset[int] = frozenset()
    gaps: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for p in self.players:
            self.points.setdefault(p, 0)
            self.errors.setdefault(p, 0)

    @property
    def over(self) -> bool:
        """W10: three rounds played, or some seat holds two error tokens."""
        return self.rounds >= ROUNDS_PER_GAME or any(e >= 2 for e in self.errors.values())

    def record(self, score: RoundScore) -> None:
        """Add one round's score; bans from wrong early suspicions apply to the next round."""
        if self.over:
            raise RulesError("the game is over (W10)")
        for p in self.players:
            self.points[p] += score.points.get(p, 0)
            self.errors[p] += score.errors.get(p, 0)
        self.rounds += 1
        self.barred = score.barred_next_round
        if sum(self.errors.values()) > ERROR_TOKENS:
            self.gaps.append(
                f"round {self.rounds}: {sum(self.errors.values())} error tokens needed, the box "
                f"holds {ERROR_TOKENS}"
            )

    def winners(self) -> list[int]:
        """W10: most points; ties go to fewer error tokens; remaining ties share the win."""
        best = max((self.points[p], -self.errors[p]) for p in self.players)
        return [p for p in self.players if (self.points[p], -self.errors[p]) == best]
