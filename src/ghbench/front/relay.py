"""One exchange through the front: the client's request to its destination and back.

The request goes on unchanged but for the hop-by-hop headers (RFC 9110 §7.6.1:
``Connection``, ``Proxy-Authorization``, ``Expect``, ...) and, when the destination
speaks plain HTTP for a request that came in over TLS (the emulator, an upstream
standing in for GitHub), ``X-Forwarded-Proto: https``: the emulator then writes the
``https://api.github.com/...`` URLs a client would get from GitHub. Bodies stream
both ways; a body up to 1 MiB is read whole first, so an exchange sent on a
kept-alive connection the server has just closed can be sent again.

The row is written when the answer is complete, before its last bytes go to the
client: a client that has its whole answer finds its row in the trace. A client that
leaves before the whole answer reached it still gets its row (the request reached
GitHub, and GitHub charged for it), marked ``clientClosed`` with the bytes the front
had handed to its connection.
"""

from __future__ import annotations

import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ghbench.clock import Clock
from ghbench.front.downstream import Caller, Downstream, header
from ghbench.front.graphql import GraphqlMeter, read_graphql_request
from ghbench.front.http1 import (
    END,
    Body,
    Framing,
    Head,
    ProtocolError,
    declared_length,
    request_head,
    response_head,
)
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
_FRAMING = frozenset({b"content-length", b"transfer-encoding"})
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
_FAILURES = (OSError, TimeoutError, ProtocolError, ssl.SSLError)
_CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


class Meter(Protocol):
    """What reads GraphQL charges (``graphql.GraphqlMeter``, ``workers.SharedMeter``)."""

    def begin(self) -> int: ...

    def end(
        self, ticket: int, limit: int | None, reset: int | None, used: int | None
    ) -> int | None: ...


class ClientGone(Exception):
    """The client's connection broke while its answer was on its way."""


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


@dataclass(frozen=True)
class _Trip:
    """One request on its way: from the client's connection (``down``) to
    ``destination``, its ``outgoing`` bytes (head, and the body when it came whole), its
    body, and the exchange its row is made of."""

    down: Downstream
    destination: Upstream
    outgoing: bytes
    body: _Body
    ex: Exchange


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


