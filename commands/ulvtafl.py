"""`fleece ulvtafl ...`: print boards, replay records, count moves (perft), solve positions
exactly and play against the solver (docs/rules.md section 3; fleece.api.ulvtafl)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated, Any

import typer

from fleece.api import ulvtafl as api
from fleece.commands.base import (
    EXIT_OK,
    choice,
    echo,
    finish,
    int_in,
    names,
    new_app,
    print_json,
    read_input,
    seconds_in,
    stopped_as_json,
    terminate_as_interrupt,
    write_output,
)
from fleece.commands.output import Column, Document, show

app = new_app("Ulvtafl: wolves and sheep on the 33-point cross: boards, records, perft, exact "
              "solver.")

MAX_PERFT = 9  # perft(9) from the 20-sheep start takes about a minute
MAX_NODES = 10**12


class Setup(StrEnum):
    """The setups of U9: the number of sheep."""

    S13 = "13"
    S15 = "15"
    S17 = "17"
    S20 = "20"


class Side(StrEnum):
    """A side of the game."""

    SHEEP = "sheep"
    WOLVES = "wolves"


FULL_TABLE = 0.99  # a table this full at the end of an open search: the memory hint


class Profile(StrEnum):
    """The proof search's initial proof and disproof numbers (solver.ulvtafl.prover
    PROFILES): the mover's mobility, or also the sheep's distance to a full paddock in
    empty points, or in empty points and sheep steps."""

    MOBILITY = "mobility"
    PADDOCK = "paddock"
    STEPS = "steps"


SetupOpt = Annotated[Setup | None, typer.Option(
    **choice(Setup), show_default=False,
    help="start from a setup of U9: 13, 15 or 17 sheep against one wolf, or 20 against two "
         "(default 20)")]
PositionOpt = Annotated[str | None, typer.Option(
    metavar="TEXT", show_default=False,
    help="start from a position string (U8), e.g. 'W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w'")]
WolfOpt = Annotated[list[str] | None, typer.Option(
    metavar="POINT", show_default=False,
    help="a wolf's start point (repeat for two wolves; U6, U9)")]
Orthogonal = Annotated[bool, typer.Option("--orthogonal", help="no diagonal lines (U1)")]
WolfDiag = Annotated[bool, typer.Option("--wolf-diagonal-captures-only",
                                        help="wolves use diagonals only to capture (U6)")]
SheepOrth = Annotated[bool, typer.Option("--sheep-orthogonal",
                                         help="sheep never move diagonally (U6)")]
NoRepetition = Annotated[bool, typer.Option(
    "--no-repetition-draw", help="a repeated position does not end the game (U7)")]
Json = Annotated[bool, typer.Option("--json", help="print one JSON object")]
Svg = Annotated[str | None, typer.Option(metavar="FILE", show_default=False,
                                         help="also write the board as an SVG picture")]
Force = Annotated[bool, typer.Option("--force", help="let --svg overwrite a file")]
Memory = Annotated[str | None, typer.Option(
    metavar="SIZE", show_default=False,
    help="memory the tables may take, e.g. 512M or 8G (default: 40% of the free memory)")]


def _position(setup: Setup | None, position: str | None, wolf: list[str] | None,
              orthogonal: bool, wolf_diagonal_captures_only: bool, sheep_orthogonal: bool,
              no_repetition_draw: bool) -> dict[str, Any]:
    """The position fields of a request."""
    return {"setup": None if setup is None else int(setup), "position": position,
            "wolf": tuple(wolf or ()), "orthogonal": orthogonal,
            "wolf_diagonal_captures_only": wolf_diagonal_captures_only,
            "sheep_orthogonal": sheep_orthogonal, "no_repetition_draw": no_repetition_draw}


@app.command()
def board(setup: SetupOpt = None, position: PositionOpt = None, wolf: WolfOpt = None,
          orthogonal: Orthogonal = False, wolf_diagonal_captures_only: WolfDiag = False,
          sheep_orthogonal: SheepOrth = False, no_repetition_draw: NoRepetition = False,
          svg: Svg = None, force: Force = False, json: Json = False) -> int:
    """Print a board diagram (a setup or a position string)."""
    report = api.board(api.PositionRequest(**_position(
        setup, position, wolf, orthogonal, wolf_diagonal_captures_only, sheep_orthogonal,
        no_repetition_draw)))
    if svg is not None:
        write_output(svg, api.board_svg(report), force=force, what="SVG picture of the board")
    if json:
        print_json(report)
    else:
        echo(report.text, end="")
    return EXIT_OK


@app.command()
def replay(
    record: Annotated[str, typer.Argument(help="record file, or '-' for standard input",
                                          show_default=False)],
    json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> int:
    """Replay a game record (an options line such as 'setup=20', then one move per line,
    '#' comments). Stops at the first illegal move with its line and the reason (exit
    status 2)."""
    text, name = read_input(record)
    report = api.replay(api.ReplayRequest(record=text, source=name))
    if json:
        print_json(report)
    else:
        echo(report.text, end="")
    return EXIT_OK


@app.command()
def perft(
    depth: Annotated[int, typer.Argument(parser=int_in(1, MAX_PERFT), show_default=False,
                                         help=f"deepest length (1..{MAX_PERFT})")],
    setup: SetupOpt = None, position: PositionOpt = None, wolf: WolfOpt = None,
    orthogonal: Orthogonal = False, wolf_diagonal_captures_only: WolfDiag = False,
    sheep_orthogonal: SheepOrth = False, no_repetition_draw: NoRepetition = False,
    timeout: Annotated[float, typer.Option(
        parser=seconds_in(strip=True), metavar="SECONDS",
        help="stop with no answer after this many seconds (exit status 1)")
    ] = api.SEARCH_BUDGET,
    json: Annotated[bool, typer.Option("--json", help='print {"counts": [...]}')] = False,
) -> int:
    """Count the move sequences of each length (U10)."""
    request = api.PerftRequest(depth=depth, timeout=timeout, **_position(
        setup, position, wolf, orthogonal, wolf_diagonal_captures_only, sheep_orthogonal,
        no_repetition_draw))
    with stopped_as_json(json):
        report = api.perft(request)
    if json:
        print_json(report)
    else:
        echo(f"position: {report.position}")
        for d, n in enumerate(report.counts, start=1):
            echo(f"perft({d}) = {n}")
    return EXIT_OK


def _progress(label: str, describe: Callable[[Any], str]) -> Any:
    """A transient progress line on standard error when it is a terminal (else None,
    None): the bar, and an update that shows `describe` of what the work reports."""
    if not sys.stderr.isatty():
        return None, None
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task(label)

    def update(info: Any) -> None:
        bar.update(task, description=describe(info))

    return bar, update


def _solving(info: dict[str, object]) -> str:
    """solve's progress line."""
    return (f"solving: {info['nodes']:,} nodes; sheep win {info.get('sheep')} "
            f"(forward-only {info.get('sheep_forward_only')}, safe-only "
            f"{info.get('sheep_safe_only')}), wolves win {info.get('wolves')}")


