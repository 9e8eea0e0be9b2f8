"""The front's server: an HTTP proxy that terminates TLS for GitHub's hosts.

Every request to the proxy must carry the run's proxy credential (``Proxy-Authorization``
with the front's secret as its password, which ``Front.client_env`` puts in the proxy
URL): any other is answered 407 and leaves no row, so another local user cannot use a
running front. A client then sends either

- ``CONNECT host:443`` (``HTTPS_PROXY``). For GitHub's hosts the front answers 200,
  completes TLS itself with its leaf certificate (ALPN: http/1.1 only; bytes the client
  sent behind its CONNECT are the start of TLS) and relays the requests inside, one
  exchange at a time (``relay.Relay``). A tunnel in which no exchange happens leaves a
  row of its own: the client's TLS alert (it does not trust the CA: a warning names the
  variable it reads its trust from) or bytes that are not TLS are
  ``front.tls-handshake``; a client that closed or went idle first is
  ``front.tunnel-abandoned``. Any other host is refused with 403 and a one-line reason
  in the status line, which clients show in their error; forward mode tunnels GitHub's
  other hosts (``hosts.GITHUB_DOMAINS``) and the upstream untouched, and nothing else;
- absolute-form requests, ``GET http://host/path`` (``HTTP_PROXY``): the same, in
  plain HTTP; an origin-form request (someone took the front for a server) is 400.

Abuse is bounded: a head must arrive within ``head_timeout`` and fit in 64 KiB (431
otherwise), a connection with no request for ``IDLE_TIMEOUT_S`` is closed, and past
``max_connections`` a new client is answered 503.
"""

from __future__ import annotations

import asyncio
import ssl
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from ghbench.clock import Clock
from ghbench.front.downstream import Caller, Downstream, Handshake, header, peer_session, pipe
from ghbench.front.hosts import (
    CA_VARIABLES,
    GITHUB_HOSTS,
    client_of,
    github_domain,
    host_kind,
    printable,
    split_authority,
)
from ghbench.front.http1 import Head, HeadTooLarge, ProtocolError
from ghbench.front.relay import Origin, Relay
from ghbench.front.rows import Answered, refusal_row, tunnel_row
from ghbench.front.settings import FrontMode
from ghbench.front.sink import TraceSink

__all__ = ["FrontServer", "Limits", "server_context"]

