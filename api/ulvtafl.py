"""Ulvtafl through the library API: a position (setup or position string, with the movement
rules of U1/U6/U7), a move and the solver's reply, a replayed record, perft counts and the
exact solver (docs/rules.md section 3).

    from fleece.api import ulvtafl
    trapped = "WSS/.SS/..S.S../..S..../SS...../.../... w"
    report = ulvtafl.solve(ulvtafl.SolveRequest(position=trapped))
    report.value, report.best_move               # 'sheep', ...

Request fields are the command line's option names; a report's fields are the keys of
`fleece ulvtafl ... --json`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fleece.api.report import ABSENT, Report, detail
from fleece.rules.errors import FleeceError, IllegalMoveError, ParseError
from fleece.rules.ulvtafl.geometry import KING_DIAMETER

__all__ = [
    "BoardReport",
    "CertificateCheckReport",
    "CertificateCheckRequest",
    "CheckpointReport",
    "CheckpointRequest",
    "FortressReport",
    "FortressRequest",
    "MoveRequest",
    "PerftReport",
    "PerftRequest",
    "PositionRequest",
    "ProveReport",
    "ProveRequest",
    "PuzzleCheckReport",
    "PuzzleCheckRequest",
    "PuzzleGenerateRequest",
    "PuzzleHintReport",
    "PuzzlePackReport",
    "PuzzlePlayRequest",
    "PuzzleStepReport",
    "ReplayReport",
    "ReplayRequest",
    "SolveReport",
    "SolveRequest",
    "VerifyVariant",
    "board",
    "board_svg",
    "check_certificates",
    "check_puzzles",
    "checkpoint_status",
    "fortress",
    "generate_puzzles",
    "perft",
    "play",
    "play_puzzle",
    "prove",
    "puzzle_hint",
    "replay",
    "reply",
    "rules_of",
    "solve",
    "state_of",
]


SETUPS = (13, 15, 17, 20)
SEARCH_BUDGET = 15.0  # default seconds of solve and perft: no search runs unbounded
RETRO_LIMIT = 2_000_000
THINK = 2.0  # the solver's default seconds a move in play
REPLY_RETRO_LIMIT = 200_000  # positions a reply may enumerate (that phase reads no clock)


@dataclass(frozen=True, kw_only=True)
class PositionRequest:
    """A position: `position` (a U8 position string) or `setup` (13, 15, 17, 20; default 20)
    with the wolves' start points `wolf`, and the movement rules."""

    setup: int | None = None
    position: str | None = None
    wolf: tuple[str, ...] = ()
    orthogonal: bool = False
    wolf_diagonal_captures_only: bool = False
    sheep_orthogonal: bool = False
    no_repetition_draw: bool = False


def rules_of(request: PositionRequest) -> Any:
    """The movement rules (fleece.rules.ulvtafl.game.Rules) a request names."""
    from fleece.rules.ulvtafl.game import Rules

    return Rules(orthogonal=request.orthogonal,
                 wolf_diagonal_captures_only=request.wolf_diagonal_captures_only,
                 sheep_orthogonal=request.sheep_orthogonal,
                 repetition_draw=not request.no_repetition_draw)


def state_of(request: PositionRequest) -> Any:
    """The start state a request names; FleeceError naming the field on bad input."""
    from fleece.rules.errors import RulesError
    from fleece.rules.ulvtafl.game import Rules, UlvState, UlvtaflOptions, initial_state
    from fleece.rules.ulvtafl.notation import parse_position

    rules = rules_of(request)
    if request.position is not None:
        if request.setup is not None:
            raise FleeceError("give a position or a setup, not both", field="position")
        if request.wolf:
            raise FleeceError("sets a setup's wolves; a position places its own", field="wolf")
        try:
            state: UlvState = parse_position(request.position)
        except ParseError as exc:
            raise ParseError(exc.message, line=exc.line, column=exc.column,
                             field="position") from None
        if rules != Rules():
            state = UlvState.create(rules, state.sheep, state.wolves, state.to_move)
        return state
    setup = 20 if request.setup is None else request.setup
    if setup not in SETUPS:
        raise FleeceError(f"'{setup}' is not one of 13, 15, 17, 20", field="setup")
    try:
        options = UlvtaflOptions(setup=setup, wolves=tuple(request.wolf) or None, rules=rules)
    except RulesError as exc:
        raise exc from None
    return initial_state(options)


@dataclass(frozen=True, kw_only=True)
class BoardReport(Report):
    """One position (`fleece ulvtafl board --json`): its text, pieces, side to move, result
    and legal moves; `text` the diagram, `state` the position itself."""

    position: str
    sheep: list[str]
    wolves: list[str]
    to_move: str | None
    paddock_filled: int
    result: str | None
    reason: str | None
    legal_moves: list[str]
    rules: list[str]
    text: str = detail("")
    state: Any = detail()
    played: tuple[str, ...] = detail(())
    reply_note: str | None = detail()


def _board_report(state: Any, played: tuple[str, ...] = (), note: str | None = None
                  ) -> BoardReport:
    from fleece.rules.ulvtafl.summary import BoardSummary

    summary = BoardSummary(state)
    return BoardReport.from_json(summary.to_json(), text=summary.text(), state=state, played=played,
                                 reply_note=note)


def board(request: PositionRequest) -> BoardReport:
    """The position a request names."""
    return _board_report(state_of(request))


def board_svg(report: BoardReport | SolveReport, arrow: str | None = None) -> str:
    """The report's position (with its movement rules' lines) as an SVG picture, with
    `arrow` (a move's text) drawn when given."""
    from fleece.rules.ulvtafl.diagram import svg
    from fleece.rules.ulvtafl.notation import parse_move

    text: str = svg(report.state, parse_move(arrow) if arrow else None)
    return text


