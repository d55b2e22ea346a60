"""Shared test set-up: one import world for `pytest` and `python -m pytest`, and the Hypothesis
profiles.

Imports. The checkout's root is the package `fleece` (it holds `__init__.py`), and the suite
tests the package as installed: `fleece` comes from the install (or the PYTHONPATH entry that
stands for it), helpers from tests/helpers as `helpers.*` (pyproject's pytest `pythonpath`).
Two things would put the root itself on sys.path, where its folders would import under bare
names (a second `rules.errors.ParseError` next to `fleece.rules.errors.ParseError`):
`python -m pytest` adds the working directory, and pytest collects a folder holding
`__init__.py` as a test package, importing that `__init__.py` under the folder's own name and
prepending the folder's parent. So the root leaves sys.path here, and the plugin below collects
the root as a plain folder. Both invocations then see the same modules.

Hypothesis. `default` is quick for local runs; `ci` (chosen when the CI environment variable
is set, or with HYPOTHESIS_PROFILE=ci) runs five times more examples. Tests that pin their own
`max_examples` with `@settings` are not scaled by a profile, so they write
`max_examples=examples(BASE)` (helpers/scaling.py), which multiplies BASE by the same factor
under `ci`. Failures reproduce: both profiles print the `@reproduce_failure` blob, and the
example database (.hypothesis/ in the working directory) replays a failing example first on
the next run. Both are deadline-free, since game simulations vary in length.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from helpers.scaling import CI_FACTOR, profile_name
from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase

ROOT = Path(__file__).resolve().parent.parent


def _is_root(entry: str) -> bool:
    """A sys.path entry that names the checkout's root ('' is the working directory)."""
    try:
        return Path(entry or os.curdir).resolve() == ROOT
    except OSError:
        return False


sys.path[:] = [entry for entry in sys.path if not _is_root(entry)]


class RootIsAFolder:
    """Collects the checkout's root as a plain folder, not as a test package: pytest would
    otherwise import its `__init__.py` (fleece's) under the folder's name and put the folder's
    parent on sys.path. Registered as a plugin because a conftest's own hooks do not apply to
    the folders above it."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_collect_directory(self, path: Path, parent: pytest.Collector
                                 ) -> pytest.Collector | None:
        """A plain `Dir` for the root; every other folder as pytest decides."""
        if path.resolve() == ROOT:
            return pytest.Dir.from_parent(parent, path=path)
        return None


def pytest_configure(config: pytest.Config) -> None:
    """Register RootIsAFolder before collection starts."""
    if not config.pluginmanager.has_plugin("fleece-root-is-a-folder"):
        config.pluginmanager.register(RootIsAFolder(), "fleece-root-is-a-folder")


DEFAULT_EXAMPLES = 60
DATABASE = DirectoryBasedExampleDatabase(".hypothesis/examples")

settings.register_profile(
    "default",
    max_examples=DEFAULT_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
    database=DATABASE,
)
settings.register_profile(
    "ci",
    max_examples=DEFAULT_EXAMPLES * CI_FACTOR,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
    database=DATABASE,
)
settings.load_profile(profile_name())
