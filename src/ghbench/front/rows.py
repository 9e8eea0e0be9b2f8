"""AO-schema rows for what crosses the front: one per HTTP exchange, refusal or failed
handshake. Pure: the exchange's facts in, a ``TraceRow`` out.

A row names its operation from what was asked (``operation_of``):

- api.github.com, REST: ``rest.<first segment>``, under ``repos/OWNER/REPO``
  ``rest.repos.<collection>`` (``rest.repos.pulls``);
- api.github.com, ``/graphql``: ``graphql.…`` (``graphql.GraphqlRequest.operation``);
- github.com: ``git.info-refs``, ``git.upload-pack``, ``git.receive-pack``; any
  other path ``web.<first segment>``;
- uploads.github.com: ``uploads.…`` as REST; codeload.github.com: ``codeload.archive``;
- the front's own answers: ``front.refused``; after a CONNECT the front answered 200
  but no HTTP exchange followed: ``front.tls-handshake`` (the client's TLS alert, or
  bytes that were not TLS), ``front.tunnel-abandoned`` (it closed, or went idle, first).
  These rows carry the CONNECT's own status (200): they are what the front answered,
  not calls of unknown outcome.

AO's Go daemon (0.10, 0.12) sends the requests AO's TypeScript builds sent through gh,
under the names those builds gave them (``AO_OPERATIONS``): its ETag guard on a
repository's open PRs is ``gh.api.guard-pr-list``, on a head commit's check runs
``gh.api.guard-commit-status`` (0.10 reads one run, 0.12 the first page of 100; the
later pages 0.12 reads unconditionally are no guard), its batched PR query
``gh.api.graphql-batch``, so the scorecard's guard and batch figures mean the same for
every AO.

``component`` comes from the client's User-Agent (``hosts.client_of``), ``sessionId``
from the user name of the proxy credential (``http://SESSION@127.0.0.1:PORT``). No
header value is copied into a row but the ETags (the answer's, and the one a conditional
request sent) and the rate-limit figures; a GraphQL request's body is kept
(``requestBody``: what a replay sends again); the request's own credential is scrubbed
from every field besides (``scrub_row``). A rate-limit refusal is told from the answer's
status, headers and first bytes (``ghbench.trace.limits``): ``rateLimited``, not ok, no
GraphQL cost.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ghbench.front.graphql import GraphqlRequest
from ghbench.front.hosts import client_of
from ghbench.timefmt import iso_ms
from ghbench.trace.headers import parse_graphql_rate, rate_limit_fields
from ghbench.trace.limits import refusal_kind
from ghbench.trace.operation import endpoint_of
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import scrub_row

__all__ = [
    "AO_OPERATIONS",
    "ORIGIN",
    "Answered",
    "Exchange",
    "GraphqlCost",
    "ao_operation",
    "exchange_row",
    "operation_of",
    "refusal_row",
    "refused",
    "secrets_of",
    "tunnel_row",
]

ORIGIN = "front"
_GIT = re.compile(r"/[^/]+/[^/]+?(?:\.git)?/(info/refs|git-upload-pack|git-receive-pack)")
_GIT_OPERATION = {
    "info/refs": "git.info-refs",
    "git-upload-pack": "git.upload-pack",
    "git-receive-pack": "git.receive-pack",
}
_SEGMENT = re.compile(r"[^\w.-]")
_SHORTEST_SECRET = 8  # shorter parts (a user name "x") would blank ordinary words
_LONGEST_ENDPOINT = 2048  # a request line is the client's to make as long as it likes
_CONNECTED = "HTTP/1.1 200 Connection Established"
TUNNEL_OPERATIONS = {"handshake": "front.tls-handshake", "abandoned": "front.tunnel-abandoned"}


@dataclass
class Exchange:
    """The facts of one HTTP exchange through the front. Header names are lower-case;
    only the response headers a row uses are kept."""

    kind: str  # hosts.GITHUB_HOSTS value: rest | git | uploads | codeload
    method: str
    target: str  # origin-form: /path?query
    started_at: float  # epoch seconds: the request's head arrived
    finished_at: float = 0.0  # the answer's last byte left
    user_agent: str | None = None
    session: str | None = None
    credential: str | None = None  # the Authorization value: scrubbed, never written
    status: int | None = None
    reason: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    request_bytes: int = 0
    response_bytes: int = 0
    graphql: GraphqlRequest | None = None
    response_body: bytes | None = None  # kept only when the query asked for rateLimit
    # the answer's first bytes (``limits.HEAD_BYTES``): enough to tell a rate-limit refusal
    response_head: bytes | None = None
    if_none_match: str | None = None  # the request's conditional ETag
    request_body: bytes | None = None  # a GraphQL request's body, for a replay
    client_closed: bool = False  # the client left before its whole answer reached it


@dataclass(frozen=True)
class GraphqlCost:
    """What a GraphQL exchange cost and where the figure came from."""

    cost: int | None
    estimated: bool = False
    remaining: int | None = None
    reset_at: str | None = None


def _segment(text: str) -> str:
    return _SEGMENT.sub("", text)[:64] or "root"


def _rest_operation(prefix: str, path: str) -> str:
    parts = [p for p in path.split("/") if p]
    if not parts:
        return f"{prefix}.root"
    if parts[0] == "repos" and len(parts) > 3:
        return f"{prefix}.repos.{_segment(parts[3])}"
    return f"{prefix}.{_segment(parts[0])}"


# AO's daemon (User-Agent ``ao-agent-orchestrator/...``): (method, path, query, the
# front's own name) -> AO's name; a None part matches anything. The query is the
# request's, its parameters in any order.
_AO_CLIENT = re.compile(r"^ao-agent-orchestrator/")
_REPO = r"/repos/[^/]+/[^/]+"
AO_OPERATIONS: tuple[tuple[str, re.Pattern[str] | None, str | None, str | None, str], ...] = (
    ("GET", re.compile(_REPO + r"/pulls/?"), "per_page=1", None, "gh.api.guard-pr-list"),
    (
        "GET",
        re.compile(_REPO + r"/commits/[^/]+/check-runs/?"),
        "per_page=1",
        None,
        "gh.api.guard-commit-status",
    ),
    # AO 0.12 reads the check runs 100 a page: the first page is its guard (a later page,
    # with its page=N, matches no row here)
    (
        "GET",
        re.compile(_REPO + r"/commits/[^/]+/check-runs/?"),
        "per_page=100",
        None,
        "gh.api.guard-commit-status",
    ),
    ("POST", None, None, "graphql.batch.repository", "gh.api.graphql-batch"),
)
_LATER_PAGE = re.compile(r"page=(?!1$)\d+")


def ao_operation(method: str, target: str, operation: str) -> str | None:
    """AO's own name for a request of its daemon (``AO_OPERATIONS``), or None. A later
    page of a list is never a guard (a guard asks for the first)."""
    path, _, query = target.partition("?")
    params = set(query.split("&")) if query else set()
    if any(_LATER_PAGE.fullmatch(p) for p in params):
        return None
    for want_method, want_path, want_param, want_operation, name in AO_OPERATIONS:
        if (
            method == want_method
            and (want_path is None or want_path.fullmatch(path))
            and (want_param is None or want_param in params)
            and (want_operation is None or want_operation == operation)
        ):
            return name
    return None


def operation_of(kind: str, path: str, graphql: GraphqlRequest | None) -> str:
    """The row's operation for a request of ``kind`` at ``path`` (no query string)."""
    if kind == "rest" and path.rstrip("/") == "/graphql":
        return graphql.operation if graphql is not None else "graphql"
    if kind == "git":
        found = _GIT.fullmatch(path)
        if found is not None:
            return _GIT_OPERATION[found.group(1)]
        return _rest_operation("web", path)
    if kind == "codeload":
        return "codeload.archive"
    return _rest_operation(kind, path)


