"""Seeded fuzz run of the `fleece` command line over mutated and hostile inputs.

Every input starts from a valid one (the bundled examples, puzzle packs, records, positions,
deck specs, and valid command lines of every group: mutton, woof, ulvtafl, cards, `verify` of
each game (one quick section, reports into the run's own folder) and `serve`, whose valid
options would start a server, so only its malformed option lines are run) and gets one
seeded mutation. A mutation either makes the input malformed for sure (a mark between two
chart columns, a digit of another script, a truncated record line, an unknown keyword, a
boolean where JSON wants a number, ...: the "malformed" classes) or has an unknown effect (a
character deleted or inserted, lines swapped, the text cut short, ...: the "unknown"
classes). Each run checks:

- no internal error: the exit status is 0, 1 or 2 (never 3, a traceback or a signal);
- no hang: the run takes at most --limit seconds (default 20) of CPU time (--clock cpu, the
  default: other work on a shared machine slows a run's wall clock but not its CPU time; the
  report also counts runs over the limit in wall-clock time), and a run still going after
  --kill wall seconds (default 60) is killed and counted as over;
- honest errors: an exit status 2 prints exactly one line `fleece: error: ...` of at most 300
  printable characters (a stop, exit status 1, one line `fleece: stopped: ...`);
- no accepted malformed input: a "malformed" mutation ends with exit status 2;
- the unmutated inputs are accepted (exit status 0 or 1).

    python benchmarks/fuzz_cli.py [--count 3000] [--seed 1] [--jobs 2] [--limit 20]
                                  [--clock cpu|wall] [--kill 60]
                                  [--only CLASS[,CLASS]] [--save DIR] [--subprocess]

Runs are forked from one process that has already imported fleece (so a run's time excludes
the interpreter's start-up; --subprocess runs the real `fleece` command instead, slower). The
report is a table per mutation class and the failures with a command that reproduces each
(inputs kept under --save). Exit status 0 when there is no failure.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_LINE = 300
HUGE = "9" * 5000
OTHER_DIGITS = ["\u0660", "\u06f0", "\u0966", "\uff10", "\u09e6", "\u0e50"]  # zeros of scripts
INVISIBLE = ["\u200b", "\u2028", "\u2029", "\u0085", "\x0c", "\x0b", "\x1b", "\x00", "\x7f",
             "\ufeff", "\u202e", "\r"]
PALETTE = [" ", "\t", "\u00a0", "x", "w", "+", "#", ":", "/", "-", ",", "=", "*", "?", "{",
           "}", "[", "]", '"', "\\", "0", "1", "9", "A", "Z", "a", "q", "\u00e9", "\u0663",
           "\uff11", *INVISIBLE]


# ---- seeds ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Seed:
    """A valid input of one kind."""

    kind: str
    name: str
    text: str


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def collect_seeds() -> list[Seed]:
    """Every bundled valid input, by kind."""
    out: list[Seed] = []
    ex = ROOT / "examples"
    for p in sorted((ex / "mutton").glob("*.txt")):
        if p.name != "words.txt":
            text = _read(p)
            out.append(Seed("chart", p.name, text))
            out.append(Seed("chart", p.name + ":normal", text.replace("\u00a0", " ")))
    for p in sorted((ex / "mutton").glob("*.rec")):
        if p.name != "illegal.rec":
            out.append(Seed("record", p.name, _read(p)))
    for p in sorted((ex / "mutton").glob("*.json")):
        out.append(Seed("mutton-json", p.name, _read(p)))
    for grade in ("easy", "medium", "hard"):
        for p in sorted((ROOT / "puzzles" / "mutton" / grade).glob("00[1-3].txt")):
            out.append(Seed("mutton-puzzle", f"{grade}/{p.name}", _read(p)))
            out.append(Seed("mutton-puzzle-json", f"{grade}/{p.stem}.json",
                            _read(p.with_suffix(".json"))))
        for p in sorted((ROOT / "puzzles" / "woof" / grade).glob("00[1-3].txt")):
            out.append(Seed("woof-puzzle", f"{grade}/{p.name}", _read(p)))
            out.append(Seed("woof-json", f"{grade}/{p.stem}.json",
                            _read(p.with_suffix(".json"))))
    for p in sorted((ex / "woof").glob("*.txt")):
        out.append(Seed("woof", p.name, _read(p)))
    for p in sorted((ex / "ulvtafl").glob("*.txt")):
        out.append(Seed("ulvtafl-position", p.name, _read(p)))
    for p in sorted((ex / "ulvtafl").glob("*.rec")):
        if p.name != "illegal.rec":
            out.append(Seed("ulvtafl-record", p.name, _read(p)))
    for p in sorted((ex / "cards").glob("*.txt")):
        out.append(Seed("cards-position", p.name, _read(p)))
    for spec in ("wolf", "mccord", "pairs:4", "1*2,2*2,3*2,4*2", "fence*2,crook*2,wisc*2",
                 "a*2,b*2,c*2"):
        out.append(Seed("deck-spec", spec, spec))
    for spec in ("wolf", "pairs:4", "1*2,2*2,3*2,4*2", "fence*2,crook*2,wisc*2", "7,3*2,12"):
        out.append(Seed("war-deck", spec, spec))  # ranked kinds (K1)
    for spec in ("wolf", "fence*2,crook*2,wisc*2", "sheep1*4,wolf1*2,fence*2"):
        out.append(Seed("herd-deck", spec, spec))  # McCord's kinds (K3)
    return out


# Commands per kind: {F} is the input file (or `-` with the input on standard input), {T} a
# fresh temporary folder. A command whose input may be slow is given a budget of its own.
COMMANDS: dict[str, list[list[str]]] = {
    "chart": [["mutton", "solve", "{F}"], ["mutton", "chart", "{F}"],
              ["mutton", "solve", "{F}", "--json"], ["mutton", "chart", "--json", "{F}"]],
    "record": [["mutton", "replay", "{F}"], ["mutton", "solve", "{F}", "--json"],
               ["mutton", "chart", "{F}"]],
    "mutton-json": [["mutton", "solve", "{F}"], ["mutton", "chart", "{F}", "--json"]],
    "mutton-puzzle-json": [["mutton", "puzzle", "check", "{F}"], ["mutton", "solve", "{F}"],
                           ["mutton", "chart", "{F}", "--json"]],
    "mutton-puzzle": [["mutton", "puzzle", "check", "{F}"], ["mutton", "solve", "{F}"],
                      ["mutton", "chart", "{F}"]],
    "woof": [["woof", "solve", "{F}"], ["woof", "solve", "{F}", "--json"]],
    "woof-puzzle": [["woof", "puzzle", "check", "{F}"], ["woof", "solve", "{F}", "--json"]],
    "woof-json": [["woof", "puzzle", "check", "{F}"]],
    "ulvtafl-position": [["ulvtafl", "board", "--position", "{L}"],
                         ["ulvtafl", "solve", "{F}", "--timeout", "5"],
                         ["ulvtafl", "perft", "2", "--position", "{L}"]],
    "ulvtafl-record": [["ulvtafl", "replay", "{F}"], ["ulvtafl", "replay", "{F}", "--json"]],
    "cards-position": [["cards", "war", "play", "--position", "{F}"]],
    "deck-spec": [["cards", "deck", "--deck", "{S}"],
                  ["cards", "deck", "--deck", "{S}", "--json"],
                  ["cards", "concentration", "solve", "--deck", "{S}"]],
    "war-deck": [["cards", "war", "play", "--deck", "{S}", "--seed", "3"],
                 ["cards", "war", "analyse", "--deck", "{S}", "--json"]],
    "herd-deck": [["cards", "herd", "simulate", "--deck", "{S}", "--games", "20"]],
}
DECK_KINDS = ("deck-spec", "war-deck", "herd-deck")
FILE_KINDS = [k for k in COMMANDS if k not in DECK_KINDS]


# ---- mutations -------------------------------------------------------------------------------

Mutate = Callable[[str, random.Random], "str | None"]


@dataclass(frozen=True)
class Mutation:
    """A seeded change of an input; `malformed` when the result is certainly invalid."""

    name: str
    kinds: tuple[str, ...]
    malformed: bool
    apply: Mutate
    command: tuple[str, ...] = ()  # only with commands starting so (the others ignore it)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _pick(rng: random.Random, items: list[int]) -> int | None:
    return rng.choice(items) if items else None


_ROUND = re.compile(r"^( *[Rr]ound *)([0-9]+)( *:)")


def _round_rows(lines: list[str]) -> list[int]:
    return [i for i, ln in enumerate(lines) if _ROUND.match(ln)]


def _sheep_row(lines: list[str]) -> int | None:
    for i, ln in enumerate(lines):
        if re.match(r"^ *(sheep|animals?) *:", ln, re.I):
            return i
    return None


def m_chart_between(text: str, rng: random.Random) -> str | None:
    """A `+` between two animal columns of a Round row (M25: marks stand under animals)."""
    if "\u00a0" in text or "\t" in text:
        return None
    lines = _lines(text)
    s = _sheep_row(lines)
    i = _pick(rng, _round_rows(lines))
    if s is None or i is None:
        return None
    colon = lines[s].index(":")
    marks = [m.start() for m in re.finditer(r"[^ ]", lines[s][colon + 1:])]
    if len(marks) < 2:
        return None
    j = rng.randrange(len(marks) - 1)
    at = lines[i].index(":") + 1 + marks[j] + 1  # one right of the column of animal j
    row = lines[i].ljust(at + 1)
    if row[at] != " ":
        return None
    lines[i] = row[:at] + "+" + row[at + 1:]
    return "\n".join(lines)


def m_chart_digit(text: str, rng: random.Random) -> str | None:
    """A digit of another script in a Round number or the score."""
    lines = _lines(text)
    rows = _round_rows(lines) + [i for i, ln in enumerate(lines) if ln.lower().startswith("score")]
    i = _pick(rng, rows)
    if i is None:
        return None
    digits = [k for k, ch in enumerate(lines[i]) if ch.isascii() and ch.isdigit()]
    k = rng.choice(digits)
    ch = chr(ord(rng.choice(OTHER_DIGITS)) + int(lines[i][k]))
    lines[i] = lines[i][:k] + ch + lines[i][k + 1:]
    return "\n".join(lines)


def m_chart_mark(text: str, rng: random.Random) -> str | None:
    """A runner mark replaced by an unknown mark."""
    lines = _lines(text)
    i = _pick(rng, [r for r in _round_rows(lines) if "+" in lines[r]])
    if i is None:
        return None
    plus = [k for k, ch in enumerate(lines[i]) if ch == "+"]
    k = rng.choice(plus)
    lines[i] = lines[i][:k] + rng.choice("qo#%?*X") + lines[i][k + 1:]
    return "\n".join(lines)


def m_chart_order(text: str, rng: random.Random) -> str | None:
    """Two Round numbers swapped (rounds must increase)."""
    lines = _lines(text)
    rows = _round_rows(lines)
    if len(rows) < 2:
        return None
    a, b = sorted(rng.sample(rows, 2))
    ma, mb = _ROUND.match(lines[a]), _ROUND.match(lines[b])
    assert ma and mb
    if ma.group(2) == mb.group(2):
        return None
    lines[a] = _ROUND.sub(lambda m: m.group(1) + mb.group(2) + m.group(3), lines[a], count=1)
    lines[b] = _ROUND.sub(lambda m: m.group(1) + ma.group(2) + m.group(3), lines[b], count=1)
    return "\n".join(lines)


def m_chart_w_under_x(text: str, rng: random.Random) -> str | None:
    """M25: a `w` under a victim whose Sheep-row mark is `x` (or a living letter)."""
    if "\u00a0" in text or "\t" in text:
        return None
    lines = _lines(text)
    s = _sheep_row(lines)
    if s is None:
        return None
    top = lines[s][lines[s].index(":"):]
    choices = []
    for i in _round_rows(lines):
        row = lines[i][lines[i].index(":"):]
        for k, ch in enumerate(row):
            if ch == "x" and k < len(top) and top[k] != "w":
                choices.append((i, k))
    if not choices:
        return None
    i, k = rng.choice(choices)
    at = lines[i].index(":") + k
    lines[i] = lines[i][:at] + "w" + lines[i][at + 1:]
    return "\n".join(lines)


def m_chart_control(text: str, rng: random.Random) -> str | None:
    """A control or invisible character among the marks of a Round row."""
    lines = _lines(text)
    i = _pick(rng, _round_rows(lines))
    if i is None:
        return None
    colon = lines[i].index(":")
    k = rng.randrange(colon + 1, len(lines[i]) + 1)
    ch = rng.choice([c for c in INVISIBLE if c != "\ufeff"])
    lines[i] = lines[i][:k] + ch + lines[i][k:]
    return "\n".join(lines)


def m_chart_huge(text: str, rng: random.Random) -> str | None:
    """A Round number or score of 5,000 digits."""
    lines = _lines(text)
    i = _pick(rng, _round_rows(lines))
    if i is None:
        return None
    lines[i] = _ROUND.sub(lambda m: m.group(1) + HUGE + m.group(3), lines[i], count=1)
    return "\n".join(lines)


def m_header_digit(text: str, rng: random.Random) -> str | None:
    """`Wolves:` of a Mutton puzzle with a digit of another script or 5,000 digits."""
    m = re.search(r"^Wolves: *([0-9]+)", text, re.M)
    if m is None:
        return None
    new = HUGE if rng.random() < 0.3 else chr(ord(rng.choice(OTHER_DIGITS)) + int(m.group(1)))
    return text[:m.start(1)] + new + text[m.end(1):]


_RECORD_KILL = re.compile(r"^[A-Z]:[A-Z]-[a-o][0-9]+(,[A-Z]-[a-o][0-9]+)*$")


def _record_moves(lines: list[str]) -> list[int]:
    return [i for i, ln in enumerate(lines) if _RECORD_KILL.match(ln.split("#")[0].strip())]


def m_record_truncate(text: str, rng: random.Random) -> str | None:
    """A kill line cut short inside its last runner's cell (`U:G-b4,M-f`)."""
    lines = _lines(text)
    i = _pick(rng, _record_moves(lines))
    if i is None:
        return None
    move = lines[i].split("#")[0].strip()
    lines[i] = move[:-1]
    return "\n".join(lines)


