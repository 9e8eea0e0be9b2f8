"""AO's trace row (``GhTraceEntry`` in packages/core/src/gh-trace.ts), plus ghbench extensions.

Every field is optional except ``timestamp``; fields that are undefined are omitted
when written, as AO does. Unknown fields are tolerated on read. JSON names are
camelCase, exactly AO's.

Extensions (never emitted by AO, always optional):
- ``origin``: who wrote the row: ``ao`` (default when absent), ``workload``, ``record``,
  ``front`` (one HTTP exchange seen at the network by ``ghbench.front``), ``agent``
  (ghbench's agent model), ``replay``. A coding agent's call is a row of ``origin`` or
  ``component`` ``agent`` (``from_agent``): the model's, or an AO agent's gh traced by
  ghbench's shim.
- ``invocationId``/``requestIndex``: ``ghbench record`` keeps every HTTP exchange of
  one ``gh`` invocation; they share an invocation id and are numbered from 0.
- ``graphqlOperation``: the GraphQL operation name, when known.
- ``cacheHit``: ``ghbench record`` only: gh answered this request from its disk cache,
  so no request reached the server and the row carries no rate-limit fields.
- ``requestBytes``/``responseBytes``: the front only: the bodies' sizes on the wire.
- ``rateLimited``: the call was refused by a rate limit, and which one
  (``ghbench.trace.limits``: ``primary``, ``secondary-points``,
  ``secondary-concurrency``, ``secondary-content``, ``secondary``); absent when it was not.
- ``ifNoneMatch``: the ETag the request sent back (a conditional request); with
  ``etag`` (the answer's) it is the ETag state a replay re-creates.
- ``requestBody``: a GraphQL request's JSON body (query, variables), for rows with no
  argv to carry it (``gh api graphql`` has it in ``args``): a replay sends it again.
- ``clientClosed``: the front only: the client left before its whole answer reached
  it (``responseBytes`` is then what the front had handed to its connection).
"""

from __future__ import annotations

import msgspec

__all__ = ["AGENT", "CONTROL_COMPONENT", "KNOWN_FIELDS", "TraceRow", "from_agent"]

# Rows with this component are the harness's own calls and are excluded from all math.
CONTROL_COMPONENT = "benchmark-control"
# the component and origin of a coding agent's own calls
AGENT = "agent"


class TraceRow(msgspec.Struct, omit_defaults=True, kw_only=True, gc=False):
    """One line of an AO ``AO_GH_TRACE_FILE`` JSONL trace.

    Not tracked by the cyclic garbage collector (``gc=False``): a row holds strings,
    numbers and a list of strings, never a reference back, and a run holds a million of
    them, which the collector would otherwise walk again and again (a sixth of a large
    replay's time)."""

    timestamp: str  # ISO string, completion time
    component: str | None = None
    operation: str | None = None
    projectId: str | None = None  # noqa: N815 - AO's field names
    sessionId: str | None = None  # noqa: N815
    cwd: str | None = None
    args: list[str] | None = None
    endpoint: str | None = None
    method: str | None = None
    ok: bool | None = None
    exitCode: int | None = None  # noqa: N815
    signal: str | None = None
    durationMs: float | None = None  # noqa: N815
    stdoutBytes: int | None = None  # noqa: N815
    stderrBytes: int | None = None  # noqa: N815
    statusLine: str | None = None  # noqa: N815
    httpStatus: int | None = None  # noqa: N815
    etag: str | None = None
    rateLimitLimit: int | None = None  # noqa: N815
    rateLimitRemaining: int | None = None  # noqa: N815
    rateLimitReset: int | None = None  # noqa: N815  (epoch seconds)
    rateLimitResource: str | None = None  # noqa: N815
    graphqlCost: int | None = None  # noqa: N815
    graphqlRemaining: int | None = None  # noqa: N815
    graphqlResetAt: str | None = None  # noqa: N815
    # ghbench extensions
    origin: str | None = None
    invocationId: str | None = None  # noqa: N815
    requestIndex: int | None = None  # noqa: N815
    graphqlOperation: str | None = None  # noqa: N815
    cacheHit: bool | None = None  # noqa: N815  (record: gh answered from its disk cache)
    # record: graphqlCost comes from GitHub's published formula (GitHub reported none)
    graphqlCostEstimated: bool | None = None  # noqa: N815
    # front: body sizes of the exchange as they crossed the front
    requestBytes: int | None = None  # noqa: N815
    responseBytes: int | None = None  # noqa: N815
    # a rate limit refused the call (ghbench.trace.limits.RateLimitKind)
    rateLimited: str | None = None  # noqa: N815
    # what a replay needs to send the same request: the ETag sent back, a GraphQL body
    ifNoneMatch: str | None = None  # noqa: N815
    requestBody: str | None = None  # noqa: N815
    clientClosed: bool | None = None  # noqa: N815


KNOWN_FIELDS: tuple[str, ...] = TraceRow.__struct_fields__


def from_agent(row: TraceRow) -> bool:
    """A coding agent's call, not the orchestrator's."""
    return AGENT in (row.origin, row.component)
