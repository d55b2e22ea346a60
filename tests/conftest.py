"""Shared test setup: Hypothesis profiles.

`default` is quick for local runs; `ci` (chosen when the CI environment variable is set, or with
HYPOTHESIS_PROFILE=ci) runs five times more examples. Tests that pin their own `max_examples`
with `@settings` are not scaled by a profile, so they write `max_examples=examples(BASE)`
(tests/scaling.py), which multiplies BASE by the same factor under `ci`.

Failures reproduce: both profiles print the `@reproduce_failure` blob, and the example
database (.hypothesis/ beside the tests, Hypothesis's default) replays a failing example
first on the next run. Both are deadline-free, since game simulations vary in length.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis.database import DirectoryBasedExampleDatabase
from scaling import CI_FACTOR, profile_name

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
