"""`fleece serve`: the toolkit in a web page on this computer (fleece.web).

The web app is started by name, as fleece.cli loads command groups: the web and the command
line both sit on fleece.api and never import each other.
"""

from __future__ import annotations

import importlib
from typing import Annotated

import typer

from fleece.commands.base import int_in, new_app, seconds_in

APP_MODULE = "fleece.web.app"
MAX_BUDGET = 3600.0

app = new_app("the toolkit in a web page on this computer (localhost)")


@app.command()
def serve(
    host: Annotated[str, typer.Option(
        metavar="HOST",
        help="address to listen on (default 127.0.0.1: this computer only; another address "
             "is reachable by others: a warning is printed)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(parser=int_in(0, 65535), metavar="PORT",
                                      help="port (0 picks a free one)")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open",
                                               help="open the app in a web browser")] = False,
    budget: Annotated[float, typer.Option(
        parser=seconds_in(MAX_BUDGET, strip=True), metavar="BUDGET",
        help="seconds a request may compute before it is stopped with 'took too long'")
    ] = 20.0,
    workers: Annotated[int | None, typer.Option(
        parser=int_in(1, 64), show_default=False, metavar="WORKERS",
        help="solver processes (default: one per core, at least 2)")] = None,
) -> int:
    """Start the local web app: Mutton charts, puzzles, Woof!! evidence, Ulvtafl and the card
    games in a browser, each page with a JSON twin under /api/... that returns what the
    command's --json prints. Listens on 127.0.0.1 unless --host says otherwise."""
    from fleece.rules.errors import FleeceError

    try:
        web = importlib.import_module(APP_MODULE)
    except ModuleNotFoundError as exc:
        raise FleeceError(f"the web app needs {exc.name} (pip install fleece-toolkit "
                          "installs it)") from None
    name = host.strip()
    if not name or len(name) > 253 or any(ch.isspace() for ch in name):
        raise FleeceError("not a host name or address", field="host", value=repr(host[:40]))
    kwargs = {"host": name, "port": port, "budget": budget}
    if workers is not None:
        kwargs["workers"] = workers
    status: int = web.serve(web.Config(**kwargs), open_browser=open_browser)
    if status:
        raise typer.Exit(status)
    return status