def _options_line(lines: list[str]) -> int | None:
    for i, ln in enumerate(lines):
        body = ln.split("#")[0].strip()
        if body:
            return i if body.startswith("-") else None
    return None


def m_record_option(text: str, rng: random.Random) -> str | None:
    """An unknown, repeated, other-script or 5,000-digit option on the options line."""
    lines = _lines(text)
    i = _options_line(lines)
    if i is None:
        return None
    body = lines[i].split("#")[0].rstrip()
    choice = rng.randrange(4)
    if choice == 0:
        lines[i] = body + " -bogus_option"
    elif choice == 1:
        lines[i] = body + " -size=4"
    elif choice == 2:
        lines[i] = re.sub(r"(-num_sheep=)[0-9]+", lambda m: m.group(1) + "\u0662\u0666",
                          body, count=1)
    else:
        lines[i] = re.sub(r"(-num_wolves=)[0-9]+", lambda m: m.group(1) + HUGE, body, count=1)
    return "\n".join(lines) if lines[i] != body or choice < 2 else None


def m_record_move(text: str, rng: random.Random) -> str | None:
    """A move line replaced by a word that is no move, or given a control character."""
    lines = _lines(text)
    i = _pick(rng, _record_moves(lines))
    if i is None:
        return None
    if rng.random() < 0.5:
        lines[i] = rng.choice(["qqq", "K:", "K:L-z9", "wolves=", "pass pass", "K-L"])
    else:
        move = lines[i].split("#")[0].strip()
        k = rng.randrange(1, len(move))
        lines[i] = move[:k] + rng.choice(INVISIBLE[:9]) + move[k:]
    return "\n".join(lines)


