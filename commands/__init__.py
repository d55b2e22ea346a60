"""The command line's groups, one module per game or tool (see fleece.cli): each parses its
options, calls the library and formats the result; nothing here decides a rule or a value.

Imports: fleece.commands, fleece.api, fleece.verify, fleece.solver and fleece.rules; never
fleece.web.
"""

if __name__ != "fleece.commands":
    raise ImportError(f"import fleece.commands, not {__name__}: this folder is the package "
                      "fleece.commands (a bare name would load a second copy of its classes)")