@dataclass(frozen=True, kw_only=True)
class MoveRequest(PositionRequest):
    """Play `move` in the position (when given); then, when `solver` names the side to move
    (`sheep` or `wolves`), the solver answers, thinking at most `think` seconds."""

    move: str | None = None
    solver: str | None = None
    think: float = THINK


def play(request: MoveRequest) -> BoardReport:
    """The position after the move and the solver's reply (`played` the moves made,
    `reply_note` how the solver chose). An illegal move is a ParseError (field `move`)."""
    from fleece.rules.ulvtafl.game import SIDE_NAMES
    from fleece.rules.ulvtafl.notation import parse_move

    state = state_of(request)
    played: list[str] = []
    if request.move is not None:
        try:
            move = parse_move(request.move)
        except ParseError as exc:
            raise ParseError(exc.message, line=exc.line, column=exc.column,
                             field="move") from None
        try:
            state = state.play(move)
        except IllegalMoveError as exc:
            raise ParseError(f"illegal move {exc}", column=1, field="move") from None
        played.append(move.text())
    if request.solver is not None and request.solver not in SIDE_NAMES:
        raise FleeceError(f"'{request.solver}' is not one of {', '.join(SIDE_NAMES)}",
                          field="solver")
    note = None
    if request.solver is not None and not state.is_terminal() \
            and SIDE_NAMES[state.to_move] == request.solver:
        answer, note = reply(state, request.think)
        played.append(answer)
        state = state.play(parse_move(answer))
    return _board_report(state, tuple(played), note)


def reply(state: Any, think: float) -> tuple[str, str]:
    """The solver's move in `state` within `think` seconds (solver.ulvtafl.policy) and a
    sentence saying how it was chosen."""
    from fleece.solver.ulvtafl import solve as run_solve
    from fleece.solver.ulvtafl.policy import reply_move

    result = run_solve(state, timeout=think, retro_limit=REPLY_RETRO_LIMIT)
    move = reply_move(state, result.best_move).text()
    if result.value != "unknown":
        return move, f"the solver played {move} (value {result.value})"
    return move, (f"the solver played {move} (value unknown within {think:g} s: a heuristic "
                  "move)")


@dataclass(frozen=True)
class ReplayRequest:
    """A game record: an options line (`setup=20`, movement options), one move a line."""

    record: str
    source: str = "record"


@dataclass(frozen=True, kw_only=True)
class ReplayReport(Report):
    """A replayed record (`fleece ulvtafl replay --json`); `text` the moves and final board."""

    options: str
    moves: list[str]
    plies: int
    final: dict[str, Any]
    text: str = detail("")


def replay(request: ReplayRequest) -> ReplayReport:
    """Replay a record; ParseError at the first illegal move (line, column, reason)."""
    from fleece.rules.ulvtafl.record import parse_record
    from fleece.rules.ulvtafl.record import replay as replay_record
    from fleece.rules.ulvtafl.summary import ReplaySummary

    try:
        record = parse_record(request.record)
        states = replay_record(record)
    except ParseError as exc:
        raise exc.located(request.source) from None
    summary = ReplaySummary(record, tuple(states))
    return ReplayReport.from_json(summary.to_json(), text=summary.text())


@dataclass(frozen=True, kw_only=True)
class PerftRequest(PositionRequest):
    """Count the move sequences of each length 1..depth (U10) within `timeout` seconds."""

    depth: int
    timeout: float | None = SEARCH_BUDGET


@dataclass(frozen=True, kw_only=True)
class PerftReport(Report):
    """`fleece ulvtafl perft --json`: the counts of lengths 1..depth."""

    position: str
    counts: list[int]
    seconds: float


def perft(request: PerftRequest) -> PerftReport:
    """The perft counts; Stopped when the time runs out (the kernel runs in a thread)."""
    from fleece.solver.deadline import in_thread
    from fleece.solver.ulvtafl import perft_counts

    state = state_of(request)
    result = in_thread(lambda: perft_counts(state, request.depth), request.timeout,
                       "try a larger --timeout or a smaller depth")
    return PerftReport.from_json(result.to_json())


@dataclass(frozen=True, kw_only=True)
class SolveRequest(PositionRequest):
    """Solve a position: `text` (a position string or a record, read as `fleece ulvtafl
    solve FILE` reads it) or the position fields; the budgets."""

    text: str | None = None
    source: str = "input"
    max_nodes: int | None = None
    timeout: float | None = SEARCH_BUDGET
    retro_limit: int = RETRO_LIMIT
    memory: str | None = None


@dataclass(frozen=True, kw_only=True)
class SolveReport(Report):
    """The value with optimal play (`fleece ulvtafl solve --json`): `value` sheep, wolves,
    draw, or unknown when the budget ran out (never a guess)."""

    value: str
    best_move: str | None
    nodes: int
    distance: int | None
    method: str
    position: str
    seconds: float
    positions: Any
    proof_size: Any
    principal_line: list[str]
    searches: dict[str, Any]
    stopped: str | None
    frontier: Any
    state: Any = detail()


