"""`python -m fleece`: the same as the `fleece` command."""

from fleece.cli import app

app()
