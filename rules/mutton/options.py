"""The Mutton rule set: every option of the pbmserv server and the rulebook (M4-M23).

`MuttonOptions` is an immutable value validated on construction with the server's ranges. It
reads and writes the pbmserv `challenge` option syntax (`-size=4 -num_sheep=26 -no_reveal`),
which is also the first line of a fleece game record.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum

from fleece.rules.errors import ParseError, RulesError
from fleece.rules.mutton.geometry import MAX_SIZE, MIN_SIZE, board
from fleece.rules.text import quote, split_lines, whole_number

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MIN_ANIMALS = 2
MAX_ANIMALS = 26
QUICK_PLAY_TARGET = 11  # rulebook quick play: the Wolf wins with 11 or more points
MAX_QUICK_PLAY = 99  # no game scores more (25 dead sheep plus 3 per escaped wolf)


class Weapon(Enum):
    """The Farmer's weapon (M17)."""

    RIFLE = "rifle"
    SHOTGUN = "shotgun"


@dataclass(frozen=True)
class MuttonOptions:
    """One variant of Mutton; defaults are the server's defaults (M1, M4, M6, M12-M23).

    `num_sheep` counts every animal on the board, wolves included (the server's naming).
    `quick_play` is None for a match of two games, else the score the Wolf needs to win one
    game. `dictionary` is None, or the allowed wolf letter sets (M23).
    """

    size: int = 4
    num_sheep: int = 26
    num_wolves: int = 4
    berserk: bool = True
    reveal: bool = True
    remove: bool = False
    escape: bool = False
    weapon: Weapon = Weapon.RIFLE
    quick_play: int | None = None
    dictionary: frozenset[frozenset[str]] | None = field(default=None, compare=True)

    def __post_init__(self) -> None:
        if not MIN_SIZE <= self.size <= MAX_SIZE:
            raise RulesError(f"size must be in {MIN_SIZE}..{MAX_SIZE}, got {self.size}")
        if not MIN_ANIMALS <= self.num_sheep <= MAX_ANIMALS:
            raise RulesError(
                f"num_sheep must be in {MIN_ANIMALS}..{MAX_ANIMALS}, got {self.num_sheep}"
            )
        cells = len(board(self.size))
        if self.num_sheep > cells:
            raise RulesError(
                f"{self.num_sheep} animals do not fit on a size-{self.size} board ({cells} cells)"
            )
        top = self.num_sheep // 2
        if not 1 <= self.num_wolves <= top:
            raise RulesError(
                f"num_wolves must be in 1..num_sheep/2 = 1..{top}, got {self.num_wolves}"
            )
        if self.quick_play is not None and not 1 <= self.quick_play <= MAX_QUICK_PLAY:
            raise RulesError(f"the quick-play target must be in 1..{MAX_QUICK_PLAY}, got "
                             f"{self.quick_play}")
        if self.dictionary is not None:
            pool = frozenset(self.letters)
            usable = [w for w in self.dictionary if len(w) == self.num_wolves and w <= pool]
            if not usable:
                raise RulesError(
                    f"the dictionary has no word of {self.num_wolves} distinct letters "
                    f"among {self.letters[0]}..{self.letters[-1]}"
                )

    # ---- derived facts -------------------------------------------------------------------

    @property
    def letters(self) -> str:
        """Animal labels in order: A, B, C, ... (M4)."""
        return ALPHABET[: self.num_sheep]

    @property
    def shotgun(self) -> bool:
        """True when the Farmer fires a shotgun (M17)."""
        return self.weapon is Weapon.SHOTGUN

    @property
    def corpses_removed(self) -> bool:
        """Corpses leave the board at the end of each move (M16, and M17 with the shotgun)."""
        return self.remove or self.shotgun

    @property
    def berserk_allowed(self) -> bool:
        """Berserk is on and the weapon is a rifle (M13, M17)."""
        return self.berserk and not self.shotgun

    def allows_wolf_set(self, letters: Iterable[str]) -> bool:
        """True when a wolf set is allowed by the dictionary variant (M23), or there is none."""
        if self.dictionary is None:
            return True
        return frozenset(letters) in self.dictionary

    def with_options(self, **changes: object) -> MuttonOptions:
        """A copy with some options changed (validated again)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    # ---- pbmserv option syntax -----------------------------------------------------------

    def to_options(self) -> str:
        """The pbmserv `challenge` options for this rule set. A dictionary (M23, which the
        server does not offer) is written as fleece's `-words=ABCD,EFGH,...`: each allowed
        wolf set's letters, sorted, so that a record names its whole rule set."""
        parts = [
            f"-size={self.size}",
            f"-num_sheep={self.num_sheep}",
            f"-num_wolves={self.num_wolves}",
            "-berserk" if self.berserk else "-no_berserk",
            "-reveal" if self.reveal else "-no_reveal",
            "-remove" if self.remove else "-no_remove",
            "-escape" if self.escape else "-no_escape",
            f"-{self.weapon.value}",
        ]
        if self.quick_play is not None:
            parts.append(f"-quick={self.quick_play}")
        if self.dictionary is not None:
            words = sorted("".join(sorted(w)) for w in self.dictionary)
            parts.append(f"-words={','.join(words)}")
        return " ".join(parts)


