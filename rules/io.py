"""Small file helpers shared by every command: atomic writes that never clobber by accident."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from fleece.rules.errors import FleeceError


def atomic_write(path: Path, text: str, *, overwrite: bool = False,
                 make_parents: bool = True) -> None:
    """Write `text` to `path` via a temporary file in the same folder and an atomic rename.

    Refuses (FleeceError) to replace an existing file unless `overwrite` is true, so a user's
    file is never lost by a mistyped output name. With `make_parents` false a missing folder
    is an error too (a user's output path is taken as typed, never created on the way).
    """
    if path.is_dir():
        raise FleeceError(f"{path}: is a folder, expected a file name")
    if path.exists() and not overwrite:
        raise FleeceError(f"{path}: already exists (use --force to overwrite)")
    if make_parents:
        path.parent.mkdir(parents=True, exist_ok=True)
    elif not path.parent.is_dir():
        raise FleeceError(f"{path}: the folder {path.parent} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
