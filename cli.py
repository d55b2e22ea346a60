"""The `fleece` command line: a thin Typer layer that parses options, calls the packages and
formats their results. Heavy libraries (z3, python-constraint) are imported inside the commands
that need them so that start-up stays fast.

Errors: bad input (fleece's typed errors, unreadable files) prints one line `fleece: error: ...`
naming what and where, and exits with status 2; never a traceback.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import typer

from fleece.rules.errors import FleeceError, ParseError

EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


class _App(typer.Typer):
    """Typer app that turns fleece's typed errors into a one-line message and exit status 2."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().__call__(*args, **kwargs)
        except FleeceError as exc:
            _die(str(exc))
        except OSError as exc:
            name = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            _die(f"{name}{exc.strerror or exc}")
        except KeyboardInterrupt:
            sys.stderr.write("fleece: interrupted\n")
            sys.exit(130)
        except Exception as exc:  # an internal bug: one line unless debugging is asked for
            if os.environ.get("FLEECE_DEBUG"):
                raise
            sys.stderr.write(
                f"fleece: internal error: {type(exc).__name__}: {exc} "
                "(set FLEECE_DEBUG=1 for a traceback)\n"
            )
            sys.exit(EXIT_INTERNAL)


def _die(message: str) -> None:
    sys.stderr.write(f"fleece: error: {message}\n")
    sys.exit(EXIT_BAD_INPUT)


def read_input(path: str) -> tuple[str, str]:
    """Read a FILE argument (or `-` for standard input); return (text, name for messages)."""
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    p = Path(path)
    if p.is_dir():
        raise ParseError("is a directory, expected a text file", source=path)
    try:
        return p.read_text(encoding="utf-8-sig"), path
    except UnicodeDecodeError as exc:
        raise ParseError(f"not UTF-8 text (byte {exc.start})", source=path) from None


def write_output(path: str, text: str, *, force: bool) -> None:
    """Write a file atomically (temporary file then rename); refuse to overwrite without force."""
    from fleece.rules.io import atomic_write

    atomic_write(Path(path), text, overwrite=force)