_CONNECTED = b"HTTP/1.1 200 Connection Established\r\n\r\n"
_NOT_A_SERVER = "ghbench front: this is a proxy; reach GitHub through it with HTTPS_PROXY"
_CHALLENGE = [(b"proxy-authenticate", b'Basic realm="ghbench front"')]
_FAILURES = (OSError, TimeoutError, ssl.SSLError, ConnectionError)


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    """The TLS server context: the leaf certificate, HTTP/1.1 only (no HTTP/2), session
    tickets for clients that reconnect (one context per front: every connection's
    tickets are sealed with its keys)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["http/1.1"])
    context.options &= ~ssl.OP_NO_TICKET
    context.num_tickets = 1  # TLS 1.3: one ticket per handshake is all a client reuses
    return context


@dataclass(frozen=True)
class Limits:
    """What one client may take: seconds for a head (and a handshake), connections."""

    head_timeout: float = 10.0
    max_connections: int = 4096


def _absolute(request: Head) -> tuple[Origin, str] | None:
    """(origin, origin-form target) of an absolute-form proxy request, else None."""
    raw = request.target.decode("latin-1")
    if not raw.startswith(("http://", "https://")):
        return None
    try:
        parts = urlsplit(raw)
    except ValueError:
        return None
    found = split_authority(parts.netloc, 443 if parts.scheme == "https" else 80)
    if found is None:
        return None
    host, port = found
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Origin(parts.scheme, host, port, host_kind(host)), target


@dataclass(kw_only=True)
class FrontServer:
    """Serves client connections (``handle``, for ``asyncio.start_server``) for one run."""

    mode: FrontMode
    relay: Relay
    tls: ssl.SSLContext
    clock: Clock
    bundle: Path
    ca_cert: Path
    secret: str | None
    session_from: tuple[str, ...] = ()
    limits: Limits = field(default_factory=Limits)
    _tasks: set[asyncio.Task[None]] = field(default_factory=set, init=False)

    @property
    def sink(self) -> TraceSink:
        return self.relay.sink

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        down = Downstream(reader, writer, head_timeout=self.limits.head_timeout)
        if len(self._tasks) >= self.limits.max_connections:
            self._over_capacity(down)
            return
        self._tasks.add(task)
        try:
            try:
                request = await down.event(idle=self.limits.head_timeout)
            except HeadTooLarge:
                await down.answer_too_large()
                return
            if not isinstance(request, Head):
                return
            caller = await self._caller(down, request)
            if not caller.authorized:
                await self._unauthorized(down)
            elif request.method == b"CONNECT":
                await self._connect(down, request, caller)
            else:
                await self._proxy_requests(down, request, caller)
        except ProtocolError:
            await down.answer(400, "ghbench front: that is not an HTTP/1.1 request")
        except _FAILURES:
            pass  # the client went away: nothing more to answer
        finally:
            self._tasks.discard(task)
            down.close()

    def close(self) -> None:
        """Drop every client connection and the upstream pool."""
        for task in list(self._tasks):
            task.cancel()
        self.relay.pool.close()

    def _over_capacity(self, down: Downstream) -> None:
        cap = self.limits.max_connections
        reason = f"ghbench front: at its limit of {cap:,} connections"
        self.sink.warn(("capacity",), f"{reason}; new clients were answered 503")
        down.send(
            b"HTTP/1.1 503 %s\r\ncontent-length: 0\r\nconnection: close\r\n\r\n" % reason.encode()
        )
        down.close()

    async def _unauthorized(self, down: Downstream) -> None:
        self.sink.counts.unauthorized += 1
        self.sink.warn(
            ("unauthorized",),
            "requests without the front's proxy credential were refused (407): a client"
            " that drops the password from its proxy URL, or a process that was not given it",
        )
        reason = "ghbench front: proxy credential required (use the proxy URL the run gave)"
        await down.answer(407, reason, _CHALLENGE)

    async def _caller(self, down: Downstream, request: Head) -> Caller:
        """Who asks: the request's User-Agent and credential; without a credential's
        session, the connecting process's (``session_from``), looked up once per
        connection in a thread (it reads /proc)."""
        caller = Caller.of(request, self.secret)
        if caller.session is not None or not self.session_from or not caller.authorized:
            return caller
        if down.peer_session is None:
            down.peer_session = await asyncio.to_thread(
                peer_session, down.writer, self.session_from
            )
        return Caller(caller.user_agent, down.peer_session or None)

    def _tunnel_allowed(self, host: str, port: int) -> bool:
        """Forward mode tunnels GitHub's other hosts and the upstream, nothing else."""
        if self.mode != "forward":
            return False
        upstream = self.relay.upstream
        if upstream is not None and upstream.socket is None:
            return (host, port) == (upstream.host.lower(), upstream.port) or github_domain(host)
        return github_domain(host)

    async def _connect(self, down: Downstream, request: Head, caller: Caller) -> None:
        started = self.clock.now()
        authority = request.target.decode("latin-1")
        found = split_authority(authority, 443)
        if found is None:
            await down.answer(400, "ghbench front: CONNECT needs host:port")
            return
        host, port = found
        authority = f"{host}:{port}"
        kind = host_kind(host)
        if kind is None:
            if self._tunnel_allowed(host, port):
                await self._tunnel(down, host, port)
            else:
                await self._refuse(down, request, authority, host, caller, started=started)
            return
        down.send(_CONNECTED)
        outcome, why = await down.start_tls(self.tls, down.requests.upgraded or b"")
        if outcome is not Handshake.DONE:
            self._tunnel_failed(outcome, why, authority, host, caller, started=started)
            return
        origin = Origin("https", host, port, kind)
        while True:
            try:
                inside = await down.event()
            except HeadTooLarge:
                self._refused_row(
                    request, authority, caller, status=431, reason="head too large", started=started
                )
                await down.answer_too_large()
                return
            if not isinstance(inside, Head):
                return
            target = inside.target.decode("latin-1")
            # the session is the tunnel's (its CONNECT's credential); the User-Agent is
            # each request's own (Go's CONNECT says Go-http-client, gh's requests gh)
            agent = header(inside.headers, b"user-agent") or caller.user_agent
            keep = await self.relay.exchange(
                down, inside, origin=origin, target=target, caller=Caller(agent, caller.session)
            )
            if not keep:
                return

    async def _proxy_requests(self, down: Downstream, first: Head, caller: Caller) -> None:
        """Absolute-form requests on the proxy connection, each with its own caller."""
        request: object = first
        while isinstance(request, Head):
            if request is not first:
                caller = await self._caller(down, request)
                if not caller.authorized:
                    await self._unauthorized(down)
                    return
            routed = _absolute(request)
            if routed is None:
                await down.answer(400, _NOT_A_SERVER)
                return
            origin, target = routed
            if origin.kind is None:
                url = request.target.decode("latin-1")
                await self._refuse(
                    down, request, url, origin.host, caller, started=self.clock.now()
                )
                return
            keep = await self.relay.exchange(
                down, request, origin=origin, target=target, caller=caller
            )
            if not keep:
                return
            request = await down.event()

    def _answered(self, caller: Caller, started: float) -> Answered:
        """A request from ``caller`` the front answers itself, now."""
        return Answered(
            started, self.clock.now(), caller.user_agent, caller.session, self.relay.component
        )

    def _refused_row(
        self,
        request: Head,
        target: str,
        caller: Caller,
        *,
        status: int,
        reason: str,
        started: float,
    ) -> None:
        self.sink.counts.refused += 1
        self.sink.write(
            refusal_row(
                self._answered(caller, started),
                method=request.method.decode("latin-1"),
                target=target,
                status=status,
                reason=reason,
            )
        )

    async def _refuse(
        self,
        down: Downstream,
        request: Head,
        target: str,
        host: str,
        caller: Caller,
        *,
        started: float,
    ) -> None:
        served = ", ".join(GITHUB_HOSTS)
        if self.mode == "emulate":
            reason = f"ghbench front (emulate) serves only GitHub's hosts ({served}), not {host}"
        else:
            reason = (
                f"ghbench front (forward) passes only GitHub's hosts and the upstream, not {host}"
            )
        # the row before the answer: a client that has the answer finds the row in the trace
        self._refused_row(request, target, caller, status=403, reason=reason, started=started)
        await down.answer(403, reason)

    def _tunnel_failed(
        self,
        outcome: Handshake,
        why: str,
        authority: str,
        host: str,
        caller: Caller,
        *,
        started: float,
    ) -> None:
        abandoned = outcome is Handshake.ABANDONED
        if abandoned:
            self.sink.counts.abandoned += 1
        else:
            self.sink.counts.failed_handshakes += 1
        self.sink.write(
            tunnel_row(
                self._answered(caller, started),
                outcome="abandoned" if abandoned else "handshake",
                authority=authority,
            )
        )
        client = printable(caller.user_agent) or "a client that sent no User-Agent"
        if outcome in (Handshake.ALERT, Handshake.CLOSED_AT_CERTIFICATE):
            known = client_of(caller.user_agent)
            variables = [known.ca_variable] if known is not None else list(CA_VARIABLES)
            advice = " or ".join(
                f"{v}={self.ca_cert if v == 'NODE_EXTRA_CA_CERTS' else self.bundle}"
                for v in variables
            )
            ended = (
                f"ended in the client's alert ({why})"
                if outcome is Handshake.ALERT
                else f"was closed by the client once it had the front's certificate ({why})"
            )
            self.sink.warn(
                ("alert", host, why, tuple(variables)),
                f"TLS with the front for {host} {ended}: it does not trust the front's CA;"
                f" give it {advice}",
                client,
            )
        elif outcome is Handshake.NOT_TLS:
            self.sink.warn(
                ("not-tls", host, why),
                f"a client's tunnel to {host} carried no TLS the front speaks ({why})",
                client,
            )

    async def _tunnel(self, down: Downstream, host: str, port: int) -> None:
        """Forward mode, GitHub's other hosts and the upstream: bytes both ways, untraced."""
        try:
            far_reader, far_writer = await asyncio.wait_for(
                asyncio.open_connection(host, port), self.limits.head_timeout
            )
        except (OSError, TimeoutError) as exc:
            reason = f"ghbench front: cannot reach {host}:{port} ({type(exc).__name__})"
            await down.answer(502, reason)
            return
        self.sink.counts.tunnelled += 1
        down.send(_CONNECTED)
        early = down.requests.upgraded
        if early:
            far_writer.write(early)
        try:
            await asyncio.gather(pipe(down.reader, far_writer), pipe(far_reader, down.writer))
        finally:
            far_writer.close()
