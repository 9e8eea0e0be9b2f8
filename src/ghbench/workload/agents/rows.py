"""One AO-schema row per request an agent's gh sends, as ``ghbench record`` writes them.

The rows share an ``invocationId`` per gh command and number its requests with
``requestIndex``; ``origin`` is ``agent`` and ``component`` ``agent``, so the scorecard
and ``insights`` tell the agents' spend from the orchestrator's. A GraphQL row carries
the cost GitHub's published formula gives its query (``graphqlCostEstimated``): gh's
own queries never ask GitHub for their cost.

No credential reaches a row: what the request carries (its argv, its path) is redacted
and scrubbed as every trace writer scrubs (``scrub_text``); the other text is ghbench's
own (ids, times) or the answer's (its ETag, its bucket's name), and the token travels
only in the request's header, which no row keeps. An agent repeats a few commands with a
few bodies: each argv and body is read once.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence

import msgspec

from ghbench.timefmt import iso_ms
from ghbench.trace.graphql_cost import estimate_graphql_cost
from ghbench.trace.headers import rate_limit_fields
from ghbench.trace.limits import refusal_kind
from ghbench.trace.operation import extract_operation, redact_args
from ghbench.trace.schema import AGENT, TraceRow
from ghbench.trace.writer import scrub_text
from ghbench.workload.ghmap import HttpRequest, HttpResponse

__all__ = ["exchange_row"]

_OPERATION = re.compile(r"(?<![\w$])(query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)")


def _graphql(request: HttpRequest) -> tuple[str | None, int | None]:
    return _graphql_body(request.body or b"")


@functools.lru_cache(maxsize=65536)
def _graphql_body(body: bytes) -> tuple[str | None, int | None]:
    """The operation name and the published cost of a GraphQL request body."""
    try:
        doc = msgspec.json.decode(body)
    except msgspec.DecodeError:
        return None, None
    query = doc.get("query") if isinstance(doc, dict) else None
    if not isinstance(query, str):
        return None, None
    variables = doc.get("variables")
    found = _OPERATION.search(query)
    cost = estimate_graphql_cost(query, variables if isinstance(variables, dict) else None)
    return (found.group(2) if found else None), cost


@functools.lru_cache(maxsize=4096)
def _argv(argv: tuple[str, ...], secrets: tuple[str, ...]) -> tuple[str | None, list[str]]:
    """An invocation's operation and its arguments, redacted and scrubbed: one list per
    argv, which every row of it shares (rows are never changed in place; a run keeps a
    million of them)."""
    args = [scrub_text(a, secrets) for a in redact_args(list(argv))]
    return extract_operation(list(argv)), args


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
    keep = tuple(s for s in secrets if s)
    headers = {k.lower(): v for k, v in response.headers}
    path = request.path
    is_graphql = path.split("?", 1)[0].rstrip("/") == "/graphql"
    operation, cost = _graphql(request) if is_graphql else (None, None)
    # a rate limit's refusal (a GraphQL one comes as 200 with RATE_LIMITED) ran nothing:
    # no charge, and no success (gh reports it failed)
    limited = refusal_kind(response.status, headers, response.body, graphql=is_graphql)
    priced = cost is not None and response.status == 200 and limited is None
    ok = response.status < 400 and limited is None
    command, args = _argv(tuple(argv), keep)
    etag = headers.get("etag")
    return TraceRow(
        timestamp=iso_ms(finished_at),
        component=AGENT,
        operation=command,
        sessionId=session_id,
        args=args,
        endpoint="graphql" if is_graphql else scrub_text(path.lstrip("/"), keep),
        method=request.method,
        ok=ok,
        exitCode=None if ok else 1,
        durationMs=round(max(0.0, finished_at - started_at) * 1000, 3),
        httpStatus=response.status,
        etag=None if etag is None else scrub_text(etag, keep),
        **rate_limit_fields(headers),
        graphqlCost=cost if priced else None,
        graphqlCostEstimated=True if priced else None,
        origin=AGENT,
        invocationId=invocation_id,
        requestIndex=request_index,
        graphqlOperation=None if operation is None else scrub_text(operation, keep),
        rateLimited=limited,
    )
