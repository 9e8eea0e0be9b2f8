"""The front's server: an HTTP proxy that terminates TLS for GitHub's hosts.

A client connects and sends either

- ``CONNECT host:443`` (``HTTPS_PROXY``). For GitHub's hosts the front answers 200,
  completes TLS itself with its leaf certificate (ALPN: http/1.1 only) and relays the
  requests inside, one exchange at a time (``relay.Relay``). A client that does not
  finish the handshake (it does not trust the CA) leaves a ``front.tls-handshake`` row
  and a warning naming the variable it reads its trust from. Any other host is
  refused with 403 and a one-line reason in the status line, which clients show in
  their error (emulate), or tunnelled untouched and untraced (forward);
- absolute-form requests, ``GET http://host/path`` (``HTTP_PROXY``): the same, in
  plain HTTP; an origin-form request (someone took the front for a server) is 400.
"""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path
from urllib.parse import urlsplit

import h11

from ghbench.clock import Clock
from ghbench.front.downstream import Caller, Downstream, header, peer_session, pipe
from ghbench.front.hosts import CA_VARIABLES, GITHUB_HOSTS, client_of, host_kind, split_authority
from ghbench.front.relay import Origin, Relay
from ghbench.front.rows import handshake_row, refusal_row
from ghbench.front.settings import FrontMode
from ghbench.front.sink import TraceSink

__all__ = ["HANDSHAKE_TIMEOUT_S", "FrontServer", "server_context"]

