"""``POST /graphql``: authentication, limits, turns and headers around the GraphQL layer.

The GraphQL layer (``emulator.graphql``) parses, costs and resolves; it charges
through ``ctx.charge``. Here: a token is required (401 otherwise), secondary limits
are checked before (1 point) and recorded after (1 per query, 5 per mutation; a
mutation also counts as content creation), and the ``x-ratelimit-*`` headers come
from the ``graphql`` bucket after the call. If the layer lets ``RateLimited``
escape, GitHub's 200 + ``RATE_LIMITED`` body is produced here.

Sharing the emulator (``fairness.py``): the document is parsed and validated with the
turnstile released (one large body at a time); the charge is one committed
transaction; a query then runs outside any transaction, so its checkpoints may let
other clients take turns; a mutation's top-level fields run one transaction each.
Past the deadline the answer is GitHub's timeout: 502 with ``Something went wrong
while executing your query. This may be the result of a timeout, ...`` (as reported
from github.com); points already charged stay charged, as GitHub charges timeouts.
A query whose answer depends on nothing but the records (``GraphQLResult.reusable``) is
kept, encoded, with the store's change count: the same body from the same viewer while
no record has changed is charged and counted exactly as the first was, and answered
with the same bytes, without parsing or executing it again (pollers and agents send
the same few requests over and over; a replay of a large trace is mostly such repeats).
A query the bucket could not pay for is kept by its cost, so that while the bucket
stays empty it is refused again without being parsed.

Past the field budget it is GitHub's resource-limit answer, as reported in 2026: 200,
``{"data": null, "errors": [{"type": "RESOURCE_LIMITS_EXCEEDED", "path": [...],
"message": "Resource limits for this query exceeded."}]}`` (GitHub nulls only the
field it stopped at; ours stops the whole query).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ghbench.emulator.errors import ApiError, ServerError
from ghbench.emulator.fairness import (
    HEAVY_BODY_BYTES,
    RequestBudget,
    RequestTimeout,
    ResourceLimitsExceeded,
)
from ghbench.emulator.faults import draw_fault
from ghbench.emulator.graphql import answer, parse_request, refused
from ghbench.emulator.graphql_contract import (
    BucketView,
    GraphQLRequestContext,
    GraphQLResult,
    KnownAnswer,
    RateLimited,
)
from ghbench.emulator.http import EmuRequest, EmuResponse, encode_json
from ghbench.emulator.parts import EmulatorParts
from ghbench.emulator.state import User

__all__ = ["run_graphql"]

_AUTH_MESSAGE = "This endpoint requires you to be authenticated."
_AUTH_DOCS = (
    "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql"
)
_TIMEOUT_MESSAGE = (
    "Something went wrong while executing your query. This may be the result of a "
    "timeout, or it could be a GitHub bug. Please include `{request_id}` when reporting "
    "this issue."
)


def rate_limited_body(bucket: BucketView, user: User) -> dict[str, Any]:
    return {
        "errors": [
            {
                "type": "RATE_LIMITED",
                "message": f"API rate limit exceeded for user ID {user.id}.",
            }
        ]
    }


def run_graphql(
    emulator: EmulatorParts,
    request: EmuRequest,
    owner: str,
    token_id: str,
    user: User | None,
    *,
    budget: Callable[[], RequestBudget],
) -> EmuResponse:
    """Answer ``POST /graphql``; called holding the turnstile. ``budget`` makes the
    request's deadline and turns, when it is parsed and run (a known answer is not)."""
    limiter = emulator.limiter
    if user is None:
        body = encode_json({"message": _AUTH_MESSAGE, "documentation_url": _AUTH_DOCS})
        return emulator.respond(401, body, limiter.view(owner, "graphql"), {})
    try:
        emulator.secondary.check(
            owner,
            kind="graphql",
            points=1,
            creates_content=False,
            concurrency=request.concurrency,
            user_id=user.id,
        )
    except ApiError as exc:
        return emulator.error_response(exc, limiter.view(owner, "graphql"))
    fault = draw_fault(emulator.config.faults, emulator.rng)
    if fault.status is not None:
        emulator.secondary.record(owner, kind="graphql", points=1, creates_content=False)
        response = emulator.error_response(
            ServerError(fault.status, fault.message), limiter.view(owner, "graphql")
        )
        response.delay_s = fault.delay_s
        return response

    def charge(cost: int, operation: str | None) -> BucketView:
        with emulator.db.transaction():
            return limiter.charge(
                owner, token_id, "graphql", cost, endpoint=operation or "POST /graphql", status=200
            )

    memo = emulator.graphql_answers
    key = (request.body, user.id, emulator.config.graphql_cost_rule)
    known = memo.get(key)
    if known is not None and known.changes == emulator.store.record_changes:
        view = limiter.view(owner, "graphql")
        payload = None
        if view.remaining < known.cost:  # refused, as any request the bucket cannot pay for
            payload = encode_json(refused(user.id, known.operation, False).body)
        elif known.payload is not None:
            view, payload = charge(known.cost, known.operation), known.payload
        if payload is not None:
            emulator.secondary.record(owner, kind="graphql", points=1, creates_content=False)
            response = emulator.respond(200, payload, view, {})
            response.delay_s = fault.delay_s
            return response

    request_budget = budget()
    ctx = GraphQLRequestContext(
        state=emulator.store,
        viewer=user,
        clock=emulator.clock,
        rng=emulator.rng,
        peek=lambda: limiter.view(owner, "graphql"),
        charge=charge,
        headers=dict(request.headers),
        cost_rule=emulator.config.graphql_cost_rule,
        checkpoint=request_budget.checkpoint,
        mutation_scope=emulator.db.transaction,
    )
    asked: int | None = None  # what the request costs, once parsed
    try:
        with request_budget.off_turnstile(heavy=len(request.body) > HEAVY_BODY_BYTES):
            parsed = parse_request(request.body, ctx.cost_rule)
        asked = None if parsed.report is None else parsed.report.cost
        request_budget.checkpoint()
        result = answer(parsed, ctx)
    except RateLimited as exc:
        result = GraphQLResult(200, rate_limited_body(exc.bucket, user), None, False, 0)
    except ResourceLimitsExceeded as exc:
        error = {"type": "RESOURCE_LIMITS_EXCEEDED", "path": exc.path, "message": str(exc)}
        result = GraphQLResult(200, {"data": None, "errors": [error]}, None, False, 0)
    except RequestTimeout:
        request_id = f"GHB:{emulator.request_count:08X}"
        timeout = {
            "data": None,
            "errors": [{"message": _TIMEOUT_MESSAGE.format(request_id=request_id)}],
        }
        emulator.secondary.record(owner, kind="graphql", points=1, creates_content=False)
        return emulator.respond(502, encode_json(timeout), limiter.view(owner, "graphql"), {})
    emulator.secondary.record(
        owner,
        kind="graphql",
        points=5 if result.is_mutation else 1,
        creates_content=result.is_mutation,
    )
    view = limiter.view(owner, "graphql")
    payload = encode_json(result.body)
    changes = emulator.store.record_changes
    if result.reusable and result.status == 200:
        memo.put(key, KnownAnswer(changes, result.cost, result.operation_name, payload))
    elif result.refused and not result.is_mutation and asked is not None:
        memo.put(key, KnownAnswer(changes, asked, result.operation_name, None))
    response = emulator.respond(result.status, payload, view, {})
    response.delay_s = fault.delay_s
    return response
