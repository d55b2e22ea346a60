"""Memory budgets of the Ulvtafl solver: sizes from a budget (default: a share of the memory
this machine has free), read from text such as `8G`, and refused in one line when the work
cannot fit."""

from __future__ import annotations

import os
import re

from fleece.rules.errors import FleeceError

DEFAULT_SHARE = 0.4  # of the memory available when the budget is not given
FALLBACK = 2 << 30
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


class BudgetError(FleeceError, ValueError):
    """A budget that is malformed, zero, or too small for the work asked."""


def available_memory() -> int:
    """Bytes of memory the machine has available now (MemAvailable), or a fallback."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (OSError, ValueError):
        return FALLBACK


_AVAILABLE_AT_IMPORT = available_memory()  # read once: solves touch no file afterwards


def default_memory() -> int:
    """The memory budget used when none is given: 40% of the memory that was available
    when fleece loaded (read once, so a solve touches no file)."""
    return max(64 << 20, int(_AVAILABLE_AT_IMPORT * DEFAULT_SHARE))


def parse_memory(text: str) -> int:
    """Bytes from `123`, `512M`, `8G`, `1.5G` (binary units; BudgetError otherwise)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?\s*", text.upper())
    if m is None:
        raise BudgetError(f"memory budget {text[:40]!r}: expected a size such as 512M or 8G")
    value = int(float(m.group(1)) * _UNITS[m.group(2)])
    if value <= 0:
        raise BudgetError("memory budget must be more than zero")
    return value


def size_text(n: int) -> str:
    """Bytes as a short human figure (binary units)."""
    for unit, scale in (("T", 1 << 40), ("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}iB"
    return f"{n} B"


def resolve(memory: int | str | None) -> int:
    """A memory budget in bytes: as given (bytes or text), or the default."""
    if memory is None:
        return default_memory()
    value = parse_memory(memory) if isinstance(memory, str) else int(memory)
    if value <= 0:
        raise BudgetError("memory budget must be more than zero")
    return value


def require(need: int, budget: int, what: str) -> None:
    """BudgetError in one line when `what` needs more than the budget."""
    if need > budget:
        raise BudgetError(f"{what} needs {size_text(need)}, more than the memory budget of "
                          f"{size_text(budget)}")


def check_positive(name: str, value: float | None) -> None:
    """BudgetError when a given budget is zero or negative."""
    if value is not None and value <= 0:
        raise BudgetError(f"{name} must be more than zero, not {value:g}")
