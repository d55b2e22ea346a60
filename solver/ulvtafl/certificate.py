"""Proof certificates of Ulvtafl values, checked with the reference model alone.

A certificate is a strategy for one side: position text (that side to move) -> the move to
play there. It claims one of two things:

- "win": the side forces a won end (U7). It holds when, from the root, every line in which
  the side plays the strategy and the other side plays anything ends in the side's win and
  never repeats a position.
- "no-loss": the other side cannot force a won end, so the value is the side's win or a
  draw. It holds when the strategy is closed: every line from the root in which the side
  plays it stays inside it and never reaches a won end of the other side. Lines may repeat
  a position (a draw, U7) or never end. A draw needs one such certificate for each side.

These checks use fleece.rules.ulvtafl only (no solver code), so a strategy found by the
compiled engine or by the fortress search is confirmed independently.

Files: a gzip (or plain) JSON object {"format": "fleece-ulvtafl-certificate", "root":
position text, "winner": "sheep"|"wolves", "certificate": {position: move}}, with "claim":
"no-loss" for that claim ("winner" then names the side whose strategy it is); a report JSON
with setups[].certificate or setups[].no_loss.certificate (inline, or the name of such a
file beside the report) is read as well.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fleece.rules.errors import FleeceError, ParseError
from fleece.rules.ulvtafl.game import SIDE_NAMES, UlvState
from fleece.rules.ulvtafl.notation import parse_move, parse_position, position_text

FORMAT = "fleece-ulvtafl-certificate"
WIN = "win"
NO_LOSS = "no-loss"
CLAIMS = (WIN, NO_LOSS)


class CertificateError(FleeceError, ValueError):
    """A certificate that does not prove what it claims, or cannot be read."""


def bare(state: UlvState) -> UlvState:
    """A state without its repetition history."""
    if not state.history:
        return state
    return UlvState.create(state.rules, state.sheep, state.wolves, state.to_move)


def _strategy_move(state: UlvState, strategy: dict[str, str]) -> UlvState:
    """The position after the strategy's move (CertificateError when there is none or it
    is illegal)."""
    text = strategy.get(position_text(state))
    if text is None:
        raise CertificateError(f"{position_text(state)}: no move in the strategy")
    try:
        return bare(state.play(parse_move(text)))
    except (ParseError, FleeceError) as exc:
        raise CertificateError(f"{position_text(state)}: the strategy's move {text!r} is "
                               f"not legal ({exc})") from None


def check_certificate(root: UlvState, winner: str, strategy: dict[str, str]) -> int:
    """Verify a certificate with the reference model only: from `root`, the winner plays
    the strategy's move in each of its positions, every reply of the other side is
    followed, every line ends in a win for `winner` and no line repeats a position (so the
    win is forced in a finite number of moves, U7). Returns the number of distinct
    unfinished positions of the proof (either side to move); CertificateError (a
    ValueError) saying what is wrong and where otherwise."""
    return len(_walk(root, winner, strategy, None))


def check_no_loss(root: UlvState, side: str, strategy: dict[str, str]) -> int:
    """Verify a no-loss certificate with the reference model only: from `root`, `side`
    plays the strategy's move in each of its positions and every move of the other side is
    followed; no line may reach a won end of the other side, and the strategy must have a
    legal move in every position of `side` that a line reaches. Repeated positions end a
    line (a draw, U7). Returns the number of distinct unfinished positions walked;
    CertificateError (a ValueError) saying what is wrong and where otherwise."""
    if side not in SIDE_NAMES:
        raise CertificateError(f"side must be 'sheep' or 'wolves', not {side!r}")
    me = SIDE_NAMES.index(side)
    other = SIDE_NAMES[1 - me]
    seen: set[int] = set()
    stack = [bare(root)]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            if state.result == other:
                raise CertificateError(f"{position_text(state)}: the line ends in a {other} "
                                       f"win ({state.reason})")
            continue
        if state.key in seen:
            continue
        seen.add(state.key)
        if state.to_move == me:
            stack.append(_strategy_move(state, strategy))
        else:
            stack.extend(bare(state.play(m)) for m in state.legal_moves())
    return len(seen)


def proof_order(root: UlvState, winner: str,
                strategy: dict[str, str]) -> list[tuple[int, int, int, int]]:
    """The unfinished positions of a certificate's proof as (sheep, wolves, side to move,
    height), children before parents; the height is the most plies to the win along the
    strategy. Verified as check_certificate does (CertificateError otherwise)."""
    order: list[tuple[int, int, int, int]] = []
    _walk(root, winner, strategy, order)
    return order


def _walk(root: UlvState, winner: str, strategy: dict[str, str],
          order: list[tuple[int, int, int, int]] | None) -> dict[int, int]:
    """check_certificate's walk: each verified position's key and height; each is also
    appended to `order` when it is verified (after its children)."""
    if winner not in SIDE_NAMES:
        raise CertificateError(f"winner must be 'sheep' or 'wolves', not {winner!r}")
    side = SIDE_NAMES.index(winner)
    verified: dict[int, int] = {}
    path: set[int] = set()
    # a position, its children still to walk, and the highest child height so far
    stack: list[tuple[UlvState, list[UlvState] | None, int]] = [(bare(root), None, 0)]
    while stack:
        state, kids, high = stack[-1]
        if kids is None:
            if state.is_terminal():
                stack.pop()
                if state.result != winner:
                    raise CertificateError(f"{position_text(state)}: the line ends "
                                           f"{state.result or 'unfinished'}, not a {winner} "
                                           "win")
                continue  # a finished child: height 0, which leaves its parent's as it is
            if state.key in verified:
                stack.pop()
                if stack:
                    stack[-1] = (*stack[-1][:2], max(stack[-1][2], verified[state.key]))
                continue
            if state.key in path:
                raise CertificateError(f"{position_text(state)}: the strategy repeats a "
                                       "position (no forced win, U7)")
            path.add(state.key)
            if state.to_move == side:
                kids = [_strategy_move(state, strategy)]
            else:
                kids = [bare(state.play(m)) for m in state.legal_moves()]
            stack[-1] = (state, kids, high)
        if kids:
            stack.append((kids.pop(), None, 0))
        else:
            stack.pop()
            path.discard(state.key)
            verified[state.key] = high + 1
            if order is not None:
                order.append((state.sheep, state.wolves, state.to_move, high + 1))
            if stack:
                stack[-1] = (*stack[-1][:2], max(stack[-1][2], high + 1))
    return verified


Seed = tuple["Certificate", list[tuple[int, int, int, int]]]
_SEEDS: dict[str, tuple[tuple[int, int], list[Seed]]] = {}  # real path: (stamp, seeds)
_SEEDS_LOCK = threading.Lock()


def read_seeds(path: str, before: Callable[[Certificate], None] | None = None) -> list[Seed]:
    """The certificates of a seed file, each with its verified proof (proof_order), read
    and checked once in this process however many searches it seeds, and again when the
    file changes (its size or modification time); `before` sees each certificate before
    its proof is checked (when it is not known yet)."""
    real = os.path.realpath(path)
    try:
        info = os.stat(real)
        stamp = (info.st_mtime_ns, info.st_size)
    except OSError:
        stamp = (-1, -1)  # read_certificates says what is wrong
    with _SEEDS_LOCK:
        known = _SEEDS.get(real)
        if known is None or known[0] != stamp:
            seeds = []
            for cert in read_certificates(path):
                if cert.claim != WIN:
                    raise CertificateError(f"{path}: a certificate that the {cert.winner} "
                                           "never lose proves no win: it cannot seed a "
                                           "search")
                if before is not None:
                    before(cert)
                seeds.append((cert, proof_order(cert.root, cert.winner, cert.strategy)))
            _SEEDS[real] = (stamp, seeds)
        return _SEEDS[real][1]


def settle(outcome: str, root: UlvState, winner: str,
           strategy: dict[str, str] | None) -> tuple[str, int | None]:
    """A search's outcome as it may be reported, and its proof size: "proved" only with a
    strategy that check_certificate re-checks from `root`; a proof without one is
    "proved-without-certificate" (its store lacked part of it, or it was too large)."""
    if outcome != "proved":
        return outcome, None
    if strategy is None:
        return "proved-without-certificate", None
    return outcome, check_certificate(root, winner, strategy)


def proof_positions(root: UlvState, winner: str, strategy: dict[str, str]) -> int:
    """The number of unfinished positions of a certificate's proof (what `proof size`
    counts): the positions check_certificate visits."""
    return check_certificate(root, winner, strategy)


def _random_line(root: UlvState, me: int, strategy: dict[str, str], rng: random.Random,
                 max_plies: int) -> tuple[UlvState, int, str]:
    """One random line: side `me` plays the strategy, the other side a random legal move,
    until the game ends ("ended"), a position repeats ("repeated") or `max_plies` positions
    pass ("long"). The last state, the plies played and why the line stopped."""
    state = bare(root)
    seen: set[int] = set()
    plies = 0
    while not state.is_terminal():
        if state.key in seen:
            return state, plies, "repeated"
        if len(seen) >= max_plies:
            return state, plies, "long"
        seen.add(state.key)
        if state.to_move == me:
            state = _strategy_move(state, strategy)
        else:
            state = bare(state.play(rng.choice(list(state.legal_moves()))))
        plies += 1
    return state, plies, "ended"


def sample_no_loss(root: UlvState, side: str, strategy: dict[str, str], lines: int,
                   seed: int = 0, max_plies: int = 2000) -> int:
    """Check `lines` random lines of a no-loss certificate with the reference model: `side`
    plays the strategy, the other side a random legal move, until the game ends, a
    position repeats (a draw, U7) or `max_plies` pass; no line may end in the other side's
    win. Returns the number of plies checked (CertificateError otherwise)."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(lines):
        state, n, _ = _random_line(root, SIDE_NAMES.index(side), strategy, rng, max_plies)
        plies += n
        if state.is_terminal() and state.result != side:
            raise CertificateError(f"{position_text(state)}: the line ends in a "
                                   f"{state.result} win ({state.reason})")
    return plies