@dataclass(kw_only=True)
class Relay:
    """Carries exchanges to the destination and writes their rows."""

    upstream: Upstream | None
    pool: UpstreamPool
    sink: TraceSink
    clock: Clock
    component: str
    meter: Meter = field(default_factory=GraphqlMeter)

    def destination(self, origin: Origin) -> Upstream:
        """GitHub's hosts go to the upstream when there is one; anything else (and
        GitHub's hosts in forward mode without one) to the host itself."""
        if origin.kind is not None and self.upstream is not None:
            return self.upstream
        return Upstream(origin.scheme, origin.host, origin.port)

    async def exchange(
        self, down: Downstream, request: Head, *, origin: Origin, target: str, caller: Caller
    ) -> bool:
        """Relay one request and its answer; False when the client connection must close."""
        started = self.clock.now()
        destination = self.destination(origin)
        headers = [(k, v) for k, v in request.headers if k not in _HOP_BY_HOP]
        if destination.scheme != origin.scheme:
            headers.append((b"x-forwarded-proto", origin.scheme.encode()))
        expect = header(request.headers, b"expect")
        if expect is not None and expect.lower() == "100-continue":
            down.send(_CONTINUE)
        body = await _read_body(down)
        ex = Exchange(
            kind=origin.kind or "",
            method=request.method.decode("latin-1"),
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
            outgoing = _outgoing(request.method, target.encode("latin-1"), headers, body)
            return await self._relay(
                _Trip(down, destination, outgoing, body, ex),
                keep_answer=keep_answer,
                keep_alive=request.keep_alive,  # known once the body has come
                record=record,
            )
        except ClientGone:
            ex.client_closed = not recorded  # a row already written had its answer whole
            self.sink.counts.client_aborts += 1
            return False
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
        # status None: the client left before the request was sent on
        if ex.status is not None and self.sink.traced:
            self.sink.write(exchange_row(ex, self.component, charged))

    async def _relay(
        self,
        trip: _Trip,
        *,
        keep_answer: bool,
        keep_alive: bool,
        record: Callable[[], None],
    ) -> bool:
        """Relay the answer; ``record`` writes the exchange's row before the answer's last
        bytes go to the client, so a client that has its whole answer finds its row in
        the trace (a run that stops the moment its client is done loses none)."""
        down, destination, ex = trip.down, trip.destination, trip.ex
        try:
            upstream, response = await self._send(trip)
        except _FAILURES as exc:
            self.sink.counts.upstream_errors += 1
            reason = f"ghbench front: no answer from {destination.describe()} ({_why(exc)})"
            self.sink.warn(("upstream", reason), f"{reason}; such requests were answered 502")
            ex.status, ex.reason = 502, reason
            record()
            await down.answer(502, reason)
            return False
        ex.status = response.status
        ex.reason = response.reason.decode("latin-1")
        ex.headers = {
            k.decode(): v.decode("latin-1") for k, v in response.headers if k in _ROW_HEADERS
        }
        bodyless = ex.method == "HEAD" or response.status in (204, 304)
        kept_headers = [(k, v) for k, v in response.headers if k not in _HOP_BY_HOP]
        framing = Framing(kept_headers, declared_length(response.headers), bodyless=bodyless)
        if not keep_alive:  # the client asked to close (or spoke HTTP/1.0)
            framing.headers.append((b"connection", b"close"))
        kept: list[bytes] = []
        delivered = 0  # body bytes the client's connection took
        head = bytearray()  # the answer's first bytes: a rate-limit refusal is told by them
        try:
            await _deliver(down, response_head(response.status, response.reason, framing.headers))
            held = b""  # the last chunk, sent once the row is written
            async for chunk in upstream.body():
                ex.response_bytes += len(chunk)
                if len(head) < HEAD_BYTES:
                    head += chunk[: HEAD_BYTES - len(head)]
                if keep_answer:
                    kept.append(chunk)
                if held:
                    await _deliver(down, framing.data(held))
                    delivered += len(held)
                held = chunk
            if keep_answer:
                ex.response_body = b"".join(kept)
            ex.response_head = bytes(head)
            upstream.finished(response)
            if down.reader.at_eof() or down.writer.is_closing():
                raise ClientGone  # it closed its side before its answer was whole
            record()
            await _deliver(down, framing.data(held) + framing.end())
        except ClientGone:
            upstream.close()
            ex.response_bytes = delivered
            ex.response_head = bytes(head)  # a refusal is one whether or not it was read
            raise
        except BaseException:
            upstream.close()  # half an answer: neither side can carry on
            raise
        self.pool.release(upstream)
        return keep_alive

    async def _send(self, trip: _Trip) -> tuple[UpstreamConnection, Head]:
        """Send the request and read the answer's head; a kept-alive connection the
        server had closed meanwhile is retried once on a new one (the body is whole)."""
        fresh = False
        while True:
            upstream = await self.pool.acquire(trip.destination, fresh=fresh)
            try:
                upstream.write(trip.outgoing)
                if trip.body.rest:
                    await _stream_rest(trip.down, upstream, trip.ex)
                await upstream.drain()
                return upstream, await upstream.response(bodyless=trip.ex.method == "HEAD")
            except (OSError, ProtocolError):
                upstream.close()
                if not upstream.reused or trip.body.rest:
                    raise
                fresh = True
            except BaseException:
                upstream.close()
                raise


async def _deliver(down: Downstream, data: bytes) -> None:
    """Hand ``data`` to the client and wait until its connection takes it."""
    try:
        down.send(data)
        await down.drain()
    except (OSError, ssl.SSLError) as exc:
        raise ClientGone from exc
    if down.writer.is_closing():
        raise ClientGone


def _outgoing(
    method: bytes, target: bytes, headers: list[tuple[bytes, bytes]], body: _Body
) -> bytes:
    """The request's head (and its whole body, when it has come whole)."""
    framed = any(k in _FRAMING for k, _ in headers)
    if body.rest:
        framing = Framing(headers, None)
        return request_head(method, target, framing.headers) + framing.data(body.first)
    if not framed and not body.first:
        return request_head(method, target, headers)  # a GET: no framing to add
    framing = Framing(headers, len(body.first))
    return request_head(method, target, framing.headers) + body.first


async def _read_body(down: Downstream) -> _Body:
    """The request body, whole when it is at most ``_BUFFERED_BODY`` bytes; otherwise
    what came so far, the rest to be streamed (``_stream_rest``)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        event = await down.event(idle=down.head_timeout * 6)
        if event is END:
            return _Body(b"".join(chunks), rest=False)
        if not isinstance(event, Body):
            raise ConnectionResetError("the client left in the middle of its request")
        chunks.append(event.data)
        size += len(event.data)
        if size > _BUFFERED_BODY:
            return _Body(b"".join(chunks), rest=True)


async def _stream_rest(down: Downstream, upstream: UpstreamConnection, ex: Exchange) -> None:
    """Send the rest of a big request body as it arrives, chunked."""
    while True:
        event = await down.event(idle=down.head_timeout * 6)
        if event is END:
            upstream.write(b"0\r\n\r\n")
            return
        if not isinstance(event, Body):
            raise ConnectionResetError("the client left in the middle of its request")
        ex.request_bytes += len(event.data)
        upstream.write(b"%x\r\n%s\r\n" % (len(event.data), event.data))
        await upstream.drain()
