"""The client's side of a connection to the front: its bytes (plain, or TLS the front
terminates), its requests, its deadlines and who it is.

TLS runs over ``ssl.MemoryBIO`` rather than the event loop's ``start_tls``, for two
reasons: bytes a client sent right after its CONNECT (a ClientHello in the same write)
were already read, and only a BIO can be handed them; and how a handshake ends must be
told apart exactly: the client's TLS alert (it does not trust the CA), bytes that are
not TLS, or a client that closed or went idle without a word (an abandoned tunnel).

One deadline per connection, re-armed as it goes: ``idle`` while the front waits for a
request, ``head_timeout`` once a head has begun (a head sent a byte at a time cannot
hold a connection open) and for a TLS handshake. When it passes, the connection is cut.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import contextlib
import enum
import hmac
import ssl
from dataclasses import dataclass
from urllib.parse import unquote

from ghbench.front import http1
from ghbench.front.http1 import Body, End, Head, MessageReader, response_head
from ghbench.proctable import environ_value, socket_owner

__all__ = [
    "IDLE_TIMEOUT_S",
    "NO_SESSION",
    "Caller",
    "Downstream",
    "Handshake",
    "header",
    "peer_session",
    "pipe",
    "proxy_credential",
]

IDLE_TIMEOUT_S = 300.0  # a client connection with no request for this long is closed
MAX_HEAD = 64 * 1024
READ_SIZE = 65536
_LINGER_BYTES = 16 << 20  # read and dropped after a 431, at most
NO_SESSION = "-"  # the proxy credential's user name when a client has no session
_SESSION_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.:")


def header(headers: list[tuple[bytes, bytes]], name: bytes) -> str | None:
    """The first value of the (lower-case) header ``name``, as text."""
    value = http1.header(headers, name)
    return None if value is None else value.decode("latin-1")


def proxy_credential(value: str | None) -> tuple[str, str] | None:
    """(user, password) of a ``Proxy-Authorization: Basic`` credential, or None."""
    if not value:
        return None
    scheme, _, encoded = value.strip().partition(" ")
    if scheme.lower() != "basic":
        return None
    try:
        text = base64.b64decode(encoded.strip(), validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        return None
    user, _, password = text.partition(":")
    return unquote(user), unquote(password)


def proxy_session_name(name: str) -> bool:
    """Whether ``name`` may be a session: short, plain characters (it is written)."""
    return 0 < len(name) <= 128 and set(name) <= _SESSION_CHARS and name != NO_SESSION


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


@dataclass(frozen=True)
class Caller:
    """Who is asking: its User-Agent, its session, and whether it gave the front's
    secret (``authorized``)."""

    user_agent: str | None
    session: str | None
    authorized: bool = True

    @classmethod
    def of(cls, head: Head, secret: str | None) -> Caller:
        agent = header(head.headers, b"user-agent")
        credential = proxy_credential(header(head.headers, b"proxy-authorization"))
        user, password = credential if credential is not None else ("", "")
        authorized = secret is None or hmac.compare_digest(password.encode(), secret.encode())
        return cls(agent, user if proxy_session_name(user) else None, authorized)


class Handshake(enum.Enum):
    """How a TLS handshake with a client ended."""

    DONE = "done"
    ALERT = "alert"  # the client refused the front's certificate
    # it closed once it had the certificate, without an alert: Node.js checks the
    # certificate after OpenSSL's handshake and, distrusting it, just closes
    CLOSED_AT_CERTIFICATE = "closed-at-certificate"
    NOT_TLS = "not-tls"  # bytes that are no TLS the front speaks
    ABANDONED = "abandoned"  # closed, or idle past the deadline, before any TLS


class Downstream:
    """One client connection: its bytes, parsed into requests (``event``)."""

    def __init__(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *, head_timeout: float
    ) -> None:
        self.reader = reader
        self.writer = writer
        self.head_timeout = head_timeout
        self.requests = MessageReader(max_head=MAX_HEAD)
        self.peer_session: str | None = None  # the connecting process's, once looked up
        self.expired = False  # a deadline cut the connection
        self._tls: ssl.SSLObject | None = None
        self._incoming = ssl.MemoryBIO()
        self._outgoing = ssl.MemoryBIO()
        self._timer: asyncio.TimerHandle | None = None
        self._loop = asyncio.get_running_loop()
        # a drain returns once the kernel has every byte: what a client that leaves
        # mid-answer was handed is then known (``relay``)
        writer.transport.set_write_buffer_limits(high=0)

    # deadlines
    def expect(self, seconds: float | None) -> None:
        """Cut the connection if the next step takes over ``seconds`` (None: no limit)."""
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None if seconds is None else self._loop.call_later(seconds, self._expire)

    def _expire(self) -> None:
        self.expired = True
        self.writer.transport.abort()

    # bytes
    async def _recv_raw(self) -> bytes:
        try:
            return await self.reader.read(READ_SIZE)
        except (ConnectionError, OSError):
            return b""

    async def recv(self) -> bytes:
        """The next bytes from the client (decrypted inside TLS); b"" at its end."""
        tls = self._tls
        if tls is None:
            return await self._recv_raw()
        while True:
            try:
                data = tls.read(READ_SIZE)
            except ssl.SSLWantReadError:
                self._flush()
                raw = await self._recv_raw()
                if not raw:
                    return b""
                self._incoming.write(raw)
                continue
            except (ssl.SSLZeroReturnError, ssl.SSLEOFError, ssl.SSLSyscallError):
                return b""
            self._flush()
            return data

    def send(self, data: bytes) -> None:
        if not data:
            return
        if self.writer.transport.is_closing():
            raise ConnectionResetError("the client's connection is closed")
        if self._tls is None:
            self.writer.write(data)
            return
        self._tls.write(data)
        self._flush()

    def _flush(self) -> None:
        pending = self._outgoing.read()
        if pending and not self.writer.transport.is_closing():
            self.writer.write(pending)

    async def drain(self) -> None:
        await self.writer.drain()

    # TLS
    async def start_tls(self, context: ssl.SSLContext, early: bytes) -> tuple[Handshake, str]:
        """TLS as the server, ``early`` being bytes the client already sent; the outcome
        and, for a failure, why (the alert, or what the bytes were)."""
        tls = context.wrap_bio(self._incoming, self._outgoing, server_side=True)
        if early:
            self._incoming.write(early)
        self.expect(self.head_timeout)
        answered = False  # the front's certificate went out
        try:
            while True:
                try:
                    tls.do_handshake()
                    break
                except ssl.SSLWantReadError:
                    answered = answered or self._outgoing.pending > 0
                    self._flush()
                    raw = await self._recv_raw()
                    if raw:
                        self._incoming.write(raw)
                        continue
                    if answered and not self.expired:
                        return Handshake.CLOSED_AT_CERTIFICATE, "closed, with no alert"
                    return Handshake.ABANDONED, "idle" if self.expired else "closed"
        except ssl.SSLError as exc:
            self._flush()
            reason = str(exc.reason or type(exc).__name__)
            kind = Handshake.ALERT if "ALERT" in reason else Handshake.NOT_TLS
            return kind, reason
        finally:
            self.expect(None)
        self._flush()
        self._tls = tls
        self.requests = MessageReader(max_head=MAX_HEAD)
        return Handshake.DONE, ""

    # requests
    async def event(self, *, idle: float | None = IDLE_TIMEOUT_S) -> Head | Body | End | None:
        """The next request event; None when the client is gone (or its deadline passed).
        Raises ``http1.ProtocolError`` (``HeadTooLarge``) for what is not HTTP/1.1."""
        events = self.requests.events
        if events:
            return events.popleft()
        self.expect(idle)
        begun = self.requests.mid_head  # the head's deadline runs from its first byte
        try:
            while not events:
                if self.requests.upgraded is not None:
                    return None  # nothing follows a CONNECT on this reader
                data = await self.recv()
                self.requests.feed(data)
                if not data:
                    return events.popleft() if events else None
                if self.requests.mid_head and not begun:
                    begun = True
                    self.expect(self.head_timeout)  # once: a trickle does not re-arm it
            return events.popleft()
        finally:
            self.expect(None)

    async def answer(
        self, status: int, reason: str, extra: list[tuple[bytes, bytes]] | None = None
    ) -> None:
        """The front's own short answer (an error; the connection then closes)."""
        body = (reason + "\n").encode()
        headers = [
            *(extra or []),
            (b"content-type", b"text/plain"),
            (b"content-length", b"%d" % len(body)),
            (b"connection", b"close"),
        ]
        short = reason.encode("ascii", "replace")[:200]
        with contextlib.suppress(OSError, ssl.SSLError):
            self.send(response_head(status, short, headers) + body)
            await self.drain()

    async def answer_too_large(self) -> None:
        """431, then the rest of what the client is sending is read and dropped for a
        moment: closed with unread bytes, the connection would be reset, and the
        client might lose the answer before it reads it."""
        await self.answer(431, f"ghbench front: a request head over {MAX_HEAD // 1024} KiB")
        self.expect(self.head_timeout)
        try:
            dropped = 0
            while dropped < _LINGER_BYTES and (data := await self._recv_raw()):
                dropped += len(data)
        finally:
            self.expect(None)

    def close(self) -> None:
        self.expect(None)
        if self._tls is not None:
            with contextlib.suppress(ssl.SSLError, OSError):
                self._tls.unwrap()
                self._flush()
        self.writer.close()


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy bytes until end-of-file (one direction of a tunnel)."""
    with contextlib.suppress(OSError):
        while data := await reader.read(READ_SIZE):
            writer.write(data)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