_WOOF_FACT = re.compile(r"^(look|saw|ask|hand) ([0-9]+) ")


def _facts(lines: list[str]) -> list[int]:
    return [i for i, ln in enumerate(lines) if _WOOF_FACT.match(ln)]


def m_woof_keyword(text: str, rng: random.Random) -> str | None:
    """An unknown keyword line."""
    lines = _lines(text)
    k = rng.randrange(len(lines) + 1)
    lines.insert(k, rng.choice(["bogus 1 2", "peek 1 2 wolf", "Seat 5", "loook 1 2 wolf"]))
    return "\n".join(lines)


def m_woof_number(text: str, rng: random.Random) -> str | None:
    """A seat number with a sign, an underscore, another script's digit, 5,000 digits, or a
    seat the table does not have."""
    lines = _lines(text)
    i = _pick(rng, _facts(lines) + [j for j, ln in enumerate(lines) if ln.startswith("seats ")])
    if i is None:
        return None
    m = re.search(r" ([0-9]+)", lines[i])
    if m is None:
        return None
    n = m.group(1)
    new = rng.choice([f"+{n}", f"0_{n}", chr(ord(rng.choice(OTHER_DIGITS)) + int(n[0])) + n[1:],
                      HUGE, "99" if not lines[i].startswith("seats") else "0"])
    lines[i] = lines[i][:m.start(1)] + new + lines[i][m.end(1):]
    return "\n".join(lines)


def m_woof_card(text: str, rng: random.Random) -> str | None:
    """An unknown card or announcement word."""
    lines = _lines(text)
    i = _pick(rng, [j for j in _facts(lines) if lines[j].split()[0] in ("look", "hand", "saw")])
    if i is None:
        return None
    words = lines[i].split("#")[0].split()
    words[-1] = rng.choice(["goat", "wolff", "sheep@goat", "?!", "dog??"])
    lines[i] = " ".join(words)
    return "\n".join(lines)


def m_woof_control(text: str, rng: random.Random) -> str | None:
    """A control or invisible character inside a fact's words."""
    lines = _lines(text)
    i = _pick(rng, _facts(lines))
    if i is None:
        return None
    body = lines[i].split("#")[0].rstrip()
    k = rng.randrange(1, len(body))
    lines[i] = body[:k] + rng.choice(INVISIBLE[:9]) + body[k:]
    return "\n".join(lines)


def m_woof_question(text: str, rng: random.Random) -> str | None:
    """A Woof puzzle question about a seat the table does not have."""
    m = re.search(r"seat ([0-9]+)\?", text)
    if m is None:
        return None
    return text[:m.start(1)] + rng.choice(["0", "9", "42", "99", HUGE]) + text[m.end(1):]