def sample_check(root: UlvState, winner: str, strategy: dict[str, str], lines: int,
                 seed: int = 0, max_plies: int = 2000) -> int:
    """Check `lines` random lines of a certificate with the reference model: the winner
    plays the strategy, the other side a random legal move; each line must end in the
    winner's win without repeating a position. For certificates too large to check
    whole in a test; returns the number of plies checked (CertificateError otherwise)."""
    rng = random.Random(seed)
    plies = 0
    for _ in range(lines):
        state, n, why = _random_line(root, SIDE_NAMES.index(winner), strategy, rng,
                                     max_plies + 1)
        plies += n
        if why == "repeated":
            raise CertificateError(f"{position_text(state)}: the strategy repeats a "
                                   "position (no forced win, U7)")
        if why == "long":
            raise CertificateError("a line of the strategy does not end")
        if state.result != winner:
            raise CertificateError(f"{position_text(state)}: the line ends {state.result}, "
                                   f"not a {winner} win")
    return plies


def longest_line(root: UlvState, winner: str,
                 strategy: dict[str, str]) -> tuple[int, tuple[str, ...]]:
    """Against a checked certificate: the most plies the loser can delay the end while the
    winner follows the strategy, and a line where the loser delays that long."""
    side = SIDE_NAMES.index(winner)
    memo: dict[int, tuple[int, str | None]] = {}
    start = bare(root)
    stack = [start]
    while stack:  # post-order over the strategy's (acyclic) positions
        state = stack[-1]
        if state.key in memo or state.is_terminal():
            stack.pop()
            if state.is_terminal():
                memo[state.key] = (0, None)
            continue
        if state.to_move == side:
            moves = [parse_move(strategy[position_text(state)])]
        else:
            moves = list(state.legal_moves())
        kids = [bare(state.play(m)) for m in moves]
        todo = [c for c in kids if c.key not in memo and not c.is_terminal()]
        if todo:
            stack.extend(todo)
            continue
        stack.pop()
        best = max(((memo[c.key][0] if c.key in memo else 0) + 1, m.text())
                   for c, m in zip(kids, moves, strict=True))
        memo[state.key] = (best[0], best[1])
    line: list[str] = []
    state = start
    while not state.is_terminal():
        move = memo[state.key][1]
        assert move is not None
        line.append(move)
        state = bare(state.play(parse_move(move)))
    return memo[start.key][0], tuple(line)


