"""`fleece ulvtafl ...`: print boards, replay records, count moves (perft), solve positions
exactly and play against the solver (RULES.md section 3)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from fleece.commands.base import (
    EXIT_OK,
    EXIT_RESULT,
    MAX_SECONDS,
    Parser,
    choice,
    echo,
    int_in,
    parse_seconds,
    print_json,
    read_input,
    write_output,
)
from fleece.rules.errors import FleeceError, ParseError, RulesError

MAX_PERFT = 9  # perft(9) from the 20-sheep start takes about a minute
MAX_NODES = 10**12
SEARCH_BUDGET = 15.0  # default seconds of solve and perft: a command never runs unbounded


def seconds(text: str) -> float:
    """A positive number of seconds (ASCII digits, an optional fraction, surrounding blanks
    allowed), at most a week."""
    return parse_seconds(text, MAX_SECONDS, strip=True)


def _rule_options(p: Parser, *, position: bool = True) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--setup", type=choice("13", "15", "17", "20"), default=None,
                       help="start from a setup of U9: 13, 15 or 17 sheep against one wolf, "
                            "or 20 against two (default 20)")
    if position:
        group.add_argument("--position", metavar="TEXT",
                           help="start from a position string (U8), e.g. "
                                "'W.W/.../......./SSSSSSS/SSSSSSS/SSS/SSS w'")
    p.add_argument("--wolf", action="append", metavar="POINT",
                   help="a wolf's start point (repeat for two wolves; U6, U9)")
    _movement_options(p, "a repeated position does not end the game (U7)")


def _movement_options(p: argparse.ArgumentParser, repetition_help: str) -> None:
    """The rule options of U1, U6 and U7 (every command's and verify's)."""
    p.add_argument("--orthogonal", action="store_true", help="no diagonal lines (U1)")
    p.add_argument("--wolf-diagonal-captures-only", action="store_true",
                   help="wolves use diagonals only to capture (U6)")
    p.add_argument("--sheep-orthogonal", action="store_true",
                   help="sheep never move diagonally (U6)")
    p.add_argument("--no-repetition-draw", action="store_true", help=repetition_help)


def _state(args: argparse.Namespace) -> Any:
    """The start state named by --setup/--position and the rule flags."""
    from fleece.rules.ulvtafl.game import Options, Rules, UlvState, initial_state
    from fleece.rules.ulvtafl.notation import parse_position

    rules = Rules(orthogonal=args.orthogonal,
                  wolf_diagonal_captures_only=args.wolf_diagonal_captures_only,
                  sheep_orthogonal=args.sheep_orthogonal,
                  repetition_draw=not args.no_repetition_draw)
    text = getattr(args, "position", None)
    if text is not None:
        if args.wolf:
            raise FleeceError("--wolf sets a setup's wolves; a --position places its own")
        try:
            state: UlvState = parse_position(text)
        except ParseError as exc:
            raise exc.located("--position") from None
        if rules != type(rules)():
            state = UlvState.create(rules, state.sheep, state.wolves, state.to_move)
        return state
    try:
        options = Options(setup=int(args.setup or 20),
                          wolves=tuple(args.wolf) if args.wolf else None, rules=rules)
    except RulesError as exc:
        raise ParseError(str(exc)) from None
    return initial_state(options)


def build(parser: Parser, argv: list[str]) -> None:
    """Add the Ulvtafl commands."""
    cmds = parser.commands()

    p = cmds.add("board", board, "Print a board diagram (a setup or a position string).")
    _rule_options(p)
    p.add_argument("--svg", metavar="FILE", help="also write the board as an SVG picture")
    p.add_argument("--force", action="store_true", help="let --svg overwrite a file")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = cmds.add("replay", replay, "Replay a game record; print the moves and the final "
                 "board.", "Replay a game record (an options line such as 'setup=20', then "
                 "one move per line,\n'#' comments). Stops at the first illegal move with "
                 "its line and the reason (exit status 2).")
    p.add_argument("record", help="record file, or '-' for standard input")
    p.add_argument("--json", action="store_true", help="print the result as JSON")

    p = cmds.add("perft", perft, "Count the move sequences of each length (U10).")
    p.add_argument("depth", type=int_in(1, MAX_PERFT), help=f"deepest length (1..{MAX_PERFT})")
    _rule_options(p)
    p.add_argument("--timeout", type=seconds, default=SEARCH_BUDGET, metavar="SECONDS",
                   help=f"stop with no answer after this many seconds (exit status 1; default "
                        f"{SEARCH_BUDGET:g})")
    p.add_argument("--json", action="store_true", help='print {"counts": [...]}')

    p = cmds.add("solve", solve, "The game value with optimal play and a move that keeps it.",
                 "The game value with optimal play (U7: a side wins when it can force a won "
                 "end) and a\nmove that keeps it: retrograde analysis when the reachable "
                 "positions fit the budget,\nproof-number search otherwise. 'unknown' only "
                 "when the budget ran out.")
    p.add_argument("file", nargs="?", help="a position string or a record ('-' for standard "
                   "input); default the setup")
    _rule_options(p)
    p.add_argument("--max-nodes", type=int_in(1, MAX_NODES), default=None,
                   help="stop after this many positions/nodes (default: no limit)")
    p.add_argument("--timeout", type=seconds, default=SEARCH_BUDGET,
                   help=f"stop after this many seconds (default {SEARCH_BUDGET:g}; the value is "
                        "then 'unknown')")
    p.add_argument("--retro-limit", type=int_in(0, 200_000_000), default=2_000_000,
                   help="positions the retrograde method may enumerate (default 2000000)")
    p.add_argument("--svg", metavar="FILE", help="write the board with the best move as SVG")
    p.add_argument("--force", action="store_true", help="let --svg overwrite a file")
    p.add_argument("--json", action="store_true", help="print the result as JSON")

    p = cmds.add("play", play, "Play against the solver in the terminal (moves on stdin).",
                 "Play against the solver: type a move (d3-d4, d5xd3) per line; the board is "
                 "printed\nafter every move. 'quit' or end of input stops.")
    p.add_argument("--side", type=choice("sheep", "wolves"), default="sheep",
                   help="the side you play (default sheep)")
    _rule_options(p, position=True)
    p.add_argument("--think", type=seconds, default=2.0,
                   help="seconds the solver may think per move (default 2)")


def board(args: argparse.Namespace) -> int:
    """`fleece ulvtafl board`."""
    from fleece.rules.ulvtafl.summary import BoardView

    view = BoardView(_state(args))
    if args.svg is not None:
        from fleece.rules.ulvtafl.diagram import svg

        write_output(args.svg, svg(view.state), force=args.force)
    if args.json:
        print_json(view.to_json())
    else:
        echo(view.text(), end="")
    return EXIT_OK


def replay(args: argparse.Namespace) -> int:
    """`fleece ulvtafl replay`."""
    from fleece.rules.ulvtafl.record import parse_record
    from fleece.rules.ulvtafl.record import replay as replay_record
    from fleece.rules.ulvtafl.summary import ReplayView

    text, name = read_input(args.record)
    try:
        record = parse_record(text)
        states = replay_record(record)
    except ParseError as exc:
        raise exc.located(name) from None
    view = ReplayView(record, tuple(states))
    if args.json:
        print_json(view.to_json())
    else:
        echo(view.text(), end="")
    return EXIT_OK


def perft(args: argparse.Namespace) -> int:
    """`fleece ulvtafl perft`."""
    from fleece.solver.deadline import in_thread
    from fleece.solver.ulvtafl import perft_counts

    state = _state(args)
    result = in_thread(lambda: perft_counts(state, args.depth), args.timeout,
                       "try a larger --timeout or a smaller depth")
    if args.json:
        print_json(result.to_json())
    else:
        echo(f"position: {result.position}")
        for d, n in enumerate(result.counts, start=1):
            echo(f"perft({d}) = {n}")
    return EXIT_OK


def _solve_input(args: argparse.Namespace) -> Any:
    if args.file is None:
        return _state(args)
    if args.position is not None or args.setup is not None:
        raise FleeceError("give a FILE or --setup/--position, not both")
    from fleece.rules.ulvtafl.notation import parse_position
    from fleece.rules.ulvtafl.record import parse_record
    from fleece.rules.ulvtafl.record import replay as replay_record

    text, name = read_input(args.file)
    from fleece.rules.text import split_lines

    body = [ln.split("#", 1)[0].strip() for ln in split_lines(text)]
    body = [ln for ln in body if ln]
    try:
        if body and (body[0].startswith(("setup=", "position=")) or len(body) > 1):
            return replay_record(parse_record(text))[-1]
        if not body:
            raise ParseError("empty input: expected a position string or a record", line=1)
        return parse_position(body[0])
    except ParseError as exc:
        raise exc.located(name) from None


def _progress() -> Any:
    """A transient progress line on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        return None, None
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    from fleece.commands.base import console

    bar = Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                   console=console(stderr=True), transient=True)
    task = bar.add_task("solving")

    def update(info: dict[str, object]) -> None:
        bar.update(task, description=(
            f"solving: {info['nodes']:,} nodes; sheep win {info.get('sheep')} "
            f"(forward-only {info.get('sheep_forward_only')}), "
            f"wolves win {info.get('wolves')}"))

    return bar, update