app = _App(
    name="fleece",
    help="Solve, generate and verify 'wolf in sheep's clothing' deduction games.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
mutton_app = typer.Typer(help="Mutton: board, game records, tracking charts.", no_args_is_help=True)
app.add_typer(mutton_app, name="mutton")

# ---- mutton commands -------------------------------------------------------------------------
# Engineers: read CONTRIBUTING.md first (edit only your own block here, commit only your own
# paths by name, never README/pyproject/.ci, lazy z3/constraint imports).

# -- mutton solve (solver/mutton) --


@mutton_app.command("solve")
def mutton_solve(
    file: str = typer.Argument(
        ..., help="A pasted pbmserv chart (board and score optional), a game record, or JSON; "
                  "'-' for standard input."),
    wolves: int | None = typer.Option(
        None, "--wolves", "-k", help="Number of wolves K (default 4; a record gives its own)."),
    no_reveal: bool = typer.Option(
        False, "--no-reveal", help="'x' means dead, identity unknown (server -no_reveal)."),
    escaped: str = typer.Option("", "--escaped", help="Letters of escaped wolves (M12)."),
    dictionary: str | None = typer.Option(
        None, "--dictionary", help="Word list: wolf letters must spell a word (M23)."),
    passed: bool = typer.Option(
        False, "--passed", help="The Wolf passed this turn (needs the board in the paste)."),
    engine: str = typer.Option("fast", "--engine", help="fast | csp | smt."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    svg: str | None = typer.Option(None, "--svg", help="Write the board as an SVG picture."),
    force: bool = typer.Option(False, "--force", help="Let --svg overwrite an existing file."),
) -> None:
    """Exact deductions from a Farmer's chart: consistent wolf sets, P(wolf) of each animal,
    certain facts with reasons, advice. Exit status 1 when the chart is inconsistent."""
    from fleece.solver.mutton.report import run

    text, name = read_input(file)
    words = read_input(dictionary)[0] if dictionary is not None else None
    code = run(text, name, wolves=wolves, no_reveal=no_reveal, escaped=escaped,
               dictionary_text=words, passed=passed, engine=engine, json_out=as_json,
               svg_path=svg, write=lambda path, body: write_output(path, body, force=force))
    if code:
        raise typer.Exit(code)


# -- end mutton solve --

# -- mutton board / replay / chart (rules/mutton) --


@mutton_app.command("board")
def mutton_board(
    layout: str = typer.Option(
        "", "--layout", "-l",
        help="sparse, random, or a cell list in animal order (f3,b2,a3,...). "
             "Default: sparse on the default board, else random.",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the random layout."),
    size: int = typer.Option(4, "--size", help="Cells per side of the hexagon (2..8)."),
    sheep: int = typer.Option(26, "--sheep", help="Number of animals (2..26)."),
) -> None:
    """Print a starting board in pbmserv style."""
    from fleece.rules.mutton.summary import starting_board

    typer.echo(starting_board(size, sheep, layout, seed))


@mutton_app.command("replay")
def mutton_replay(
    record: str = typer.Argument(..., help="Game record file (options line, one move per line)."),
    as_json: bool = typer.Option(False, "--json", help="Print the final state as JSON."),
) -> None:
    """Replay a game record; print each game's final board, score and chart.

    Stops at the first illegal move with its line number and the reason (exit status 2).
    """
    from fleece.rules.mutton.record import parse_record, replay
    from fleece.rules.mutton.summary import match_json, match_text

    text, name = read_input(record)
    try:
        match = replay(parse_record(text))
    except ParseError as exc:
        raise exc.located(name) from None
    if as_json:
        import json

        typer.echo(json.dumps(match_json(match), indent=2))
    else:
        typer.echo(match_text(match), nl=False)


@mutton_app.command("chart")
def mutton_chart(
    file: str = typer.Argument(..., help="Pasted chart (board and score optional), or '-'."),
    as_json: bool = typer.Option(False, "--json", help="Print the parsed rows and statuses."),
    no_reveal: bool = typer.Option(
        False, "--no-reveal", help="Read 'x' as 'dead, identity unknown' (server -no_reveal)."),
) -> None:
    """Read a pasted tracking chart and print it back normalized (or as JSON)."""
    from fleece.rules.mutton.chart import parse_chart, render_paste

    text, name = read_input(file)
    try:
        chart = parse_chart(text, reveal=not no_reveal)
    except ParseError as exc:
        raise exc.located(name) from None
    if as_json:
        import json

        typer.echo(json.dumps(chart.to_json(), indent=2))
    else:
        typer.echo(render_paste(chart), nl=False)


# -- end mutton board / replay / chart --

# -- mutton puzzle (solver/puzzles) --
mutton_puzzle_app = typer.Typer(help="Deduction puzzles from Farmer's charts: generate, check.",
                                no_args_is_help=True)
mutton_app.add_typer(mutton_puzzle_app, name="puzzle")


@mutton_puzzle_app.command("generate")
def mutton_puzzle_generate(
    out: str = typer.Option(..., "--out", help="Folder for NNN.txt, NNN.json, NNN.solution.txt."),
    count: int = typer.Option(10, "--count", min=1, help="How many puzzles."),
    grade: str = typer.Option("easy", "--grade", help="easy | medium | hard."),
    question: str = typer.Option("any", "--question",
                                 help="all (name all wolves) | certain | any (mixed)."),
    seed: int = typer.Option(1, "--seed", help="Seed: the same seed gives the same puzzles."),
    wolves: int = typer.Option(4, "--wolves", help="Wolves in the simulated games (26 animals)."),
    workers: int = typer.Option(1, "--workers", min=1, help="Processes to use."),
    svg: bool = typer.Option(False, "--svg", help="Also draw each chart as NNN.svg."),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
) -> None:
    """Generate unique, minimal puzzles of one grade from simulated games."""
    from fleece.rules.mutton.options import RuleSet
    from fleece.solver.puzzles.formats import existing_outputs, write_pack
    from fleece.solver.puzzles.mutton import Grade, Question, generate
    from fleece.solver.puzzles.pool import progress_bar

    g = Grade.parse(grade)
    if question not in ("all", "certain", "any"):
        raise FleeceError(f"unknown question {question!r} (all, certain or any)")
    q = None if question == "any" else Question(question)
    rules = RuleSet(num_wolves=wolves)
    taken = [] if force else existing_outputs(out, count, svg=svg)
    if taken:
        raise FleeceError(f"{taken[0]}: already exists (use --force to overwrite)")
    with progress_bar(f"{g.label} puzzles", count, "games") as progress:
        found = generate(count, g, q, seed, rules, workers, progress=progress)
    paths = write_pack(found, out, force=force, svg=svg, write=write_output)
    typer.echo(f"wrote {len(paths)} {g.label} puzzles to {out}")


@mutton_puzzle_app.command("check")
def mutton_puzzle_check(
    file: str = typer.Argument(..., help="Puzzle text or JSON twin, or '-'."),
    solution: str = typer.Option(
        None, "--solution", help="Solution file (default: NNN.solution.txt beside FILE)."),
    as_json: bool = typer.Option(False, "--json", help="Print the verdict as JSON."),
) -> None:
    """Verify with z3 that the answer is unique and every clue needed; report the grade."""
    from fleece.solver.puzzles.check import check_puzzle
    from fleece.solver.puzzles.formats import parse_puzzle, parse_solution_answer, solution_path

    text, name = read_input(file)
    spec = parse_puzzle(text, name)
    claimed = None
    sol_path = solution or (solution_path(file) if file != "-" else None)
    if sol_path is not None and (solution is not None or Path(sol_path).exists()):
        sol_text, sol_name = read_input(sol_path)
        claimed = parse_solution_answer(sol_text, sol_name)
    report = check_puzzle(spec.chart, spec.wolves, spec.question, spec.grade, claimed,
                          spec.ident or name)
    if as_json:
        import json

        typer.echo(json.dumps(report.data, indent=2))
    else:
        typer.echo("\n".join(report.lines))
    if not report.ok:
        raise typer.Exit(1)


# -- end mutton puzzle --

# ---- woof commands ---------------------------------------------------------------------------

woof_app = typer.Typer(help="Woof!!: exact deduction from an evidence file.", no_args_is_help=True)
app.add_typer(woof_app, name="woof")


@woof_app.command("solve")
def woof_solve(
    file: str = typer.Argument(..., help="Evidence file (seats, deck, hand, look ...), or '-'."),
    engine: str = typer.Option("fast", "--engine", "-e", help="fast | csp | smt."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON (characters, wolf_sets, ...)."),
    me: int | None = typer.Option(None, "--me", help="Point of view (overrides the `me` line)."),
    dog_target: str | None = typer.Option(
        None, "--dog-target", help="Assumed second target of the Dog (default shepherd)."),
    exact: bool = typer.Option(False, "--exact", help="Show exact fractions in the tables."),
) -> None:
    """Exact beliefs from Woof!! evidence: characters, wolf sets, certain facts, a suggestion.

    Contradictory evidence is a result: a minimal set of contradicting lines, exit status 1.
    """
    from fleece.rules.woof.evidence import load_evidence
    from fleece.solver.woof.report import ENGINES, analyse, render

    if engine not in ENGINES:
        raise FleeceError(f"--engine {engine}: choose one of {', '.join(ENGINES)}")
    text, name = read_input(file)
    evidence = load_evidence(text, name).with_view(me, dog_target)
    report = analyse(evidence, engine)
    if as_json:
        import json

        typer.echo(json.dumps(report.to_json(), indent=2))
    else:
        from rich.console import Console

        Console().print(render(report, exact=exact))
    if not report.consistent:
        raise typer.Exit(1)


# -- woof puzzle (solver/puzzles) --
woof_puzzle_app = typer.Typer(help="Deduction puzzles from evidence files: generate, check.",
                              no_args_is_help=True)
woof_app.add_typer(woof_puzzle_app, name="puzzle")


@woof_puzzle_app.command("generate")
def woof_puzzle_generate(
    out: str = typer.Option(..., "--out", help="Folder for NNN.txt, NNN.json, NNN.solution.txt."),
    count: int = typer.Option(10, "--count", min=1, help="How many puzzles."),
    grade: str = typer.Option("easy", "--grade", help="easy | medium | hard."),
    seed: int = typer.Option(1, "--seed", help="Seed: the same seed gives the same puzzles."),
    workers: int = typer.Option(
        1, "--workers", min=1, help="Processes to use (same puzzles whatever N)."),
    force: bool = typer.Option(False, "--force", help="Overwrite existing files."),
) -> None:
    """Generate unique, minimal Woof!! puzzles of one grade from simulated rounds."""
    from pathlib import Path as _P

    from fleece.solver.puzzles.formats import existing_outputs
    from fleece.solver.puzzles.mutton import Grade
    from fleece.solver.puzzles.pool import progress_bar
    from fleece.solver.puzzles.woof import generate, puzzle_json, render_puzzle, render_solution

    g = Grade.parse(grade)
    taken = [] if force else existing_outputs(out, count, svg=False)
    if taken:
        raise FleeceError(f"{taken[0]}: already exists (use --force to overwrite)")
    with progress_bar(f"{g.label} Woof!! puzzles", count, "rounds") as progress:
        found = generate(count, g, seed, progress=progress, workers=workers)
    for i, p in enumerate(found, start=1):
        base = _P(out) / f"{i:03d}"
        write_output(f"{base}.txt", render_puzzle(p), force=force)
        write_output(f"{base}.json", puzzle_json(p), force=force)
        write_output(f"{base}.solution.txt", render_solution(p), force=force)
    typer.echo(f"wrote {len(found)} {g.label} Woof!! puzzles to {out}")


@woof_puzzle_app.command("check")
def woof_puzzle_check(
    file: str = typer.Argument(..., help="Woof!! puzzle file (evidence with header) or JSON."),
) -> None:
    """Verify with z3 that the answer is unique and every fact needed; report the grade."""
    from fleece.solver.puzzles.formats import solution_path
    from fleece.solver.puzzles.woof import (
        human_solve,
        parse_puzzle,
        question_text,
        solution_answer,
        z3_answer,
    )

    text, name = read_input(file)
    ev, q, labelled, ident = parse_puzzle(text, name)
    ans, redundant = z3_answer(ev, q)
    ok = ans is not None and not redundant
    typer.echo(f"{ident or name}: {question_text(q)}")
    typer.echo(f"answer: {ans or 'no wolf'} (unique, z3)" if ans is not None
               else "answer: NOT UNIQUE (z3)")
    if ans is not None:
        typer.echo("minimal: yes (every fact line is needed, z3)" if not redundant else
                   "minimal: NO, not needed: " + ", ".join(
                       f"fact {i + 1}" for i in redundant))
        sol = human_solve(ev, q)
        typer.echo(f"grade: {sol.grade.label if sol.grade else 'NOT SOLVABLE by the rules'}")
        ok = ok and sol.grade is not None and labelled in (None, sol.grade)
        if labelled is not None and labelled != sol.grade:
            typer.echo(f"label: MISMATCH, the file says {labelled.label}")
        sp = solution_path(file)
        if file != "-" and Path(sp).exists():
            claimed = solution_answer(read_input(sp)[0])
            match = claimed == ans
            typer.echo("solution file: answer matches" if match else
                       f"solution file: MISMATCH, it says {claimed}")
            ok = ok and match
    typer.echo("result: " + ("ok" if ok else "FAILED"))
    if not ok:
        raise typer.Exit(1)


# -- end woof puzzle --


# ---- verify ----------------------------------------------------------------------------------


@app.command("verify")
def verify_cmd(
    game: str = typer.Option("mutton", "--game", help="Game to verify (only mutton)."),
    size: int = typer.Option(4, "--size", help="Board size 2..8 (M1)."),
    sheep: int = typer.Option(26, "--sheep", help="Animals on the board, 2..26 (M4)."),
    wolves: int = typer.Option(4, "--wolves", help="Wolves, 1..sheep/2 (M6)."),
    remove: bool = typer.Option(False, "--remove/--no-remove", help="Corpses removed (M16)."),
    shotgun: bool = typer.Option(False, "--shotgun", help="The Farmer has a shotgun (M17)."),
    escape: bool = typer.Option(False, "--escape", help="Escape option (M12)."),
    no_reveal: bool = typer.Option(False, "--no-reveal", help="Dead animals stay hidden (M18)."),
    no_berserk: bool = typer.Option(False, "--no-berserk", help="No berserk volley (M13)."),
    junit: str | None = typer.Option(None, "--junit", metavar="FILE", help="Write JUnit XML."),
    report: str = typer.Option("reports", "--report", metavar="DIR",
                               help="Directory for verification.md and verification.json."),
    quick: bool = typer.Option(False, "--quick", help="Representative subset (CI, tests)."),
    force: bool = typer.Option(False, "--force", help="Overwrite an existing --junit FILE."),
) -> None:
    """Prove the rules' invariants with Z3, settle claims C1-C4, cross-check the Python model,
    and write a report; exit 1 when any check has an unexpected outcome."""
    if game.lower() != "mutton":
        raise ParseError(f"--game: only 'mutton' can be verified, not '{game}'")
    from rich.console import Console

    from fleece.rules.errors import RulesError
    from fleece.rules.mutton.options import RuleSet, Weapon
    from fleece.verify.runner import VerifyConfig, run_verification, summary_table, write_reports

    try:
        rules = RuleSet(size=size, num_sheep=sheep, num_wolves=wolves, remove=remove,
                        weapon=Weapon.SHOTGUN if shotgun else Weapon.RIFLE, escape=escape,
                        reveal=not no_reveal, berserk=not no_berserk)
    except RulesError as exc:
        raise ParseError(str(exc)) from None
    junit_path = Path(junit) if junit else None
    if junit_path is not None and junit_path.exists() and not force:
        raise FleeceError(f"{junit}: already exists (use --force to overwrite)")
    console = Console(stderr=True)
    rep = run_verification(VerifyConfig(rules=rules, quick=quick), progress=console.is_terminal)
    write_reports(rep, Path(report), junit_path, force)
    Console().print(summary_table(rep))
    for r in rep.failures():
        typer.echo(f"FAILED {r.ident}: {r.outcome}, expected {r.expected}: {r.detail}")
    typer.echo(f"report: {Path(report) / 'verification.md'} (+ .json)"
               + (f", JUnit: {junit}" if junit else ""))
    if not rep.ok:
        raise typer.Exit(1)


if __name__ == "__main__":  # pragma: no cover
    app()