@app.command()
def solve(
    file: Annotated[str | None, typer.Argument(
        show_default=False, help="a position string or a record ('-' for standard input); "
                                 "default the setup")] = None,
    setup: SetupOpt = None, position: PositionOpt = None, wolf: WolfOpt = None,
    orthogonal: Orthogonal = False, wolf_diagonal_captures_only: WolfDiag = False,
    sheep_orthogonal: SheepOrth = False, no_repetition_draw: NoRepetition = False,
    max_nodes: Annotated[int | None, typer.Option(
        parser=int_in(1, MAX_NODES), show_default=False,
        help="stop after this many positions/nodes (default: no limit)")] = None,
    timeout: Annotated[float, typer.Option(
        parser=seconds_in(strip=True), metavar="SECONDS",
        help="stop after this many seconds (the value is then 'unknown')")
    ] = api.SEARCH_BUDGET,
    retro_limit: Annotated[int, typer.Option(
        parser=int_in(0, 200_000_000),
        help="positions the retrograde method may enumerate")] = api.RETRO_LIMIT,
    memory: Memory = None,
    svg: Annotated[str | None, typer.Option(
        metavar="FILE", show_default=False,
        help="write the board with the best move as SVG")] = None,
    force: Force = False,
    json: Annotated[bool, typer.Option("--json", help="print the result as JSON")] = False,
) -> int:
    """The game value with optimal play (U7: a side wins when it can force a won end) and a
    move that keeps it: retrograde analysis when the reachable positions fit the budget,
    proof-number search otherwise. 'unknown' only when the budget ran out (exit status 1)."""
    text, name = read_input(file) if file is not None else (None, "input")
    request = api.SolveRequest(text=text, source=name, max_nodes=max_nodes, timeout=timeout,
                               retro_limit=retro_limit, memory=memory, **_position(
                                   setup, position, wolf, orthogonal,
                                   wolf_diagonal_captures_only, sheep_orthogonal,
                                   no_repetition_draw))
    bar, update = _progress("solving", _solving)
    if bar is not None:
        with bar:
            report = api.solve(request, update)
    else:
        report = api.solve(request)
    if svg is not None:
        write_output(svg, api.board_svg(report, report.best_move), force=force,
                     what="SVG picture of the board and the best move")
    known = report.value != "unknown"
    if json:
        print_json(report)
        return finish(known)
    echo(f"position: {report.position}")
    if report.value == "unknown":
        echo(f"value: unknown - the budget ran out ({report.stopped}) after "
             f"{report.nodes:,} nodes in {report.seconds:.1f} s")
        echo("learned: " + ", ".join(f"{k} win {v}" for k, v in report.searches.items()))
        return finish(known)
    what = "draw (neither side can force a win)" if report.value == "draw" else \
        f"the {report.value} win"
    echo(f"value: {what}")
    if report.distance is not None:
        echo(f"distance: {report.distance} plies to the end with optimal play")
    if report.best_move:
        echo(f"best move: {report.best_move}")
    extra = f", proof-tree size {report.proof_size:,}" if report.proof_size else ""
    echo(f"method: {report.method}, {report.nodes:,} nodes in {report.seconds:.2f} s{extra}")
    if report.principal_line:
        echo("line: " + " ".join(report.principal_line[:40]) +
             (" ..." if len(report.principal_line) > 40 else ""))
    return EXIT_OK


