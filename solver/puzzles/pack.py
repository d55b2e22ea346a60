"""Writing a pack of puzzles (any game): numbered files NNN.ext in one folder, written as a
whole or not at all, and the solution file that belongs to a puzzle file.

How a pack is written (`write_files`): every file goes into a hidden temporary folder beside
the target, `.NAME.fleece-tmp-PID-XXXX`, which is then renamed to the target in one step. So
the target folder either holds the whole new pack or is untouched:

- a new folder, or an existing empty one, is created by that one rename;
- an existing folder that holds a pack (only NNN.txt / NNN.json / NNN.solution.txt / NNN.svg
  files) is replaced only with `force`: it is first renamed aside to
  `.NAME.fleece-old-PID-XXXX`, the new pack takes its name, and the old one is deleted;
- a folder holding anything else is refused (a pack never mixes with other files).

Ctrl-C, or any error while writing, removes the temporary folder and puts an old pack back.
A SIGKILL cannot run that cleanup: what it leaves is only hidden folders, and the next pack
write beside the same target cleans them up (`clean_stale`): a temporary folder of a process
that is no longer running is deleted, and an old pack renamed aside is put back when the
target is missing (else deleted). Nothing is ever left half-written under the target's name.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
from pathlib import Path

from fleece.rules.errors import FleeceError

_PACK_FILE = re.compile(r"^[0-9]{3,}(\.txt|\.json|\.solution\.txt|\.svg)$")
_TMP = ".fleece-tmp-"
_OLD = ".fleece-old-"


def is_pack_file(name: str) -> bool:
    """True for a file name a pack writes (`007.txt`, `012.solution.txt`, `003.svg`)."""
    return bool(_PACK_FILE.match(name))


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists but belongs to someone else
        return True
    return True


def _marked(parent: Path, name: str, mark: str) -> list[tuple[Path, int]]:
    """Hidden folders `.NAME<mark>PID-XXXX` beside the target, with their process ids."""
    out = []
    prefix = f".{name}{mark}"
    try:
        entries = list(parent.iterdir())
    except OSError:
        return []
    for entry in entries:
        if entry.name.startswith(prefix):
            pid_text = entry.name[len(prefix):].split("-", 1)[0]
            out.append((entry, int(pid_text) if pid_text.isdigit() else -1))
    return out


def _target(out_dir: str) -> Path:
    """The target folder as an absolute path (so `.` and `..` have a parent and a name)."""
    return Path(os.path.abspath(out_dir))


def clean_stale(out_dir: str | Path) -> None:
    """Remove what an interrupted (SIGKILLed) pack write left beside `out_dir`: temporary
    folders of processes that are gone, and an old pack renamed aside (put back when the
    target is missing, else deleted)."""
    target = _target(str(out_dir))
    parent, name = target.parent, target.name
    for path, pid in _marked(parent, name, _TMP):
        if not _alive(pid):
            shutil.rmtree(path, ignore_errors=True)
    for path, pid in _marked(parent, name, _OLD):
        if _alive(pid):
            continue
        if not target.exists():
            os.rename(path, target)
        else:
            shutil.rmtree(path, ignore_errors=True)


def check_target(out_dir: str, *, force: bool) -> None:
    """Refuse, before any work is done, a target `write_files` would refuse: a missing parent
    folder, a file, a folder holding other files, or an existing pack without `force`."""
    target = _target(out_dir)
    if not target.parent.is_dir():
        raise FleeceError(f"{out_dir}: the folder {target.parent} does not exist")
    clean_stale(target)
    if not target.exists():
        return
    if not target.is_dir():
        raise FleeceError(f"{out_dir}: is a file, expected a folder for the pack")
    entries = sorted(p.name for p in target.iterdir())
    other = [n for n in entries if not is_pack_file(n)
             or not (target / n).is_file() or (target / n).is_symlink()]
    if other:
        raise FleeceError(f"{out_dir}: holds {other[0]!r}, which is not part of a puzzle "
                          "pack; write the pack into a new or empty folder")
    if entries and not force:
        raise FleeceError(f"{target / entries[0]}: already exists (use --force to replace "
                          "the pack in this folder)")


def write_files(puzzles: list[dict[str, str]], out_dir: str, *, force: bool) -> list[str]:
    """Write puzzle i's files (extension -> text) as NNN.ext into the folder `out_dir` as one
    pack (see the module docstring); return the NNN.txt paths."""
    check_target(out_dir, force=force)
    target = _target(out_dir)
    tag = f"{os.getpid()}-{secrets.token_hex(4)}"
    tmp = target.parent / f".{target.name}{_TMP}{tag}"
    old: Path | None = None
    paths = []
    try:
        tmp.mkdir()
        for i, files in enumerate(puzzles, start=1):
            for ext, text in files.items():
                with open(tmp / f"{i:03d}{ext}", "w", encoding="utf-8", newline="\n") as f:
                    f.write(text)
            paths.append(str(Path(out_dir) / f"{i:03d}.txt"))
        if target.exists() and any(target.iterdir()):
            old = target.parent / f".{target.name}{_OLD}{tag}"
            os.rename(target, old)
        os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        if old is not None and old.exists() and not target.exists():
            os.rename(old, target)
        raise
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
    return paths


def solution_path(puzzle_path: str) -> str:
    """The solution file beside a puzzle file (`NNN.txt` or `NNN.json` -> `NNN.solution.txt`)."""
    for ext in (".txt", ".json"):
        if puzzle_path.endswith(ext):
            return puzzle_path[: -len(ext)] + ".solution.txt"
    return puzzle_path + ".solution.txt"