# ---- files ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Certificate:
    """A certificate with what it claims: `winner` forces a won end from `root` (claim
    "win"), or `winner`'s strategy never lets the other side force one (claim "no-loss")."""

    root: UlvState
    winner: str
    strategy: dict[str, str]
    claim: str = WIN

    def to_json(self) -> dict[str, Any]:
        """The file's JSON object ("claim" only when it is not a win, so win files keep
        their shape)."""
        head: dict[str, Any] = {"format": FORMAT, "root": position_text(bare(self.root)),
                                "winner": self.winner}
        if self.claim != WIN:
            head["claim"] = self.claim
        return {**head, "positions": len(self.strategy),
                "certificate": dict(sorted(self.strategy.items()))}

    def check(self) -> int:
        """check_certificate or check_no_loss, on what the certificate claims."""
        if self.claim == NO_LOSS:
            return check_no_loss(self.root, self.winner, self.strategy)
        return check_certificate(self.root, self.winner, self.strategy)

    def what(self) -> str:
        """The claim in words: 'the sheep win' or 'the sheep never lose'."""
        if self.claim == NO_LOSS:
            return f"the {self.winner} never lose"
        return f"the {self.winner} win"


def write_certificate(path: str | Path, cert: Certificate, overwrite: bool = False) -> Path:
    """Write a certificate file (gzip when the name ends in .gz), atomically; refuses to
    replace a file unless `overwrite`."""
    return write_json(path, cert.to_json(), overwrite)