@app.command()
def play(
    side: Annotated[Side, typer.Option(**choice(Side), help="the side you play")] = Side.SHEEP,
    setup: SetupOpt = None, position: PositionOpt = None, wolf: WolfOpt = None,
    orthogonal: Orthogonal = False, wolf_diagonal_captures_only: WolfDiag = False,
    sheep_orthogonal: SheepOrth = False, no_repetition_draw: NoRepetition = False,
    think: Annotated[float, typer.Option(
        parser=seconds_in(strip=True), metavar="SECONDS",
        help="seconds the solver may think per move")] = api.THINK,
) -> int:
    """Play against the solver: type a move (d3-d4, d5xd3) per line; the board is printed
    after every move. 'quit' or end of input stops."""
    from fleece.rules.errors import IllegalMoveError, ParseError
    from fleece.rules.ulvtafl.game import SIDE_NAMES
    from fleece.rules.ulvtafl.notation import parse_move
    from fleece.rules.ulvtafl.summary import BoardSummary

    state = api.state_of(api.PositionRequest(**_position(
        setup, position, wolf, orthogonal, wolf_diagonal_captures_only, sheep_orthogonal,
        no_repetition_draw)))
    human = SIDE_NAMES.index(side.value)
    echo(f"You play the {side.value}. Type a move such as d3-d4 or d5xd3; 'quit' to stop.")
    echo(BoardSummary(state).text(), end="")
    while not state.is_terminal():
        if state.to_move == human:
            sys.stdout.write("your move> ")
            sys.stdout.flush()
            line = sys.stdin.readline()
            if not line:
                echo("\nend of input: game stopped")
                return EXIT_OK
            text = line.strip()
            if text.lower() in ("quit", "exit", "q"):
                echo("game stopped")
                return EXIT_OK
            if not text:
                continue
            try:
                state = state.play(parse_move(text))
            except (ParseError, IllegalMoveError) as exc:
                echo(f"not played: {exc}")
                continue
        else:
            move, note = api.reply(state, think)
            echo(note.replace("the solver played", "solver plays", 1)
                 .replace(f"within {think:g} s", "within the time"))
            state = state.play(parse_move(move))
        echo(BoardSummary(state).text(), end="")
    return EXIT_OK


# ---- long proofs ------------------------------------------------------------------------


def _num(value: Any) -> str:
    """A proof or disproof number as printed: `inf` where the search saturates it."""
    return "inf" if isinstance(value, int) and value >= 1 << 40 else str(value)


def _proof_progress() -> tuple[Any, Any]:
    """The progress line of a long proof: on a terminal a transient line redrawn in place,
    otherwise one line on standard error per report (for logs of runs that take hours)."""
    def line(info: dict[str, Any]) -> str:
        if "seeding" in info:  # a seed certificate re-checked before the search
            return (f"seeding from {info['seeding']}: re-checking a proof of "
                    f"{info['positions']:,} moves")
        if "units" in info:  # a split search: open units and total work
            return (f"{info.get('nodes', 0):,} nodes, {info.get('nodes_per_second', 0):,} "
                    f"nodes/s, {info.get('open', '?')} units open")
        where = (f"{info['tree_nodes']:,} positions in the tree" if "tree_nodes" in info
                 else f"table {100 * info['table_fill']:.0f}% full"
                 + (f", proof store {100 * info['store_fill']:.0f}% full"
                    if "store_fill" in info else ""))
        return (f"{info['nodes']:,} nodes, {info['nodes_per_second']:,} nodes/s, root pn "
                f"{_num(info['proof_number'])} dn {_num(info['disproof_number'])}, {where}, "
                f"{info['seconds']:,.0f} s")

    if not sys.stderr.isatty():
        def plain(info: dict[str, Any]) -> None:
            sys.stderr.write(f"fleece: proving: {line(info)}\n")
            sys.stderr.flush()

        return None, plain
    from rich.console import Console
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task("proving")

    def update(info: dict[str, Any]) -> None:
        bar.update(task, description=f"proving: {line(info)}")

    return bar, update


