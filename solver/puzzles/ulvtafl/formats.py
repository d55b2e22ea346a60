"""Ulvtafl puzzle files: the puzzle text, its JSON twin, and the solution file.

The puzzle text is `Key: value` lines; `#` starts a comment line (the diagram a generated
file carries is one) and blank lines are ignored:

    # fleece Ulvtafl puzzle
    Puzzle: ulvtafl-medium-001
    Position: SSS/SSS/S.S..SS/....W../......./.../W.. w
    Claim: wolves to move and win in 17 plies
    Grade: hard
    Unique: no
    Origin: game from the 20-sheep setup, ply 120
    Solution: e4-d4 c5-c4 ...

- `Position` (required): a position in docs/rules.md U8 notation, rank 7 down to rank 1 and the
  side to move (`w` or `s`), with rule words if any; no move history (`|`).
- `Claim` (required): `wolves to move and win in N plies` or `sheep to move and win in N
  plies` (`1 ply`); the side must be the side to move of the position. N counts the moves of
  both sides up to the won end (U10) with best play, under U7's reading.
- `Solution`: the main line, moves in U8 notation (`d3-d4`, `d5xd3xf3`) separated by spaces;
  indented lines after it continue it.
- `Grade` (`easy`, `medium`, `hard` or `expert`), `Unique` (`yes` when the side to move has
  exactly one winning move at each of its turns of the solution, else `no`), `Origin` (where
  the position comes from) and `Puzzle` (a name) are optional labels.

Keys are matched in any letter case; each may appear once. A file may hold several puzzles,
separated by lines of three dashes (`---`). Every error is a ParseError with the line and
column. The JSON twin holds the same fields (`position`, `side`, `plies`, `claim`,
`solution` as a list, `grade`, `unique_line`, `origin`, `id`), one object or a list.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from fleece.rules.errors import FleeceError, ParseError
from fleece.rules.text import (
    in_field,
    json_bool,
    json_int,
    json_list,
    json_object,
    json_str,
    json_strings,
    load_json,
    quote,
    shifted,
    split_lines,
    whole_number,
)
from fleece.rules.ulvtafl.diagram import diagram
from fleece.rules.ulvtafl.game import SIDE_NAMES
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text
from fleece.solver.puzzles.pack import write_files
from fleece.solver.puzzles.ulvtafl.analysis import Values
from fleece.solver.puzzles.ulvtafl.grading import UlvGrade
from fleece.solver.puzzles.ulvtafl.puzzle import UlvPuzzle

FORMAT = "fleece-puzzle"
VERSION = 1
KEYS = ("puzzle", "position", "claim", "grade", "unique", "origin", "solution")
MAX_PLIES = 10_000
SEPARATOR = "---"
_KEY_RE = re.compile(r"([A-Za-z]+)[ \t]*:[ \t]*")  # used with match
_CLAIM_RE = re.compile(r"(wolves|sheep)[ \t]+to[ \t]+move[ \t]+and[ \t]+win[ \t]+in[ \t]+"
                       r"(\S+)[ \t]+(ply|plies)", re.IGNORECASE | re.ASCII)  # fullmatch


# ---- writing ----------------------------------------------------------------------------


def _one_line(text: str, what: str) -> str:
    if text != text.strip() or any(ch in text for ch in "\r\n") or \
            not text.isprintable():
        raise FleeceError(f"{what} {quote(text)} must be one printable line without "
                          "surrounding blanks")
    return text


def render_puzzle(p: UlvPuzzle, *, picture: bool = True) -> str:
    """The puzzle text (see the module), with the board drawn in comment lines."""
    state = p.state()
    lines = ["# fleece Ulvtafl puzzle"]
    if picture:
        lines += [f"#   {row}".rstrip() for row in diagram(state).splitlines()]
    if p.ident:
        lines.append(f"Puzzle: {_one_line(p.ident, 'the puzzle name')}")
    lines.append(f"Position: {p.position}")
    lines.append(f"Claim: {p.claim()}")
    if p.grade is not None:
        lines.append(f"Grade: {p.grade.label}")
    if p.unique_line is not None:
        lines.append(f"Unique: {'yes' if p.unique_line else 'no'}")
    if p.origin:
        lines.append(f"Origin: {_one_line(p.origin, 'the origin')}")
    if p.solution:
        lines.append("Solution: " + " ".join(p.solution))
    return "\n".join(lines) + "\n"


def render_puzzles(puzzles: list[UlvPuzzle]) -> str:
    """Several puzzles in one text, separated by `---` lines."""
    return f"{SEPARATOR}\n".join(render_puzzle(p) for p in puzzles)


def puzzle_data(p: UlvPuzzle) -> dict[str, Any]:
    """The JSON twin's fields."""
    return {"format": FORMAT, "version": VERSION, "game": "ulvtafl", "id": p.ident,
            "position": p.position, "side": p.side, "plies": p.plies, "claim": p.claim(),
            "solution": list(p.solution),
            "grade": p.grade.label if p.grade is not None else None,
            "unique_line": p.unique_line, "origin": p.origin}


