"""How many Hypothesis examples a test runs under the active profile (see tests/conftest.py).

A test that pins `max_examples` with `@settings` is not scaled by the profile, so the heavy
property tests write `@settings(max_examples=examples(BASE))`: BASE in the quick default run,
BASE * CI_FACTOR under the `ci` profile (CI set, or HYPOTHESIS_PROFILE=ci). FLEECE_EXAMPLES_FACTOR
overrides the factor (a whole number >= 1), e.g. for a long soak run.
"""

from __future__ import annotations

import os

CI_FACTOR = 5


def profile_name() -> str:
    """The Hypothesis profile conftest.py loads: `ci` or `default`."""
    return os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")


def factor() -> int:
    """The multiplier of every pinned example count."""
    override = os.environ.get("FLEECE_EXAMPLES_FACTOR", "")
    if override.isascii() and override.isdigit() and 1 <= int(override) <= 1000:
        return int(override)
    return CI_FACTOR if profile_name() == "ci" else 1


def examples(base: int) -> int:
    """`base` examples in the default profile, `base * factor()` under `ci`."""
    return base * factor()