def _failure(side: str, safe_only: bool, forward_only: bool, focus: int,
             tree: dict[str, Any] | None) -> str:
    """The verdict of a search that failed: what restricted it, as the user wrote it. A
    tree is restricted by its safe front (as saved, when resumed) and by its repetition
    edges (a move back to one of its positions counts as no win); a leaf's focus is not."""
    if tree is not None:
        used = [("--safe-front", bool(tree["safe_front"]))]
    else:
        used = [("--safe-only", safe_only), ("--forward-only", forward_only),
                (f"--focus {focus}", focus > 0)]
    names = ", ".join(name for name, on in used if on)
    words = f"the {side} cannot force a win"
    if names:
        words += f" with only the moves allowed ({names})"
    if tree is not None and tree["repetition_edges"]:
        words += (", " if names else " ") + "in a tree where a move back to one of its " \
                 "positions counts as no win"
    return words + "; nothing is claimed about the game"


def _certificate_lines(side: str, positions: int | None, walked: int | None,
                       file: str | None) -> None:
    """What a certificate holds and where it went (prove, fortress)."""
    if positions is not None and walked is not None:
        whose = "the sheep's" if side == "sheep" else "the wolves'"
        echo(f"certificate: {whose} move in {positions:,} positions, re-checked by the "
             f"reference rules ({walked:,} positions walked)")
    if file is not None:
        echo(f"certificate written to {file}")


