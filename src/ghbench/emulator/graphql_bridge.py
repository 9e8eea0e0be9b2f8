"""``POST /graphql``: authentication, limits and headers around ``handle_graphql``.

The GraphQL layer (``emulator.graphql``) parses, costs and resolves; it charges
through ``ctx.charge``. Here: a token is required (401 otherwise), secondary limits
are checked before (1 point) and recorded after (1 per query, 5 per mutation; a
mutation also counts as content creation), and the ``x-ratelimit-*`` headers come
from the ``graphql`` bucket after the call. If the layer lets ``RateLimited``
escape, GitHub's 200 + ``RATE_LIMITED`` body is produced here.
"""

from __future__ import annotations

from typing import Any

from ghbench.emulator.errors import ApiError, ServerError
from ghbench.emulator.faults import draw_fault
from ghbench.emulator.graphql import handle_graphql
from ghbench.emulator.graphql_contract import (
    BucketView,
    GraphQLRequestContext,
    GraphQLResult,
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
    emulator: EmulatorParts, request: EmuRequest, owner: str, token_id: str, user: User | None
) -> EmuResponse:
    limiter = emulator.limiter
    if user is None:
        body = encode_json({"message": _AUTH_MESSAGE, "documentation_url": _AUTH_DOCS})
        return emulator.respond(401, body, limiter.view(owner, "graphql"), {})
    try:
        emulator.secondary.check(
            owner, kind="graphql", points=1, creates_content=False, concurrency=request.concurrency
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
        return limiter.charge(
            owner, token_id, "graphql", cost, endpoint=operation or "POST /graphql", status=200
        )

    ctx = GraphQLRequestContext(
        state=emulator.store,
        viewer=user,
        clock=emulator.clock,
        rng=emulator.rng,
        peek=lambda: limiter.view(owner, "graphql"),
        charge=charge,
        headers=dict(request.headers),
        cost_rule=emulator.config.graphql_cost_rule,
    )
    with emulator.db.transaction():
        try:
            result = handle_graphql(request.body, ctx)
        except RateLimited as exc:
            result = GraphQLResult(200, rate_limited_body(exc.bucket, user), None, False, 0)
    emulator.secondary.record(
        owner,
        kind="graphql",
        points=5 if result.is_mutation else 1,
        creates_content=result.is_mutation,
    )
    view = limiter.view(owner, "graphql")
    response = emulator.respond(result.status, encode_json(result.body), view, {})
    response.delay_s = fault.delay_s
    return response