def _solve_state(request: SolveRequest) -> Any:
    if request.text is None:
        return state_of(request)
    if request.position is not None or request.setup is not None:
        raise FleeceError("give a FILE or --setup/--position, not both")
    from fleece.rules.text import shifted, split_lines
    from fleece.rules.ulvtafl.notation import parse_position
    from fleece.rules.ulvtafl.record import parse_record
    from fleece.rules.ulvtafl.record import replay as replay_record

    lines = [(n, ln.split("#", 1)[0]) for n, ln in enumerate(split_lines(request.text), 1)]
    body = [(n, ln) for n, ln in lines if ln.strip()]
    try:
        if body and (body[0][1].strip().startswith(("setup=", "position="))
                     or len(body) > 1):
            return replay_record(parse_record(request.text))[-1]
        if not body:
            raise ParseError("empty input: expected a position string or a record", line=1)
        number, line = body[0]
        try:
            state = parse_position(line.strip())
        except ParseError as exc:  # the column within the line, on the line it came from
            raise shifted(exc, len(line) - len(line.lstrip()) + 1, number) from None
    except ParseError as exc:
        raise exc.located(request.source) from None
    rules = rules_of(request)  # a position string takes the movement rules of the request
    if rules != type(rules)():
        state = type(state).create(rules, state.sheep, state.wolves, state.to_move)
    return state


def solve(request: SolveRequest,
          progress: Callable[[dict[str, object]], None] | None = None) -> SolveReport:
    """The game value under U7 and a move that keeps it: retrograde analysis when the
    reachable positions fit `retro_limit`, proof-number search otherwise."""
    from fleece.solver.ulvtafl import solve as run_solve

    state = _solve_state(request)
    result = run_solve(state, max_nodes=request.max_nodes, timeout=request.timeout,
                       retro_limit=request.retro_limit, progress=progress,
                       memory=_memory(request.memory))
    return SolveReport.from_json(result.to_json(), state=state)


def _memory(text: str | None) -> int | None:
    """A memory budget's bytes (`512M`, `8G`), or None for the default share of the
    machine's free memory; FleeceError naming the `memory` field."""
    if text is None:
        return None
    from fleece.solver.ulvtafl.budget import parse_memory

    try:
        return parse_memory(text)
    except FleeceError as exc:
        raise FleeceError(exc.message, field="memory", value=text) from None


# ---- long proofs --------------------------------------------------------------------------

SIDES = ("sheep", "wolves")
MAX_FOCUS = KING_DIAMETER  # the largest focus radius (prove): it reaches every point


@dataclass(frozen=True, kw_only=True)
class ProveRequest(PositionRequest):
    """`fleece ulvtafl prove`: prove that `side` can force a won end from a position (U7),
    with budgets (`seconds`, `max_nodes`, `memory`), a checkpoint folder to save to and
    `resume` from, several workers (threads) or a Ray cluster (`ray`: "local", "auto" or
    an address), and a file to write the certificate to when the proof is found.
    `safe_only` (the sheep play only moves after which no wolf can capture) and
    `forward_only` (the sheep never step sideways) restrict a sheep proof to fewer moves:
    what it proves holds in the game, and a failure ("failed") says nothing about it;
    so does `focus` > 0 (the sheep move within `focus` king steps of a wolf, plus a few
    tempo moves away from the wolves), which with `tree` is each leaf's first search
    instead. `profile` picks the initial proof numbers ("mobility", "paddock" or "steps":
    see prover.PROFILES) and `epsilon` df-pn's 1+epsilon (a multiple of 1/64 up to 4; a
    search resumes only with its own, a tree's leaves take the one given). `tree` grows a
    proof-number tree over df-pn searches of at most `leaf_max` nodes a leaf (the first
    `leaf_nodes`), for proofs too large for one table; `checkpoint` is then its folder
    (any number of workers), `safe_leaves` searches each leaf with the sheep on safe
    moves first (the unrestricted search where that fails) and `safe_front` gives the
    sheep only safe moves in the tree itself where they have one (a failure then says
    nothing). `seeds`: certificate files whose proofs the search (one search, or each
    leaf search of a tree; not a split search) takes as known: each is re-checked, its
    positions count as proved, and the proof's certificate may run through them (it is
    re-checked whole from the root). A resumed tree keeps the seeds it was saved with
    unless new ones are given."""

    side: str = "sheep"
    profile: str = "mobility"
    safe_only: bool = False
    forward_only: bool = False
    focus: int = 0
    epsilon: float = 0.25  # prover.DEFAULT_EPSILON
    seconds: float | None = None
    max_nodes: int | None = None
    memory: str | None = None
    checkpoint: str | None = None
    resume: bool = False
    force: bool = False
    workers: int = 1
    ray: str | None = None
    certificate: str | None = None
    tree: bool = False
    leaf_nodes: int = 1_000_000
    leaf_max: int | None = None
    safe_leaves: bool = False
    safe_front: bool = False
    seeds: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class ProveReport(Report):
    """Where the proof search stands: `outcome` proved, disproved (the side cannot force a
    win), or why it stopped (timeout, max-nodes, interrupted, open); the work done; the
    root's proof and disproof numbers; the certificate when proved (re-checked by the
    reference model before it is reported). `proofs_unrecorded` (one search on one
    thread): proofs its proof store had no room for, each a hole a certificate cannot
    cross. `seeded`: the positions the seed certificates added to the proof store."""

    position: str
    side: str
    outcome: str
    nodes: int
    seconds: float
    nodes_per_second: float
    proof_number: Any
    disproof_number: Any
    table_fill: float | None
    workers: int
    executor: str
    checkpoint: str | None
    certificate_positions: int | None
    proof_positions: int | None
    certificate_file: str | None
    proofs_unrecorded: int = ABSENT
    seeded: int = ABSENT
    units: list[dict[str, Any]] = ABSENT
    tree: dict[str, Any] = ABSENT


