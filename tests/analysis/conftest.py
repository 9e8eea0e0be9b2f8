"""Small hand-made traces whose every number can be checked by eye."""

from __future__ import annotations

from typing import Any

import pytest

from ghbench.timefmt import iso_ms
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import TraceRow

T0 = 1_776_348_000.0  # 2026-04-16T14:00:00Z
RESET_A = 1_776_350_000
RESET_B = 1_776_353_600


def row(at: float, **fields: Any) -> TraceRow:
    return TraceRow(timestamp=iso_ms(T0 + at), **fields)


def guard(at: float, remaining: int, status: int = 304, reset: int = RESET_A) -> TraceRow:
    return row(
        at,
        component="scm-github-batch",
        operation="gh.api.guard-pr-list",
        endpoint="repos/acme/todo/pulls?state=open&per_page=1",
        method="GET",
        ok=status == 200,
        exitCode=None if status == 200 else 1,
        durationMs=100.0,
        httpStatus=status,
        rateLimitRemaining=remaining,
        rateLimitLimit=5000,
        rateLimitReset=reset,
        rateLimitResource="core",
    )


def rows_fixture() -> list[TraceRow]:
    return [
        guard(0, 4990, 200),
        guard(30, 4990),
        guard(60, 4989, 200),
        row(
            61,
            component="scm-github-batch",
            operation="gh.api.graphql-batch",
            endpoint="graphql",
            ok=True,
            durationMs=900.0,
            httpStatus=200,
            rateLimitRemaining=4998,
            rateLimitReset=RESET_A,
            rateLimitResource="graphql",
            graphqlCost=2,
        ),
        row(
            62,
            component="scm-github",
            operation="gh.pr.view",
            ok=True,
            durationMs=2500.0,
            args=["pr", "view", "12", "--repo", "acme/api"],
            sessionId="ta-1",
        ),
        row(
            63,
            component="scm-github",
            operation="gh.pr.list",
            ok=False,
            exitCode=4,
            durationMs=50.0,
        ),
        row(64, component="benchmark-control", operation="gh.api.rate_limit", ok=True),
        row(
            90,
            component="scm-github",
            operation="gh.api.repos",
            endpoint="repos/acme/todo/commits/" + "a" * 40 + "/check-runs?per_page=1",
            ok=False,
            exitCode=1,
            httpStatus=502,
            durationMs=300.0,
        ),
        # the core bucket reset: a second window
        guard(120, 4999, 200, reset=RESET_B),
        guard(150, 4996, 200, reset=RESET_B),
    ]


@pytest.fixture
def frame() -> TraceFrame:
    return TraceFrame.from_rows(rows_fixture())
