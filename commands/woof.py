"""`fleece woof ...`: exact beliefs from Woof!! evidence, and deduction puzzles
(fleece.api.woof)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fleece.api import woof as api
from fleece.commands.base import (
    ENGINE_HELP,
    PackCount,
    PackForce,
    PackGrade,
    PackJson,
    PackOut,
    PackSeed,
    complete_engine,
    echo,
    engine_name,
    finish,
    generate_pack,
    int_in,
    names,
    new_app,
    print_json,
    read_input,
    seconds_in,
    stopped_as_json,
)

app = new_app("Woof!!: hidden characters at the table: evidence files, exact beliefs, "
              "puzzles.")
puzzle = new_app("Deduction puzzles from evidence files: generate, check.")
app.add_typer(puzzle, name="puzzle")

CHARACTERS = ("shepherd", "sheep", "hunter", "wolf", "dog")


@app.command()
def solve(
    file: Annotated[str, typer.Argument(
        help="evidence file (seats, deck, hand, look ...), or '-'", show_default=False)],
    engine: Annotated[str, typer.Option(
        "--engine", "-e", parser=engine_name, metavar="ENGINE", help=ENGINE_HELP,
        autocompletion=complete_engine)] = "fast",
    timeout: Annotated[float | None, typer.Option(
        parser=seconds_in(), metavar="SECONDS", show_default=False,
        help="stop with no answer after this many seconds (exit status 1; default: no limit "
             "for fast, 15 for csp and smt)")] = None,
    json: Annotated[bool, typer.Option(
        "--json", help="print JSON (characters, wolf_sets, ...)")] = False,
    me: Annotated[int | None, typer.Option(
        parser=int_in(0), show_default=False,
        help="point of view (overrides the `me` line)")] = None,
    dog_target: Annotated[str | None, typer.Option(
        show_default=False, autocompletion=names(*CHARACTERS),
        help="assumed second target of the Dog (default shepherd)")] = None,
    exact: Annotated[bool, typer.Option(
        "--exact", help="show exact fractions in the tables")] = False,
) -> int:
    """Exact beliefs from Woof!! evidence: characters, wolf sets, certain facts, a
    suggestion. Contradictory evidence is a result: a minimal set of contradicting lines,
    exit status 1."""
    text, name = read_input(file)
    request = api.SolveRequest(evidence=text, engine=engine, me=me, dog_target=dog_target,
                               timeout=timeout, source=name)
    with stopped_as_json(json):
        report = api.solve(request)
    if json:
        print_json(report)
    else:
        from fleece.commands.output import show
        from fleece.commands.woof_document import report as human

        show(human(report.analysis, exact=exact))
    return finish(report.consistent)


@puzzle.command("generate")
def puzzle_generate(
    out: PackOut, count: PackCount = 10, grade: PackGrade = "easy", seed: PackSeed = 1,
    workers: Annotated[int, typer.Option(
        parser=int_in(1, 64), help="processes to use (same puzzles whatever N)")] = 1,
    force: PackForce = False, json: PackJson = False,
) -> int:
    """Generate unique, minimal Woof!! puzzles of one grade from simulated rounds."""
    request = api.PuzzleGenerateRequest(out=out, count=count, grade=grade, seed=seed,
                                        workers=workers, force=force)
    return generate_pack("Woof!! puzzles", "rounds", request, api.generate_pack, json)


@puzzle.command("check")
def puzzle_check(
    file: Annotated[str, typer.Argument(
        help="Woof!! puzzle file (evidence with header) or JSON", show_default=False)],
    json: Annotated[bool, typer.Option("--json", help="print the verdict as JSON")] = False,
) -> int:
    """Verify with z3 that the answer is unique and every fact needed; report the grade."""
    from fleece.solver.puzzles.pack import solution_path

    text, name = read_input(file)
    solution = None
    sp = solution_path(file)
    if file != "-" and Path(sp).exists():
        solution = read_input(sp)[0]
    report = api.check_puzzle(api.PuzzleCheckRequest(puzzle=text, solution=solution,
                                                     source=name))
    if json:
        print_json(report)
    else:
        echo("\n".join(report.lines))
    return finish(report.passed)


def _dog_target(text: str) -> str:
    low = text.strip().lower()
    if low not in ("shepherd", "sheep", "hunter", "wolf"):
        raise typer.BadParameter(f"{text[:30]!r} is not one of shepherd, sheep, hunter, wolf")
    return low


def verify_options(
    dog_target: Annotated[str, typer.Option(
        parser=_dog_target, metavar="CHARACTER",
        autocompletion=names("shepherd", "sheep", "hunter", "wolf"),
        help="the Dog's second target under test (W2 names none; default shepherd, as the "
             "model assumes; not the Dog itself, for which W8's '0: no seat has it' is "
             "ambiguous)")] = "shepherd",
    seed: Annotated[int, typer.Option(parser=int_in(0, 10**9),
                                      help="seed of the random cross-check and records")] = 1,
    rounds: Annotated[int | None, typer.Option(
        parser=int_in(1, 100_000), show_default=False,
        help="random rounds of the cross-check (default 12 with --quick, else 150)")] = None,
) -> api.VerifyVariant:
    """Woof!!'s own options of `fleece verify`: the Dog's second target under test (W2's
    labelled assumption) and the random cross-check's seed and number of rounds."""
    return api.VerifyVariant(dog_target=dog_target, seed=seed, rounds=rounds)
