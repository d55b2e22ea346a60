"""The chain item of the fast engine's frontier DP (solver.mutton.fast, steps 2-5).

It lives apart from fast.py so that counts which never build a chain (the row-branching
count of the help page, step 6) do not pay for creating the class at start-up."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class _Item:
    """A step of the chain: a group of interchangeable animals (`table` empty), or a whole
    component given as a table of counter vectors (`groups` lists its groups)."""

    members: tuple[str, ...]
    rows: int  # bit mask over the reduced rows
    dims: tuple[int, ...]  # 1 where the group belongs to the counter
    tracked: int  # 1 when the group's animals are in the tracked set
    groups: list[_Item] = field(default_factory=list)
    close: int = 0  # rows whose last group this is
    keep_sheep: int | None = None  # window mask of the k = 0 step (None: keep everything)
    fwd: list[tuple[int, int, int]] = field(default_factory=list)  # (weight, mask, shift)
    bwd: list[tuple[int, tuple[int, ...], int, int]] = field(default_factory=list)
    # (weight, per-group k-weights, mask, shift); for a group: k >= 1 only
