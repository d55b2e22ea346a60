"""W11 for evidence files: can the clue tokens lay every announcement of a record?

Every look is announced by laying a token (docs/rules.md W4, W11): a clue token of the viewer's
own six (Wolf/Hunter, Wolf/Sheep, Wolf/Dog, Hunter/Sheep, Dog/Sheep, Dog/Hunter, one side up)
for a character, a "?" token from the table's shared pool of 12 for "don't know". Tokens stay
out until the round ends, so a record of one round can be laid exactly when each viewer's
announced sides have a perfect matching into its tokens (rules.woof.tokens.can_show) and the
"?" announcements do not outnumber the pool. A record that cannot be laid is impossible, as a
contradiction is: `token_clash` returns a minimal set of lines that cannot all be laid
(solver.core.minimal_core), which `analyse()` reports with exit status 1.

Which lines lay a token: `look` lines and `saw` lines with an announcement, by their
announcement (an announcement no token shows, such as Shepherd, cannot be laid); a `saw` line
without one still laid a token: "?" for a card whose appearance is "?", else a clue token
showing the card's appearance, or Wolf when the viewer is the Shepherd (W4). The viewer's
character is not known here, so a viewer with such lines can lay them when either reading
(Shepherd or not, the same for all its lines) fits; records written by the toolkit always
carry the announcement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fleece.rules.woof.cards import Character
from fleece.rules.woof.evidence import Evidence, Fact, LookFact, SawFact
from fleece.rules.woof.tokens import CLUE_TOKENS, QUESTION_MARK_TOKENS, can_show
from fleece.solver.core import minimal_core

_SIDES = frozenset(side for token in CLUE_TOKENS for side in token)


@dataclass(frozen=True)
class Need:
    """The token one line lays: a "?" token (`pool`), or a clue token of `viewer` showing
    `side`; `shepherd_side` differs from `side` for an unannounced `saw` (the side a Shepherd
    viewer would show). `side` None with `pool` False: no token can show the announcement."""

    viewer: int
    pool: bool
    side: Character | None
    shepherd_side: Character | None


def need(fact: Fact) -> Need | None:
    """The token a line lays, or None for lines that lay none (hand, ask)."""
    if isinstance(fact, LookFact) or (isinstance(fact, SawFact) and fact.announced_given):
        said = fact.announced
        if said is None:
            return Need(fact.viewer, True, None, None)
        side = said if said in _SIDES else None
        return Need(fact.viewer, False, side, side)
    if isinstance(fact, SawFact):
        app = fact.card.appearance
        if app is None:
            return Need(fact.viewer, True, None, None)
        return Need(fact.viewer, False, app if app in _SIDES else None, Character.WOLF)
    return None


def _viewer_fits(needs: Sequence[Need]) -> bool:
    """One viewer's clue tokens can show every side it needs, under one reading of whether
    it is the Shepherd."""
    for shepherd in (False, True):
        sides = [n.shepherd_side if shepherd else n.side for n in needs]
        if all(s is not None for s in sides) and can_show([s for s in sides if s is not None]):
            return True
    return False


def layable(facts: Sequence[Fact]) -> bool:
    """W11: every token the lines lay can be laid at once (per-viewer matching, the pool)."""
    needs = [n for n in map(need, facts) if n is not None]
    if sum(n.pool for n in needs) > QUESTION_MARK_TOKENS:
        return False
    by_viewer: dict[int, list[Need]] = {}
    for n in needs:
        if not n.pool:
            by_viewer.setdefault(n.viewer, []).append(n)
    return all(_viewer_fits(group) for group in by_viewer.values())


def token_clash(evidence: Evidence) -> tuple[Fact, ...]:
    """A minimal set of lines that cannot all be laid with the tokens (removing any one makes
    the rest layable), or () when the whole record can be laid. Earlier lines are dropped first
    when there is a choice (solver.core.minimal_core)."""
    if layable(evidence.facts):
        return ()
    return tuple(minimal_core(list(evidence.facts), layable))