def prove(request: ProveRequest,
          progress: Callable[[dict[str, Any]], None] | None = None) -> ProveReport:
    """Run (or resume) a long proof search within its budgets. A proof is reported only
    with a certificate that the reference model re-checked; the certificate is written to
    `certificate` (gzip when it ends in .gz) only then, never over a file without
    `force`."""
    from fleece.rules.ulvtafl.game import SIDE_NAMES
    from fleece.rules.ulvtafl.notation import position_text
    from fleece.solver.ulvtafl.certificate import (
        Certificate,
        bare,
        settle,
        write_certificate,
    )

    if request.side not in SIDES:
        raise FleeceError(f"'{request.side}' is not a side (sheep or wolves)", field="side")
    if request.workers < 1:
        raise FleeceError("at least one worker", field="workers", limit=1)
    if request.resume and request.checkpoint is None:
        raise FleeceError("resuming needs the checkpoint folder", field="resume")
    if request.tree:
        if request.safe_only or request.forward_only:
            raise FleeceError("a tree search restricts its leaves only (safe_leaves)",
                              field="safe_only" if request.safe_only else "forward_only")
    else:
        for flag, name, what in ((request.safe_leaves, "safe_leaves", "safe leaves belong"),
                                 (request.safe_front, "safe_front", "a safe front belongs")):
            if flag:
                raise FleeceError(f"{what} to the tree search (tree)", field=name)
    if (request.workers > 1 or request.ray) and request.checkpoint is not None \
            and not request.tree:
        raise FleeceError("a split search keeps no checkpoint (one worker can)",
                          field="checkpoint")
    if request.seeds and not request.tree and (request.workers > 1 or request.ray):
        raise FleeceError("seeds serve one search or a tree, not a split search",
                          field="seeds")
    _refuse_existing(request.certificate, request.force)
    state = state_of(request)
    attacker = SIDE_NAMES.index(request.side)
    memory = _memory(request.memory)
    text = position_text(bare(state))
    units: Any = ABSENT
    tree: Any = ABSENT
    unrecorded: Any = ABSENT
    seeded: Any = ABSENT
    if request.tree:
        outcome, nodes, seconds, strategy, pn, dn, tree = _prove_tree(
            request, state, attacker, memory, progress)
        executor = f"proof tree, {request.workers} " + \
            ("Ray actor" if request.ray else "thread") + ("s" if request.workers > 1 else "")
        fill = None
    elif request.workers > 1 or request.ray:
        from fleece.solver.ulvtafl.parallel import prove_split

        split = prove_split(state, attacker, workers=request.workers, nodes=request.max_nodes,
                            seconds=request.seconds, memory=memory,
                            ray_address=request.ray, profile=request.profile,
                            safe_only=request.safe_only,
                            forward_only=request.forward_only, focus=request.focus,
                            epsilon=request.epsilon, progress=progress)
        data = split.to_json()
        outcome, nodes, seconds = split.outcome, split.nodes, split.seconds
        executor, strategy = split.executor, split.certificate
        pn = dn = None
        fill = None
        units = data["units"]
    else:
        from fleece.solver.ulvtafl.prover import Prover

        if request.resume:
            assert request.checkpoint is not None
            prover = Prover.load(request.checkpoint, state=state, attacker=attacker,
                                 memory=memory, forward_only=request.forward_only,
                                 safe_only=request.safe_only, profile=request.profile,
                                 focus=request.focus, epsilon=request.epsilon)
        else:
            _refuse_saved(request, "search.npz", "a checkpoint")
            prover = Prover(state, attacker, memory=memory, safe_only=request.safe_only,
                            forward_only=request.forward_only, profile=request.profile,
                            focus=request.focus, epsilon=request.epsilon)
        seeded = prover.seed_files(request.seeds, None if progress is None else (
            lambda path, cert: progress({"seeding": path, "positions": len(cert.strategy)}))
        ) if request.seeds else ABSENT
        outcome = prover.run(nodes=request.max_nodes, seconds=request.seconds,
                             progress=progress, checkpoint=request.checkpoint)
        info = prover.progress_info()
        nodes, seconds = prover.nodes, prover.seconds
        pn, dn, fill = info["proof_number"], info["disproof_number"], info["table_fill"]
        executor = "one thread"
        unrecorded = int(prover.ctr[5])
        strategy = prover.certificate() if outcome == "proved" else None
    outcome, checked = settle(outcome, state, request.side, strategy)
    written: str | None = None
    if checked is not None and strategy is not None and request.certificate is not None:
        written = str(write_certificate(request.certificate,
                                        Certificate(state, request.side, strategy),
                                        overwrite=request.force))
    return ProveReport(position=text, side=request.side, outcome=outcome, nodes=nodes,
                       seconds=round(seconds, 3),
                       nodes_per_second=round(nodes / seconds) if seconds > 0 else 0.0,
                       proof_number=_number(pn), disproof_number=_number(dn),
                       table_fill=fill, workers=request.workers,
                       executor=executor, checkpoint=request.checkpoint,
                       certificate_positions=len(strategy) if strategy else None,
                       proof_positions=checked, certificate_file=written,
                       proofs_unrecorded=unrecorded, seeded=seeded, units=units,
                       tree=tree)


def _refuse_existing(certificate: str | None, force: bool) -> None:
    """Refuse, before any search, a certificate file that exists unless `force` (prove,
    fortress): the answer would otherwise be lost after the work."""
    from pathlib import Path

    if certificate is not None and not force and Path(certificate).exists():
        raise FleeceError(f"{certificate}: already exists (force to replace it)",
                          field="certificate")


def _refuse_saved(request: ProveRequest, name: str, what: str) -> None:
    """Refuse to start afresh over a saved search (file `name` in the checkpoint folder)
    unless `force`."""
    from pathlib import Path

    folder = request.checkpoint
    if folder is not None and not request.force and (Path(folder) / name).exists():
        raise FleeceError(f"{folder}: holds {what} (resume it, or force to start afresh)",
                          field="checkpoint")


