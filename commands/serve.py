"""`fleece serve`: the toolkit in a web page on this computer (fleece.web).

The web app is the layer above the command line (it calls the same library functions and
some command helpers), so this module starts it by name, as cli.py starts command groups:
the import graph stays one-way.
"""

from __future__ import annotations

import argparse
import importlib

from fleece.commands.base import Parser, int_in, parse_seconds

APP_MODULE = "fleece.web.app"
MAX_BUDGET = 3600.0


def budget_seconds(text: str) -> float:
    """A per-request budget: a positive number of seconds (ASCII digits, an optional
    fraction, surrounding blanks allowed), at most an hour."""
    return parse_seconds(text, MAX_BUDGET, strip=True)


def build(parser: Parser, argv: list[str]) -> None:
    """The options of `fleece serve` (one command, no subcommands)."""
    parser.description = (
        "Start the local web app: Mutton charts, puzzles, Woof!! evidence, Ulvtafl and the\n"
        "card games in a browser, each page with a JSON twin under /api/... that returns\n"
        "what the command's --json prints. Listens on 127.0.0.1 unless --host says otherwise.")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this computer only; "
                             "another address is reachable by others: a warning is printed)")
    parser.add_argument("--port", type=int_in(0, 65535), default=8000,
                        help="port (default 8000; 0 picks a free one)")
    parser.add_argument("--open", action="store_true", help="open the app in a web browser")
    parser.add_argument("--budget", type=budget_seconds, default=20.0,
                        help="seconds a request may compute before it is stopped with "
                             "'took too long' (default 20)")
    parser.add_argument("--workers", type=int_in(1, 64), default=None,
                        help="solver processes (default: one per core, at least 2)")
    parser.set_defaults(handler=serve)


def serve(args: argparse.Namespace) -> int:
    """Run the web app until Ctrl-C."""
    from fleece.rules.errors import FleeceError

    try:
        app = importlib.import_module(APP_MODULE)
    except ModuleNotFoundError as exc:
        raise FleeceError(f"the web app needs {exc.name} (pip install fleece-toolkit "
                          "installs it)") from None
    host = args.host.strip()
    if not host or len(host) > 253 or any(ch.isspace() for ch in host):
        raise FleeceError(f"--host {args.host[:40]!r}: not a host name or address")
    kwargs = {"host": host, "port": args.port, "budget": args.budget}
    if args.workers is not None:
        kwargs["workers"] = args.workers
    status: int = app.serve(app.Config(**kwargs), open_browser=args.open)
    return status