def _json_edit(text: str, rng: random.Random, edit: Callable[[dict[str, object]], bool]
               ) -> str | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict) or not edit(data):
        return None
    return json.dumps(data, indent=2)


def m_json_type(text: str, rng: random.Random) -> str | None:
    """A value of the wrong JSON type: true for a number, "false" for a boolean, a number for a
    list, a list for an object."""
    def edit(data: dict[str, object]) -> bool:
        target = data.get("chart") if isinstance(data.get("chart"), dict) else data
        assert isinstance(target, dict)
        options: list[tuple[dict[str, object], str, object]] = []
        if "wolves" in data:
            options.append((data, "wolves", True))
        if "reveal" in target:
            options.append((target, "reveal", "false"))
        if "rows" in target:
            options.append((target, "rows", 5))
            rows = target["rows"]
            if isinstance(rows, list) and rows:
                options.append((rows[0], "round", True))
                options.append((rows[0], "runners", 3))
        if "status" in target:
            options.append((target, "status", ["A"]))
        if "passed" in data:
            options.append((data, "passed", "no"))
        if "paste" in data:
            options.append((data, "paste", ["Sheep"]))
        if "puzzle_text" in data:
            options.append((data, "puzzle_text", 5))
        if not options:
            return False
        where, key, value = rng.choice(options)
        where[key] = value
        return True
    return _json_edit(text, rng, edit)


def m_json_deep(text: str, rng: random.Random) -> str | None:
    """The input nested 5,000 arrays deep."""
    n = rng.choice([40, 5000])
    return "[" * n + text + "]" * n


def m_json_truncate(text: str, rng: random.Random) -> str | None:
    """The JSON text cut before its closing brace."""
    end = text.rstrip().rfind("}")
    return text[:rng.randrange(1, end)] if end > 1 else None


def m_json_number(text: str, rng: random.Random) -> str | None:
    """A number of 5,000 digits, or NaN."""
    m = re.search(r": ([0-9]+)", text)
    if m is None:
        return None
    return text[:m.start(1)] + rng.choice([HUGE, "NaN", "1e999999", "-0.5"]) + text[m.end(1):]


def m_json_unknown(text: str, rng: random.Random) -> str | None:
    """An unknown field (a misspelt option would otherwise be ignored)."""
    def edit(data: dict[str, object]) -> bool:
        data[rng.choice(["wolfs", "revel", "Wolves", "pased"])] = 3
        return True
    return _json_edit(text, rng, edit)


def m_json_embedded(text: str, rng: random.Random) -> str | None:
    """A malformed line inside the text a JSON field carries (`paste`, `record`,
    `puzzle_text`): the error must name the field."""
    def edit(data: dict[str, object]) -> bool:
        for key in ("paste", "record", "puzzle_text"):
            value = data.get(key)
            if isinstance(value, str):
                lines = value.split("\n")
                k = rng.randrange(len(lines) + 1)
                lines.insert(k, rng.choice(["Round 99: q", "qqq", "bogus 1 2"]))
                data[key] = "\n".join(lines)
                return True
        return False
    return _json_edit(text, rng, edit)


def m_ulv_position(text: str, rng: random.Random) -> str | None:
    """A position with an unknown piece, a missing row or an unknown side to move."""
    lines = _lines(text)
    i = _pick(rng, [j for j, ln in enumerate(lines) if ln and not ln.startswith("#")])
    if i is None:
        return None
    board, _, side = lines[i].partition(" ")
    choice = rng.randrange(3)
    if choice == 0:
        k = rng.choice([j for j, ch in enumerate(board) if ch != "/"])
        board = board[:k] + rng.choice("XQ7\u0663") + board[k + 1:]
    elif choice == 1:
        board = board.replace("/", "", 1)
    else:
        side = rng.choice(["q", "ww", "\u0663", ""])
    lines[i] = f"{board} {side}".rstrip()
    return "\n".join(lines)


def m_ulv_record(text: str, rng: random.Random) -> str | None:
    """A record move with another script's digit or no such point, or an unknown setup."""
    lines = _lines(text)
    moves = [j for j, ln in enumerate(lines) if re.match(r"^[a-g][1-7]-[a-g][1-7]", ln)]
    if rng.random() < 0.3:
        k = _pick(rng, [j for j, ln in enumerate(lines) if ln.startswith("setup=")])
        if k is None:
            return None
        lines[k] = rng.choice(["setup=99", "setup=" + HUGE, "setup=\u0662\u0660", "setp=20"])
        return "\n".join(lines)
    i = _pick(rng, moves)
    if i is None:
        return None
    mv = lines[i]
    lines[i] = rng.choice([mv[0] + chr(ord("\u0660") + int(mv[1])) + mv[2:], "z9-a1",
                           mv.replace("-", "~", 1)])
    return "\n".join(lines)


def m_deck(text: str, rng: random.Random) -> str | None:
    """A deck spec with an unknown name, another script's digit or a huge count."""
    return rng.choice([text + ",", text + "*" + HUGE[:50], "pairs:\u0664",
                       "1*\u0662,2*2", "pairs:" + HUGE[:20], "wolf*0", "1*-2,2*2", "Ω*2"])


# Mutations whose effect is unknown: only "no internal error, no hang, exit 0/1/2" is checked.
def u_delete(text: str, rng: random.Random) -> str | None:
    """Delete one character."""
    if not text:
        return None
    k = rng.randrange(len(text))
    return text[:k] + text[k + 1:]


def u_insert(text: str, rng: random.Random) -> str | None:
    """Insert one character from a palette of ordinary, other-script and invisible ones."""
    k = rng.randrange(len(text) + 1)
    return text[:k] + rng.choice(PALETTE) + text[k:]


def u_replace(text: str, rng: random.Random) -> str | None:
    """Replace one character."""
    if not text:
        return None
    k = rng.randrange(len(text))
    return text[:k] + rng.choice(PALETTE) + text[k + 1:]


