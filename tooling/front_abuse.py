"""Clients that misbehave on purpose, over real sockets: what the front's abuse tests
(tests/front/test_proxy.py) and ``bench/bench_front.py --hostile`` send to it.

Each speaks to the front byte for byte (a socket, TLS through ``ssl.MemoryBIO`` where
the order of bytes on the wire matters), so a test knows exactly what the front saw
and can hold every row of the trace to it.
"""

from __future__ import annotations

import base64
import contextlib
import functools
import socket
import ssl
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

__all__ = [
    "TIMEOUT_S",
    "TOKEN",
    "Tunnel",
    "abandon",
    "big_answer_then_leave",
    "connect_request",
    "credential",
    "distrusting_client",
    "get",
    "hostile_battery",
    "idle",
    "open_tunnel",
    "oversized",
    "pipelined",
    "read_head",
    "wait_until",
]

TIMEOUT_S = 30.0
TOKEN = "ghp_test0000000000000000000000000000000001"  # the tests' emulator's, and the bench's


def credential(secret: str | None, session: str = "-") -> bytes:
    """A ``Proxy-Authorization`` header line (with its CRLF), or none."""
    if secret is None:
        return b""
    value = base64.b64encode(f"{session}:{secret}".encode())
    return b"Proxy-Authorization: Basic " + value + b"\r\n"


def connect_request(secret: str | None, *, agent: str = "abuse/1", session: str = "-") -> bytes:
    return (
        b"CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n"
        + f"User-Agent: {agent}\r\n".encode("latin-1")
        + credential(secret, session)
        + b"\r\n"
    )


def get(target: str, *, agent: str = "abuse/1", close: bool = False) -> bytes:
    return (
        f"GET {target} HTTP/1.1\r\nHost: api.github.com\r\nUser-Agent: {agent}\r\n"
        f"Authorization: token {TOKEN}\r\n" + ("Connection: close\r\n" if close else "") + "\r\n"
    ).encode()


def read_head(sock: socket.socket) -> tuple[bytes, bytes]:
    """A response head from a plain socket, and the bytes read past it."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def wait_until(done: Callable[[], bool], what: str, seconds: float = TIMEOUT_S) -> None:
    """Wait for ``done`` (the front acts on a close or a deadline on its own time)."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@functools.cache
def _client_context(ca_cert: Path | None) -> ssl.SSLContext:
    """A client's trust: ``ca_cert``, or the system's roots (None); HTTP/1.1 only. One
    per trust, shared by every connection: loading the system's roots takes ~25 ms of
    CPU, and the batteries open hundreds of connections (a context resumes no session
    unless asked, so each handshake is still a full one)."""
    context = ssl.create_default_context(cafile=None if ca_cert is None else str(ca_cert))
    context.set_alpn_protocols(["http/1.1"])
    return context


class Tunnel:
    """TLS inside a CONNECT tunnel, driven through memory BIOs over a plain socket."""

    def __init__(self, sock: socket.socket, ca_cert: Path | None, early: bytes = b"") -> None:
        """``ca_cert`` None: a client that trusts only the system's roots."""
        self.sock = sock
        self._in, self._out = ssl.MemoryBIO(), ssl.MemoryBIO()
        self.tls = _client_context(ca_cert).wrap_bio(
            self._in, self._out, server_hostname="api.github.com"
        )
        if early:
            self._in.write(early)

    def feed(self, data: bytes) -> None:
        self._in.write(data)

    def client_hello(self) -> bytes:
        """The first flight, before anything was received."""
        with contextlib.suppress(ssl.SSLWantReadError):
            self.tls.do_handshake()
        return self._out.read()

    def _pump(self) -> None:
        pending = self._out.read()
        if pending:
            self.sock.sendall(pending)

    def _fill(self) -> bool:
        data = self.sock.recv(65536)
        if not data:
            self._in.write_eof()
            return False
        self._in.write(data)
        return True

    def handshake(self) -> None:
        while True:
            try:
                self.tls.do_handshake()
                self._pump()
                return
            except ssl.SSLWantReadError:
                self._pump()
                if not self._fill():
                    raise ConnectionError("the front closed the tunnel") from None
            except ssl.SSLError:
                self._pump()  # the alert that says why, as a real client sends it
                raise

    def send(self, data: bytes) -> None:
        self.tls.write(data)
        self._pump()

    def recv(self, size: int = 65536) -> bytes:
        while True:
            try:
                return self.tls.read(size)
            except ssl.SSLWantReadError:
                self._pump()
                if not self._fill():
                    return b""
            except (ssl.SSLZeroReturnError, ssl.SSLEOFError):
                return b""

    def answer(self) -> bytes:
        """One whole answer with a Content-Length (what the emulator sends)."""
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.recv()
            if not chunk:
                return data
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = 0
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        while len(body) < length:
            chunk = self.recv()
            if not chunk:
                break
            body += chunk
        return head + b"\r\n\r\n" + body

    def close(self) -> None:
        self.sock.close()

    def leave(self) -> None:
        """Close the sending side only: the front reads all that was sent, then the end.
        (A close with unread bytes here, such as TLS 1.3's session tickets, is a reset,
        and a reset can discard a request the front had not read yet.)"""
        self.sock.shutdown(socket.SHUT_WR)