@app.command()
def prove(
    side: Annotated[Side, typer.Option(**choice(Side),
                                       help="the side whose win to prove")] = Side.SHEEP,
    setup: SetupOpt = None, position: PositionOpt = None, wolf: WolfOpt = None,
    orthogonal: Orthogonal = False, wolf_diagonal_captures_only: WolfDiag = False,
    sheep_orthogonal: SheepOrth = False, no_repetition_draw: NoRepetition = False,
    seconds: Annotated[float | None, typer.Option(
        parser=seconds_in(), metavar="SECONDS", show_default=False,
        help="stop after this many seconds (default: until settled or Ctrl-C)")] = None,
    max_nodes: Annotated[int | None, typer.Option(
        parser=int_in(1, MAX_NODES), show_default=False,
        help="stop after this many nodes")] = None,
    memory: Memory = None,
    checkpoint: Annotated[str | None, typer.Option(
        metavar="DIR", show_default=False,
        help="save the search to this folder every 10 minutes, at the end and on Ctrl-C")
    ] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="continue the search saved in --checkpoint (with a larger "
        "--memory its table and proof store grow)")] = False,
    workers: Annotated[int, typer.Option(
        parser=int_in(1, 256),
        help="search the root's moves (--tree: leaves) on this many threads")] = 1,
    ray: Annotated[str | None, typer.Option(
        metavar="ADDRESS", show_default=False,
        help="run the work units (--tree: leaf searches) on Ray: 'local', 'auto' or a "
             "cluster address (needs the scale extra)")] = None,
    certificate: Annotated[str | None, typer.Option(
        metavar="FILE", show_default=False,
        help="write the certificate here when proved (.gz: compressed)")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="start afresh over a checkpoint, replace a certificate file")] = False,
    profile: Annotated[Profile, typer.Option(
        **choice(Profile), help="initial proof numbers: the mover's mobility, or also the "
                                "sheep's distance to a full paddock in empty points (paddock) "
                                "or in points and sheep steps (steps: for safe-only and "
                                "focused sheep searches)")] = Profile.MOBILITY,
    safe_only: Annotated[bool, typer.Option(
        "--safe-only", help="the sheep play only moves after which no wolf can capture: a "
                            "smaller search whose proof holds; its failure proves nothing")
    ] = False,
    forward_only: Annotated[bool, typer.Option(
        "--forward-only", help="the sheep never step sideways (a game with no repetition): "
                               "its proof holds; its failure proves nothing")] = False,
    focus: Annotated[int, typer.Option(
        parser=int_in(0, api.MAX_FOCUS), metavar="RADIUS",
        help="the sheep move within RADIUS king steps of a wolf, plus a few tempo moves "
             "away from them: a far smaller search whose proof holds, its failure proves "
             "nothing (--tree: each leaf's first search); 0: off")] = 0,
    epsilon: Annotated[float, typer.Option(
        metavar="E", help="df-pn's 1+epsilon: a child is searched until its number passes "
                          "the second best's by this fraction (a multiple of 1/64 up to 4; "
                          "smaller switches sooner)")] = 0.25,
    tree: Annotated[bool, typer.Option(
        "--tree", help="grow a proof-number tree over bounded df-pn searches of its leaves, "
                       "for proofs too large for one table (--checkpoint is its folder)")
    ] = False,
    leaf_nodes: Annotated[int, typer.Option(
        parser=int_in(1000, MAX_NODES),
        help="--tree: the first search of a leaf, in nodes")] = 1_000_000,
    leaf_max: Annotated[int | None, typer.Option(
        parser=int_in(1000, MAX_NODES), show_default=False,
        help="--tree: a leaf is searched again, its nodes doubled, up to this many; then "
             "it is expanded (default 64 x --leaf-nodes)")] = None,
    safe_leaves: Annotated[bool, typer.Option(
        "--safe-leaves", help="--tree: search each leaf with the sheep on safe moves first "
                              "(the unrestricted search where that fails)")] = False,
    safe_front: Annotated[bool, typer.Option(
        "--safe-front", help="--tree: where the sheep have a move no wolf can capture after, "
                             "the tree gives them only such moves: its proof holds; its "
                             "failure proves nothing")] = False,
    seed: Annotated[list[str] | None, typer.Option(
        metavar="FILE", show_default=False,
        help="take the proofs of this certificate file as known (repeat for more): it is "
             "re-checked, the search counts its positions as proved and the certificate "
             "may run through them (one search or a --tree's leaves; not a split search)")
    ] = None,
    json: Json = False,
) -> int:
    """A long proof search (df-pn) for one side's win, with budgets, checkpoints to resume,
    a progress line, a clean stop on Ctrl-C or SIGTERM, threads or Ray; or, with --tree, a
    proof-number tree whose leaves are bounded df-pn searches. A proof is reported only
    with a certificate the reference rules re-checked (exit status 1 when not proved)."""
    request = api.ProveRequest(
        side=side.value, seconds=seconds, max_nodes=max_nodes, memory=memory,
        safe_only=safe_only, forward_only=forward_only, focus=focus, profile=profile.value,
        epsilon=epsilon, checkpoint=checkpoint, resume=resume, force=force, workers=workers,
        ray=ray, certificate=certificate, tree=tree, leaf_nodes=leaf_nodes, leaf_max=leaf_max,
        safe_leaves=safe_leaves, safe_front=safe_front, seeds=tuple(seed or ()),
        **_position(setup, position, wolf, orthogonal, wolf_diagonal_captures_only,
                    sheep_orthogonal, no_repetition_draw))
    bar, update = _proof_progress()
    with terminate_as_interrupt():
        if bar is not None:
            with bar:
                report = api.prove(request, update)
        else:
            report = api.prove(request, update)
    if json:
        print_json(report)
        return finish(report.outcome in ("proved", "disproved"))
    echo(f"position: {report.position}")
    words = {"proved": f"PROVED: the {report.side} can force a win",
             "disproved": f"the {report.side} cannot force a win (U7: a draw or a loss)",
             "failed": _failure(report.side, safe_only, forward_only, focus,
                                report.tree if isinstance(report.tree, dict) else None),
             "proved-without-certificate": "open: the search proved it but gave no "
                                           "certificate (its proof store lacked part of the "
                                           "proof, or the proof is too large; more --memory "
                                           "gives the store more room); nothing is claimed"}
    echo(words.get(report.outcome, f"open: {report.outcome}; nothing is claimed"))
    echo(f"work: {report.nodes:,} nodes in {report.seconds:,.1f} s "
         f"({report.nodes_per_second:,.0f} nodes/s, {report.executor})")
    if report.proof_number is not None:
        echo(f"root proof number {report.proof_number}, disproof number "
             f"{report.disproof_number}"
             + (f", table {100 * report.table_fill:.0f}% full"
                if report.table_fill is not None else ""))
    if isinstance(report.seeded, int):
        echo(f"seeds: {report.seeded:,} proved positions added to the proof store")
    if isinstance(report.proofs_unrecorded, int) and report.proofs_unrecorded > 0:
        echo(f"proof store: {report.proofs_unrecorded:,} proofs found no room in it (a "
             "certificate through them is incomplete; more --memory gives it more room)")
    if isinstance(report.tree, dict):  # a tree search's figures
        t = report.tree
        echo(f"tree: {t['tree_nodes']:,} positions, {t['expanded']:,} expanded, "
             f"{t['leaf_searches']:,} leaf searches, {t['proved_leaves']:,} leaves proved")
        if t["principal_line"]:
            echo("most-proving line: " + " ".join(m["move"] for m in t["principal_line"]))
    if report.outcome in ("timeout", "max-nodes", "interrupted") and \
            report.table_fill is not None and report.table_fill >= FULL_TABLE:
        echo("the table is full: a proof search on a table too small for it may never "
             "finish (README: how much memory a proof needs); give it more --memory")
    _certificate_lines(report.side, report.certificate_positions, report.proof_positions,
                       report.certificate_file)
    if report.checkpoint is not None:
        echo(f"checkpoint: {report.checkpoint} (--resume to continue)")
    return finish(report.outcome in ("proved", "disproved"))


