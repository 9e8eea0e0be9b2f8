"""One AO-schema row per request an agent's gh sends, as ``ghbench record`` writes them.

The rows share an ``invocationId`` per gh command and number its requests with
``requestIndex``; ``origin`` is ``agent`` and ``component`` ``agent``, so the scorecard
and ``insights`` tell the agents' spend from the orchestrator's. A GraphQL row carries
the cost GitHub's published formula gives its query (``graphqlCostEstimated``): gh's
own queries never ask GitHub for their cost.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Iterable, Sequence

from ghbench.timefmt import iso_ms
from ghbench.trace.graphql_cost import estimate_graphql_cost
from ghbench.trace.operation import extract_operation, redact_args
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import scrub_row
from ghbench.workload.ghmap import HttpRequest, HttpResponse

__all__ = ["AGENT_COMPONENT", "AGENT_ORIGIN", "exchange_row"]

AGENT_COMPONENT = "agent"
AGENT_ORIGIN = "agent"
_RATE_LIMITED = b'"RATE_LIMITED"'
_OPERATION = re.compile(r"(?<![\w$])(query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)")


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _graphql(request: HttpRequest) -> tuple[str | None, int | None]:
    return _graphql_body(request.body or b"")


# an agent sends the same few bodies again and again: parse each once
@functools.lru_cache(maxsize=4096)
def _graphql_body(body: bytes) -> tuple[str | None, int | None]:
    """The operation name and the published cost of a GraphQL request body."""
    try:
        doc = json.loads(body)
    except ValueError:
        return None, None
    query = doc.get("query") if isinstance(doc, dict) else None
    if not isinstance(query, str):
        return None, None
    variables = doc.get("variables")
    found = _OPERATION.search(query)
    cost = estimate_graphql_cost(query, variables if isinstance(variables, dict) else None)
    return (found.group(2) if found else None), cost


def exchange_row(
    request: HttpRequest,
    response: HttpResponse,
    *,
    started_at: float,
    finished_at: float,
    argv: Sequence[str],
    session_id: str | None,
    invocation_id: str,
    request_index: int,
    secrets: Iterable[str] = (),
) -> TraceRow:
    headers = {k.lower(): v for k, v in response.headers}
    path = request.path
    is_graphql = path.split("?", 1)[0].rstrip("/") == "/graphql"
    operation, cost = _graphql(request) if is_graphql else (None, None)
    # a GraphQL answer refused for the rate limit comes as 200 with RATE_LIMITED: no charge
    priced = cost is not None and response.status == 200 and _RATE_LIMITED not in response.body
    ok = response.status < 400
    row = TraceRow(
        timestamp=iso_ms(finished_at),
        component=AGENT_COMPONENT,
        operation=extract_operation(list(argv)),
        sessionId=session_id,
        args=redact_args(list(argv)),
        endpoint="graphql" if is_graphql else path.lstrip("/"),
        method=request.method,
        ok=ok,
        exitCode=None if ok else 1,
        durationMs=round(max(0.0, finished_at - started_at) * 1000, 3),
        httpStatus=response.status,
        etag=headers.get("etag"),
        rateLimitLimit=_int(headers.get("x-ratelimit-limit")),
        rateLimitRemaining=_int(headers.get("x-ratelimit-remaining")),
        rateLimitReset=_int(headers.get("x-ratelimit-reset")),
        rateLimitResource=headers.get("x-ratelimit-resource"),
        graphqlCost=cost if priced else None,
        graphqlCostEstimated=True if priced else None,
        origin=AGENT_ORIGIN,
        invocationId=invocation_id,
        requestIndex=request_index,
        graphqlOperation=operation,
    )
    return scrub_row(row, secrets)
