"""`fleece mutton ...`: solve a Farmer's chart, draw boards, replay records, read charts, and
generate or check deduction puzzles (fleece.api.mutton)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from fleece.api import mutton as api
from fleece.commands.base import (
    ENGINE_HELP,
    EXIT_INTERRUPTED,
    EXIT_OK,
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
    write_output,
)

app = new_app("Mutton: hidden wolves on a hex board: charts, records, exact deductions, "
              "puzzles.")
puzzle = new_app("Deduction puzzles from Farmer's charts: generate, check.")
app.add_typer(puzzle, name="puzzle")

FileArg = Annotated[str, typer.Argument(
    help="a pasted pbmserv chart (board and score optional), a game record, or JSON; '-' "
         "for standard input", show_default=False)]
Json = Annotated[bool, typer.Option("--json", help="print one JSON object")]
NoReveal = Annotated[bool, typer.Option(
    "--no-reveal", help="'x' means dead, identity unknown (server -no_reveal)")]


@app.command()
def solve(
    file: FileArg,
    wolves: Annotated[int | None, typer.Option(
        "--wolves", "-k", parser=int_in(0), show_default=False,
        help="number of wolves K (default 4; a record gives its own)")] = None,
    no_reveal: NoReveal = False,
    escaped: Annotated[str, typer.Option(help="letters of escaped wolves (M12)")] = "",
    dictionary: Annotated[str | None, typer.Option(
        metavar="FILE", help="word list: wolf letters must spell a word (M23)")] = None,
    passed: Annotated[bool, typer.Option(
        "--passed", help="the Wolf passed this turn (needs the board in the paste)")] = False,
    engine: Annotated[str, typer.Option(
        parser=engine_name, metavar="ENGINE", help=ENGINE_HELP,
        autocompletion=complete_engine)] = "fast",
    timeout: Annotated[float | None, typer.Option(
        parser=seconds_in(), metavar="SECONDS", show_default=False,
        help="stop with no answer after this many seconds (exit status 1; default: no limit "
             "for fast, 15 for csp and smt)")] = None,
    json: Json = False,
    svg: Annotated[str | None, typer.Option(
        metavar="FILE", help="write the board as an SVG picture")] = None,
    force: Annotated[bool, typer.Option("--force",
                                        help="let --svg overwrite an existing file")] = False,
) -> int:
    """Exact deductions from a Farmer's chart: consistent wolf sets, P(wolf) of each animal,
    certain facts with reasons, advice. Exit status 1 when the chart is inconsistent."""
    text, name = read_input(file)
    words = read_input(dictionary)[0] if dictionary is not None else None
    request = api.SolveRequest(chart=text, wolves=wolves, no_reveal=no_reveal, escaped=escaped,
                               dictionary=words, passed=passed, engine=engine, timeout=timeout,
                               source=name)
    with stopped_as_json(json):
        report = api.solve(request)
    if svg is not None:
        write_output(svg, api.board_svg(report), force=force, what="SVG picture of the board")
    if json:
        print_json(report)
    else:
        from fleece.commands.mutton_document import report as human
        from fleece.commands.output import show

        show(human(report.analysis))
    return finish(report.consistent)


@app.command()
def board(
    layout: Annotated[str, typer.Option(
        "--layout", "-l", help="sparse, random, or a cell list in animal order "
                               "(f3,b2,a3,...); default: sparse on the default board, else "
                               "random")] = "",
    seed: Annotated[int, typer.Option(parser=int_in(0),
                                      help="seed of the random layout")] = 0,
    size: Annotated[int, typer.Option(parser=int_in(0, 99),
                                      help="cells per side of the hexagon (2..8)")] = 4,
    sheep: Annotated[int, typer.Option(parser=int_in(0, 99),
                                       help="number of animals (2..26)")] = 26,
) -> int:
    """Print a starting board in pbmserv style."""
    echo(api.board(api.BoardRequest(size=size, sheep=sheep, layout=layout, seed=seed)).board)
    return EXIT_OK


@app.command()
def replay(
    record: Annotated[str, typer.Argument(
        help="game record file (options line, one move per line), or '-'",
        show_default=False)],
    json: Annotated[bool, typer.Option("--json", help="print the final state as JSON")] = False,
) -> int:
    """Replay a game record; print each game's final board, score and chart. Stops at the
    first illegal move with its line number and the reason (exit status 2)."""
    text, name = read_input(record)
    report = api.replay(api.ReplayRequest(record=text, source=name))
    if json:
        print_json(report)
    else:
        echo(report.text, end="")
    return EXIT_OK


@app.command()
def chart(
    file: Annotated[str, typer.Argument(
        help="pasted chart (board and score optional), puzzle, JSON or record; '-' for "
             "standard input", show_default=False)],
    json: Annotated[bool, typer.Option("--json",
                                       help="print the parsed rows and statuses")] = False,
    no_reveal: Annotated[bool, typer.Option(
        "--no-reveal", help="read 'x' as 'dead, identity unknown' (server -no_reveal)")] = False,
) -> int:
    """Read a pasted tracking chart and print it back normalized (or as JSON). Also reads a
    puzzle text, JSON (a chart, a paste or a record) and a game record (the Farmer's chart of
    its last game)."""
    text, name = read_input(file)
    report = api.parse_chart(api.ChartRequest(chart=text, no_reveal=no_reveal, source=name))
    if json:
        print_json(report)
    else:
        echo(report.text, end="")
    return EXIT_OK


def complete_bot(incomplete: str) -> list[str]:
    """Shell completion of robot names (the registry is loaded only when completing)."""
    return [b for b in api.bot_names() if b.startswith(incomplete)]


def complete_rules(incomplete: str) -> list[str]:
    """Shell completion of the named rule sets."""
    return [r for r in api.rule_set_names() if r.startswith(incomplete)]


@app.command()
def match(
    farmer: Annotated[str, typer.Option(
        metavar="BOT", autocompletion=complete_bot,
        help="the Farmer robot: fleece | v2 | random")] = "fleece",
    wolf: Annotated[str, typer.Option(
        metavar="BOT", autocompletion=complete_bot,
        help="the Wolf robot: fleece | v2 | random")] = "v2",
    games: Annotated[int, typer.Option(
        parser=int_in(0), metavar="N", help=f"games to play (1..{api.MAX_GAMES:,})")] = 100,
    seed: Annotated[int, typer.Option(
        parser=int_in(0), metavar="N",
        help="seed: game i's layout, wolves and robot seeds come from (seed, i)")] = 0,
    rules: Annotated[str, typer.Option(
        metavar="RULES", autocompletion=complete_rules,
        help="'pbmserv default', 'boardspace-like' (quick play to 11, random layout), or "
             "pbmserv options ('-quick=11 -shotgun')")
    ] = "pbmserv default",
    layout: Annotated[str | None, typer.Option(
        metavar="LAYOUT", autocompletion=names("sparse", "random"), show_default=False,
        help="sparse | random (default: the rule set's; sparse where it exists)")] = None,
    against: Annotated[str | None, typer.Option(
        metavar="BOT", autocompletion=complete_bot, show_default=False,
        help="compare with this robot on --side, on the same seeds (same layouts, same "
             "wolves)")] = None,
    side: Annotated[str, typer.Option(
        metavar="SIDE", autocompletion=names(*api.SIDES),
        help="the side --against plays: farmer (compared with --farmer) or wolf "
             "(compared with --wolf)")] = "farmer",
    json: Json = False,
) -> int:
    """Play Mutton robots against each other. Refereed by the rules model; prints the sheep
    lost a game with its 95% interval, wins and game lengths; with --against, a paired
    comparison of two robots on one side, game by game on the same seeds. Ctrl-C stops and
    reports the games played (exit status 130)."""
    from fleece.commands.base import progress_bar

    request = api.MatchRequest(farmer=farmer, wolf=wolf, games=games, seed=seed, rules=rules,
                               layout=layout)
    report: api.MatchReport
    if against is not None:
        paired = api.CompareRequest(**vars(request), against=against, side=side)
        with progress_bar("game pairs", games, "pairs") as tick:
            report = api.compare(paired, tick)
    else:
        with progress_bar("games", games, "games") as tick:
            report = api.match(request, tick)
    if json:
        print_json(report)
    else:
        echo(report.text, end="")
    return EXIT_INTERRUPTED if report.stopped else EXIT_OK


@puzzle.command("generate")
def puzzle_generate(
    out: PackOut, count: PackCount = 10, grade: PackGrade = "easy",
    question: Annotated[str, typer.Option(
        help="all (name all wolves) | certain | any (mixed)",
        autocompletion=names("all", "certain", "any"))] = "any",
    seed: PackSeed = 1,
    wolves: Annotated[int, typer.Option(
        parser=int_in(0), help="wolves in the simulated games (26 animals)")] = 4,
    workers: Annotated[int, typer.Option(parser=int_in(1, 64), help="processes to use")] = 1,
    svg: Annotated[bool, typer.Option("--svg", help="also draw each chart as NNN.svg")] = False,
    force: PackForce = False, json: PackJson = False,
) -> int:
    """Generate unique, minimal puzzles of one grade from simulated games."""
    request = api.PuzzleGenerateRequest(out=out, count=count, grade=grade, question=question,
                                        seed=seed, wolves=wolves, workers=workers, svg=svg,
                                        force=force)
    return generate_pack("puzzles", "games", request, api.generate_pack, json)


@puzzle.command("check")
def puzzle_check(
    file: Annotated[str, typer.Argument(help="puzzle text or JSON twin, or '-'",
                                        show_default=False)],
    solution: Annotated[str | None, typer.Option(
        help="solution file (default: NNN.solution.txt beside FILE)", show_default=False)
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="print the verdict as JSON")] = False,
) -> int:
    """Verify with z3 that the answer is unique and every clue needed; report the grade."""
    from fleece.solver.puzzles.pack import solution_path

    text, name = read_input(file)
    sol_path = solution or (solution_path(file) if file != "-" else None)
    sol_text = sol_name = None
    if sol_path is not None and (solution is not None or Path(sol_path).exists()):
        sol_text, sol_name = read_input(sol_path)
    report = api.check_puzzle(api.PuzzleCheckRequest(
        puzzle=text, solution=sol_text, source=name, solution_source=sol_name or "solution"))
    if json:
        print_json(report)
    else:
        echo("\n".join(report.lines))
    return finish(report.passed)


# ---- fleece verify --game mutton ---------------------------------------------------------


def verify_options(
    size: Annotated[int, typer.Option(parser=int_in(0, 99), help="board size 2..8 (M1)")] = 4,
    sheep: Annotated[int, typer.Option(parser=int_in(0, 99),
                                       help="animals on the board, 2..26 (M4)")] = 26,
    wolves: Annotated[int, typer.Option(parser=int_in(0, 99),
                                        help="wolves, 1..sheep/2 (M6)")] = 4,
    remove: Annotated[bool, typer.Option("--remove/--no-remove",
                                         help="corpses removed (M16)")] = False,
    shotgun: Annotated[bool, typer.Option("--shotgun",
                                          help="the Farmer has a shotgun (M17)")] = False,
    escape: Annotated[bool, typer.Option("--escape", help="escape option (M12)")] = False,
    no_reveal: Annotated[bool, typer.Option("--no-reveal",
                                            help="dead animals stay hidden (M18)")] = False,
    no_berserk: Annotated[bool, typer.Option("--no-berserk",
                                             help="no berserk volley (M13)")] = False,
) -> api.VerifyVariant:
    """Mutton's own options of `fleece verify`: the variant to check."""
    return api.VerifyVariant(size=size, sheep=sheep, wolves=wolves, remove=remove,
                             shotgun=shotgun, escape=escape, no_reveal=no_reveal,
                             no_berserk=no_berserk)