certificates = new_app("Certificates of proved Ulvtafl values: check.")
app.add_typer(certificates, name="certificate")


@certificates.command("check")
def certificate_check(
    file: Annotated[str, typer.Argument(
        help="a certificate file (.json or .json.gz) or a report with certificates "
             "(reports/ulvtafl-start.json)", show_default=False)],
    lines: Annotated[int | None, typer.Option(
        parser=int_in(1, 10**7), show_default=False,
        help="check this many random lines of each instead of the whole proof")] = None,
    seed: Annotated[int, typer.Option(parser=int_in(0), help="seed of the lines")] = 0,
    json: Json = False,
) -> int:
    """Re-check certificates with the reference rules model alone: every reply of the
    loser is answered, every line ends in the winner's win, no line repeats a position
    (a no-loss certificate: no line reaches the other side's win)."""
    report = api.check_certificates(api.CertificateCheckRequest(file=file, lines=lines,
                                                                seed=seed))
    if json:
        print_json(report)
        return EXIT_OK
    for c in report.certificates:
        if c["complete"]:
            echo(f"{c['root']}: {c['what']} - certificate of "
                 f"{c['strategy_positions']:,} positions checked whole "
                 f"({c['proof_positions']:,} positions walked)")
        else:
            echo(f"{c['root']}: {c['what']} - {c['lines']:,} random lines checked "
                 f"({c['plies']:,} plies) of a certificate of {c['strategy_positions']:,} "
                 "positions")
    return EXIT_OK


@app.command()
def fortress(
    side: Annotated[Side, typer.Option(
        **choice(Side), help="the side that is to never lose")] = Side.SHEEP,
    setup: SetupOpt = None, position: PositionOpt = None, wolf: WolfOpt = None,
    orthogonal: Orthogonal = False, wolf_diagonal_captures_only: WolfDiag = False,
    sheep_orthogonal: SheepOrth = False, no_repetition_draw: NoRepetition = False,
    forward_steps: Annotated[int | None, typer.Option(
        parser=int_in(0, 200), metavar="N", show_default=False,
        help="the sheep (as the side) take at most N forward steps in all (default 2)")] = 2,
    unbounded: Annotated[bool, typer.Option(
        "--unbounded", help="no bound on the sheep's forward steps")] = False,
    all_moves: Annotated[bool, typer.Option(
        "--all-moves", help="the sheep (as the side) may also play moves a wolf can "
                            "capture after (default: safe moves only)")] = False,
    max_positions: Annotated[int, typer.Option(
        parser=int_in(1, 100_000_000), metavar="N",
        help="explore at most this many positions")] = 1_000_000,
    seconds: Annotated[float | None, typer.Option(
        parser=seconds_in(), metavar="SECONDS", show_default=False,
        help="stop after this many seconds")] = None,
    memory: Memory = None,
    certificate: Annotated[str | None, typer.Option(
        metavar="FILE", show_default=False,
        help="write the no-loss certificate here when found (.gz: compressed)")] = None,
    force: Annotated[bool, typer.Option("--force", help="replace a certificate file")] = False,
    json: Json = False,
) -> int:
    """Find a strategy with which a side never loses (a fortress), so that the other side
    cannot force a won end (U7): the value is that side's win or a draw. The other side
    plays every move; the sheep as the side are kept to safe moves and a few forward
    steps, so a fortress found holds in the game, and none found proves nothing (unless
    --all-moves --unbounded). A fortress is re-checked by the reference rules before it
    is reported (exit status 1 when none is found)."""
    request = api.FortressRequest(
        side=side.value, forward_steps=None if unbounded else forward_steps,
        all_moves=all_moves, max_positions=max_positions, seconds=seconds, memory=memory,
        certificate=certificate, force=force, **_position(
            setup, position, wolf, orthogonal, wolf_diagonal_captures_only,
            sheep_orthogonal, no_repetition_draw))
    bar, update = _progress("fortress", lambda n: f"fortress: {n:,} positions explored")
    if bar is not None:
        with bar:
            report = api.fortress(request, update)
    else:
        report = api.fortress(request)
    found = report.outcome == "found"
    if json:
        print_json(report)
        return finish(found)
    other = "wolves" if report.side == "sheep" else "sheep"
    echo(f"position: {report.position}")
    steps = report.forward_steps
    moves = ("every move" if not report.safe_only else "safe moves only") + (
        "" if steps is None else
        f", at most {steps} forward step{'' if steps == 1 else 's'} in all")
    echo(f"search: the {report.side} on {moves}" if report.side == "sheep" else
         "search: both sides on every move")
    exact = not report.safe_only and report.forward_steps is None
    words = {
        "found": f"FOUND: the {report.side} never lose; the {other} cannot force a win (U7)",
        "none": f"none: the {other} can force a win" if exact else (
            f"none: on these moves the {report.side} cannot hold, the {other} drive them "
            f"out of the positions explored; with other moves the {report.side} may still "
            "hold (nothing is claimed)"),
        "too-large": "open: more positions than --max-positions; nothing is claimed",
        "stopped": "open: the time ran out; nothing is claimed"}
    echo(words[report.outcome])
    held = f", {report.holding:,} of them held" if report.outcome in ("found", "none") else ""
    echo(f"work: {report.explored:,} positions explored in {report.seconds:,.1f} s{held}")
    _certificate_lines(report.side, report.strategy_positions, report.checked_positions,
                       report.certificate_file)
    return finish(found)


