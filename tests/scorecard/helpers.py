"""Hand-made rows whose every number can be checked by eye, and a one-call scorecard."""

from __future__ import annotations

from typing import Any

from ghbench.artifacts.models import ScorecardArtifact
from ghbench.ratelimit import Bucket, RateLimitSnapshot
from ghbench.scorecard import Snapshots, build_scorecard_artifact
from ghbench.timefmt import iso_ms
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import TraceRow

T0 = 1_776_348_000.0  # 2026-04-16T14:00:00Z
T0_MS = int(T0 * 1000)
RESET_A = 1_776_351_600  # 15:00:00Z
RESET_B = 1_776_355_200  # 16:00:00Z


def row(at: float, **fields: Any) -> TraceRow:
    """A row completed ``at`` seconds after T0."""
    fields.setdefault("durationMs", 100.0)
    return TraceRow(timestamp=iso_ms(T0 + at), **fields)


def rest(
    at: float,
    remaining: int,
    *,
    status: int = 200,
    reset: int = RESET_A,
    operation: str = "gh.api.guard-pr-list",
    **fields: Any,
) -> TraceRow:
    """A REST call with core headers; a 304 is ``ok: false`` as AO records it."""
    fields.setdefault("ok", status < 300)
    fields.setdefault("method", "GET")
    return row(
        at,
        operation=operation,
        httpStatus=status,
        rateLimitResource="core",
        rateLimitLimit=5000,
        rateLimitRemaining=remaining,
        rateLimitReset=reset,
        **fields,
    )


def gql(
    at: float,
    remaining: int | None,
    *,
    cost: int | None = 1,
    reset: int = RESET_A,
    operation: str = "gh.api.graphql-batch",
    **fields: Any,
) -> TraceRow:
    """A GraphQL call; ``remaining=None`` leaves out the rate-limit headers."""
    headers: dict[str, Any] = {}
    if remaining is not None:
        headers = {
            "rateLimitResource": "graphql",
            "rateLimitLimit": 5000,
            "rateLimitRemaining": remaining,
            "rateLimitReset": reset,
        }
    fields.setdefault("ok", True)
    fields.setdefault("httpStatus", 200)
    return row(at, operation=operation, graphqlCost=cost, **headers, **fields)


def opaque(at: float, operation: str = "gh.pr.view", **fields: Any) -> TraceRow:
    fields.setdefault("ok", True)
    return row(at, operation=operation, **fields)


def frame(*rows: TraceRow) -> TraceFrame:
    return TraceFrame.from_rows(rows)


def score(
    rows: list[TraceRow] | TraceFrame,
    start: float = 0.0,
    end: float = 3600.0,
    **kwargs: Any,
) -> ScorecardArtifact:
    """The artifact for ``rows`` over ``[T0+start, T0+end]`` (seconds)."""
    f = rows if isinstance(rows, TraceFrame) else TraceFrame.from_rows(rows)
    kwargs.setdefault("scenario_id", "test.single-repo.1")
    kwargs.setdefault("measured_at", T0 + end)
    return build_scorecard_artifact(
        f,
        window_start_ms=T0_MS + round(start * 1000),
        window_end_ms=T0_MS + round(end * 1000),
        **kwargs,
    )


def snapshots(
    core: tuple[int, int] | None = None,
    graphql: tuple[int, int] | None = None,
    *,
    reset: tuple[int, int] = (RESET_A, RESET_A),
) -> Snapshots:
    """Before/after ``/rate_limit`` snapshots, an hour apart from T0.

    ``core=(before_remaining, after_remaining)``; ``used`` follows from a 5,000 limit.
    """

    def snap(i: int) -> RateLimitSnapshot:
        buckets = {
            name: Bucket(limit=5000, remaining=pair[i], used=5000 - pair[i], reset=reset[i])
            for name, pair in (("core", core), ("graphql", graphql))
            if pair is not None
        }
        return RateLimitSnapshot(captured_at=T0 + i * 3600, resources=buckets)

    return Snapshots(before=snap(0), after=snap(1))
