"""`fleece woof ...`: exact beliefs from Woof!! evidence, and deduction puzzles."""

from __future__ import annotations

import argparse

from fleece.commands.base import (
    EXIT_OK,
    EXIT_RESULT,
    Parser,
    add_timeout,
    echo,
    int_in,
    print_json,
    read_input,
    solve_budget,
)


def build(parser: Parser, argv: list[str]) -> None:
    """Add the Woof!! commands."""
    cmds = parser.commands()
    p = cmds.add("solve", solve, "Exact beliefs from Woof!! evidence: characters, wolf sets, "
                 "certain facts, a suggestion.", "Exact beliefs from Woof!! evidence: "
                 "characters, wolf sets, certain facts, a suggestion.\nContradictory evidence "
                 "is a result: a minimal set of contradicting lines, exit status 1.")
    p.add_argument("file", help="evidence file (seats, deck, hand, look ...), or '-'")
    p.add_argument("--engine", "-e", default="fast", help="fast | csp | smt")
    add_timeout(p)
    p.add_argument("--json", action="store_true",
                   help="print JSON (characters, wolf_sets, ...)")
    p.add_argument("--me", type=int_in(0), default=None,
                   help="point of view (overrides the `me` line)")
    p.add_argument("--dog-target", default=None,
                   help="assumed second target of the Dog (default shepherd)")
    p.add_argument("--exact", action="store_true", help="show exact fractions in the tables")

    group = cmds.add("puzzle", None, "Deduction puzzles from evidence files: generate, check.")
    pcmds = group.commands()
    p = pcmds.add("generate", puzzle_generate,
                  "Generate unique, minimal Woof!! puzzles of one grade from simulated rounds.")
    p.add_argument("--out", required=True, help="folder for NNN.txt, NNN.json, NNN.solution.txt")
    p.add_argument("--count", type=int_in(1, 10_000), default=10, help="how many puzzles")
    p.add_argument("--grade", default="easy", help="easy | medium | hard")
    p.add_argument("--seed", type=int_in(0), default=1,
                   help="seed: the same seed gives the same puzzles")
    p.add_argument("--workers", type=int_in(1, 64), default=1,
                   help="processes to use (same puzzles whatever N)")
    p.add_argument("--force", action="store_true",
                   help="replace a pack already in --out (other files are never touched)")
    p = pcmds.add("check", puzzle_check, "Verify with z3 that the answer is unique and every "
                  "fact needed; report the grade.")
    p.add_argument("file", help="Woof!! puzzle file (evidence with header) or JSON")
    p.add_argument("--json", action="store_true", help="print the verdict as JSON")


def solve(args: argparse.Namespace) -> int:
    """`fleece woof solve`."""
    from fleece.rules.woof.evidence import load_evidence
    from fleece.solver.core import check_engine
    from fleece.solver.woof import ENGINES, analyse

    engine = check_engine(args.engine, ENGINES)
    text, name = read_input(args.file)
    evidence = load_evidence(text, name).with_view(args.me, args.dog_target)
    from fleece.solver.deadline import time_limit

    with time_limit(*solve_budget(engine, args.timeout)):
        report = analyse(evidence, engine)
    if args.json:
        print_json(report.to_json())
    else:
        from fleece.commands.base import console
        from fleece.commands.woof_view import render

        console().print(render(report, exact=args.exact))
    return EXIT_OK if report.consistent else EXIT_RESULT


def puzzle_generate(args: argparse.Namespace) -> int:
    """`fleece woof puzzle generate`."""
    from fleece.solver.puzzles.core import Grade
    from fleece.solver.puzzles.pack import check_target
    from fleece.solver.puzzles.pool import progress_bar
    from fleece.solver.woof.puzzle.formats import write_pack
    from fleece.solver.woof.puzzle.generate import generate

    grade = Grade.parse(args.grade)
    check_target(args.out, force=args.force)
    with progress_bar(f"{grade.label} Woof!! puzzles", args.count, "rounds") as progress:
        found = generate(args.count, grade, args.seed, progress=progress, workers=args.workers)
    write_pack(found, args.out, force=args.force)
    echo(f"wrote {len(found)} {grade.label} Woof!! puzzles to {args.out}")
    return EXIT_OK


def puzzle_check(args: argparse.Namespace) -> int:
    """`fleece woof puzzle check`."""
    from pathlib import Path

    from fleece.solver.puzzles.pack import solution_path
    from fleece.solver.woof.puzzle.check import check_puzzle
    from fleece.solver.woof.puzzle.formats import parse_puzzle, solution_answer

    text, name = read_input(args.file)
    ev, q, labelled, ident = parse_puzzle(text, name)
    claimed = None
    sp = solution_path(args.file)
    if args.file != "-" and Path(sp).exists():
        claimed = solution_answer(read_input(sp)[0])
    verdict = check_puzzle(ev, q, labelled, claimed, ident or name)
    if args.json:
        print_json(verdict.data)
    else:
        echo("\n".join(verdict.lines))
    return EXIT_OK if verdict.ok else EXIT_RESULT


def verify_options(parser: Parser) -> None:
    """Woof!!'s own options of `fleece verify`: the Dog's second target under test (W2's
    labelled assumption) and the random cross-check's seed and number of rounds."""
    from fleece.commands.base import choice

    parser.add_argument("--dog-target", type=choice("shepherd", "sheep", "hunter", "wolf"),
                        default="shepherd", metavar="CHARACTER",
                        help="the Dog's second target under test (W2 names none; default "
                             "shepherd, as the model assumes; not the Dog itself, for which "
                             "W8's '0: no seat has it' is ambiguous)")
    parser.add_argument("--seed", type=int_in(0, 10**9), default=1,
                        help="seed of the random cross-check and records")
    parser.add_argument("--rounds", type=int_in(1, 100_000), default=None,
                        help="random rounds of the cross-check (default 12 with --quick, else "
                             "150)")


def verify_config(args: argparse.Namespace, package: object) -> object:
    """The verification config of the options (`package` is fleece.verify.woof)."""
    from fleece.rules.woof.cards import Character

    config = vars(package)["VerifyConfig"]
    return config(quick=args.quick, dog_target=Character(args.dog_target), seed=args.seed,
                  rounds=args.rounds)