def u_lines(text: str, rng: random.Random) -> str | None:
    """Delete, duplicate or swap lines."""
    lines = _lines(text)
    if len(lines) < 2:
        return None
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    choice = rng.randrange(3)
    if choice == 0:
        del lines[i]
    elif choice == 1:
        lines.insert(j, lines[i])
    else:
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def u_truncate(text: str, rng: random.Random) -> str | None:
    """Cut the text short."""
    return text[:rng.randrange(len(text))] if text else None


def u_digits(text: str, rng: random.Random) -> str | None:
    """Change a number (ASCII digits stay ASCII)."""
    nums = list(re.finditer(r"[0-9]+", text))
    if not nums:
        return None
    m = rng.choice(nums)
    new = rng.choice(["0", "1", "2", "3", "7", "13", "26", "99", "100000"])
    return text[:m.start()] + new + text[m.end():]


def u_line_breaks(text: str, rng: random.Random) -> str | None:
    """Line breaks as CR LF, or one line break replaced by a separator of another kind."""
    if rng.random() < 0.5:
        return text.replace("\n", "\r\n")
    breaks = [k for k, ch in enumerate(text) if ch == "\n"]
    if not breaks:
        return None
    k = rng.choice(breaks)
    return text[:k] + rng.choice(["\u2028", "\r", "\x0c", "\x85", "\x0b"]) + text[k + 1:]


def u_bom(text: str, rng: random.Random) -> str | None:
    """A UTF-8 byte order mark in front, or trailing spaces and blank lines."""
    return "\ufeff" + text if rng.random() < 0.5 else text.replace("\n", "  \n\n")


def u_woof_heavy(text: str, rng: random.Random) -> str | None:
    """Valid but heavy Woof!! evidence: undealt cards (a deck larger than the seats need), no
    evidence at all, or 1,000-10,000 fact lines (many contradicting each other)."""
    lines = [ln for ln in _lines(text) if ln and not ln.startswith("#")]
    seats = next((ln for ln in lines if ln.startswith("seats ")), "seats 8")
    facts = [ln for ln in lines if _WOOF_FACT.match(ln)]
    choice = rng.randrange(3)
    if choice == 0:
        return f"{seats}\ndeck basic expert\n" + "\n".join(facts[:rng.randrange(4)]) + "\n"
    if choice == 1:
        deck = next((ln for ln in lines if ln.startswith("deck ")), "")
        return f"{seats}\n{deck}\n"
    n = int(seats.split()[1]) if seats.split()[1].isdigit() else 8
    n = n + 1 if n == 4 else n
    many = []
    for _ in range(rng.choice([1000, 3000, 10000])):
        v, t = rng.sample(range(1, n + 1), 2)
        many.append(f"look {v} {t} {rng.choice(['wolf', 'sheep', 'dog', 'hunter', '?'])}")
    return "\n".join(lines + many) + "\n"


ALL = tuple(COMMANDS)
CHARTS = ("chart", "mutton-puzzle")
JSONS = ("mutton-json", "mutton-puzzle-json", "woof-json")
MUTATIONS = [
    Mutation("chart.mark-between-columns", CHARTS, True, m_chart_between),
    Mutation("chart.other-script-digit", CHARTS, True, m_chart_digit),
    Mutation("chart.unknown-mark", CHARTS, True, m_chart_mark),
    Mutation("chart.rounds-out-of-order", CHARTS, True, m_chart_order),
    Mutation("chart.w-under-non-wolf", CHARTS, True, m_chart_w_under_x),
    Mutation("chart.control-character", CHARTS, True, m_chart_control),
    Mutation("chart.huge-number", CHARTS, True, m_chart_huge),
    Mutation("puzzle.wolves-header", ("mutton-puzzle",), True, m_header_digit),
    Mutation("record.truncated-line", ("record",), True, m_record_truncate),
    Mutation("record.bad-option", ("record",), True, m_record_option),
    Mutation("record.bad-move", ("record",), True, m_record_move),
    Mutation("woof.unknown-keyword", ("woof", "woof-puzzle"), True, m_woof_keyword),
    Mutation("woof.bad-number", ("woof", "woof-puzzle"), True, m_woof_number),
    Mutation("woof.unknown-card", ("woof", "woof-puzzle"), True, m_woof_card),
    Mutation("woof.control-character", ("woof", "woof-puzzle"), True, m_woof_control),
    Mutation("woof.question-seat", ("woof-puzzle",), True, m_woof_question,
             ("woof", "puzzle", "check")),
    Mutation("json.wrong-type", JSONS, True, m_json_type),
    Mutation("json.deep-nesting", JSONS, True, m_json_deep),
    Mutation("json.truncated", JSONS, True, m_json_truncate),
    Mutation("json.bad-number", ("mutton-json", "mutton-puzzle-json"), True, m_json_number),
    Mutation("json.unknown-field", ("mutton-json",), True, m_json_unknown),
    Mutation("json.embedded-text", ("mutton-json", "woof-json"), True, m_json_embedded),
    Mutation("ulvtafl.bad-position", ("ulvtafl-position",), True, m_ulv_position),
    Mutation("ulvtafl.bad-record", ("ulvtafl-record",), True, m_ulv_record),
    Mutation("cards.bad-deck", DECK_KINDS, True, m_deck),
    Mutation("unknown.delete-char", ALL, False, u_delete),
    Mutation("unknown.insert-char", ALL, False, u_insert),
    Mutation("unknown.replace-char", ALL, False, u_replace),
    Mutation("unknown.lines", ALL, False, u_lines),
    Mutation("unknown.truncate", ALL, False, u_truncate),
    Mutation("unknown.numbers", ALL, False, u_digits),
    Mutation("unknown.line-breaks", FILE_KINDS, False, u_line_breaks),
    Mutation("unknown.bom-blanks", FILE_KINDS, False, u_bom),
    Mutation("unknown.woof-heavy", ("woof", "woof-puzzle"), False, u_woof_heavy,
             ("woof", "solve")),
]