def _prove_tree(request: ProveRequest, state: Any, attacker: int, memory: int | None,
                progress: Callable[[dict[str, Any]], None] | None) -> tuple[Any, ...]:
    """The tree search of `prove`: (outcome, nodes, seconds, certificate, root pn, dn,
    the tree's figures)."""
    from fleece.solver.ulvtafl.tree import ProofTree

    folder = request.checkpoint
    if request.resume:
        assert folder is not None
        tree = ProofTree.load(folder, workers=request.workers, memory=memory, state=state,
                              leaf_nodes=request.leaf_nodes, leaf_max=request.leaf_max,
                              safe_front=request.safe_front, focus_leaves=request.focus,
                              seeds=request.seeds or None, epsilon=request.epsilon)
    else:
        _refuse_saved(request, "tree.json.gz", "a saved tree")
        tree = ProofTree(state, attacker, workers=request.workers,
                         leaf_nodes=request.leaf_nodes, leaf_max=request.leaf_max,
                         memory=memory, safe_leaves=request.safe_leaves,
                         safe_front=request.safe_front, profile=request.profile,
                         focus_leaves=request.focus, seeds=request.seeds,
                         epsilon=request.epsilon)
    outcome = tree.run(nodes=request.max_nodes, seconds=request.seconds, progress=progress,
                       folder=folder, ray_address=request.ray)
    info = tree.progress_info()
    # prove() re-checks the certificate with the reference rules right after
    strategy = tree.certificate(check=False) if outcome == "proved" else None
    return (outcome, tree.work, tree.seconds, strategy, info["proof_number"],
            info["disproof_number"], _tree_figures(tree, info))


def _tree_figures(tree: Any, info: dict[str, Any]) -> dict[str, Any]:
    """A proof tree's figures as prove and checkpoint show report them (`info`: its
    progress_info): its size, safe front, repetition edges, root moves and line."""
    figures = {k: info[k] for k in ("tree_nodes", "expanded", "leaf_searches",
                                    "proved_leaves", "safe_front")}
    figures["repetition_edges"] = tree.repetitions  # with safe_front: why a tree "failed"
    figures["root_moves"] = tree.root_moves()
    figures["principal_line"] = tree.principal_line()
    return figures


def _number(value: Any) -> Any:
    """A proof or disproof number as JSON: an int, "inf" (the engine's saturated value), or
    None."""
    from fleece.solver.ulvtafl.engine import INF

    if value is None or isinstance(value, str):
        return value
    return "inf" if int(value) >= INF else int(value)


@dataclass(frozen=True)
class CertificateCheckRequest:
    """`fleece ulvtafl certificate check`: a certificate file or a report JSON with
    certificates; `lines` random lines of each instead of the whole proof."""

    file: str
    lines: int | None = None
    seed: int = 0


@dataclass(frozen=True, kw_only=True)
class CertificateCheckReport(Report):
    """Each certificate's root, winner and what the reference model walked through."""

    certificates: list[dict[str, Any]]
    ok: bool


def check_certificates(request: CertificateCheckRequest) -> CertificateCheckReport:
    """Re-check every certificate of a file with the reference rules model alone (every
    wolf reply, every line ending in the winner's win, no repeated position); a fault is a
    CertificateError naming the position."""
    from fleece.solver.ulvtafl.certificate import check_file

    if request.lines is not None and request.lines < 1:
        raise FleeceError("at least one line", field="lines", limit=1)
    found = check_file(request.file, request.lines, request.seed)
    if not found:
        raise FleeceError(f"{request.file}: holds no certificate", field="file")
    return CertificateCheckReport(certificates=found, ok=True)


# ---- fortresses ----------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class FortressRequest(PositionRequest):
    """`fleece ulvtafl fortress`: search for a strategy with which `side` never loses from
    a position, so that the other side cannot force a won end (U7). The sheep, when they
    are `side`, play only safe moves (no wolf can capture after them) unless `all_moves`,
    and at most `forward_steps` forward steps in all (None: no bound); the other side plays
    every legal move. Budgets: `max_positions` explored, `seconds`, `memory`. A fortress
    found is written as a "no-loss" certificate to `certificate` (never over a file
    without `force`)."""

    side: str = "sheep"
    forward_steps: int | None = 2
    all_moves: bool = False
    max_positions: int = 1_000_000  # solver.ulvtafl.fortress.DEFAULT_POSITIONS
    seconds: float | None = None
    memory: str | None = None
    certificate: str | None = None
    force: bool = False


@dataclass(frozen=True, kw_only=True)
class FortressReport(Report):
    """What the fortress search found: `outcome` "found" (the other side cannot win; the
    strategy re-checked by the reference rules, `checked_positions` walked), "none" (no
    fortress among the positions explored: with restricted moves this proves nothing),
    "too-large" or "stopped" (a budget ran out); `explored` positions and `holding` those
    of them from which the side never loses."""

    position: str
    side: str
    outcome: str
    safe_only: bool
    forward_steps: int | None
    explored: int
    holding: int
    strategy_positions: int | None
    checked_positions: int | None
    certificate_file: str | None
    seconds: float


