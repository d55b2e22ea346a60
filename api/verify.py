"""Verification through the library API: check a game's rules (or a variant's) with Z3 and
exhaustive checks, accept known rules gaps, and write the reports a request asks for.

    from fleece.api import verify
    report = verify.verify_game(verify.VerifyRequest(game="ulvtafl", quick=True))
    report.ok, report.verdict                    # True, 'PASS: ...'

Each game's variant options are its `VerifyVariant` in `fleece.api.<game>` (Mutton's board
size and flags, Woof!!'s Dog target, ...), found through the game registry, so a new game
plugs in without editing this module. Files are written only where the request says
(`report`, `junit`) and an existing file is replaced only with `force`.
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fleece.api.report import Report, detail
from fleece.rules.errors import FleeceError, ParseError

__all__ = [
    "VerifyReport",
    "VerifyRequest",
    "known_gaps",
    "sections",
    "verifiable",
    "verify_game",
]


def variant_class(game: str) -> Any:
    """The VerifyVariant dataclass of a game (its own verification options)."""
    module = importlib.import_module(f"fleece.api.{game}")
    return module.VerifyVariant


def verifiable(name: str) -> Any:
    """The registry entry of a game that has a verification; ParseError (field `game`)."""
    from fleece.rules.registry import GAMES, entry

    try:
        game = entry(name)
    except ParseError as exc:
        raise ParseError(exc.message, field="game") from None
    if game.verify is None:
        have = ", ".join(g.name for g in GAMES if g.verify is not None)
        raise ParseError(f"{game.title} has no verification yet (games with one: {have})",
                         field="game", value=game.name)
    return game


def sections(game: str) -> list[str]:
    """The section keys of a game's verification (imports its verify package, not z3)."""
    package: Any = importlib.import_module(verifiable(game).verify)
    return [k for k, _ in package.SECTIONS]


def known_gaps(game: str) -> dict[str, str]:
    """The rules-gap IDs a game's verification can report, with their descriptions."""
    package: Any = importlib.import_module(verifiable(game).verify)
    return dict(getattr(package, "GAPS", {}))


@dataclass(frozen=True, kw_only=True)
class VerifyRequest:
    """`fleece verify`: the game and its variant (None: the default rules), the shared
    options, and where to write reports (None: nowhere)."""

    game: str = "mutton"
    variant: Any = None
    quick: bool = False
    accept: tuple[str, ...] = ()
    section: tuple[str, ...] = ()
    timeout: int | None = None  # seconds of each solver query
    report: str | None = None  # folder for verification[-GAME].md and .json
    junit: str | None = None  # JUnit XML file
    force: bool = False


@dataclass(frozen=True, kw_only=True)
class VerifyReport(Report):
    """The verification report (`fleece verify --json`, and the JSON report file);
    `report` the verify package's value, `written` the files written."""

    generator: str
    game: str
    meta: dict[str, Any]
    ok: bool
    verdict: str
    seconds: float
    summary: list[dict[str, Any]]
    gaps: list[dict[str, Any]]
    accepted: list[str]
    accepted_not_found: list[str]
    results: list[dict[str, Any]]
    trace: list[dict[str, Any]]
    uncovered: list[str]
    report: Any = detail()
    written: tuple[str, ...] = detail(())


def _targets(request: VerifyRequest) -> tuple[Path | None, Path | None]:
    """The report folder and JUnit file, refused before anything runs: a missing folder, a
    folder where a file is wanted, or an existing file without `force`."""
    from fleece.verify.report import report_paths

    report_dir = Path(request.report) if request.report is not None else None
    junit = Path(request.junit) if request.junit is not None else None
    if junit is not None:
        if junit.is_dir():
            raise ParseError("is a directory, expected a file name", field="junit",
                             value=request.junit)
        if not junit.parent.is_dir():
            raise ParseError(f"the folder {junit.parent} does not exist", field="junit",
                             value=request.junit)
        if (junit.exists() or junit.is_symlink()) and not request.force:
            raise FleeceError(f"{junit}: already exists (use --force to overwrite)")
    if report_dir is not None:
        if report_dir.exists() and not report_dir.is_dir():
            raise FleeceError(f"{report_dir}: not a directory")
        for path in report_paths(request.game, report_dir):
            if path.is_dir():
                raise FleeceError(f"{path}: is a directory")
            if (path.exists() or path.is_symlink()) and not request.force:
                raise FleeceError(f"{path}: already exists (use --force to overwrite)")
    return report_dir, junit


def verify_game(request: VerifyRequest, progress: bool = False) -> VerifyReport:
    """Run the game's verification, apply `accept`, write the reports asked for. `ok` is
    false when a check failed, an outcome stayed UNKNOWN, or a rules gap of the variant was
    not accepted. `progress` shows the verify package's own progress on a terminal."""
    from fleece.verify.report import write_reports
    from fleece.verify.result import gap_id

    game = verifiable(request.game)
    package: Any = importlib.import_module(game.verify)
    known: dict[str, str] = dict(getattr(package, "GAPS", {}))
    accepts = []
    for text in request.accept:
        try:
            accepts.append(gap_id(text))
        except ValueError as exc:
            raise FleeceError(str(exc), field="accept") from None
    accepts = list(dict.fromkeys(accepts))
    strange = [a for a in accepts if known and a not in known]
    if strange:
        raise ParseError(f"--game {game.name} never reports this gap (known: "
                         f"{', '.join(known)})", field="accept", value=strange[0])
    keys = [k for k, _ in package.SECTIONS]
    bad = [s for s in request.section if s not in keys]
    if bad:
        raise FleeceError(f"invalid choice: {bad[0][:40]!r} (choose from {', '.join(keys)})",
                          field="section")
    variant = request.variant if request.variant is not None else \
        variant_class(game.name)()
    config = variant.config(request.quick, package)
    fields = {f.name for f in dataclasses.fields(config)}
    changes: dict[str, Any] = {}
    if request.section:
        if "sections" not in fields:
            raise ParseError(f"--game {game.name} always runs every section", field="section")
        changes["sections"] = frozenset(request.section)
    if request.timeout is not None:
        if "timeout_ms" not in fields:
            raise ParseError(f"--game {game.name} takes no solver budget", field="timeout")
        changes["timeout_ms"] = request.timeout * 1000
    if changes:
        config = dataclasses.replace(config, **changes)
    report_dir, junit = _targets(request)
    rep = package.run(config, progress=progress).with_accepted(accepts)
    written = write_reports(rep, report_dir, junit, True) \
        if report_dir is not None or junit is not None else []
    return VerifyReport.from_json(rep.to_json(), report=rep,
                                  written=tuple(str(p) for p in written))
