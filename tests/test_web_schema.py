"""Property-based tests of the JSON API from its own OpenAPI schema (schemathesis): every
endpoint, with bodies that fit the schema and hostile ones that do not (wrong types, unknown
fields, out-of-range numbers, missing fields, odd strings), against `fleece serve` on a local
port. Whatever comes in: never a 500, always an answer (every request has a time budget: a
503 "took too long" is the documented answer of work that runs past it), every 4xx a JSON
object with one line naming what is wrong, every answer as the schema documents it (status,
content type, the body's keys and types).

The examples are bounded (EXAMPLES an endpoint and generation mode, the same under every
profile: each one that runs past the budget costs half a second) and the budget short,
so the run fits CI on two cores.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from helpers.serve import served
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance

EXAMPLES = 10
BUDGET = 0.5  # seconds a request may run: hostile but valid bodies (10^8 games) hit it
SEEN: dict[int, int] = {}  # answers by status, printed at the end (pytest -s)
BUDGET_MESSAGE = f"took too long: stopped after the {BUDGET:g} s budget of a request"


@pytest.fixture(scope="module")
def api_schema() -> Iterator[Any]:
    with served(budget=BUDGET, workers=2) as url:
        schema = schemathesis.openapi.from_url(url + "/openapi.json")
        schema.config.update(base_url=url)
        # A body past the size cap is refused with 413 (the right status: the body is too
        # large, whatever it says), which schemathesis does not count as a rejection.
        rejection = schema.config.checks.negative_data_rejection
        rejection.expected_statuses = [*rejection.expected_statuses, "413"]
        schema.config.generation.update(modes=[GenerationMode.POSITIVE,
                                               GenerationMode.NEGATIVE],
                                        max_examples=EXAMPLES)
        yield schema
    print(f"\nschemathesis: {sum(SEEN.values())} requests, by status {dict(sorted(SEEN.items()))}")


schema = schemathesis.pytest.from_fixture("api_schema")


def refusals_are_one_line(ctx: Any, response: Any, case: Any) -> bool:
    """Every 4xx and 5xx is {"error": one line}; no 500; a 503 is the budget's message."""
    SEEN[response.status_code] = SEEN.get(response.status_code, 0) + 1
    assert response.status_code != 500, response.text[:300]
    if response.status_code >= 400:
        body = response.json()
        assert list(body) == ["error"], body
        assert isinstance(body["error"], str) and body["error"]
        assert "\n" not in body["error"] and "Traceback" not in body["error"]
        if response.status_code == 503:
            assert body["error"] == BUDGET_MESSAGE
    return True


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          database=None)
def test_every_endpoint_survives_hostile_bodies(case: Any) -> None:
    """Schemathesis's checks (status codes, content types and bodies as documented, and
    schema-violating bodies refused) but two: "not a server error", which counts the
    documented 503 as one, and "schema-valid data accepted": the schema types a chart, an
    evidence file, a deck spec or a move as text, whose grammar only the library reads, so
    valid-looking text can be bad input (a 400 naming where). Ours instead: no 500, and
    every refusal one line."""
    case.call_and_validate(excluded_checks=[not_a_server_error, positive_data_acceptance],
                           additional_checks=[refusals_are_one_line])