def fortress(request: FortressRequest,
             progress: Callable[[int], None] | None = None) -> FortressReport:
    """Run a fortress search within its budgets (solver.ulvtafl.fortress.find_fortress);
    `progress` sees the number of positions explored now and then."""
    import time

    from fleece.rules.ulvtafl.notation import position_text
    from fleece.solver.ulvtafl.budget import check_positive
    from fleece.solver.ulvtafl.certificate import bare, write_certificate
    from fleece.solver.ulvtafl.fortress import find_fortress

    if request.side not in SIDES:
        raise FleeceError(f"'{request.side}' is not sheep or wolves", field="side")
    check_positive("--seconds", request.seconds)
    state = state_of(request)
    if state.is_terminal():
        raise FleeceError(f"the game is over: {state.reason}", field="position")
    _refuse_existing(request.certificate, request.force)
    deadline = None if request.seconds is None else time.perf_counter() + request.seconds
    found = find_fortress(state, request.side, safe_only=not request.all_moves,
                          forward_steps=request.forward_steps,
                          max_positions=request.max_positions, deadline=deadline,
                          memory=_memory(request.memory), progress=progress)
    written = None
    if found.certificate is not None and request.certificate is not None:
        written = str(write_certificate(request.certificate, found.certificate,
                                        overwrite=request.force))
    return FortressReport(
        position=position_text(bare(state)), side=request.side, outcome=found.outcome,
        safe_only=found.safe_only, forward_steps=found.forward_steps,
        explored=found.explored, holding=found.holding,
        strategy_positions=None if found.certificate is None else len(
            found.certificate.strategy),
        checked_positions=found.checked, certificate_file=written,
        seconds=round(found.seconds, 3))


# ---- saved searches ------------------------------------------------------------------------


SHOW_MEMORY = "64M"  # what a tree loaded to be shown claims: no worker or table is made


@dataclass(frozen=True)
class CheckpointRequest:
    """`fleece ulvtafl checkpoint show`: the folder a `prove --checkpoint` run saved to (one
    search or a tree); `points` the root numbers over time to show at most (spread evenly
    over the run, the last always), `leaves` the open leaves of a tree to list."""

    folder: str
    points: int = 12
    leaves: int = 10


@dataclass(frozen=True, kw_only=True)
class CheckpointReport(Report):
    """Where a saved proof search stands, read without resuming it (a search's table is
    not loaded): what it searches (`kind` "search" or "tree", the position, the side, the
    options it runs with), its work, the root's numbers, the root numbers over time
    (`history`: a point a minute and one at each run's end, saved with the search), each
    run's end (`runs`), and whether this engine can resume it. A tree adds its figures,
    root moves, most-proving line and the open leaves with the most work."""

    folder: str
    kind: str
    position: str
    side: str
    options: dict[str, Any]
    resumable: bool
    engine: int
    nodes: int
    seconds: float
    proof_number: Any
    disproof_number: Any
    history: list[dict[str, Any]]
    runs: list[dict[str, Any]]
    counters: dict[str, Any] = ABSENT
    tree: dict[str, Any] = ABSENT


def checkpoint_status(request: CheckpointRequest) -> CheckpointReport:
    """Read a checkpoint folder (`search.npz` of one search, or `tree.json.gz` of a proof
    tree) and report where its search stands; CheckpointError in one line when the folder
    holds neither or the file is damaged. Nothing is written."""
    from pathlib import Path

    from fleece.solver.ulvtafl import engine
    from fleece.solver.ulvtafl.prover import CheckpointError, saved_search

    for name, value in (("points", request.points), ("leaves", request.leaves)):
        if value < 1:
            raise FleeceError(f"at least one, not {value}", field=name, limit=1)
    folder = Path(request.folder)
    if not folder.is_dir():
        raise CheckpointError(f"{folder}: no such folder")
    if (folder / "tree.json.gz").is_file():
        return _tree_status(request)
    if not (folder / "search.npz").is_file():
        raise CheckpointError(f"{folder}: no saved search there (search.npz of one search, "
                              "tree.json.gz of a tree)")
    info = saved_search(folder)
    last = (info.get("trace") or [{}])[-1]  # a checkpoint older than the saved numbers
    options = {k: info.get(k) for k in ("safe_only", "forward_only", "focus", "profile",
                                        "epsilon", "table_bits")}
    return CheckpointReport(
        folder=str(folder), kind="search", position=str(info["root"]),
        side=str(info["attacker"]), options=options,
        resumable=info.get("engine") == engine.ENGINE_VERSION,
        engine=int(info.get("engine", 0)), nodes=int(info["nodes"]),
        seconds=round(float(info["seconds"]), 1),
        proof_number=_number(info.get("proof_number", last.get("proof_number"))),
        disproof_number=_number(info.get("disproof_number", last.get("disproof_number"))),
        history=_spread(info.get("history") or info.get("trace", []), request.points),
        runs=[_point(t) for t in info.get("trace", [])], counters=info["counters"])


def _tree_status(request: CheckpointRequest) -> CheckpointReport:
    """checkpoint_status of a saved proof tree (loaded without its seeds' re-check and
    without starting a worker)."""
    from fleece.rules.ulvtafl.notation import position_text
    from fleece.solver.ulvtafl import engine
    from fleece.solver.ulvtafl.prover import SIDE
    from fleece.solver.ulvtafl.tree import ProofTree

    tree = ProofTree.load(request.folder, seeds=(), memory=SHOW_MEMORY)
    info = tree.progress_info()
    options = {"safe_leaves": tree.safe_leaves, "safe_front": tree.safe_front,
               "focus_leaves": tree.focus_leaves, "profile": tree.profile,
               "epsilon": tree.epsilon, "leaf_nodes": tree.leaf_nodes,
               "leaf_max": tree.leaf_max, "seeds": list(tree.saved_seeds)}
    figures = _tree_figures(tree, info)
    figures["root_moves"] = [{**m, "proof_number": _number(m["proof_number"]),
                              "disproof_number": _number(m["disproof_number"])}
                             for m in figures["root_moves"]]
    figures["principal_line"] = [m["move"] for m in figures["principal_line"]]
    figures["open_leaves"] = [{**x, "proof_number": _number(x["proof_number"]),
                               "disproof_number": _number(x["disproof_number"])}
                              for x in tree.open_leaves(request.leaves)]
    return CheckpointReport(
        folder=request.folder, kind="tree", position=position_text(tree.root_state),
        side=SIDE[tree.attacker], options=options, resumable=True,
        engine=engine.ENGINE_VERSION, nodes=tree.work, seconds=round(tree.seconds, 1),
        proof_number=_number(info["proof_number"]),
        disproof_number=_number(info["disproof_number"]),
        history=_spread(tree.history or tree.trace, request.points),
        runs=[_point(t) for t in tree.trace], tree=figures)


