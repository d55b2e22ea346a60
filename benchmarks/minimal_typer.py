"""The yardstick of fleece's start-up (benchmarks/bench_speed.py): a minimal one-command Typer
app that reads a file and prints its size. `python benchmarks/minimal_typer.py --help` and
`python benchmarks/minimal_typer.py FILE` are what any Typer command line costs at least."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer()


@app.command()
def main(file: Annotated[str, typer.Argument(help="a text file")]) -> None:
    """Print how many lines FILE has."""
    print(len(Path(file).read_text(encoding="utf-8").splitlines()))


if __name__ == "__main__":
    app()
