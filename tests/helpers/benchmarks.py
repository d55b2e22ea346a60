"""Load a script of benchmarks/ as a module, so that a test can use its renderer (a report's
markdown is its JSON rendered by the script that wrote it)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """benchmarks/NAME.py as the module NAME (loaded once)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def report_data(path: Path) -> dict[str, Any]:
    """A committed report's JSON (PATH.json of the report PATH)."""
    data: dict[str, Any] = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    return data
