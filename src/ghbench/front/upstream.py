"""The front's HTTP/1.1 client: kept-alive connections pooled per destination (a TCP
address, with or without TLS, or a unix socket), messages parsed by llhttp
(``http1.MessageReader``).

Why not httpx or httpcore: on this machine a keep-alive GET to the emulator costs
the client 135–196 µs of CPU with h11 on a stream, 586–712 µs through httpcore's pool
and 840–949 µs through httpx (``bench/bench_front.py --libraries``, docs/performance.md),
and llhttp less than h11; the front pays it on every exchange, on the same two cores as
the emulator. A plain connection also streams both bodies as they come (git's packs),
which is all the front needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

from ghbench.front.http1 import END, Body, Head, MessageReader, ProtocolError
from ghbench.front.settings import Upstream

__all__ = ["CONNECT_TIMEOUT_S", "READ_TIMEOUT_S", "UpstreamConnection", "UpstreamPool"]

CONNECT_TIMEOUT_S = 15.0
READ_TIMEOUT_S = 300.0  # GitHub answers a slow GraphQL query within 10 s; git packs stream
_READ_SIZE = 65536
_IDLE_PER_DESTINATION = 64
_MAX_HEAD = 1 << 20


@dataclass(eq=False)
class UpstreamConnection:
    """One connection to a destination; one exchange at a time."""

    destination: Upstream
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    answers: MessageReader = field(
        default_factory=lambda: MessageReader(response=True, max_head=_MAX_HEAD)
    )
    reused: bool = False
    keep: bool = True  # the server will take another exchange on this connection

    def write(self, data: bytes) -> None:
        if data:
            self.writer.write(data)

    async def drain(self) -> None:
        await self.writer.drain()

    async def _event(self) -> Head | Body | object:
        events = self.answers.events
        while not events:
            data = await asyncio.wait_for(self.reader.read(_READ_SIZE), READ_TIMEOUT_S)
            self.answers.feed(data)
            if not data and not events:
                raise ConnectionResetError("the server closed the connection")
        return events.popleft()

    async def response(self, *, bodyless: bool = False) -> Head:
        """The final response's head (interim 1xx answers are skipped by the reader);
        ``bodyless``: the answer to a HEAD, whose body is never sent."""
        try:
            event = await self._event()
        except ConnectionResetError:
            raise ConnectionResetError(
                "the server closed the connection before answering"
            ) from None
        if not isinstance(event, Head):
            raise ProtocolError(f"unexpected {type(event).__name__} before a response")
        if bodyless:
            self.answers.cut_body()
        return event

    async def body(self) -> AsyncIterator[bytes]:
        """The response body's chunks, until its end."""
        while True:
            try:
                event = await self._event()
            except ConnectionResetError:
                raise ConnectionResetError("the server closed the connection mid-answer") from None
            if isinstance(event, Body):
                yield event.data
            elif event is END:
                return

    def finished(self, head: Head) -> None:
        """The exchange is over: whether the connection may carry another."""
        self.keep = head.keep_alive and not self.answers.events

    def close(self) -> None:
        self.writer.close()


class UpstreamPool:
    """Idle connections per destination; ``tls`` makes the client context for https."""

    def __init__(self, tls: Callable[[], ssl.SSLContext]) -> None:
        self._tls = tls
        self._idle: dict[Upstream, list[UpstreamConnection]] = defaultdict(list)

    async def acquire(self, destination: Upstream, *, fresh: bool = False) -> UpstreamConnection:
        """An idle connection (``reused``), or a new one; ``fresh``: always a new one."""
        idle = self._idle[destination]
        while idle and not fresh:
            found = idle.pop()
            if not found.reader.at_eof() and not found.writer.is_closing():
                found.reused = True
                return found
            found.close()
        return await self._open(destination)

    async def _open(self, destination: Upstream) -> UpstreamConnection:
        if destination.socket is not None:
            opening = asyncio.open_unix_connection(destination.socket)
        elif destination.scheme == "https":
            opening = asyncio.open_connection(
                destination.host,
                destination.port,
                ssl=self._tls(),
                server_hostname=destination.host,
                ssl_handshake_timeout=CONNECT_TIMEOUT_S,
            )
        else:
            opening = asyncio.open_connection(destination.host, destination.port)
        reader, writer = await asyncio.wait_for(opening, CONNECT_TIMEOUT_S)
        return UpstreamConnection(destination, reader, writer)

    def release(self, connection: UpstreamConnection) -> None:
        """Back to the pool if it can carry another exchange; closed otherwise."""
        idle = self._idle[connection.destination]
        usable = not connection.reader.at_eof() and not connection.writer.is_closing()
        if connection.keep and usable and len(idle) < _IDLE_PER_DESTINATION:
            connection.reused = False
            idle.append(connection)
        else:
            connection.close()

    def close(self) -> None:
        for idle in self._idle.values():
            for connection in idle:
                with contextlib.suppress(Exception):
                    connection.close()
        self._idle.clear()