_FLAGS: dict[str, tuple[str, object]] = {
    "berserk": ("berserk", True),
    "no_berserk": ("berserk", False),
    "reveal": ("reveal", True),
    "no_reveal": ("reveal", False),
    "remove": ("remove", True),
    "no_remove": ("remove", False),
    "escape": ("escape", True),
    "no_escape": ("escape", False),
    "rifle": ("weapon", Weapon.RIFLE),
    "shotgun": ("weapon", Weapon.SHOTGUN),
    "quick": ("quick_play", QUICK_PLAY_TARGET),
}
_NUMBERS = {
    "size": "size",
    "num_sheep": "num_sheep",
    "num_wolves": "num_wolves",
    "quick": "quick_play",
}
_TOKEN_RE = re.compile(r"[^ ]+")


def parse_options(
    text: str,
    *,
    line: int | None = None,
    dictionary: frozenset[frozenset[str]] | None = None,
) -> MuttonOptions:
    """Parse pbmserv challenge options (`-size=5 -no_reveal ...`); the leading dash is optional.

    Unknown options and out-of-range values raise ParseError naming the column. Options are
    separated by spaces (tabs and non-breaking spaces count as one space each); any other
    character, a non-ASCII one included, belongs to an option name and makes it unknown.
    """
    values: dict[str, object] = {}
    for match in _TOKEN_RE.finditer(text.replace("\t", " ").replace("\u00a0", " ")):
        token = match.group(0)
        column = match.start() + 1
        head = token.split("=", 1)[0]
        if not head.isascii() or not head.isprintable():  # no look-alikes (a Kelvin sign)
            raise ParseError(f"unknown option {quote(token)}", line=line, column=column)
        name = token.lstrip("-").lower()
        value: object
        if name.startswith("words="):
            attr, value = "dictionary", _parse_words(token.split("=", 1)[1], line, column)
        elif "=" in name:
            key, _, raw = name.partition("=")
            if key not in _NUMBERS:
                raise ParseError(f"unknown option {quote(token)}", line=line, column=column)
            attr = _NUMBERS[key]
            value = whole_number(raw, f"option '{key}'", max_digits=4, line=line,
                                 column=column + token.index("=") + 1)
        elif name in _FLAGS:
            attr, value = _FLAGS[name]
        else:
            known = ", ".join(sorted({*_FLAGS, *(f"{k}=N" for k in _NUMBERS), "words=W,..."}))
            raise ParseError(f"unknown option {quote(token)} (known: {known})", line=line,
                             column=column)
        if attr in values:
            raise ParseError(f"{quote(token)}: the {attr.replace('_', ' ')} option is given "
                             "twice", line=line, column=column)
        values[attr] = value
    if dictionary is not None:
        values["dictionary"] = dictionary
    try:
        return MuttonOptions(**values)  # type: ignore[arg-type]
    except RulesError as exc:
        raise ParseError(str(exc), line=line) from None


def _parse_words(text: str, line: int | None, column: int) -> frozenset[frozenset[str]]:
    """The letter sets of `-words=ABCD,EFGH` (capitals, each letter once per word)."""
    sets: set[frozenset[str]] = set()
    for word in text.split(","):
        if not word or not word.isascii() or not word.isalpha() or not word.isupper() \
                or len(set(word)) != len(word):
            raise ParseError(f"-words: {quote(word)} is not a word of distinct capitals",
                             line=line, column=column)
        sets.add(frozenset(word))
    return frozenset(sets)


def load_dictionary(text: str, num_wolves: int | None = None) -> frozenset[frozenset[str]]:
    """Letter sets of a word list (one word per line, `#` comments): words whose letters are
    all distinct (a wolf set has no repeated animal), optionally only those of `num_wolves`
    letters."""
    sets: set[frozenset[str]] = set()
    for raw in split_lines(text):
        word = raw.split("#", 1)[0].strip(" \t").upper() if raw.isascii() else ""
        if not word or not word.isalpha():
            continue
        letters = frozenset(word)
        if len(letters) == len(word) and (num_wolves is None or len(word) == num_wolves):
            sets.add(letters)
    return frozenset(sets)
