"""The one way an emulator is served on sockets, whoever runs it.

``ghbench emulator serve`` (its own process) and :class:`~ghbench.emulator.thread_server.
EmulatorServer` (a thread, for tests and benchmarks) both:

1. open :class:`Listeners`: the TCP socket is created with ``IPPROTO_TCP``, because
   asyncio sets ``TCP_NODELAY`` only on accepted sockets whose protocol says TCP;
   without it every keep-alive answer waits for a delayed ACK (48 ms per GET against
   1.3 ms, measured: docs/performance.md). A unix socket may be opened too
   (``unix_socket.py``);
2. build uvicorn with :func:`uvicorn_config`: uvloop, and httptools through
   :class:`EmulatorHttpProtocol`, which answers ``CONNECT`` itself (httptools would call
   it an invalid request) and closes a connection whose request headers have not
   arrived within ``header_timeout_s`` (slowloris);
3. run :class:`EmulatorUvicorn`, a ``uvicorn.Server`` that reports when it is ready
   and, in a main thread, returns on SIGTERM/SIGINT instead of re-raising them, so the
   caller's cleanup runs.

uvicorn's internals are subclassed here (``Server.startup``/``capture_signals``,
``HttpToolsProtocol``): pyproject bounds uvicorn's version for that reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ghbench.emulator.asgi import EmulatorApp
from ghbench.emulator.connect import connect_refusal
from ghbench.emulator.graphql.schema import load_schema
from ghbench.emulator.unix_socket import UnixListener, listen_unix
from ghbench.errors import EmulatorError

__all__ = [
    "HEADER_TIMEOUT_S",
    "EmulatorHttpProtocol",
    "EmulatorUvicorn",
    "ListenError",
    "Listeners",
    "tune_interpreter",
    "uvicorn_config",
]

HEADER_TIMEOUT_S = 10.0  # a request's headers must arrive within this (slowloris)
SWITCH_INTERVAL_S = 0.0005
_REQUEST_TIMEOUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain\r\ncontent-length: 34\r\n"
    b"connection: close\r\n\r\nthe request headers came too slow\n"
)


def tune_interpreter() -> None:
    """For a process that only serves an emulator (both settings are process-wide):

    - switch threads every ``SWITCH_INTERVAL_S`` instead of 5 ms: while one request
      computes, the event loop and a cheap request's worker each wait that long for the
      interpreter at every hand-over (about four per request);
    - load the GraphQL schema now and move everything alive (schema, state) out of the
      garbage collector's reach (``gc.freeze``): a full collection then walks only what
      requests allocate, so its pauses stay short.
    """
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    load_schema()
    gc.collect()
    gc.freeze()


class ListenError(EmulatorError):
    """The TCP address could not be listened on; ``reason`` is the system's."""

    def __init__(self, host: str, port: int, reason: str) -> None:
        super().__init__(
            f"cannot listen on {host}:{port} ({reason}); choose another port, or 0 for a free one"
        )
        self.reason = reason


@dataclass
class Listeners:
    """The sockets one emulator serves on; ``close()`` releases them (and the unix
    socket's file)."""

    tcp: socket.socket
    host: str
    unix: UnixListener | None = None
    _closed: bool = field(default=False, repr=False)

    @classmethod
    def open(cls, host: str, port: int, uds: Path | None = None) -> Listeners:
        """Listen on ``host:port`` (0: a free port) and, if given, the unix socket ``uds``.

        Raises ListenError, or UnixSocketError (whose ``reason`` says what to do)."""
        try:
            family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        except socket.gaierror as exc:
            raise ListenError(host, port, exc.strerror or str(exc)) from exc
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
            sock.listen(2048)
        except OSError as exc:
            sock.close()
            raise ListenError(host, port, exc.strerror or str(exc)) from exc
        listeners = cls(sock, host)
        if uds is not None:
            try:
                listeners.unix = listen_unix(uds)
            except BaseException:
                listeners.close()
                raise
        return listeners

    @property
    def port(self) -> int:
        return int(self.tcp.getsockname()[1])

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def sockets(self) -> list[socket.socket]:
        return [self.tcp] if self.unix is None else [self.tcp, self.unix.socket]

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self.tcp.close()
            if self.unix is not None:
                self.unix.close()


class EmulatorHttpProtocol(HttpToolsProtocol):
    """httptools' protocol with the emulator's CONNECT refusal and a header timeout.

    httptools rejects a ``CONNECT host:443`` request line as invalid (400) before the
    app sees it; clients (curl, Go's proxy dialer) send CONNECT as the first request of
    a connection, so a chunk that starts with it is answered here. A connection gets
    ``header_timeout_s`` from when it opens, and from the first byte of each further
    request, to the end of that request's headers; then it is answered 408 and closed.
    """

    header_timeout_s = HEADER_TIMEOUT_S
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_header_timer()

    def on_headers_complete(self) -> None:
        self._cancel_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if data[:8] == b"CONNECT ":
            self._cancel_header_timer()
            target = data[8:].split(b" ", 1)[0].decode("latin-1", "replace")
            refusal = connect_refusal(target)
            head = [b"HTTP/1.1 405 Method Not Allowed\r\n"]
            for name, value in refusal.headers.items():
                head.append(f"{name}: {value}\r\n".encode("latin-1"))
            head.append(f"content-length: {len(refusal.body)}\r\n".encode())
            head.append(b"connection: close\r\n\r\n")
            self.transport.write(b"".join(head) + refusal.body)
            self.transport.close()
            return
        super().data_received(data)

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._headers_too_slow)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.write(_REQUEST_TIMEOUT)
            self.transport.close()


def _protocol(header_timeout_s: float) -> type[EmulatorHttpProtocol]:
    if header_timeout_s == HEADER_TIMEOUT_S:
        return EmulatorHttpProtocol
    return type(
        "EmulatorHttpProtocol", (EmulatorHttpProtocol,), {"header_timeout_s": header_timeout_s}
    )


def uvicorn_config(
    app: EmulatorApp, *, http: str = "httptools", header_timeout_s: float = HEADER_TIMEOUT_S
) -> uvicorn.Config:
    """uvloop's loop and httptools' parser (``http="h11"``: h11's, without the header
    timeout; tests use it to check both parsers); no access log, no lifespan."""
    protocol: Any = _protocol(header_timeout_s) if http == "httptools" else http
    return uvicorn.Config(
        app, http=protocol, loop="uvloop", log_level="warning", access_log=False, lifespan="off"
    )


class EmulatorUvicorn(uvicorn.Server):
    """A ``uvicorn.Server`` that calls ``on_ready`` once it accepts connections and, in
    the main thread, returns normally on SIGTERM/SIGINT (uvicorn re-raises the signal
    after shutting down, which would kill the process before the caller's cleanup:
    closing the state database, removing a unix socket)."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], None] | None = None) -> None:
        super().__init__(config)
        self._on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started and self._on_ready is not None:
            self._on_ready()

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        if threading.current_thread() is not threading.main_thread():
            yield  # signal handlers can only be set in the main thread: none here
            return
        wanted = (signal.SIGINT, signal.SIGTERM)
        previous = {sig: signal.signal(sig, self.handle_exit) for sig in wanted}
        try:
            yield
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