HANDSHAKE_TIMEOUT_S = 15.0
_CONNECTED = b"HTTP/1.1 200 Connection Established\r\n\r\n"
_NOT_A_SERVER = "ghbench front: this is a proxy; reach GitHub through it with HTTPS_PROXY"


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    """The TLS server context: the leaf certificate, HTTP/1.1 only (no HTTP/2)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["http/1.1"])
    return context


def _absolute(request: h11.Request) -> tuple[Origin, str] | None:
    """(origin, origin-form target) of an absolute-form proxy request, else None."""
    raw = request.target.decode("latin-1")
    if not raw.startswith(("http://", "https://")):
        return None
    parts = urlsplit(raw)
    found = split_authority(parts.netloc, 443 if parts.scheme == "https" else 80)
    if found is None:
        return None
    host, port = found
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Origin(parts.scheme, host, port, host_kind(host)), target


class FrontServer:
    """Serves client connections (``handle``, for ``asyncio.start_server``) for one run."""

    def __init__(
        self,
        *,
        mode: FrontMode,
        relay: Relay,
        tls: ssl.SSLContext,
        clock: Clock,
        bundle: Path,
        ca_cert: Path,
        session_from: tuple[str, ...] = (),
    ) -> None:
        self.session_from = session_from
        self.mode = mode
        self.relay = relay
        self.tls = tls
        self.clock = clock
        self.bundle = bundle
        self.ca_cert = ca_cert
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def sink(self) -> TraceSink:
        return self.relay.sink

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            down = Downstream(reader, writer)
            request = await down.event()
            if isinstance(request, h11.Request):
                if request.method == b"CONNECT":
                    await self._connect(down, request)
                else:
                    await self._proxy_requests(down, request)
        except (OSError, TimeoutError, h11.ProtocolError, ssl.SSLError):
            pass  # the client went away or spoke garbage: nothing more to answer
        finally:
            self._tasks.discard(task)
            writer.close()

    def close(self) -> None:
        """Drop every client connection and the upstream pool."""
        for task in list(self._tasks):
            task.cancel()
        self.relay.pool.close()

    async def _caller(self, down: Downstream, request: h11.Request) -> Caller:
        """Who asks: the request's User-Agent and credential; without a credential's
        session, the connecting process's (``session_from``), looked up once per
        connection in a thread (it reads /proc)."""
        caller = Caller.of(request)
        if caller.session is not None or not self.session_from:
            return caller
        if down.peer_session is None:
            down.peer_session = await asyncio.to_thread(
                peer_session, down.writer, self.session_from
            )
        return Caller(caller.user_agent, down.peer_session or None)

    async def _connect(self, down: Downstream, request: h11.Request) -> None:
        started = self.clock.now()
        caller = await self._caller(down, request)
        authority = request.target.decode("latin-1")
        found = split_authority(authority, 443)
        if found is None:
            await down.answer(400, f"ghbench front: CONNECT needs host:port, not {authority!r}")
            return
        host, port = found
        kind = host_kind(host)
        if kind is None:
            if self.mode == "forward":
                await self._tunnel(down, host, port)
            else:
                self._refuse(down, request, authority, host, caller, started=started)
            return
        down.writer.write(_CONNECTED)
        try:
            await down.writer.start_tls(self.tls, ssl_handshake_timeout=HANDSHAKE_TIMEOUT_S)
        except (OSError, ssl.SSLError, TimeoutError) as exc:
            self._handshake_failed(authority, host, caller, started=started, exc=exc)
            return
        inside = Downstream(down.reader, down.writer)
        origin = Origin("https", host, port, kind)
        while True:
            request_inside = await inside.event()
            if not isinstance(request_inside, h11.Request):
                return
            target = request_inside.target.decode("latin-1")
            # the session is the tunnel's (its CONNECT's credential); the User-Agent is
            # each request's own (Go's CONNECT says Go-http-client, gh's requests gh)
            agent = header(request_inside.headers, b"user-agent") or caller.user_agent
            keep = await self.relay.exchange(
                inside,
                request_inside,
                origin=origin,
                target=target,
                caller=Caller(agent, caller.session),
            )
            if not keep or not inside.next_cycle():
                return

    async def _proxy_requests(self, down: Downstream, first: h11.Request) -> None:
        """Absolute-form requests on the proxy connection, each with its own caller."""
        request: h11.Event = first
        while isinstance(request, h11.Request):
            caller = await self._caller(down, request)
            routed = _absolute(request)
            if routed is None:
                await down.answer(400, _NOT_A_SERVER)
                return
            origin, target = routed
            if origin.kind is None and self.mode == "emulate":
                url = request.target.decode("latin-1")
                self._refuse(down, request, url, origin.host, caller, started=self.clock.now())
                return
            keep = await self.relay.exchange(
                down, request, origin=origin, target=target, caller=caller
            )
            if not keep or not down.next_cycle():
                return
            request = await down.event()

    def _refuse(
        self,
        down: Downstream,
        request: h11.Request,
        target: str,
        host: str,
        caller: Caller,
        *,
        started: float,
    ) -> None:
        served = ", ".join(GITHUB_HOSTS)
        reason = f"ghbench front (emulate) serves only GitHub's hosts ({served}), not {host}"
        body = reason.encode() + b"\n"
        self.sink.counts.refused += 1
        self.sink.write(
            refusal_row(
                method=request.method.decode(),
                target=target,
                status=403,
                reason=reason,
                started_at=started,
                finished_at=self.clock.now(),
                user_agent=caller.user_agent,
                session=caller.session,
                default_component=self.relay.component,
            )
        )
        # the answer after its row: a client that has it finds the row in the trace
        down.writer.write(
            f"HTTP/1.1 403 {reason}\r\ncontent-type: text/plain\r\ncontent-length: {len(body)}"
            "\r\nconnection: close\r\n\r\n".encode()
            + body
        )

    def _handshake_failed(
        self, authority: str, host: str, caller: Caller, *, started: float, exc: BaseException
    ) -> None:
        self.sink.counts.failed_handshakes += 1
        self.sink.write(
            handshake_row(
                authority=authority,
                started_at=started,
                finished_at=self.clock.now(),
                user_agent=caller.user_agent,
                session=caller.session,
                default_component=self.relay.component,
            )
        )
        known = client_of(caller.user_agent)
        variables = [known.ca_variable] if known is not None else list(CA_VARIABLES)
        advice = " or ".join(
            f"{v}={self.ca_cert if v == 'NODE_EXTRA_CA_CERTS' else self.bundle}" for v in variables
        )
        who = caller.user_agent or "a client that sent no User-Agent"
        why = getattr(exc, "reason", None) or type(exc).__name__
        self.sink.warn(
            f"{who} did not complete TLS with the front for {host} ({why}): it does not"
            f" trust the front's CA; give it {advice}"
        )

    async def _tunnel(self, down: Downstream, host: str, port: int) -> None:
        """Forward mode, a host that is not GitHub's: bytes both ways, untraced."""
        try:
            far_reader, far_writer = await asyncio.wait_for(
                asyncio.open_connection(host, port), HANDSHAKE_TIMEOUT_S
            )
        except (OSError, TimeoutError) as exc:
            reason = f"ghbench front: cannot reach {host}:{port} ({type(exc).__name__})"
            await down.answer(502, reason)
            return
        self.sink.counts.tunnelled += 1
        down.writer.write(_CONNECTED)
        try:
            await asyncio.gather(pipe(down.reader, far_writer), pipe(far_reader, down.writer))
        finally:
            far_writer.close()
