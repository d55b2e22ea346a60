"""Shared test setup: Hypothesis profiles.

`default` is quick for local runs; `ci` (chosen when the CI environment variable is set, or with
HYPOTHESIS_PROFILE=ci) runs more examples. Both are derandomized-free but deadline-free, since
game simulations vary in length.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    print_blob=True,
)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
)