# Command lines with valid option values, and the indices of whole-number values among them.
ARG_BASES: list[tuple[list[str], list[int]]] = [
    (["mutton", "board", "--size", "5", "--seed", "7", "--layout", "random"], [3, 5]),
    (["mutton", "board", "--size", "2", "--sheep", "3", "--layout", "a1,b2,c3"], [3, 5]),
    (["mutton", "solve", "{EX}/mutton/helppage.txt", "--wolves", "4", "--timeout", "30"],
     [4]),
    (["woof", "solve", "{EX}/woof/rulebook5.txt", "--timeout", "30", "--engine", "csp"], [4]),
    (["mutton", "chart", "{EX}/mutton/typo.txt", "--json"], []),
    (["woof", "solve", "{EX}/woof/dummy4.txt", "--me", "1", "--dog-target", "sheep"], [4]),
    (["mutton", "puzzle", "generate", "--count", "1", "--grade", "easy", "--seed", "3",
      "--out", "{T}/pack"], [4, 8]),
    (["woof", "puzzle", "generate", "--count", "1", "--grade", "easy", "--seed", "3",
      "--out", "{T}/pack"], [4, 8]),
    (["ulvtafl", "perft", "2", "--setup", "13"], [2]),
    (["cards", "deck", "--deck", "pairs:4", "--json"], []),
    (["cards", "concentration", "pairs", "--up-to", "5"], [4]),
    (["cards", "herd", "simulate", "--games", "5", "--seed", "2"], [4, 6]),
    (["cards", "war", "play", "--deck", "1*2,2*2,3*2", "--seed", "4", "--limit", "100"],
     [6, 8]),
    (["cards", "war", "analyse", "--deck", "1*2,2*2,3*2", "--max-deals", "1000"], [6]),
    (["cards", "war", "analyse", "--samples", "50", "--seed", "3", "--deck", "wolf"], [4, 6]),
    (["cards", "concentration", "solve", "--deck", "pairs:3", "--players", "2"], [6]),
    (["ulvtafl", "solve", "--setup", "13", "--max-nodes", "20000", "--timeout", "5"],
     [3, 5, 7]),
    (["ulvtafl", "perft", "3", "--position", "W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS s",
      "--timeout", "10"], [2, 6]),
    # verify: each game with one quick section (the truncation keeps --section), its own
    # options, a JUnit file and an accepted gap
    (["verify", "--quick", "--report", "{T}/r", "--section", "gap-table", "--game", "mutton",
      "--size", "3", "--sheep", "6", "--wolves", "2", "--junit", "{T}/j.xml", "--accept",
      "MUTTON-M10-UNPLACEABLE", "--json"], [9, 11, 13]),
    (["verify", "--quick", "--report", "{T}/r", "--section", "scoring", "--game", "woof",
      "--seed", "5", "--rounds", "3", "--timeout", "30", "--dog-target", "sheep"],
     [9, 11, 13]),
    (["verify", "--quick", "--report", "{T}/r", "--section", "geometry", "--game", "ulvtafl",
      "--samples", "5", "--timeout", "30", "--orthogonal"], [9, 11]),
    (["verify", "--quick", "--report", "{T}/r", "--section", "rules", "--game", "cards",
      "--seed", "3", "--order", "loser-first", "--json"], [9]),
    # serve with valid options would run until stopped: only its malformed lines are run
    (["serve", "--port", "0", "--budget", "5", "--workers", "2", "--host", "127.0.0.1"],
     [2, 4, 6]),
]


def arg_case(rng: random.Random) -> tuple[list[str], str, bool]:
    """A command line with one option value or word mutated: (argv, class, malformed)."""
    base, numeric = rng.choice(ARG_BASES)
    argv = list(base)
    forever = base[0] == "serve"  # valid options start a server: malformed changes only
    keep = base.index("--section") + 2 if "--section" in base else 1  # never a full verify
    if numeric and rng.random() < 0.6:
        k = rng.choice(numeric)
        choice = rng.randrange(4)
        value = argv[k]
        seconds = argv[k - 1] in ("--timeout", "--budget")  # a fraction is valid there
        argv[k] = [chr(ord(rng.choice(OTHER_DIGITS)) + int(value[0])) + value[1:], HUGE,
                   "-" + value, value + (".5." if seconds else ".5")][choice]
        return argv, "args.bad-number", True
    choice = rng.randrange(2 if forever else 5)
    if choice == 0:
        argv.insert(rng.randrange(2, len(argv) + 1), "--bogus-option")
        return argv, "args.unknown-option", True
    if choice == 1:
        options = [k for k, a in enumerate(argv) if a.startswith("--") and k + 1 < len(argv)
                   and not argv[k + 1].startswith("--")]
        if options:
            k = rng.choice(options)
            del argv[k + 1:]
            return argv, "args.missing-value", True
    if choice == 2:
        return [*argv[:2], "-h", *argv[2:]], "args.help-inside", False
    if choice == 3:
        k = rng.randrange(2, len(argv)) if len(argv) > 2 else 1
        argv[k] = argv[k] + rng.choice(PALETTE)
        return argv, "args.unknown-change", False
    argv = argv[:rng.randrange(keep, len(argv) + 1)]
    return argv, "args.truncated", False


# ---- cases and runs --------------------------------------------------------------------------


@dataclass
class Case:
    """One run: the command line, its input and what it must do."""

    index: int
    cls: str
    argv: list[str]
    text: str | None = None  # the input, written to a file or fed to standard input
    stdin: bool = False
    malformed: bool = False
    valid: bool = False  # an unmutated bundled input: must be accepted
    seed_name: str = ""


@dataclass
class Outcome:
    """What one run did."""

    case: Case
    status: int | None  # None: killed after the hard limit
    seconds: float  # wall-clock time
    cpu: float | None  # user + system CPU time of the run and the processes it waited for
    stdout: str
    stderr: str
    problems: list[str] = field(default_factory=list)


