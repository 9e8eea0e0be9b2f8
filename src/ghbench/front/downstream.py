"""The client's side of a connection to the front: h11 over an asyncio stream."""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from urllib.parse import unquote

import h11

from ghbench.proctable import environ_value, socket_owner

__all__ = [
    "IDLE_TIMEOUT_S",
    "Caller",
    "Downstream",
    "header",
    "peer_session",
    "pipe",
    "proxy_session",
]

IDLE_TIMEOUT_S = 300.0  # a client connection with no request for this long is closed
MAX_HEAD = 64 * 1024
READ_SIZE = 65536
_SESSION_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")


def header(headers: Iterable[tuple[bytes, bytes]], name: bytes) -> str | None:
    """The first value of the (lower-case) header ``name``."""
    for key, value in headers:
        if key == name:
            return value.decode("latin-1")
    return None


def proxy_session(value: str | None) -> str | None:
    """The user name of a ``Proxy-Authorization: Basic`` credential: the session. Only
    a short name of plain characters is taken (it is written to the trace)."""
    if not value:
        return None
    scheme, _, encoded = value.strip().partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        user = base64.b64decode(encoded.strip(), validate=True).decode().partition(":")[0]
    except (binascii.Error, UnicodeDecodeError):
        return None
    user = unquote(user)
    return user if proxy_session_name(user) else None


def peer_session(writer: asyncio.StreamWriter, names: tuple[str, ...]) -> str:
    """The session named by the first of ``names`` in the environment of the local
    process at the other end of ``writer``'s connection; "" when none (or not local).

    Blocking (it reads /proc): call it in a thread."""
    peer, ours = writer.get_extra_info("peername"), writer.get_extra_info("sockname")
    if not (isinstance(peer, tuple) and isinstance(ours, tuple)):
        return ""
    pid = socket_owner((peer[0], peer[1]), (ours[0], ours[1]))
    value = None if pid is None else environ_value(pid, names)
    return value if value is not None and proxy_session_name(value) else ""


def proxy_session_name(name: str) -> bool:
    """Whether ``name`` may be a session: short, plain characters (it is written)."""
    return 0 < len(name) <= 128 and set(name) <= _SESSION_CHARS


@dataclass(frozen=True)
class Caller:
    """Who is asking, from the proxy request: its User-Agent and session."""

    user_agent: str | None
    session: str | None

    @classmethod
    def of(cls, request: h11.Request) -> Caller:
        return cls(
            header(request.headers, b"user-agent"),
            proxy_session(header(request.headers, b"proxy-authorization")),
        )


@dataclass
class Downstream:
    """One client connection: h11's server state over the stream."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    # the connecting process's session, once looked up ("" when it has none)
    peer_session: str | None = None
    conn: h11.Connection = field(
        default_factory=lambda: h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD)
    )

    async def event(self) -> h11.Event:
        while True:
            event = self.conn.next_event()
            if event is not h11.NEED_DATA:
                assert not isinstance(event, type)  # PAUSED: start_next_cycle comes first
                return event
            data = await asyncio.wait_for(self.reader.read(READ_SIZE), IDLE_TIMEOUT_S)
            self.conn.receive_data(data)

    def send(self, event: h11.Event) -> None:
        data = self.conn.send(event)
        if data:
            self.writer.write(data)

    def next_cycle(self) -> bool:
        """After an exchange: True when the connection can carry another."""
        if self.conn.our_state is not h11.DONE or self.conn.their_state is not h11.DONE:
            return False
        self.conn.start_next_cycle()
        return True

    async def answer(self, status: int, reason: str) -> None:
        """The front's own short answer (an error; the connection then closes)."""
        body = (reason + "\n").encode()
        head = [
            (b"content-type", b"text/plain"),
            (b"content-length", str(len(body)).encode()),
            (b"connection", b"close"),
        ]
        with contextlib.suppress(h11.LocalProtocolError):  # an answer had begun already
            self.send(h11.Response(status_code=status, headers=head, reason=reason.encode()))
            self.send(h11.Data(data=body))
            self.send(h11.EndOfMessage())
        with contextlib.suppress(OSError):
            await self.writer.drain()


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy bytes until end-of-file (one direction of a tunnel)."""
    with contextlib.suppress(OSError):
        while data := await reader.read(READ_SIZE):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