checkpoints = new_app("Saved proof searches (prove --checkpoint): show where one stands.")
app.add_typer(checkpoints, name="checkpoint")


@checkpoints.command("show")
def checkpoint_show(
    folder: Annotated[str, typer.Argument(
        help="the folder a prove --checkpoint run saved to (one search or a --tree)",
        show_default=False)],
    points: Annotated[int, typer.Option(
        parser=int_in(1, 10**6),
        help="show at most this many points of the root numbers over time")] = 12,
    leaves: Annotated[int, typer.Option(
        parser=int_in(1, 10**6), help="a tree: list this many open leaves")] = 10,
    json: Json = False,
) -> int:
    """Where a saved proof search stands, without resuming it: what it searches, its work,
    the root's proof and disproof numbers over time and, for a tree, its root moves, its
    most-proving line and the open leaves with the most work. Nothing is written."""
    report = api.checkpoint_status(api.CheckpointRequest(folder=folder, points=points,
                                                         leaves=leaves))
    if json:
        print_json(report)
        return EXIT_OK
    show(_checkpoint_document(report))
    return EXIT_OK


def _checkpoint_document(report: api.CheckpointReport) -> Document:
    """The human report of checkpoint show."""
    doc = Document()
    what = "a proof tree" if report.kind == "tree" else "one df-pn search"
    doc.line(f"{report.folder}: {what} for a {report.side} win")
    doc.line(f"position: {report.position}")
    doc.line("options: " + ", ".join(f"{k} {_option(v)}" for k, v in report.options.items()))
    # a run's end is recorded when it ends: a folder saved during a run counts its work
    # so far beside the runs already finished
    doc.line(f"work: {report.nodes:,} nodes in {report.seconds:,.1f} s over "
             f"{len(report.runs)} finished run{'s' if len(report.runs) != 1 else ''}; "
             f"root proof number {report.proof_number}, disproof number "
             f"{report.disproof_number}")
    if not report.resumable:
        doc.line(f"written by engine version {report.engine}: this version cannot resume it")
    if report.history:
        doc.table([Column("nodes", True), Column("seconds", True), Column("pn", True),
                   Column("dn", True)],
                  [((f"{p.get('nodes', 0):,}", f"{p.get('seconds', 0):,.0f}",
                     str(p["proof_number"]), str(p["disproof_number"])), None)
                   for p in report.history], title="root numbers over time")
    if isinstance(report.counters, dict):
        c = report.counters
        doc.line(f"proofs: {c['proofs']:,} ({c['proofs_without_room']:,} without room in the "
                 f"store); deepest ply {c['deepest_ply']}")
    if isinstance(report.tree, dict):
        t = report.tree
        doc.line(f"tree: {t['tree_nodes']:,} positions, {t['expanded']:,} expanded, "
                 f"{t['leaf_searches']:,} leaf searches, {t['proved_leaves']:,} leaves "
                 f"proved, {t['repetition_edges']:,} repetition edges")
        if t["root_moves"]:
            doc.table([Column("root move"), Column("pn", True), Column("dn", True),
                       Column("outcome")],
                      [((m["move"], str(m["proof_number"]), str(m["disproof_number"]),
                         m["outcome"]), None) for m in t["root_moves"]])
        if t["principal_line"]:
            doc.line("most-proving line: " + " ".join(t["principal_line"]))
        if t["open_leaves"]:
            doc.table([Column("open leaf"), Column("pn", True), Column("dn", True),
                       Column("nodes", True)],
                      [((x["position"], str(x["proof_number"]), str(x["disproof_number"]),
                         f"{x['nodes']:,}"), None) for x in t["open_leaves"]],
                      title="open leaves with the most work")
    return doc


