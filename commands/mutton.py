"""`fleece mutton ...`: solve a Farmer's chart, draw boards, replay records, read charts, and
generate or check deduction puzzles."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fleece.commands.base import (
    EXIT_OK,
    EXIT_RESULT,
    Commands,
    Parser,
    add_timeout,
    echo,
    int_in,
    print_json,
    read_input,
    solve_budget,
    write_output,
)
from fleece.rules.errors import FleeceError, ParseError


def build(parser: Parser, argv: list[str]) -> None:
    """Add the Mutton commands: only the one `argv` names when it names one (argparse
    parses it the same way, and building the others' parsers costs start-up time), else
    all of them (for the group's help and its unknown-command error)."""
    cmds = parser.commands()
    wanted = argv[0] if argv and argv[0] in _COMMANDS else None
    for name, add in _COMMANDS.items():
        if wanted is None or name == wanted:
            add(cmds)


def _add_solve(cmds: Commands) -> None:
    """The parser of `mutton solve`."""
    p = cmds.add("solve", solve, "Exact deductions from a Farmer's chart: consistent wolf sets, "
                 "P(wolf) of each animal, certain facts with reasons, advice.",
                 "Exact deductions from a Farmer's chart: consistent wolf sets, P(wolf) of "
                 "each animal,\ncertain facts with reasons, advice. Exit status 1 when the "
                 "chart is inconsistent.")
    p.add_argument("file", help="a pasted pbmserv chart (board and score optional), a game "
                   "record, or JSON; '-' for standard input")
    p.add_argument("--wolves", "-k", type=int_in(0), default=None,
                   help="number of wolves K (default 4; a record gives its own)")
    p.add_argument("--no-reveal", action="store_true",
                   help="'x' means dead, identity unknown (server -no_reveal)")
    p.add_argument("--escaped", default="", help="letters of escaped wolves (M12)")
    p.add_argument("--dictionary", metavar="FILE",
                   help="word list: wolf letters must spell a word (M23)")
    p.add_argument("--passed", action="store_true",
                   help="the Wolf passed this turn (needs the board in the paste)")
    p.add_argument("--engine", default="fast", help="fast | csp | smt")
    add_timeout(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--svg", metavar="FILE", help="write the board as an SVG picture")
    p.add_argument("--force", action="store_true", help="let --svg overwrite an existing file")


def _add_board(cmds: Commands) -> None:
    """The parser of `mutton board`."""
    p = cmds.add("board", board, "Print a starting board in pbmserv style.")
    p.add_argument("--layout", "-l", default="",
                   help="sparse, random, or a cell list in animal order (f3,b2,a3,...); "
                        "default: sparse on the default board, else random")
    p.add_argument("--seed", type=int_in(0), default=0, help="seed of the random layout")
    p.add_argument("--size", type=int_in(0, 99), default=4,
                   help="cells per side of the hexagon (2..8)")
    p.add_argument("--sheep", type=int_in(0, 99), default=26, help="number of animals (2..26)")


def _add_replay(cmds: Commands) -> None:
    """The parser of `mutton replay`."""
    p = cmds.add("replay", replay, "Replay a game record; print each game's final board, score "
                 "and chart.", "Replay a game record; print each game's final board, score and "
                 "chart.\nStops at the first illegal move with its line number and the reason "
                 "(exit status 2).")
    p.add_argument("record", help="game record file (options line, one move per line), or '-'")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")


def _add_chart(cmds: Commands) -> None:
    """The parser of `mutton chart`."""
    p = cmds.add("chart", chart, "Read a pasted tracking chart and print it back normalized "
                 "(or as JSON).", "Read a pasted tracking chart and print it back normalized "
                 "(or as JSON).\nAlso reads a puzzle text, JSON (a chart, a paste or a record) "
                 "and a game record\n(the Farmer's chart of its last game).")
    p.add_argument("file", help="pasted chart (board and score optional), puzzle, JSON or "
                   "record; '-' for standard input")
    p.add_argument("--json", action="store_true", help="print the parsed rows and statuses")
    p.add_argument("--no-reveal", action="store_true",
                   help="read 'x' as 'dead, identity unknown' (server -no_reveal)")


def _add_puzzle(cmds: Commands) -> None:
    """The parser of `mutton puzzle generate` and `mutton puzzle check`."""
    group = cmds.add("puzzle", None, "Deduction puzzles from Farmer's charts: generate, check.")
    pcmds = group.commands()
    p = pcmds.add("generate", puzzle_generate,
                  "Generate unique, minimal puzzles of one grade from simulated games.")
    p.add_argument("--out", required=True, help="folder for NNN.txt, NNN.json, NNN.solution.txt")
    p.add_argument("--count", type=int_in(1, 10_000), default=10, help="how many puzzles")
    p.add_argument("--grade", default="easy", help="easy | medium | hard")
    p.add_argument("--question", default="any",
                   help="all (name all wolves) | certain | any (mixed)")
    p.add_argument("--seed", type=int_in(0), default=1,
                   help="seed: the same seed gives the same puzzles")
    p.add_argument("--wolves", type=int_in(0), default=4,
                   help="wolves in the simulated games (26 animals)")
    p.add_argument("--workers", type=int_in(1, 64), default=1, help="processes to use")
    p.add_argument("--svg", action="store_true", help="also draw each chart as NNN.svg")
    p.add_argument("--force", action="store_true",
                   help="replace a pack already in --out (other files are never touched)")
    p = pcmds.add("check", puzzle_check, "Verify with z3 that the answer is unique and every "
                  "clue needed; report the grade.")
    p.add_argument("file", help="puzzle text or JSON twin, or '-'")
    p.add_argument("--solution", help="solution file (default: NNN.solution.txt beside FILE)")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")


#: The commands in the order of the group's help, each with the function adding its parser.
_COMMANDS: dict[str, Callable[[Commands], None]] = {
    "solve": _add_solve, "board": _add_board, "replay": _add_replay, "chart": _add_chart,
    "puzzle": _add_puzzle}


def parse_letters(text: str) -> str:
    """`G,K` or `gk` -> `GK` (the --escaped option)."""
    letters = "".join(ch for ch in text.upper() if not ch.isspace() and ch != ",")
    bad = [ch for ch in letters if not "A" <= ch <= "Z"]
    if bad:
        raise FleeceError(f"--escaped: '{bad[0]}' is not an animal letter")
    return letters


def solve(args: argparse.Namespace) -> int:
    """`fleece mutton solve`."""
    from fleece.solver.core import check_engine
    from fleece.solver.mutton import ENGINES, analyse, problem_from_text

    engine = check_engine(args.engine, ENGINES)
    text, name = read_input(args.file)
    words = None
    if args.dictionary:
        from fleece.rules.mutton.options import load_dictionary

        words = load_dictionary(read_input(args.dictionary)[0])
    try:
        problem = problem_from_text(text, args.wolves, reveal=not args.no_reveal,
                                    escaped=parse_letters(args.escaped), dictionary=words,
                                    passed=args.passed)
    except ParseError as exc:
        raise exc.located(name) from None
    seconds, hint = solve_budget(engine, args.timeout)
    if seconds is None:  # no deadline (the fast engine's default): skip loading the timers
        result = analyse(problem, engine)
    else:
        from fleece.solver.deadline import time_limit

        with time_limit(seconds, hint):
            result = analyse(problem, engine)
    if args.svg is not None:
        if problem.board is None:
            raise FleeceError("--svg needs the board in the input (a paste with the diagram, "
                              "or a game record)")
        from fleece.solver.mutton.svg import board_svg

        write_output(args.svg, board_svg(problem, result.solution), force=args.force)
    if args.json:
        print_json(result.to_json())
    else:
        from fleece.commands.mutton_view import plain_report, print_report

        reasons = list(result.reasons)
        plain = plain_report(problem, result.solution, result.advice, reasons)
        if plain is not None:  # what rich would print, without importing it
            echo(plain, end="")
        else:
            from fleece.commands.base import console

            print_report(problem, result.solution, result.advice, reasons,
                         console(highlight=False, soft_wrap=True))
    return EXIT_OK if result.consistent else EXIT_RESULT


def board(args: argparse.Namespace) -> int:
    """`fleece mutton board`."""
    from fleece.rules.mutton.summary import starting_board

    echo(starting_board(args.size, args.sheep, args.layout, args.seed))
    return EXIT_OK


def replay(args: argparse.Namespace) -> int:
    """`fleece mutton replay`."""
    from fleece.rules.mutton.record import parse_record
    from fleece.rules.mutton.record import replay as replay_record
    from fleece.rules.mutton.summary import match_json, match_text

    text, name = read_input(args.record)
    try:
        match = replay_record(parse_record(text))
    except ParseError as exc:
        raise exc.located(name) from None
    if args.json:
        print_json(match_json(match))
    else:
        echo(match_text(match), end="")
    return EXIT_OK


def chart(args: argparse.Namespace) -> int:
    """`fleece mutton chart`."""
    from fleece.rules.mutton.chart import render_paste
    from fleece.solver.mutton.inputs import chart_from_text

    text, name = read_input(args.file)
    try:
        parsed = chart_from_text(text, reveal=not args.no_reveal)
    except ParseError as exc:
        raise exc.located(name) from None
    if args.json:
        print_json(parsed.to_json())
    else:
        echo(render_paste(parsed), end="")
    return EXIT_OK


def puzzle_generate(args: argparse.Namespace) -> int:
    """`fleece mutton puzzle generate`."""
    from fleece.rules.mutton.options import RuleSet
    from fleece.solver.mutton.puzzle.answer import MuttonQuestion
    from fleece.solver.mutton.puzzle.formats import write_pack
    from fleece.solver.mutton.puzzle.generate import generate
    from fleece.solver.puzzles.core import Grade
    from fleece.solver.puzzles.pack import check_target
    from fleece.solver.puzzles.pool import progress_bar

    grade = Grade.parse(args.grade)
    if args.question not in ("all", "certain", "any"):
        raise FleeceError(f"unknown question {args.question!r} (all, certain or any)")
    question = None if args.question == "any" else MuttonQuestion(args.question)
    rules = RuleSet(num_wolves=args.wolves)
    check_target(args.out, force=args.force)
    with progress_bar(f"{grade.label} puzzles", args.count, "games") as progress:
        found = generate(args.count, grade, question, args.seed, rules, args.workers,
                         progress=progress)
    paths = write_pack(found, args.out, force=args.force, svg=args.svg)
    echo(f"wrote {len(paths)} {grade.label} puzzles to {args.out}")
    return EXIT_OK


def puzzle_check(args: argparse.Namespace) -> int:
    """`fleece mutton puzzle check`."""
    from fleece.solver.mutton.puzzle.check import check_puzzle
    from fleece.solver.mutton.puzzle.formats import parse_puzzle, parse_solution_answer
    from fleece.solver.puzzles.pack import solution_path

    text, name = read_input(args.file)
    spec = parse_puzzle(text, name)
    claimed = None
    sol_path = args.solution or (solution_path(args.file) if args.file != "-" else None)
    if sol_path is not None and (args.solution is not None or Path(sol_path).exists()):
        sol_text, sol_name = read_input(sol_path)
        claimed = parse_solution_answer(sol_text, sol_name)
    report = check_puzzle(spec.chart, spec.wolves, spec.question, spec.grade, claimed,
                          spec.ident or name)
    if args.json:
        print_json(report.data)
    else:
        echo("\n".join(report.lines))
    return EXIT_OK if report.ok else EXIT_RESULT


# ---- fleece verify --game mutton ---------------------------------------------------------


def verify_options(parser: Parser) -> None:
    """Mutton's own options of `fleece verify`: the variant to check."""
    parser.add_argument("--size", type=int_in(0, 99), default=4, help="board size 2..8 (M1)")
    parser.add_argument("--sheep", type=int_in(0, 99), default=26,
                        help="animals on the board, 2..26 (M4)")
    parser.add_argument("--wolves", type=int_in(0, 99), default=4,
                        help="wolves, 1..sheep/2 (M6)")
    parser.add_argument("--remove", action=argparse.BooleanOptionalAction, default=False,
                        help="corpses removed (M16)")
    parser.add_argument("--shotgun", action="store_true", help="the Farmer has a shotgun (M17)")
    parser.add_argument("--escape", action="store_true", help="escape option (M12)")
    parser.add_argument("--no-reveal", action="store_true", help="dead animals stay hidden (M18)")
    parser.add_argument("--no-berserk", action="store_true", help="no berserk volley (M13)")


def verify_config(args: argparse.Namespace, package: Any) -> Any:
    """The verification config of the variant named by the options."""
    from fleece.rules.errors import RulesError
    from fleece.rules.mutton.options import RuleSet, Weapon

    try:
        rules = RuleSet(size=args.size, num_sheep=args.sheep, num_wolves=args.wolves,
                        remove=args.remove,
                        weapon=Weapon.SHOTGUN if args.shotgun else Weapon.RIFLE,
                        escape=args.escape, reveal=not args.no_reveal,
                        berserk=not args.no_berserk)
    except RulesError as exc:
        raise ParseError(str(exc)) from None
    return package.VerifyConfig(rules=rules, quick=args.quick)
