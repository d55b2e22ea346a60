"""fleece's library API: every job the command line and the web app offer, as a function taking
one frozen request dataclass and returning one frozen report dataclass.

One module per game plus verification: `fleece.api.mutton`, `fleece.api.woof`,
`fleece.api.ulvtafl`, `fleece.api.cards` and `fleece.api.verify`. A request's field names are
the command line's option names (`--max-states` is `max_states`); a report's fields are the
keys of the command's `--json` object, and `report.to_json()` is that object. Errors are
`fleece.rules.errors.FleeceError` values carrying where they point (`field`, `line`, `column`,
`limit`). Nothing here reads or writes a file the request does not name, prints, or imports a
command-line or web framework.

Imports: fleece.api, fleece.verify, fleece.solver and fleece.rules; no command-line, web or
display framework (argparse, Typer, Click, FastAPI, pydantic, rich).
"""

if __name__ != "fleece.api":
    raise ImportError(f"import fleece.api, not {__name__}: this folder is the package "
                      "fleece.api (a bare name would load a second copy of its classes)")