def make_cases(count: int, seed: int, seeds: list[Seed], only: set[str] | None) -> list[Case]:
    """The valid baselines (each seed under each of its commands), then `count` mutated
    inputs, all fixed by `seed`."""
    cases: list[Case] = []
    by_kind: dict[str, list[Seed]] = defaultdict(list)
    for s in seeds:
        by_kind[s.kind].append(s)
    for s in seeds:
        for cmd in COMMANDS[s.kind]:
            cases.append(Case(len(cases), "valid." + s.kind, list(cmd), s.text, valid=True,
                              seed_name=s.name))
    kinds = list(by_kind)
    made = 0
    attempt = 0
    while made < count:
        rng = random.Random(f"{seed}:{attempt}")
        attempt += 1
        if rng.random() < 0.2:  # a command line with a mutated option (every command)
            argv, cls, malformed = arg_case(rng)
            if only and cls not in only:
                continue
            cases.append(Case(len(cases), cls, argv, None, malformed=malformed))
            made += 1
            continue
        kind = rng.choice(kinds)
        s = rng.choice(by_kind[kind])
        known = [m for m in MUTATIONS if kind in m.kinds and m.malformed]
        unknown = [m for m in MUTATIONS if kind in m.kinds and not m.malformed]
        pool = known if known and rng.random() < 0.55 else unknown
        mutation = rng.choice(pool)
        if only and mutation.name not in only:
            continue
        text = mutation.apply(s.text, rng)
        if text is None or text == s.text:
            continue
        cmd = list(rng.choice([c for c in COMMANDS[kind]
                               if tuple(c[:len(mutation.command)]) == mutation.command]))
        if cmd[:2] in (["mutton", "solve"], ["woof", "solve"]) and rng.random() < 0.05:
            cmd += ["--engine", rng.choice(["csp", "smt"])]
        stdin = "{F}" in cmd and rng.random() < 0.15
        cases.append(Case(len(cases), mutation.name, cmd, text, stdin=stdin,
                          malformed=mutation.malformed, seed_name=s.name))
        made += 1
    return cases


def _materialise(case: Case, work: Path) -> tuple[list[str], Path | None]:
    """The argv with placeholders filled, and the file for standard input (or None)."""
    folder = work / f"case{case.index:05d}"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "input.txt"
    stdin_path = None
    if case.text is not None:
        path.write_text(case.text, encoding="utf-8", errors="surrogatepass", newline="")
        if case.stdin:
            stdin_path = path
    line = (case.text or "").split("\n")
    first = next((ln for ln in line if ln.strip() and not ln.startswith("#")), "")
    argv = []
    for a in case.argv:
        a = a.replace("{EX}", str(ROOT / "examples")).replace("{T}", str(folder))
        if a == "{F}":
            a = "-" if case.stdin else str(path)
        elif a == "{L}":
            a = first
        elif a == "{S}":
            a = case.text or ""
        argv.append(a)
    return argv, stdin_path


def _child(argv: list[str], stdin_path: Path | None, out: Path, err: Path) -> None:
    """In the forked child: run fleece's main() on argv with redirected files; exit."""
    try:
        os.chdir(out.parent)  # a run that writes (reports, packs) writes into its own folder
        fd_out = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        fd_err = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        fd_in = os.open(stdin_path if stdin_path else os.devnull, os.O_RDONLY)
        os.dup2(fd_out, 1)
        os.dup2(fd_err, 2)
        os.dup2(fd_in, 0)
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8")
        sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8",
                                      errors="backslashreplace")
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
        signal.signal(signal.SIGINT, signal.default_int_handler)
        from fleece.cli import main

        code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 99
    except BaseException:  # report any escape as a crash of this run
        import traceback

        traceback.print_exc()
        code = 99
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)


def run_all(cases: list[Case], jobs: int, kill: float, work: Path, use_subprocess: bool,
            progress: bool) -> list[Outcome]:
    """Run every case, at most `jobs` at a time; a run past `kill` wall seconds is killed."""
    outcomes: list[Outcome] = []
    pending = list(reversed(cases))
    running: dict[int, tuple[Case, float, Path, Path, subprocess.Popen[bytes] | None]] = {}
    env_fleece = shutil.which("fleece") or "fleece"
    done = 0
    while pending or running:
        while pending and len(running) < jobs:
            case = pending.pop()
            argv, stdin_path = _materialise(case, work)
            folder = work / f"case{case.index:05d}"
            out, err = folder / "stdout.txt", folder / "stderr.txt"
            start = time.monotonic()
            if use_subprocess:
                with open(out, "wb") as fo, open(err, "wb") as fe, \
                        open(stdin_path or os.devnull, "rb") as fin:
                    proc = subprocess.Popen([env_fleece, *argv], stdout=fo, stderr=fe,
                                            stdin=fin, cwd=folder, start_new_session=True)
                running[proc.pid] = (case, start, out, err, proc)
            else:
                pid = os.fork()
                if pid == 0:
                    os.setsid()
                    _child(argv, stdin_path, out, err)
                running[pid] = (case, start, out, err, None)
        finished = []
        for pid, (case, start, out, err, _proc) in running.items():
            got, status, usage = os.wait4(pid, os.WNOHANG)
            elapsed = time.monotonic() - start
            if got == 0 and elapsed <= kill:
                continue
            cpu: float | None = None
            if got == 0:
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                code = None
            else:
                code = os.waitstatus_to_exitcode(status)
                cpu = usage.ru_utime + usage.ru_stime
            finished.append(pid)
            outcomes.append(Outcome(case, code, elapsed, cpu, out.read_text("utf-8", "replace"),
                                    err.read_text("utf-8", "replace")))
        for pid in finished:
            del running[pid]
        done += len(finished)
        if progress and finished:
            sys.stderr.write(f"\r{done}/{len(cases)} runs")
            sys.stderr.flush()
        if not finished:
            time.sleep(0.005)
    if progress:
        sys.stderr.write("\n")
    return sorted(outcomes, key=lambda o: o.case.index)


def judge(o: Outcome, limit: float, clock: str) -> None:
    """Fill `o.problems` with what the run did wrong (`clock` cpu: a run is over the limit
    when its CPU time is; wall: when its wall-clock time is; a killed run always is)."""
    if o.status is None:
        o.problems.append(f"over {limit:g} s (killed)")
        return
    spent = o.cpu if clock == "cpu" and o.cpu is not None else o.seconds
    if spent > limit:
        o.problems.append(f"over {limit:g} s ({clock} {spent:.1f} s)")
    if o.status not in (0, 1, 2):
        o.problems.append(f"internal error (exit status {o.status})")
    if "Traceback" in o.stderr or "internal error" in o.stderr:
        o.problems.append("internal error message")
    lines = o.stderr.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if o.status == 2 and (len(lines) != 1 or not lines[0].startswith("fleece: error: ")):
        o.problems.append(f"error not one 'fleece: error:' line ({len(lines)} lines)")
    for line in lines:
        if line.startswith("fleece: ") and (len(line) > MAX_LINE or not line.isprintable()):
            o.problems.append("message too long or not printable")
    if o.case.malformed and o.status in (0, 1):
        o.problems.append("accepted malformed input")
    if o.case.valid and o.status == 2:
        o.problems.append("refused a valid bundled input")
    if o.case.cls == "json.embedded-text" and o.status == 2 and "field '" not in o.stderr:
        o.problems.append("error inside embedded text does not name the JSON field")


