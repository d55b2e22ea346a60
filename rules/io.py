"""Small file helpers shared by every command: atomic writes that never clobber by accident."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from fleece.rules.errors import FleeceError


def current_umask() -> int:
    """The process's umask (read from /proc where it can be, else set and restored)."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


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
        # mkstemp creates the file 0600; a file the user asked for gets the mode any new file
        # of theirs gets (0666 less the umask: 0644 usually)
        os.fchmod(fd, 0o666 & ~current_umask())
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