def solve(args: argparse.Namespace) -> int:
    """`fleece ulvtafl solve`."""
    from fleece.solver.ulvtafl import solve as run_solve

    state = _solve_input(args)
    bar, update = _progress()
    if bar is not None:
        with bar:
            result = run_solve(state, max_nodes=args.max_nodes, timeout=args.timeout,
                               retro_limit=args.retro_limit, progress=update)
    else:
        result = run_solve(state, max_nodes=args.max_nodes, timeout=args.timeout,
                           retro_limit=args.retro_limit)
    if args.svg is not None:
        from fleece.rules.ulvtafl.diagram import svg
        from fleece.rules.ulvtafl.notation import parse_move

        arrow = parse_move(result.best_move) if result.best_move else None
        write_output(args.svg, svg(state, arrow), force=args.force)
    # exit status 1 when the budget ran out: the search stopped without a value (cli.py)
    status = EXIT_RESULT if result.value == "unknown" else EXIT_OK
    if args.json:
        print_json(result.to_json())
        return status
    echo(f"position: {result.position}")
    if result.value == "unknown":
        echo(f"value: unknown - the budget ran out ({result.stopped}) after "
             f"{result.nodes:,} nodes in {result.seconds:.1f} s")
        echo("learned: " + ", ".join(f"{k} win {v}" for k, v in result.searches.items()))
        return status
    what = "draw (neither side can force a win)" if result.value == "draw" else \
        f"the {result.value} win"
    echo(f"value: {what}")
    if result.distance is not None:
        echo(f"distance: {result.distance} plies to the end with optimal play")
    if result.best_move:
        echo(f"best move: {result.best_move}")
    extra = f", proof-tree size {result.proof_size:,}" if result.proof_size else ""
    echo(f"method: {result.method}, {result.nodes:,} nodes in {result.seconds:.2f} s{extra}")
    if result.principal_line:
        echo("line: " + " ".join(result.principal_line[:40]) +
             (" ..." if len(result.principal_line) > 40 else ""))
    return EXIT_OK


