"""One exchange through the front: the client's request to its destination and back.

The request goes on unchanged but for the hop-by-hop headers (RFC 9110 §7.6.1:
``Connection``, ``Proxy-Authorization``, ``Expect``, ...) and, when the destination
speaks plain HTTP for a request that came in over TLS (the emulator, an upstream
standing in for GitHub), ``X-Forwarded-Proto: https``: the emulator then writes the
``https://api.github.com/...`` URLs a client would get from GitHub. Bodies stream
both ways; a body up to 1 MiB is read whole first, so an exchange sent on a
kept-alive connection the server has just closed can be sent again.

When the answer is complete its row is built and written (``rows.exchange_row``):
after the last byte went to the client, so a row costs the client no latency.
"""

from __future__ import annotations

import ssl
from collections.abc import Callable
from dataclasses import dataclass

import h11

from ghbench.clock import Clock
from ghbench.front.downstream import Caller, Downstream, header
from ghbench.front.graphql import GraphqlMeter, read_graphql_request
from ghbench.front.rows import Exchange, exchange_row
from ghbench.front.settings import Upstream
from ghbench.front.sink import TraceSink
from ghbench.front.upstream import UpstreamConnection, UpstreamPool
from ghbench.trace.limits import HEAD_BYTES, LIMIT_HEADER

__all__ = ["Origin", "Relay"]

_BUFFERED_BODY = 1 << 20
_HOP_BY_HOP = frozenset(
    {
        b"connection",
        b"keep-alive",
        b"proxy-authorization",
        b"proxy-authenticate",
        b"proxy-connection",
        b"te",
        b"trailer",
        b"upgrade",
        b"expect",
    }
)
# the answer's headers a row reads (``rows.exchange_row``, ``GraphqlMeter``)
_ROW_HEADERS = frozenset(
    {
        b"etag",
        b"x-ratelimit-limit",
        b"x-ratelimit-remaining",
        b"x-ratelimit-reset",
        b"x-ratelimit-used",
        b"x-ratelimit-resource",
        b"retry-after",
        LIMIT_HEADER.encode(),
    }
)
_FAILURES = (OSError, TimeoutError, h11.ProtocolError, ssl.SSLError)


@dataclass(frozen=True)
class Origin:
    """Where the client believes it is talking, and what that host serves
    (``hosts.GITHUB_HOSTS``; None for any other host: relayed, never traced)."""

    scheme: str
    host: str
    port: int
    kind: str | None


