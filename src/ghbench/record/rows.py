"""AO-schema trace rows from the HTTP exchanges of one gh invocation.

One row per exchange, all sharing an ``invocationId`` and numbered by
``requestIndex``. The invocation-level fields follow AO's ``execGhObserved``:
``operation`` from the argv, redacted ``args``, ``ok``/``exitCode``/``signal`` from
gh's exit. The exchange-level fields are what AO can only get with ``gh api -i``:
``httpStatus``, ``statusLine``, ``etag``, ``rateLimit*`` from the ``X-Ratelimit-*``
headers, ``graphqlCost``/``graphqlRemaining``/``graphqlResetAt`` from a
``data.rateLimit`` in the response body, plus ``graphqlOperation``.

A response gh served from its own disk cache reached no server and cost nothing:
its row keeps the status but carries ``cacheHit: true`` and no rate-limit fields
(they are stale copies and would corrupt burn-rate maths).

Pure: no files, no clock; timestamps come from the log or the caller.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ghbench.record.exchange import Exchange
from ghbench.timefmt import iso_ms
from ghbench.trace.graphql_cost import estimate_graphql_cost
from ghbench.trace.headers import GraphqlRateLimit, parse_graphql_rate, rate_limit_fields
from ghbench.trace.limits import refusal_kind
from ghbench.trace.operation import endpoint_of, extract_operation, redact_args
from ghbench.trace.schema import TraceRow

__all__ = [
    "ORIGIN",
    "Invocation",
    "exchange_rows",
    "graphql_cost_estimate",
    "graphql_operation",
    "graphql_request",
]

ORIGIN = "record"

# An operation name after the keyword; `$query`, `query:` and `"query": "` do not match.
_OPERATION = re.compile(r"(?<![\w$])(query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)")


@dataclass(frozen=True)
class Invocation:
    """One run of gh: what was asked and how it ended."""

    args: Sequence[str]  # argv after "gh"
    exit_code: int | None  # None when gh was killed by a signal
    component: str
    invocation_id: str
    signal: str | None = None  # "SIGTERM" when killed by a signal
    cwd: str | None = None
    session_id: str | None = None  # whose call it was, when the caller says (an agent)
    project_id: str | None = None


def graphql_operation(request_body: str) -> str | None:
    """The first named operation in a GraphQL request as gh logs it, if any."""
    m = _OPERATION.search(request_body)
    return m.group(2) if m else None


_GQL_QUERY = "GraphQL query:"
_GQL_VARIABLES = "\nGraphQL variables:"


def graphql_request(request_body: str) -> tuple[str, dict[str, object] | None] | None:
    """(query, variables) of a GraphQL request as gh logs it: its own ``GraphQL query:``
    / ``GraphQL variables:`` form, or the JSON body (``gh api graphql``); None when the
    body is not a whole request (gh cuts long ones)."""
    text = request_body.strip()
    if text.startswith(_GQL_QUERY):
        query, _, rest = text[len(_GQL_QUERY) :].partition(_GQL_VARIABLES)
        variables: object = None
        if rest.strip():
            try:
                variables = json.loads(rest)
            except ValueError:
                return None
        return query, variables if isinstance(variables, dict) else None
    try:
        request = json.loads(text)
    except ValueError:
        return None
    if not isinstance(request, dict) or not isinstance(request.get("query"), str):
        return None
    variables = request.get("variables")
    return request["query"], variables if isinstance(variables, dict) else None


def graphql_cost_estimate(request_body: str) -> int | None:
    """GitHub's published cost of a GraphQL request as gh logs it; None if unreadable."""
    request = graphql_request(request_body)
    return None if request is None else estimate_graphql_cost(request[0], request[1])


def _graphql_rate(body: str) -> GraphqlRateLimit | None:
    """``data.rateLimit`` of a JSON response body (bodies over 10 kB are not logged)."""
    return parse_graphql_rate(body) if body.startswith("{") else None


def exchange_rows(
    exchanges: Sequence[Exchange],
    invocation: Invocation,
    *,
    fallback_time: float,
    cache_hits: Collection[int] = (),
) -> list[TraceRow]:
    """One row per exchange, in log order; ``fallback_time`` stamps exchanges whose
    start time was not logged. ``cache_hits`` are indexes of exchanges gh served from
    its disk cache."""
    args = list(invocation.args)
    operation = extract_operation(args)
    redacted = redact_args(args)
    ok = invocation.exit_code == 0
    rows: list[TraceRow] = []
    for index, ex in enumerate(exchanges):
        finished = ex.finished_at
        endpoint = endpoint_of(ex.target)
        cached = index in cache_hits
        headers = {} if cached else ex.response_headers
        rate = None if cached else _graphql_rate(ex.response_body)
        limited = None
        if not cached:
            graphql = endpoint == "graphql"
            limited = refusal_kind(ex.status, headers, ex.response_body, graphql=graphql)
        estimate = None
        if rate is None and endpoint == "graphql" and not cached and ex.status == 200:
            # a rate limit's refusal ran nothing: no cost
            estimate = None if limited else graphql_cost_estimate(ex.request_body)
        rows.append(
            TraceRow(
                timestamp=iso_ms(fallback_time if finished is None else finished),
                component=invocation.component,
                operation=operation,
                projectId=invocation.project_id,
                sessionId=invocation.session_id,
                cwd=invocation.cwd,
                args=redacted,
                endpoint=endpoint,
                method=ex.method,
                ok=ok and limited is None,
                exitCode=None if ok else invocation.exit_code,
                signal=invocation.signal,
                durationMs=None if ex.duration_ms is None else round(ex.duration_ms, 3),
                statusLine=ex.status_line,
                httpStatus=ex.status,
                etag=ex.response_headers.get("etag"),
                **rate_limit_fields(headers),
                graphqlCost=rate.cost if rate else estimate,
                graphqlRemaining=rate.remaining if rate else None,
                graphqlResetAt=rate.reset_at if rate else None,
                origin=ORIGIN,
                invocationId=invocation.invocation_id,
                requestIndex=index,
                graphqlOperation=(
                    graphql_operation(ex.request_body) if endpoint == "graphql" else None
                ),
                graphqlCostEstimated=True if rate is None and estimate is not None else None,
                cacheHit=True if cached else None,
                rateLimited=limited,
            )
        )
    return rows
