"""One AO-compatible trace row per call, the same for every transport.

A gh invocation's row is what AO's ``execGhObserved`` writes (``build_row``). A call
of a client that calls GitHub itself (``GhCall.client``: AO 0.10's daemon) has no gh
and no trace of its own: a real run's row of it is the GitHub front's, so the model
writes the front's row of the same exchange (``ghbench.front.rows.exchange_row``: its
operation names, its GraphQL cost, read from ``x-ratelimit-used`` by a ``GraphqlMeter``
as the front reads it), and a model run and a real run compare row for row.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import TYPE_CHECKING

import msgspec

from ghbench.trace.limits import HEAD_BYTES
from ghbench.trace.schema import TraceRow
from ghbench.trace.writer import build_row, scrub_text
from ghbench.workload.calls import GhCall, GhResult, parse_api_output
from ghbench.workload.ghmap import HttpRequest, plan_call

if TYPE_CHECKING:
    from ghbench.front.graphql import GraphqlMeter

__all__ = ["RowBuilder", "RowSettings", "row_for"]


@dataclass(frozen=True)
class RowSettings:
    """What the model adds to AO's fields: attribution (off by default, as AO) and origin."""

    session_ids: bool = False
    project_id: str | None = None
    origin: str | None = "workload"
    secrets: tuple[str, ...] = ()


def row_for(
    call: GhCall, result: GhResult, *, completed_at: float, options: RowSettings
) -> TraceRow:
    """The row AO's ``execGhObserved`` would write for this call and output."""
    attribute = options.session_ids and call.session_id is not None
    return build_row(
        args=call.argv,
        started_at=completed_at - result.duration_s,
        finished_at=completed_at,
        exit_code=result.exit_code,
        signal=result.signal,
        stdout=result.stdout,
        stderr=result.stderr,
        component=call.component,
        operation=call.operation,
        project_id=options.project_id if attribute else None,
        session_id=call.session_id if attribute else None,
        origin=options.origin,
        secrets=options.secrets,
    )


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


@dataclass
class RowBuilder:
    """Rows for one runner: gh's, or the front's for a client's own requests (with the
    meter that prices that client's GraphQL exchanges, as the front's relay does)."""

    options: RowSettings
    _meter: GraphqlMeter | None = field(default=None, repr=False)

    def saw_graphql(self, limit: int | None, reset: int | None, used: int | None) -> None:
        """Another client's GraphQL answer through the same front (a session's coding
        agent on the same budget): its reading, so the next charge read here is this
        client's own and not the other's spend between two of this client's calls."""
        if self._meter is not None:
            self._meter.end(self._meter.begin(), limit, reset, used)

    def row(self, call: GhCall, result: GhResult, completed_at: float) -> TraceRow:
        if call.client is None:
            return row_for(call, result, completed_at=completed_at, options=self.options)
        return self._network_row(call, result, completed_at)

    def _network_row(self, call: GhCall, result: GhResult, completed_at: float) -> TraceRow:
        # the front's rows and GraphQL reader load graphql-core (~250 ms): only a model
        # that plays a client of its own (AO 0.10) pays it
        from ghbench.front.graphql import GraphqlMeter, read_graphql_request  # noqa: PLC0415
        from ghbench.front.rows import Exchange, exchange_row  # noqa: PLC0415

        if self._meter is None:
            self._meter = GraphqlMeter()
        request = _request_of(call.argv)
        answer = parse_api_output(result.stdout)
        body = request.body or b""
        graphql = request.path.split("?", 1)[0] == "/graphql"
        started = completed_at - result.duration_s
        ex = Exchange(
            kind="rest",
            method=request.method,
            target=request.path,
            started_at=started,
            finished_at=completed_at,
            user_agent=call.client,
            status=answer.status,
            reason=_reason(answer.status),
            headers=answer.headers,
            request_bytes=len(body),
            response_bytes=len(answer.body),
            graphql=read_graphql_request(body) if graphql else None,
            response_body=answer.body if graphql and b"rateLimit" in body else None,
            response_head=answer.body[:HEAD_BYTES],
            if_none_match=_header(request.headers, "if-none-match"),
            request_body=body if graphql else None,
        )
        charged = None
        if graphql:
            h = answer.headers
            charged = self._meter.end(
                self._meter.begin(),
                _int(h.get("x-ratelimit-limit")),
                _int(h.get("x-ratelimit-reset")),
                _int(h.get("x-ratelimit-used")),
            )
        # one scrub, the front's, with the model's secrets too; then the model's own
        # fields, each scrubbed as it goes in
        secrets = self.options.secrets
        row = exchange_row(ex, call.component, charged, secrets)
        attribute = self.options.session_ids and call.session_id is not None
        keep = tuple(s for s in secrets if s)
        return msgspec.structs.replace(
            row,
            origin=_scrubbed(self.options.origin, keep),
            projectId=_scrubbed(self.options.project_id if attribute else None, keep),
            sessionId=_scrubbed(call.session_id if attribute else None, keep),
        )


def _scrubbed(value: str | None, secrets: tuple[str, ...]) -> str | None:
    return scrub_text(value, secrets) if value is not None else None


@functools.lru_cache(maxsize=4096)
def _request_of(argv: tuple[str, ...]) -> HttpRequest:
    """The request an argv sends (a poller sends the same few over and over); its
    headers are shared: do not change them."""
    return plan_call(argv, None).request


def _header(headers: dict[str, str], name: str) -> str | None:
    return next((v for k, v in headers.items() if k.lower() == name), None)


def _reason(status: int | None) -> str:
    try:
        return HTTPStatus(status).phrase if status is not None else ""
    except ValueError:
        return ""