@dataclass(frozen=True)
class _Body:
    """A request body: whole (``rest`` False), or its first part with the rest to come."""

    first: bytes
    rest: bool


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _why(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "timed out"
    text = getattr(exc, "strerror", None) or str(exc) or type(exc).__name__
    return text.splitlines()[0]


class Relay:
    """Carries exchanges to the destination and writes their rows."""

    def __init__(
        self,
        *,
        upstream: Upstream | None,
        pool: UpstreamPool,
        sink: TraceSink,
        clock: Clock,
        component: str,
    ) -> None:
        self.upstream = upstream
        self.pool = pool
        self.sink = sink
        self.clock = clock
        self.component = component
        self.meter = GraphqlMeter()

    def destination(self, origin: Origin) -> Upstream:
        """GitHub's hosts go to the upstream when there is one; anything else (and
        GitHub's hosts in forward mode without one) to the host itself."""
        if origin.kind is not None and self.upstream is not None:
            return self.upstream
        return Upstream(origin.scheme, origin.host, origin.port)

    async def exchange(
        self, down: Downstream, request: h11.Request, *, origin: Origin, target: str, caller: Caller
    ) -> bool:
        """Relay one request and its answer; False when the client connection must close."""
        started = self.clock.now()
        destination = self.destination(origin)
        headers = [(k, v) for k, v in request.headers if k not in _HOP_BY_HOP]
        if destination.scheme != origin.scheme:
            headers.append((b"x-forwarded-proto", origin.scheme.encode()))
        outgoing = h11.Request(method=request.method, target=target, headers=headers)
        if down.conn.they_are_waiting_for_100_continue:
            down.send(h11.InformationalResponse(status_code=100, headers=[]))
        body = await _read_body(down)
        ex = Exchange(
            kind=origin.kind or "",
            method=request.method.decode(),
            target=target,
            started_at=started,
            user_agent=caller.user_agent,
            session=caller.session,
            credential=header(request.headers, b"authorization"),
            request_bytes=len(body.first),
            if_none_match=header(request.headers, b"if-none-match"),
        )
        graphql = origin.kind == "rest" and target.split("?", 1)[0].rstrip("/") == "/graphql"
        if graphql and not body.rest:
            ex.request_body = body.first
        ticket = self.meter.begin() if graphql else None
        recorded = False

        def record() -> None:
            nonlocal recorded
            if not recorded and origin.kind is not None:
                recorded = True
                self._record(ex, ticket, body.first if graphql else None)

        try:
            keep_answer = graphql and b"rateLimit" in body.first
            return await self._relay(
                down, destination, outgoing, body, ex, keep_answer=keep_answer, record=record
            )
        finally:
            record()

    def _record(self, ex: Exchange, ticket: int | None, graphql_body: bytes | None) -> None:
        ex.finished_at = self.clock.now()
        charged = None
        if ticket is not None:
            h = ex.headers
            charged = self.meter.end(
                ticket,
                _int(h.get("x-ratelimit-limit")),
                _int(h.get("x-ratelimit-reset")),
                _int(h.get("x-ratelimit-used")),
            )
        if graphql_body is not None and self.sink.traced:
            ex.graphql = read_graphql_request(graphql_body)
        self.sink.counts.exchanges += 1
        # status None: the client left before any answer came
        if ex.status is not None and self.sink.traced:
            self.sink.write(exchange_row(ex, self.component, charged))

    async def _relay(
        self,
        down: Downstream,
        destination: Upstream,
        outgoing: h11.Request,
        body: _Body,
        ex: Exchange,
        *,
        keep_answer: bool,
        record: Callable[[], None],
    ) -> bool:
        """Relay the answer; ``record`` writes the exchange's row before the answer's last
        bytes go to the client, so a client that has its whole answer finds its row in
        the trace (a run that stops the moment its client is done loses none)."""
        try:
            upstream, response = await self._send(down, destination, outgoing, body, ex)
        except _FAILURES as exc:
            self.sink.counts.upstream_errors += 1
            reason = f"ghbench front: no answer from {destination.describe()} ({_why(exc)})"
            self.sink.warn(f"{reason}; such requests were answered 502")
            ex.status, ex.reason = 502, reason
            record()
            await down.answer(502, reason)
            return False
        ex.status = response.status_code
        ex.reason = response.reason.decode("latin-1")
        ex.headers = {
            k.decode(): v.decode("latin-1") for k, v in response.headers if k in _ROW_HEADERS
        }
        kept: list[bytes] = []
        down.send(
            h11.Response(
                status_code=response.status_code,
                headers=[(k, v) for k, v in response.headers if k not in _HOP_BY_HOP],
                reason=response.reason,
            )
        )
        held: bytes | None = None  # the last chunk, sent once the row is written
        head = bytearray()  # the answer's first bytes: a rate-limit refusal is told by them
        try:
            async for chunk in upstream.body():
                ex.response_bytes += len(chunk)
                if len(head) < HEAD_BYTES:
                    head += chunk[: HEAD_BYTES - len(head)]
                if keep_answer:
                    kept.append(chunk)
                if held is not None:
                    down.send(h11.Data(data=held))
                    await down.writer.drain()
                held = chunk
            if keep_answer:
                ex.response_body = b"".join(kept)
            ex.response_head = bytes(head)
            record()
            if held is not None:
                down.send(h11.Data(data=held))
            down.send(h11.EndOfMessage())
            await down.writer.drain()
        except BaseException:
            upstream.close()  # half an answer: neither side can carry on
            raise
        self.pool.release(upstream)
        return True

    async def _send(
        self,
        down: Downstream,
        destination: Upstream,
        outgoing: h11.Request,
        body: _Body,
        ex: Exchange,
    ) -> tuple[UpstreamConnection, h11.Response]:
        """Send the request and read the answer's head; a kept-alive connection the
        server had closed meanwhile is retried once on a new one (the body is whole)."""
        fresh = False
        while True:
            upstream = await self.pool.acquire(destination, fresh=fresh)
            try:
                upstream.send(outgoing)
                if body.first:
                    upstream.send(h11.Data(data=body.first))
                if body.rest:
                    await _stream_rest(down, upstream, ex)
                upstream.send(h11.EndOfMessage())
                await upstream.drain()
                return upstream, await upstream.response()
            except (OSError, h11.ProtocolError):
                upstream.close()
                if not upstream.reused or body.rest:
                    raise
                fresh = True
            except BaseException:
                upstream.close()
                raise


async def _read_body(down: Downstream) -> _Body:
    """The request body, whole when it is at most ``_BUFFERED_BODY`` bytes; otherwise
    what came so far, the rest to be streamed (``_stream_rest``)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        event = await down.event()
        if isinstance(event, h11.EndOfMessage):
            return _Body(b"".join(chunks), rest=False)
        if not isinstance(event, h11.Data):
            raise h11.RemoteProtocolError(f"unexpected {type(event).__name__} in a request body")
        chunks.append(bytes(event.data))
        size += len(event.data)
        if size > _BUFFERED_BODY:
            return _Body(b"".join(chunks), rest=True)


async def _stream_rest(down: Downstream, upstream: UpstreamConnection, ex: Exchange) -> None:
    """Send the rest of a big request body as it arrives."""
    while True:
        event = await down.event()
        if isinstance(event, h11.EndOfMessage):
            return
        if not isinstance(event, h11.Data):
            raise h11.RemoteProtocolError(f"unexpected {type(event).__name__} in a request body")
        ex.request_bytes += len(event.data)
        upstream.send(h11.Data(data=event.data))
        await upstream.drain()