def _option(value: Any) -> str:
    """An option's value as the report line shows it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return "none" if not value else " ".join(str(v) for v in value)
    return str(value)


# ---- puzzles ---------------------------------------------------------------------------

puzzle = new_app("'To move and win' puzzles: generate, check.")
app.add_typer(puzzle, name="puzzle")


@puzzle.command("generate")
def puzzle_generate(
    grade: Annotated[str, typer.Option(
        help="easy | medium | hard | expert, or all (every grade, one folder each, and an "
             "index: the committed pack's form)",
        autocompletion=names(*api.PUZZLE_GRADES, "all"))] = "easy",
    count: Annotated[int, typer.Option(parser=int_in(1, 1000),
                                       help="how many puzzles (of each grade with all)")] = 10,
    seed: Annotated[int, typer.Option(
        parser=int_in(0), help="seed: the same seed gives the same puzzles")] = 1,
    out: Annotated[str | None, typer.Option(
        show_default=False,
        help="folder for NNN.txt, NNN.json, NNN.solution.txt (default: print the puzzles)")
    ] = None,
    workers: Annotated[int, typer.Option(parser=int_in(1, 64), help="processes to use")] = 1,
    budget: Annotated[float | None, typer.Option(
        parser=seconds_in(), metavar="SECONDS", show_default=False,
        help="give up after this many seconds (exit status 1; default: no limit)")] = None,
    force: Annotated[bool, typer.Option(
        "--force", help="replace a pack already in --out (other files are never touched)")
    ] = False,
    json: Annotated[bool, typer.Option("--json", help="print the puzzles as JSON")] = False,
) -> int:
    """Generate sound "X to move and win in N plies" puzzles: exactly one winning first
    move, N exact, graded from the solution (exit status 1 when the budget runs out)."""
    from fleece.solver.puzzles.pool import progress_bar

    request = api.PuzzleGenerateRequest(grade=grade, count=count, seed=seed, out=out,
                                        workers=workers, budget=budget, force=force)
    total = count * (len(api.PUZZLE_GRADES) if grade.strip().lower() == "all" else 1)
    with progress_bar(f"{grade} puzzles", total, "attempts") as progress:
        report = api.generate_puzzles(request, progress)
    if json:
        print_json(report)
    elif out is None:
        echo(report.text, end="")
    else:
        echo(f"wrote {report.count} {report.grade} puzzles to {report.out}")
    return EXIT_OK


@puzzle.command("check")
def puzzle_check(
    file: Annotated[str, typer.Argument(
        help="a puzzle file (several puzzles separated by '---', or the JSON twin), or '-'",
        show_default=False)],
    limit: Annotated[int | None, typer.Option(
        parser=int_in(1, 10_000_000), show_default=False,
        help="positions the check may solve (default 400000)")] = None,
    json: Annotated[bool, typer.Option(
        "--json", help="print the verdicts as a JSON list")] = False,
) -> int:
    """Re-prove every claim with an independent method (pure-Python retrograde analysis
    over the reference rules): the side to move wins in exactly N plies, with exactly one
    winning first move, along the solution. Exit status 1 with the reason when a puzzle is
    not sound."""
    text, name = read_input(file)
    report = api.check_puzzles(api.PuzzleCheckRequest(puzzle=text, source=name, limit=limit))
    if json:
        print_json(report.puzzles)
    else:
        echo("\n".join(report.lines))
    return finish(report.sound)


# ---- fleece verify --game ulvtafl ------------------------------------------------------


def verify_options(
    samples: Annotated[int | None, typer.Option(
        parser=int_in(0, 100_000), show_default=False,
        help="random positions in the Python-vs-Z3 cross-check (default 12 quick, 120 full)")
    ] = None,
    orthogonal: Orthogonal = False, wolf_diagonal_captures_only: WolfDiag = False,
    sheep_orthogonal: SheepOrth = False,
    no_repetition_draw: Annotated[bool, typer.Option(
        "--no-repetition-draw", help="verify the rules without U7's repetition draw (then the "
                                     "gap ULV-NO-END gates the run)")] = False,
) -> api.VerifyVariant:
    """Ulvtafl's own options of `fleece verify`: the variant under test and the
    cross-check's sample size."""
    return api.VerifyVariant(samples=samples, orthogonal=orthogonal,
                             wolf_diagonal_captures_only=wolf_diagonal_captures_only,
                             sheep_orthogonal=sheep_orthogonal,
                             no_repetition_draw=no_repetition_draw)