def _point(info: dict[str, Any]) -> dict[str, Any]:
    """One point of the root numbers over time, as JSON (with a search's table fill, or a
    tree's positions and proved leaves, where the point has them)."""
    out: dict[str, Any] = {k: info[k] for k in ("nodes", "seconds") if k in info}
    out["proof_number"] = _number(info.get("proof_number"))
    out["disproof_number"] = _number(info.get("disproof_number"))
    out.update({k: info[k] for k in ("table_fill", "tree_nodes", "proved_leaves")
                if k in info})  # a search's table fill, a tree's size
    return out


def _spread(points: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    """At most `count` of the points, evenly spread, the first and the last kept, as
    JSON."""
    from fleece.solver.ulvtafl.prover import evenly

    return [_point(p) for p in evenly(points, count)]


# ---- puzzles ------------------------------------------------------------------------------

PUZZLE_GRADES = ("easy", "medium", "hard", "expert")


@dataclass(frozen=True)
class PuzzleGenerateRequest:
    """`fleece ulvtafl puzzle generate`: `count` "to move and win" puzzles of `grade` (or of
    every grade with `all`: one folder a grade and an index, the committed pack's form),
    written to the folder `out`, or returned as text when `out` is None."""

    count: int = 10
    grade: str = "easy"
    seed: int = 1
    out: str | None = None
    workers: int = 1
    budget: float | None = None
    force: bool = False


@dataclass(frozen=True, kw_only=True)
class PuzzlePackReport(Report):
    """The generated puzzles: how many, which grade, where they were written (`out` None and
    no files when they were returned as `text`), and each puzzle's claim."""

    out: str | None
    count: int
    grade: str
    files: list[str]
    puzzles: list[dict[str, Any]]
    text: str = detail("")


def _grade_of(text: str) -> Any:
    from fleece.solver.puzzles.ulvtafl import UlvGrade

    try:
        return UlvGrade.parse(text)
    except FleeceError as exc:
        raise FleeceError(str(exc), field="grade", value=text) from None


def generate_puzzles(request: PuzzleGenerateRequest,
                     progress: Callable[[int, int], None] | None = None) -> PuzzlePackReport:
    """Generate sound puzzles (each re-checkable by `check_puzzles`); the same seed gives the
    same puzzles whatever `workers` is. Refused before any work when `out` holds a pack and
    `force` is false; FleeceError when `budget` seconds run out before `count` are found."""
    from fleece.solver.puzzles.pack import check_target
    from fleece.solver.puzzles.ulvtafl import generate, render_puzzles, write_pack
    from fleece.solver.puzzles.ulvtafl.formats import puzzle_data
    from fleece.solver.puzzles.ulvtafl.packs import build_packs

    if not 1 <= request.count <= 1000:
        raise FleeceError(f"{request.count} puzzles is out of range (1..1000)", field="count",
                          limit=1000)
    if request.grade.strip().lower() == "all":
        if request.out is None:
            raise FleeceError("every grade at once needs a folder for the packs",
                              field="out")
        found: list[Any] = []
        files: list[str] = []
        done: dict[str, tuple[int, int]] = {}

        def tick(label: str, count: int, tried: int) -> None:
            done[label] = (count, tried)
            if progress is not None:
                progress(sum(c for c, _ in done.values()), sum(t for _, t in done.values()))

        packs = build_packs(request.out, request.count, request.seed,
                            workers=request.workers, force=request.force, progress=tick)
        for grade, puzzles in packs.items():
            found += puzzles
            files += [f"{request.out}/{grade.label}/{i:03d}.txt"
                      for i in range(1, len(puzzles) + 1)]
        return PuzzlePackReport(out=request.out, count=len(found), grade="all", files=files,
                                puzzles=[puzzle_data(p) for p in found])
    grade = _grade_of(request.grade)
    if request.out is not None:
        check_target(request.out, force=request.force)
    found = generate(grade, request.count, request.seed, progress=progress,
                     budget=request.budget, workers=request.workers)
    data = [puzzle_data(p) for p in found]
    if request.out is None:
        return PuzzlePackReport(out=None, count=len(found), grade=grade.label, files=[],
                                puzzles=data, text=render_puzzles(found))
    paths = write_pack(found, request.out, force=request.force)
    return PuzzlePackReport(out=request.out, count=len(found), grade=grade.label,
                            files=paths, puzzles=data)


@dataclass(frozen=True)
class PuzzleCheckRequest:
    """`fleece ulvtafl puzzle check`: a puzzle file's text (one puzzle or several separated
    by `---`, or the JSON twin) and its name for messages."""

    puzzle: str
    source: str = "puzzle"
    limit: int | None = None


@dataclass(frozen=True, kw_only=True)
class PuzzleCheckReport(Report):
    """The verdict on every puzzle of a file (each: position, winner, plies, solution,
    grade, sound, reason, ...), and whether all are sound; `lines` in words."""

    puzzles: list[dict[str, Any]]
    sound: bool
    lines: tuple[str, ...] = detail(())


def check_puzzles(request: PuzzleCheckRequest) -> PuzzleCheckReport:
    """Re-prove every claim of every puzzle with the independent pure-Python method: the side
    to move wins, in exactly the claimed plies, with exactly one winning first move, along
    the given solution, with the labelled grade."""
    from fleece.solver.puzzles.ulvtafl import check, parse_puzzles
    from fleece.solver.puzzles.ulvtafl.check import CHECK_LIMIT

    limit = CHECK_LIMIT if request.limit is None else request.limit
    verdicts = [check(p, limit=limit) for p in parse_puzzles(request.puzzle, request.source)]
    lines: list[str] = []
    for v in verdicts:
        lines += [*v.lines(), ""]
    return PuzzleCheckReport(puzzles=[v.to_json() for v in verdicts],
                             sound=all(v.sound for v in verdicts), lines=tuple(lines[:-1]))


@dataclass(frozen=True)
class PuzzlePlayRequest:
    """A puzzle played on a board: the puzzle file's text (one puzzle), the moves played so
    far from its position (both sides', U8 notation), and the user's next `move` (for
    `play_puzzle`; `puzzle_hint` ignores it)."""

    puzzle: str
    moves: tuple[str, ...] = ()
    move: str | None = None
    source: str = "puzzle"


@dataclass(frozen=True, kw_only=True)
class PuzzleStepReport(Report):
    """One turn: the user's move and the defence's best reply. `ok` false: the move was not
    played (`error` says why); `still_wins` whether the user's side still wins, `fastest`
    whether it kept the shortest win; `moves` every move played from the puzzle's position;
    `message` the turn in words (a move that throws the win away says so: take it back by
    dropping the last two moves)."""

    ok: bool
    position: str
    error: str | None
    move: str | None
    still_wins: bool | None
    fastest: bool | None
    reply: str | None
    plies_left: int | None
    result: str | None
    message: str
    moves: list[str]
    state: Any = detail()


@dataclass(frozen=True, kw_only=True)
class PuzzleHintReport(Report):
    """The position after the moves played, who is to move, its exact value, and a hint for
    the side to move when it wins (least to most telling: `threat` in words, then the
    `piece` to move, then the `move` itself); `hint` is None when the side to move does not
    win (after a move that threw the win away)."""

    position: str
    to_move: str | None
    winner: str | None
    plies: int | None
    hint: dict[str, Any] | None
    state: Any = detail()


def _puzzle_and_state(request: PuzzlePlayRequest) -> tuple[Any, Any, Any]:
    """The puzzle of the request, the table of its position's values and the state after the
    moves played (FleeceError, field `moves`, naming the first move that is not legal)."""
    from fleece.solver.puzzles.ulvtafl import parse_puzzle, values_for
    from fleece.solver.puzzles.ulvtafl.play import replay

    puzzle = parse_puzzle(request.puzzle, request.source)
    try:
        state = replay(puzzle, list(request.moves))
    except FleeceError as exc:
        raise FleeceError(exc.message, field="moves") from None
    return puzzle, values_for(puzzle.state()), state


def play_puzzle(request: PuzzlePlayRequest) -> PuzzleStepReport:
    """Play the user's `move` after `moves`, then the defence's best reply (the longest
    resistance, as in the solution); a move that is not legal is a step with `ok` false."""
    from fleece.rules.ulvtafl.notation import parse_position
    from fleece.solver.puzzles.ulvtafl import step

    if request.move is None:
        raise FleeceError("missing: the move to play", field="move")
    puzzle, values, _ = _puzzle_and_state(request)
    done = step(puzzle, list(request.moves), request.move, values)
    return PuzzleStepReport.from_json(done.to_json(), state=parse_position(done.position))


def puzzle_hint(request: PuzzlePlayRequest) -> PuzzleHintReport:
    """The position after `moves`, its value and, when the side to move wins, the hint."""
    from fleece.rules.ulvtafl.game import SIDE_NAMES
    from fleece.rules.ulvtafl.notation import position_text
    from fleece.solver.puzzles.ulvtafl import hint
    from fleece.solver.puzzles.ulvtafl.analysis import bare, value

    _, values, state = _puzzle_and_state(request)
    if state.is_terminal():
        return PuzzleHintReport(position=position_text(state), to_move=None,
                                winner=state.result, plies=0, hint=None, state=state)
    winner, plies = value(values, bare(state))
    found = hint(values, state)
    return PuzzleHintReport(position=position_text(state), to_move=SIDE_NAMES[state.to_move],
                            winner=winner, plies=None if winner == "draw" else plies,
                            hint=found.to_json() if found is not None else None, state=state)


@dataclass(frozen=True, kw_only=True)
class VerifyVariant:
    """What `fleece verify --game ulvtafl` checks: the movement rules (U1, U6, U7) and the
    cross-check's number of random positions (None: 12 quick, 120 full)."""

    samples: int | None = None
    orthogonal: bool = False
    wolf_diagonal_captures_only: bool = False
    sheep_orthogonal: bool = False
    no_repetition_draw: bool = False

    def config(self, quick: bool, package: Any) -> Any:
        """The verify package's VerifyConfig of this variant."""
        from fleece.rules.ulvtafl.game import Rules

        rules = Rules(orthogonal=self.orthogonal,
                      wolf_diagonal_captures_only=self.wolf_diagonal_captures_only,
                      sheep_orthogonal=self.sheep_orthogonal,
                      repetition_draw=not self.no_repetition_draw)
        return package.VerifyConfig(rules=rules, quick=quick, samples=self.samples)