def graphql_cost(ex: Exchange, charged: int | None) -> GraphqlCost | None:
    """The cost of a GraphQL exchange (see ``ghbench.front.graphql``): reported in the
    answer, else ``charged`` (the rise of ``x-ratelimit-used``), else the formula. An
    answer a rate limit refused ran nothing and costs nothing (docs/scorecard.md)."""
    if ex.graphql is None or ex.status != 200 or refused(ex) is not None:
        return None
    reported = parse_graphql_rate(ex.response_body) if ex.response_body else None
    if reported is not None and reported.cost is not None:
        return GraphqlCost(reported.cost, False, reported.remaining, reported.reset_at)
    if charged is not None:
        return GraphqlCost(charged)
    estimate = ex.graphql.estimated_cost()
    return GraphqlCost(estimate, estimated=estimate is not None)


def _is_graphql(ex: Exchange) -> bool:
    return ex.kind == "rest" and ex.target.split("?", 1)[0].rstrip("/") == "/graphql"


def refused(ex: Exchange) -> str | None:
    """The rate limit that refused the exchange (``ghbench.trace.limits``), or None."""
    body = ex.response_head if ex.response_head is not None else ex.response_body
    return refusal_kind(ex.status, ex.headers, body, graphql=_is_graphql(ex))


def _text(body: bytes | None) -> str | None:
    if not body:
        return None
    return body.decode("utf-8", "replace")