def play(args: argparse.Namespace) -> int:
    """`fleece ulvtafl play`: the user's moves come from standard input, one per line."""
    from fleece.rules.errors import IllegalMoveError
    from fleece.rules.ulvtafl.game import SIDE_NAMES
    from fleece.rules.ulvtafl.notation import parse_move
    from fleece.rules.ulvtafl.summary import BoardView
    from fleece.solver.ulvtafl import solve as run_solve

    state = _state(args)
    human = SIDE_NAMES.index(args.side)
    echo(f"You play the {args.side}. Type a move such as d3-d4 or d5xd3; 'quit' to stop.")
    echo(BoardView(state).text(), end="")
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
            result = run_solve(state, timeout=args.think, retro_limit=200_000)
            move = _choose(state, result.best_move)
            note = f"(value {result.value})" if result.value != "unknown" else \
                "(value unknown within the time: a heuristic move)"
            echo(f"solver plays {move.text()} {note}")
            state = state.play(move)
        echo(BoardView(state).text(), end="")
    return EXIT_OK


def _choose(state: Any, best: str | None) -> Any:
    """The solver's move, or a simple heuristic one when the value is unknown: wolves
    capture the most, sheep advance the rearmost sheep."""
    from fleece.rules.ulvtafl.geometry import rank_of
    from fleece.rules.ulvtafl.notation import parse_move

    if best is not None:
        return parse_move(best)
    moves = list(state.legal_moves())
    if state.to_move == 0:
        return max(moves, key=lambda m: len(m.path))
    return max(moves, key=lambda m: (rank_of(m.end) - rank_of(m.start), -rank_of(m.start)))


# ---- fleece verify --game ulvtafl ------------------------------------------------------


def verify_options(parser: Parser) -> None:
    """Ulvtafl's own options of `fleece verify`: the variant under test and the
    cross-check's sample size."""
    parser.add_argument("--samples", type=int_in(0, 100_000), default=None,
                        help="random positions in the Python-vs-Z3 cross-check "
                             "(default 12 quick, 120 full)")
    _movement_options(parser, "verify the rules without U7's repetition draw (then the gap "
                              "ULV-NO-END gates the run)")


def verify_config(args: argparse.Namespace, package: Any) -> Any:
    """The verification config of the variant named by the options."""
    from fleece.rules.ulvtafl.game import Rules

    rules = Rules(orthogonal=args.orthogonal,
                  wolf_diagonal_captures_only=args.wolf_diagonal_captures_only,
                  sheep_orthogonal=args.sheep_orthogonal,
                  repetition_draw=not args.no_repetition_draw)
    return package.VerifyConfig(rules=rules, quick=args.quick, samples=args.samples)
