"""The front's HTTP/1.1 client: h11 over asyncio streams, kept-alive connections
pooled per destination (a TCP address, with or without TLS, or a unix socket).

Why not httpx or httpcore: on this machine a keep-alive GET to the emulator costs
the client 135–196 µs of CPU with h11 on a stream, 586–712 µs through httpcore's pool
and 840–949 µs through httpx (``bench/bench_front.py --libraries``, docs/performance.md);
the front pays it on every exchange, on the same two cores as the emulator. A plain connection also
streams both bodies as they come (git's packs), which is all the front needs.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections import defaultdict
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import h11

from ghbench.front.settings import Upstream

__all__ = ["CONNECT_TIMEOUT_S", "READ_TIMEOUT_S", "UpstreamConnection", "UpstreamPool"]

CONNECT_TIMEOUT_S = 15.0
READ_TIMEOUT_S = 300.0  # GitHub answers a slow GraphQL query within 10 s; git packs stream
_READ_SIZE = 65536
_IDLE_PER_DESTINATION = 64


@dataclass(eq=False)
class UpstreamConnection:
    """One connection to a destination; one exchange at a time."""

    destination: Upstream
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    conn: h11.Connection = field(default_factory=lambda: h11.Connection(h11.CLIENT))
    reused: bool = False

    def send(self, event: h11.Event) -> None:
        data = self.conn.send(event)
        if data:
            self.writer.write(data)

    async def drain(self) -> None:
        await self.writer.drain()

    async def _event(self) -> h11.Event:
        while True:
            event = self.conn.next_event()
            if event is not h11.NEED_DATA:
                assert not isinstance(event, type)  # h11.PAUSED: never, one cycle at a time
                return event
            data = await asyncio.wait_for(self.reader.read(_READ_SIZE), READ_TIMEOUT_S)
            self.conn.receive_data(data)

    async def response(self) -> h11.Response:
        """The final response's head (1xx answers are skipped)."""
        while True:
            event = await self._event()
            if isinstance(event, h11.Response):
                return event
            if isinstance(event, h11.ConnectionClosed):
                raise ConnectionResetError("the server closed the connection before answering")
            if not isinstance(event, h11.InformationalResponse):
                raise h11.RemoteProtocolError(f"unexpected {type(event).__name__}")

    async def body(self) -> AsyncIterator[bytes]:
        """The response body's chunks, until its end."""
        while True:
            event = await self._event()
            if isinstance(event, h11.Data):
                yield bytes(event.data)
            elif isinstance(event, h11.EndOfMessage):
                return
            elif isinstance(event, h11.ConnectionClosed):
                raise ConnectionResetError("the server closed the connection mid-answer")

    def reusable(self) -> bool:
        """After a whole exchange: ready for the next one (and the server has not closed)."""
        if self.conn.our_state is not h11.DONE or self.conn.their_state is not h11.DONE:
            return False
        self.conn.start_next_cycle()
        return not self.reader.at_eof() and not self.writer.is_closing()

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
        if connection.reusable() and len(idle) < _IDLE_PER_DESTINATION:
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