def report(outcomes: list[Outcome], limit: float, save: Path | None, seed: int,
           count: int, clock: str) -> int:
    """Print the table per class and the failures; the number of failing runs."""
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    failures = []
    for o in outcomes:
        judge(o, limit, clock)
        c = rows[o.case.cls]
        c["runs"] += 1
        c[f"exit {o.status}" if o.status is not None else "killed"] += 1
        for p in o.problems:
            key = ("internal" if p.startswith("internal") else "over" if p.startswith("over")
                   else "accepted" if p.startswith("accepted") else "refused-valid"
                   if p.startswith("refused") else "message")
            c[key] += 1
        if o.problems:
            failures.append(o)
    head = (f"{'class':34} {'runs':>5} {'exit0':>6} {'exit1':>6} {'exit2':>6} {'internal':>8} "
            f"{'>' + format(limit, 'g') + 's':>6} {'accepted':>8} {'message':>7} "
            f"{'refused':>7}")
    print(head)
    print("-" * len(head))
    total: Counter[str] = Counter()
    for cls in sorted(rows):
        c = rows[cls]
        total.update(c)
        print(f"{cls:34} {c['runs']:5} {c['exit 0']:6} {c['exit 1']:6} {c['exit 2']:6} "
              f"{c['internal']:8} {c['over']:6} {c['accepted']:8} {c['message']:7} "
              f"{c['refused-valid']:7}")
    print("-" * len(head))
    print(f"{'total':34} {total['runs']:5} {total['exit 0']:6} {total['exit 1']:6} "
          f"{total['exit 2']:6} {total['internal']:8} {total['over']:6} {total['accepted']:8} "
          f"{total['message']:7} {total['refused-valid']:7}")
    by_command: Counter[str] = Counter()
    for o in outcomes:
        words = []
        for a in o.case.argv[:3 if o.case.argv[:1] == ["cards"] else 2]:
            if not re.fullmatch(r"[a-z]+", a):
                break
            words.append(a)
        by_command[" ".join(words)] += 1
    print("\nruns per command: " + ", ".join(f"{name or '(none)'} {n}"
                                             for name, n in sorted(by_command.items())))
    mutated = sum(1 for o in outcomes if not o.case.valid)
    slowest = max(outcomes, key=lambda o: o.seconds)
    cpu_max = max(outcomes, key=lambda o: -1.0 if o.cpu is None else o.cpu)
    wall_over = sum(1 for o in outcomes if o.seconds > limit)
    print("\nslowest runs (wall s, CPU s):")
    for o in sorted(outcomes, key=lambda o: -o.seconds)[:5]:
        cpu = "killed" if o.cpu is None else f"{o.cpu:5.1f}"
        print(f"  {o.seconds:5.1f} {cpu:>6}  {o.case.cls:28} fleece "
              f"{' '.join(_shell(a) for a in o.case.argv)[:80]}")
    print(f"\n{mutated} mutated inputs and {len(outcomes) - mutated} valid baselines "
          f"(--count {count} --seed {seed}); {total['internal']} internal errors, "
          f"{total['over']} runs over {limit:g} s ({clock} time), {total['accepted']} accepted "
          f"malformed inputs; slowest run {slowest.seconds:.1f} s wall ({slowest.case.cls}), "
          f"most CPU {cpu_max.cpu or 0:.1f} s ({cpu_max.case.cls}); {wall_over} runs over "
          f"{limit:g} s of wall-clock time")
    for o in failures:
        argv = " ".join(_shell(a) for a in o.case.argv)
        where = f", input kept in {save / f'case{o.case.index:05d}'}" if save else ""
        print(f"\nFAIL #{o.case.index} {o.case.cls} from {o.case.seed_name or 'args'}: "
              f"{'; '.join(o.problems)} ({o.seconds:.1f} s){where}")
        print(f"  fleece {argv}{' < input' if o.case.stdin else ''}")
        tail = o.stderr.strip().splitlines()[-3:]
        for line in tail:
            print(f"  | {line[:200]}")
    return len(failures)


def _shell(arg: str) -> str:
    return arg if re.fullmatch(r"[\w@%+=:,./{}-]+", arg) else repr(arg)


def main() -> int:
    """Parse the options, run the cases, print the report."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=3000, help="mutated inputs (default 3000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the mutations")
    ap.add_argument("--jobs", type=int, default=2, help="runs at a time")
    ap.add_argument("--limit", type=float, default=20.0,
                    help="seconds a run may take (default 20), measured by --clock")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu (default): a run's user+system CPU time, which other work on a "
                         "shared machine does not inflate; wall: its wall-clock time")
    ap.add_argument("--kill", type=float, default=60.0,
                    help="wall seconds after which a run is killed and counted as a hang")
    ap.add_argument("--only", default="", help="comma-separated classes to run")
    ap.add_argument("--save", type=Path, default=None, help="keep every input in this folder")
    ap.add_argument("--subprocess", action="store_true", help="run the real `fleece` command")
    args = ap.parse_args()
    os.environ.update({"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"})
    only = {c for c in args.only.split(",") if c} or None
    cases = make_cases(args.count, args.seed, collect_seeds(), only)
    if not args.subprocess:  # import once, fork many times
        import importlib

        for module in ("fleece.cli", "fleece.solver.mutton", "fleece.solver.woof", "z3",
                       "constraint", "rich.console"):
            importlib.import_module(module)
    work = args.save or Path(tempfile.mkdtemp(prefix="fleece-fuzz-"))
    start = time.monotonic()
    try:
        outcomes = run_all(cases, args.jobs, max(args.kill, args.limit), work, args.subprocess,
                           sys.stderr.isatty())
        failures = report(outcomes, args.limit, args.save, args.seed, args.count, args.clock)
    finally:
        if args.save is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"wall time {time.monotonic() - start:.0f} s with {args.jobs} jobs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
