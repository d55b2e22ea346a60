"""`fleece woof ...`: exact beliefs from Woof!! evidence, and deduction puzzles."""

from __future__ import annotations

import argparse

from fleece.commands.base import (
    EXIT_OK,
    EXIT_RESULT,
    Parser,
    echo,
    int_in,
    print_json,
    read_input,
    write_output,
)
from fleece.rules.errors import FleeceError


def build(parser: Parser, argv: list[str]) -> None:
    """Add the Woof!! commands."""
    cmds = parser.commands()
    p = cmds.add("solve", solve, "Exact beliefs from Woof!! evidence: characters, wolf sets, "
                 "certain facts, a suggestion.", "Exact beliefs from Woof!! evidence: "
                 "characters, wolf sets, certain facts, a suggestion.\nContradictory evidence "
                 "is a result: a minimal set of contradicting lines, exit status 1.")
    p.add_argument("file", help="evidence file (seats, deck, hand, look ...), or '-'")
    p.add_argument("--engine", "-e", default="fast", help="fast | csp | smt")
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
    p.add_argument("--force", action="store_true", help="overwrite existing files")
    p = pcmds.add("check", puzzle_check, "Verify with z3 that the answer is unique and every "
                  "fact needed; report the grade.")
    p.add_argument("file", help="Woof!! puzzle file (evidence with header) or JSON")


def solve(args: argparse.Namespace) -> int:
    """`fleece woof solve`."""
    from fleece.rules.woof.evidence import load_evidence
    from fleece.solver.core import check_engine
    from fleece.solver.woof.report import ENGINES, analyse

    engine = check_engine(args.engine, ENGINES)
    text, name = read_input(args.file)
    evidence = load_evidence(text, name).with_view(args.me, args.dog_target)
    report = analyse(evidence, engine)
    if args.json:
        print_json(report.to_json())
    else:
        from fleece.commands.base import console
        from fleece.solver.woof.report import render

        console().print(render(report, exact=args.exact))
    return EXIT_OK if report.consistent else EXIT_RESULT


def puzzle_generate(args: argparse.Namespace) -> int:
    """`fleece woof puzzle generate`."""
    from pathlib import Path

    from fleece.solver.puzzles.core import Grade
    from fleece.solver.puzzles.pack import existing_outputs
    from fleece.solver.puzzles.pool import progress_bar
    from fleece.solver.puzzles.woof import generate, puzzle_json, render_puzzle, render_solution

    grade = Grade.parse(args.grade)
    taken = [] if args.force else existing_outputs(args.out, args.count, svg=False)
    if taken:
        raise FleeceError(f"{taken[0]}: already exists (use --force to overwrite)")
    with progress_bar(f"{grade.label} Woof!! puzzles", args.count, "rounds") as progress:
        found = generate(args.count, grade, args.seed, progress=progress, workers=args.workers)
    for i, p in enumerate(found, start=1):
        base = Path(args.out) / f"{i:03d}"
        write_output(f"{base}.txt", render_puzzle(p), force=args.force)
        write_output(f"{base}.json", puzzle_json(p), force=args.force)
        write_output(f"{base}.solution.txt", render_solution(p), force=args.force)
    echo(f"wrote {len(found)} {grade.label} Woof!! puzzles to {args.out}")
    return EXIT_OK


def puzzle_check(args: argparse.Namespace) -> int:
    """`fleece woof puzzle check`."""
    from pathlib import Path

    from fleece.solver.puzzles.pack import solution_path
    from fleece.solver.puzzles.woof import (
        human_solve,
        parse_puzzle,
        question_text,
        solution_answer,
        z3_answer,
    )

    text, name = read_input(args.file)
    ev, q, labelled, ident = parse_puzzle(text, name)
    ans, redundant = z3_answer(ev, q)
    ok = ans is not None and not redundant
    echo(f"{ident or name}: {question_text(q)}")
    echo(f"answer: {ans or 'no wolf'} (unique, z3)" if ans is not None
         else "answer: NOT UNIQUE (z3)")
    if ans is not None:
        echo("minimal: yes (every fact line is needed, z3)" if not redundant else
             "minimal: NO, not needed: " + ", ".join(f"fact {i + 1}" for i in redundant))
        sol = human_solve(ev, q)
        echo(f"grade: {sol.grade.label if sol.grade else 'NOT SOLVABLE by the rules'}")
        ok = ok and sol.grade is not None and labelled in (None, sol.grade)
        if labelled is not None and labelled != sol.grade:
            echo(f"label: MISMATCH, the file says {labelled.label}")
        sp = solution_path(args.file)
        if args.file != "-" and Path(sp).exists():
            claimed = solution_answer(read_input(sp)[0])
            match = claimed == ans
            echo("solution file: answer matches" if match else
                 f"solution file: MISMATCH, it says {claimed}")
            ok = ok and match
    echo("result: " + ("ok" if ok else "FAILED"))
    return EXIT_OK if ok else EXIT_RESULT