def write_json(path: str | Path, data: Any, overwrite: bool = False) -> Path:
    """Write a JSON object to a file (gzip, reproducible bytes, when the name ends in .gz)
    atomically: a temporary file renamed over the target, with the mode the umask gives.
    Refuses to replace a file unless `overwrite`."""
    from fleece.rules.io import atomic_write

    target = Path(path)
    text = json.dumps(data, separators=(",", ":"), sort_keys=False) + "\n"
    if target.suffix != ".gz":
        atomic_write(target, text, overwrite=overwrite)
        return target
    if target.exists() and not overwrite:
        raise CertificateError(f"{target}: already exists (allow overwriting)")
    import os
    import tempfile

    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                        compresslevel=9) as gz:
            gz.write(text.encode("utf-8"))
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def _read_json(path: Path) -> Any:
    try:
        raw = path.read_bytes()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        return json.loads(raw.decode("utf-8"))
    except FileNotFoundError:
        raise CertificateError(f"{path}: no such file") from None
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CertificateError(f"{path}: not a readable certificate "
                               f"({type(exc).__name__})") from None


def read_certificates(path: str | Path) -> list[Certificate]:
    """The certificates of a certificate file or of a report JSON (setups[] and
    variants.limits[] rows with a proved value; a row's certificate is inline or names a
    file beside the report)."""
    source = Path(path)
    data = _read_json(source)
    if isinstance(data, dict) and data.get("format") == FORMAT:
        return [_from_object(data, str(source))]
    if isinstance(data, dict) and isinstance(data.get("setups"), list):
        out = []
        variants = data.get("variants")
        limits = variants.get("limits") if isinstance(variants, dict) else None
        for row in data["setups"] + (limits if isinstance(limits, list) else []):
            if not isinstance(row, dict):
                continue
            bound = row.get("no_loss")
            if not isinstance(bound, dict):
                bound = {}
            for cert, winner, claim in ((row.get("certificate"), row.get("value"), WIN),
                                        (bound.get("certificate"), bound.get("side"), NO_LOSS)):
                if cert is None:
                    continue
                if isinstance(cert, str):
                    out.extend(read_certificates(source.parent / cert))
                    continue
                out.append(_from_object({"root": row.get("position"), "winner": winner,
                                         "claim": claim, "certificate": cert},
                                        f"{source} setup {row.get('setup')}"))
        return out
    raise CertificateError(f"{source}: neither a certificate file nor a report with "
                           "certificates")


def _from_object(data: dict[str, Any], where: str) -> Certificate:
    strategy = data.get("certificate")
    if not isinstance(strategy, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in strategy.items()):
        raise CertificateError(f"{where}: 'certificate' must map position text to move text")
    winner = data.get("winner")
    if winner not in SIDE_NAMES:
        raise CertificateError(f"{where}: 'winner' must be 'sheep' or 'wolves'")
    claim = data.get("claim", WIN)
    if claim not in CLAIMS:
        raise CertificateError(f"{where}: 'claim' must be 'win' or 'no-loss', not {claim!r}")
    try:
        root = parse_position(str(data.get("root")))
    except ParseError as exc:
        raise CertificateError(f"{where}: root: {exc}") from None
    return Certificate(root, str(winner), strategy, str(claim))


def check_file(path: str | Path, lines: int | None = None, seed: int = 0) -> list[dict[str, Any]]:
    """Check every certificate of a file with the reference model (all of it, or
    `lines` random lines of each); one summary per certificate. CertificateError on the
    first fault."""
    out = []
    for cert in read_certificates(path):
        head = {"root": position_text(bare(cert.root)), "winner": cert.winner,
                "claim": cert.claim, "what": cert.what(),
                "strategy_positions": len(cert.strategy)}
        if lines is None:
            out.append({**head, "proof_positions": cert.check(), "complete": True})
        else:
            sample = sample_no_loss if cert.claim == NO_LOSS else sample_check
            plies = sample(cert.root, cert.winner, cert.strategy, lines, seed)
            out.append({**head, "lines": lines, "plies": plies, "complete": False})
    return out
