"""The command line's groups, one module per game or tool (see fleece.cli): each parses its
options, calls the library and formats the result; nothing here decides a rule or a value."""