def secrets_of(credential: str | None) -> list[str]:
    """Every form of an ``Authorization`` value a row could echo: the value, its
    credential without the scheme, and for ``Basic`` the decoded user and password."""
    if not credential:
        return []
    scheme, _, value = credential.strip().partition(" ")
    found = [credential.strip(), value.strip()]
    if scheme.lower() == "basic":
        with contextlib.suppress(binascii.Error, UnicodeDecodeError):
            found += base64.b64decode(value.strip(), validate=True).decode().split(":", 1)
    return [s for s in found if len(s) >= _SHORTEST_SECRET]


def _identity(user_agent: str | None, default_component: str) -> str:
    client = client_of(user_agent)
    return client.component if client is not None else default_component


def _endpoint(target: str) -> str | None:
    endpoint = endpoint_of(target)
    if endpoint is not None and len(endpoint) > _LONGEST_ENDPOINT:
        return endpoint[: _LONGEST_ENDPOINT - 1] + "…"
    return endpoint


def exchange_row(
    ex: Exchange,
    default_component: str,
    charged: int | None = None,
    secrets: Iterable[str] = (),
) -> TraceRow:
    """The row of one answered exchange; ``charged``: the meter's reading for GraphQL;
    ``secrets``: more values to scrub besides the exchange's own credential."""
    path = ex.target.split("?", 1)[0]
    headers = ex.headers
    cost = graphql_cost(ex, charged)
    limited = refused(ex)
    status = ex.status
    operation = operation_of(ex.kind, path, ex.graphql)
    if ex.user_agent is not None and _AO_CLIENT.match(ex.user_agent):
        operation = ao_operation(ex.method, ex.target, operation) or operation
    row = TraceRow(
        timestamp=iso_ms(ex.finished_at),
        component=_identity(ex.user_agent, default_component),
        operation=operation,
        sessionId=ex.session,
        endpoint=_endpoint(ex.target),
        method=ex.method,
        ok=status is not None and status < 400 and limited is None and not ex.client_closed,
        durationMs=round(max(0.0, ex.finished_at - ex.started_at) * 1000, 3),
        statusLine=f"HTTP/1.1 {status} {ex.reason}".rstrip() if status is not None else None,
        httpStatus=status,
        etag=headers.get("etag"),
        ifNoneMatch=ex.if_none_match,
        **rate_limit_fields(headers),
        graphqlCost=cost.cost if cost else None,
        graphqlRemaining=cost.remaining if cost else None,
        graphqlResetAt=cost.reset_at if cost else None,
        graphqlCostEstimated=True if cost is not None and cost.estimated else None,
        graphqlOperation=ex.graphql.name if ex.graphql is not None else None,
        origin=ORIGIN,
        requestBytes=ex.request_bytes,
        responseBytes=ex.response_bytes,
        rateLimited=limited,
        requestBody=_text(ex.request_body) if _is_graphql(ex) else None,
        clientClosed=True if ex.client_closed else None,
    )
    return scrub_row(row, [*secrets_of(ex.credential), *secrets])


@dataclass(frozen=True)
class Answered:
    """A request the front answered itself, with no exchange upstream: when, and whose
    (its User-Agent and session; ``default_component`` where the User-Agent names none)."""

    started_at: float
    finished_at: float
    user_agent: str | None
    session: str | None
    default_component: str

    def row(self, operation: str, method: str, endpoint: str, status: int, line: str) -> TraceRow:
        """Its row, failed: ``operation`` on ``method`` ``endpoint``, answered ``status``
        (its status ``line``)."""
        return TraceRow(
            timestamp=iso_ms(self.finished_at),
            component=_identity(self.user_agent, self.default_component),
            operation=operation,
            sessionId=self.session,
            endpoint=endpoint,
            method=method,
            ok=False,
            durationMs=round(max(0.0, self.finished_at - self.started_at) * 1000, 3),
            statusLine=line,
            httpStatus=status,
            origin=ORIGIN,
        )


def refusal_row(
    answered: Answered, *, method: str, target: str, status: int, reason: str
) -> TraceRow:
    """The row of a request the front refused itself (a host that is not GitHub's)."""
    line = f"HTTP/1.1 {status} {reason}"
    return answered.row("front.refused", method, target[:_LONGEST_ENDPOINT], status, line)


def tunnel_row(answered: Answered, *, outcome: str, authority: str) -> TraceRow:
    """The row of a tunnel the front opened (its CONNECT answered 200) in which no HTTP
    exchange happened: ``outcome`` ``handshake`` (TLS failed: the warning says why) or
    ``abandoned`` (the client closed or went idle before TLS)."""
    return answered.row(TUNNEL_OPERATIONS[outcome], "CONNECT", authority, 200, _CONNECTED)