def open_tunnel(port: int, secret: str | None, ca_cert: Path, *, agent: str = "abuse/1") -> Tunnel:
    """CONNECT, its 200, then TLS: a tunnel ready for requests."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S)
    sock.sendall(connect_request(secret, agent=agent))
    head, rest = read_head(sock)
    assert head.startswith(b"HTTP/1.1 200"), head
    tunnel = Tunnel(sock, ca_cert, rest)
    tunnel.handshake()
    return tunnel


def _socket(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S)


def pipelined(port: int, secret: str | None, ca_cert: Path) -> list[bytes]:
    """A ClientHello in the same write as the CONNECT, then two requests in one write:
    the answers (a ``rest.rate_limit`` and a ``rest.repos`` row)."""
    sock = _socket(port)
    tunnel = Tunnel(sock, ca_cert)
    sock.sendall(connect_request(secret, agent="pipelined/1") + tunnel.client_hello())
    head, rest = read_head(sock)
    assert head.startswith(b"HTTP/1.1 200"), head
    tunnel.feed(rest)
    tunnel.handshake()
    tunnel.send(
        get("/rate_limit", agent="pipelined/1") + get("/repos/acme/todo", agent="pipelined/1")
    )
    answers = [tunnel.answer(), tunnel.answer()]
    tunnel.close()
    return answers


def abandon(port: int, secret: str | None) -> None:
    """A CONNECT answered 200, then a close before any TLS (a ``front.tunnel-abandoned``)."""
    with _socket(port) as sock:
        sock.sendall(connect_request(secret, agent="abandon/1"))
        head, _ = read_head(sock)
        assert head.startswith(b"HTTP/1.1 200"), head


def idle(port: int, secret: str | None, *, after_connect: bool) -> bytes:
    """Nothing more after a CONNECT (``after_connect``: a ``front.tunnel-abandoned`` once
    the front's deadline passes) or half a head (no row); what the front sent before it
    closed the connection."""
    with _socket(port) as sock:
        if after_connect:
            sock.sendall(connect_request(secret, agent="idle/1"))
        else:
            sock.sendall(b"CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.git")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
        return data


def oversized(port: int, secret: str | None, ca_cert: Path, *, inside: bool) -> bytes:
    """A 1 MiB header, before the CONNECT (no credential seen: no row) or inside the
    tunnel (a ``front.refused`` row, 431); the front's answer's head."""
    big = b"X-Big: " + b"a" * (1 << 20) + b"\r\n"
    if not inside:
        with _socket(port) as sock:
            sock.sendall(b"GET http://api.github.com/rate_limit HTTP/1.1\r\n" + big + b"\r\n")
            return read_head(sock)[0]
    tunnel = open_tunnel(port, secret, ca_cert, agent="oversized/1")
    tunnel.send(b"GET /rate_limit HTTP/1.1\r\nHost: api.github.com\r\n" + big + b"\r\n")
    head = tunnel.answer().partition(b"\r\n\r\n")[0]
    tunnel.close()
    return head


def big_answer_then_leave(port: int, secret: str | None, ca_cert: Path, target: str) -> int:
    """Ask for a large answer, read a little of it and leave: the bytes of its body read
    (its head left out: the front counts an answer's body, ``responseBytes``)."""
    tunnel = open_tunnel(port, secret, ca_cert, agent="leaver/1")
    tunnel.send(get(target, agent="leaver/1"))
    got = b""
    while len(got) < 65536:
        chunk = tunnel.recv()
        if not chunk:
            break
        got += chunk
    tunnel.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
    tunnel.close()  # with unread bytes: a reset, as a killed client leaves
    head_end = got.find(b"\r\n\r\n")
    return len(got) - (head_end + 4 if head_end >= 0 else 0)


def distrusting_client(port: int, secret: str | None, agent: str) -> None:
    """A client that does not trust the front's CA: its alert ends the handshake."""
    sock = _socket(port)
    sock.sendall(connect_request(secret, agent=agent))
    head, rest = read_head(sock)
    assert head.startswith(b"HTTP/1.1 200"), head
    tunnel = Tunnel(sock, None, rest)
    try:
        tunnel.handshake()
    except ssl.SSLCertVerificationError:
        pass
    else:
        raise AssertionError("a client that trusts only the system's roots completed TLS")
    finally:
        tunnel.close()


def agent_name(i: int) -> str:
    """The User-Agents of many agents, some with what a warning must not echo."""
    return (
        f"agent-{i}/1.0" + ("\xe9\xff" if i % 7 == 0 else "") + ("x" * 200 if i % 11 == 0 else "")
    )


def hostile_battery(
    port: int, secret: str | None, ca_cert: Path, *, big_target: str, agents: int = 300
) -> Counter[str]:
    """Every kind of misbehaving client at once: the rows the front must write for
    them, by operation."""
    jobs: list[Callable[[], object]] = [
        lambda: pipelined(port, secret, ca_cert),
        lambda: abandon(port, secret),
        lambda: idle(port, secret, after_connect=True),
        lambda: idle(port, secret, after_connect=False),
        lambda: oversized(port, secret, ca_cert, inside=False),
        lambda: oversized(port, secret, ca_cert, inside=True),
        lambda: big_answer_then_leave(port, secret, ca_cert, big_target),
        lambda: idle(port, None, after_connect=True),  # a stranger: 407, no row
    ]
    jobs += [
        functools.partial(distrusting_client, port, secret, agent_name(i)) for i in range(agents)
    ]
    with ThreadPoolExecutor(16) as pool:
        for future in [pool.submit(job) for job in jobs]:
            future.result()
    return Counter(
        {
            "rest.rate_limit": 1,
            "rest.repos": 1,
            "rest.repos.contents": 1,
            "front.tunnel-abandoned": 2,
            "front.refused": 1,
            "front.tls-handshake": agents,
        }
    )