def puzzle_json(p: UlvPuzzle) -> str:
    """The JSON twin of a puzzle."""
    return json.dumps(puzzle_data(p), indent=2) + "\n"


# ---- reading text -----------------------------------------------------------------------


@dataclass
class _Field:
    """A key's value as written: its text pieces with their line and first column."""

    key: str
    line: int
    pieces: list[tuple[str, int, int]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return " ".join(t for t, _, _ in self.pieces)

    @property
    def where(self) -> tuple[int, int]:
        return (self.pieces[0][1], self.pieces[0][2]) if self.pieces else (self.line, 1)


def parse_puzzles(text: str, source: str | None = None) -> list[UlvPuzzle]:
    """Every puzzle of a puzzle text (`---` between puzzles) or of its JSON twin (one object
    or a list), recognised by a leading `{` or `[`."""
    try:
        if text.lstrip(" \t\r\n").startswith(("{", "[")):
            return _from_json(text)
        blocks: list[list[tuple[int, str]]] = [[]]
        for no, line in enumerate(split_lines(text), start=1):
            if line.strip(" \t") == SEPARATOR:
                blocks.append([])
            else:
                blocks[-1].append((no, line))
        out = [_parse_block(b) for b in blocks if any(_meaningful(line) for _, line in b)]
        if not out:
            raise ParseError("no puzzle: expected 'Position:' and 'Claim:' lines", line=1)
        return out
    except ParseError as exc:
        raise exc.located(source) if source and exc.source is None else exc from None


def parse_puzzle(text: str, source: str | None = None) -> UlvPuzzle:
    """The one puzzle of a puzzle text or JSON twin (ParseError when there are several)."""
    found = parse_puzzles(text, source)
    if len(found) != 1:
        raise ParseError(f"{len(found)} puzzles where one was expected", source=source)
    return found[0]


def _meaningful(line: str) -> bool:
    t = line.strip(" \t")
    return bool(t) and not t.startswith("#")


def _parse_block(block: list[tuple[int, str]]) -> UlvPuzzle:
    fields: dict[str, _Field] = {}
    current: _Field | None = None
    for no, line in block:
        if not _meaningful(line):
            current = None
            continue
        if line[0] in " \t":
            if current is None or current.key != "solution":
                raise ParseError("an indented line continues only a 'Solution:' line",
                                 line=no, column=1)
            _add_tokens(current, line, no, 0)
            continue
        m = _KEY_RE.match(line)
        if m is None:
            raise ParseError(f"expected a 'Key: value' line ({', '.join(k.title() for k in KEYS)}"
                             f"), found {quote(line.strip())}", line=no, column=1)
        key = m.group(1).lower()
        if key not in KEYS:
            raise ParseError(f"unknown key {quote(m.group(1))} (known: "
                             f"{', '.join(k.title() for k in KEYS)})", line=no, column=1)
        if key in fields:
            raise ParseError(f"a second '{m.group(1)}:' line (line {fields[key].line} has "
                             "one)", line=no, column=1)
        current = fields[key] = _Field(key, no)
        if key == "solution":
            _add_tokens(current, line, no, m.end())
        else:
            value = line[m.end():].rstrip(" \t")
            if value:
                current.pieces.append((value, no, m.end() + 1))
    first = block[0][0] if block else 1
    for need in ("position", "claim"):
        if need not in fields:
            raise ParseError(f"no '{need.title()}:' line in this puzzle", line=first)
    return _puzzle_of(fields)


def _add_tokens(f: _Field, line: str, no: int, start: int) -> None:
    for m in re.finditer(r"[^ \t]+", line[start:]):
        f.pieces.append((m.group(), no, start + m.start() + 1))


def _puzzle_of(fields: dict[str, _Field]) -> UlvPuzzle:
    pos = fields["position"]
    line, col = pos.where
    if not pos.pieces:
        raise ParseError("'Position:' is empty (a position in U8 notation, e.g. "
                         "'W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w')", line=line,
                         column=col)
    if "|" in pos.text:
        raise ParseError("a puzzle position carries no move history ('|')", line=line,
                         column=col + pos.text.index("|"))
    try:
        state = parse_position(pos.text)
    except ParseError as exc:
        raise shifted(exc, col, line) from None
    position = position_text(state)
    side = SIDE_NAMES[state.to_move]
    claim = fields["claim"]
    cline, ccol = claim.where
    m = _CLAIM_RE.fullmatch(claim.text)
    if m is None:
        raise ParseError(f"the claim must read '{side} to move and win in N plies', found "
                         f"{quote(claim.text, 60)}", line=cline, column=ccol)
    if m.group(1).lower() != side:
        raise ParseError(f"the claim names the {m.group(1).lower()}, but the {side} are to "
                         "move in the position", line=cline, column=ccol)
    plies = whole_number(m.group(2), "the number of plies", lo=1, hi=MAX_PLIES, line=cline,
                         column=ccol + m.start(2))
    solution = []
    for tok, no, c in fields.get("solution", _Field("solution", 0)).pieces:
        try:
            solution.append(parse_move(tok).text())
        except ParseError as exc:
            raise shifted(exc, c, no) from None
    grade = None
    if "grade" in fields:
        gline, gcol = fields["grade"].where
        try:
            grade = UlvGrade.parse(fields["grade"].text)
        except FleeceError as exc:
            raise ParseError(str(exc), line=gline, column=gcol) from None
    unique = None
    if "unique" in fields:
        uline, ucol = fields["unique"].where
        word = fields["unique"].text.lower()
        if word not in ("yes", "no"):
            raise ParseError(f"'Unique:' is yes or no, not {quote(fields['unique'].text)}",
                             line=uline, column=ucol)
        unique = word == "yes"
    origin = fields["origin"].text if "origin" in fields else ""
    ident = fields["puzzle"].text if "puzzle" in fields else ""
    return UlvPuzzle(position, plies, tuple(solution), grade, unique, origin, ident)


# ---- reading JSON -------------------------------------------------------------------------


def _from_json(text: str) -> list[UlvPuzzle]:
    data = load_json(text)
    if isinstance(data, list):
        return [_puzzle_from_data(json_object(d, f"[{i}]"), f"[{i}].")
                for i, d in enumerate(data)]
    return [_puzzle_from_data(json_object(data, ""), "")]


def _puzzle_from_data(data: dict[str, Any], at: str) -> UlvPuzzle:
    """One puzzle object of a JSON twin; errors name the field (`[2].solution[3]`)."""
    path = at.rstrip(".")
    if json_str(data, "format", path, default="") != FORMAT or \
            json_str(data, "game", path, default="") != "ulvtafl":
        raise ParseError(f"{path + ': ' if path else ''}not a fleece Ulvtafl puzzle (the "
                         "'format' and 'game' fields)")
    json_int(data, "version", path, default=VERSION, lo=VERSION, hi=VERSION)
    text = json_str(data, "position", path)
    if "|" in text:
        raise ParseError(f"field {quote(at + 'position', 40)}: a puzzle position carries no "
                         "move history ('|')")
    try:
        state = parse_position(text)
    except ParseError as exc:
        raise in_field(exc, at + "position") from None
    side = SIDE_NAMES[state.to_move]
    if json_str(data, "side", path, default=side) != side:
        raise ParseError(f"field {quote(at + 'side', 40)} must be the side to move of the "
                         f"position, {side}")
    plies = json_int(data, "plies", path, lo=1, hi=MAX_PLIES)
    moves = json_strings(json_list(data, "solution", path, default=[]), at + "solution")
    solution = []
    for i, tok in enumerate(moves):
        try:
            solution.append(parse_move(tok).text())
        except ParseError as exc:
            raise in_field(exc, f"{at}solution[{i}]") from None
    grade_text = json_str(data, "grade", path, default="")
    grade = None
    if grade_text:
        try:
            grade = UlvGrade.parse(grade_text)
        except FleeceError as exc:
            raise ParseError(f"field {quote(at + 'grade', 40)}: {exc}") from None
    unique = json_bool(data, "unique_line", path, default=None)
    puzzle = UlvPuzzle(position_text(state), plies, tuple(solution), grade, unique,
                       json_str(data, "origin", path, default=""),
                       json_str(data, "id", path, default=""))
    claim = json_str(data, "claim", path, default=puzzle.claim())
    if claim != puzzle.claim():
        raise ParseError(f"field {quote(at + 'claim', 40)} says {quote(claim, 60)}, but side "
                         f"and plies say {quote(puzzle.claim(), 60)}")
    return puzzle


# ---- the solution file and the pack ----------------------------------------------------------


def render_solution(p: UlvPuzzle, values: Values | None = None) -> str:
    """The solution explained ply by ply: who moves, whether it is the only winning move,
    what it does, and how many plies are left; then the tempting first moves that fail and
    the grade's points. `values`: exact values of the positions reachable from the puzzle
    (default: the compiled retrograde table)."""
    from fleece.solver.puzzles.ulvtafl.analysis import bare, children, features, value
    from fleece.solver.puzzles.ulvtafl.plausible import read_moves

    state = p.state()
    if values is None:
        from fleece.solver.puzzles.ulvtafl.generate import solve_table

        values = solve_table(state, 10 * LIMIT_FOR_SOLUTION)
        if values is None:
            raise FleeceError("the puzzle is too large to explain")
    me = SIDE_NAMES[state.to_move]
    moves = [parse_move(t) for t in p.solution]
    feats = features(values, state, moves)
    lines = [f"Puzzle: {p.ident}" if p.ident else "Puzzle:", f"Position: {p.position}",
             f"Claim: {p.claim()}",
             f"Grade: {feats.grade.label} ({feats.points} points: {feats.explain()})",
             f"Unique: {'yes' if feats.unique_line else 'no'}", "",
             f"Solution (the {me} win fastest, the {_other(me)} resist longest):"]
    s = bare(state)
    for i, move in enumerate(moves, start=1):
        mover = SIDE_NAMES[s.to_move]
        kind = next(k for k in read_moves(s) if k.move == move)
        after = s.play(move)
        if mover == me:
            wins = sum(1 for _, v, _ in children(values, s) if v == me)
            note = "the only winning move" if wins == 1 else f"one of {wins} winning moves"
            words = kind.words()
            note += "" if words == "quiet" and i > 1 else f"; {words}"
        else:
            note = "the longest defence"
            if kind.captures:
                note += f"; takes {kind.captures} sheep"
        if after.is_terminal():
            note += f"; the {after.result} win: {after.reason}"
        else:
            left = value(values, after)[1]
            note += f"; {left} pl{'y' if left == 1 else 'ies'} to go"
        lines.append(f"{i:>3}. {move.text():<12} {mover:<6}  {note}")
        s = bare(after)
    lines.append("")
    if feats.decoys:
        lines.append("Tempting first moves that fail:")
        outcome = {m.text(): (v, d) for m, v, d in children(values, state)}
        for text in feats.decoys:
            kind = next(k for k in read_moves(state) if k.move.text() == text)
            v, d = outcome[text]
            then = "a draw" if v == "draw" else f"the {v} win in {d} plies"
            lines.append(f"  {text:<12} {kind.words()}; then {then}")
    else:
        lines.append("No tempting first move fails: the key move is the one to find.")
    lines.append(f"Legal first moves: {feats.legal}; winning: 1 ({moves[0].text()}).")
    return "\n".join(lines) + "\n"


LIMIT_FOR_SOLUTION = 100_000  # x10: positions the solution file's values may take


def _other(side: str) -> str:
    return SIDE_NAMES[1 - SIDE_NAMES.index(side)]


def puzzle_files(p: UlvPuzzle, values: Values | None = None) -> dict[str, str]:
    """The files of one puzzle by extension: `.txt`, `.json`, `.solution.txt`."""
    return {".txt": render_puzzle(p), ".json": puzzle_json(p),
            ".solution.txt": render_solution(p, values)}


def write_pack(puzzles: list[UlvPuzzle], out_dir: str, *, force: bool) -> list[str]:
    """Write each puzzle as NNN.txt, NNN.json and NNN.solution.txt into `out_dir` as one
    pack (`solver.puzzles.pack.write_files`: all or nothing); the NNN.txt paths."""
    return write_files([puzzle_files(p) for p in puzzles], out_dir, force=force)
