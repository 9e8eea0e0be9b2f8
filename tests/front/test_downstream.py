"""ghbench.front.downstream: who a client is (its proxy credential, or the session in
the environment of the process that connected), and one client connection over a real
socket: requests as events, the front's own answers, deadlines, what is no TLS."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import datetime as dt
import socket
import ssl
from collections.abc import Awaitable, Callable

import pytest

from ghbench.front.ca import prepare_ca
from ghbench.front.downstream import (
    Caller,
    Downstream,
    Handshake,
    peer_session,
    proxy_credential,
    proxy_session_name,
)
from ghbench.front.http1 import END, Head
from ghbench.front.proxy import server_context
from tools import require_tool

SYSTEM_BUNDLE = "/etc/ssl/certs/ca-certificates.crt"


def _basic(user: str, password: str = "sec") -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def _caller(credential: str | None, secret: str | None = "sec") -> Caller:
    headers = [] if credential is None else [(b"proxy-authorization", credential.encode())]
    return Caller.of(Head(method=b"CONNECT", headers=headers), secret)


def test_the_proxy_credential_names_the_session_and_carries_the_secret() -> None:
    assert _caller(_basic("s-1")) == Caller(None, "s-1", authorized=True)
    assert _caller(_basic("-")) == Caller(None, None, authorized=True)  # no session
    assert _caller(_basic("s%201")).session is None  # a space: not a session name
    assert _caller(_basic("x" * 200)).session is None
    assert not _caller(_basic("s-1", "wrong")).authorized
    assert not _caller(_basic("s-1", "")).authorized
    assert not _caller(None).authorized
    assert not _caller("Bearer sec").authorized
    assert not _caller("Basic !!!").authorized
    assert _caller(None, secret=None).authorized  # a front without a secret
    assert proxy_credential(_basic("a:b", "c")) == ("a", "b:c")


@pytest.mark.parametrize(
    ("name", "ok"),
    [("ta-1", True), ("app:7.x_y", True), ("-", False), ("", False), ("a/b", False), ("é", False)],
)
def test_a_session_name_is_short_and_plain(name: str, ok: bool) -> None:
    assert proxy_session_name(name) is ok
    assert proxy_session_name("s" * 128) and not proxy_session_name("s" * 129)


def test_the_caller_keeps_its_user_agent() -> None:
    head = Head(headers=[(b"user-agent", b"GitHub CLI 2.102.0")])
    assert Caller.of(head, None) == Caller("GitHub CLI 2.102.0", None, authorized=True)


Client = Callable[[int], Awaitable[object]]


def _serve(client: Client, server: Callable[[Downstream], Awaitable[object]]) -> object:
    """``server`` handles the one connection ``client`` makes; what ``server`` returned."""

    async def main() -> object:
        done: asyncio.Future[object] = asyncio.get_running_loop().create_future()

        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            down = Downstream(reader, writer, head_timeout=5.0)
            try:
                done.set_result(await server(down))
            except BaseException as exc:
                done.set_exception(exc)
            finally:
                down.close()

        listening = await asyncio.start_server(handle, "127.0.0.1", 0)
        async with listening:
            port = listening.sockets[0].getsockname()[1]
            await client(port)
            return await done

    return asyncio.run(asyncio.wait_for(main(), 30))


def _sends(data: bytes, *, reads: bool = False) -> Client:
    async def client(port: int) -> bytes:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(data)
        writer.write_eof()
        answer = await reader.read() if reads else b""
        writer.close()
        return answer

    return client


def test_pipelined_requests_then_none_at_the_clients_end() -> None:
    async def server(down: Downstream) -> list[object]:
        return [await down.event() for _ in range(5)]

    sent = b"GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n"
    first, end1, second, end2, gone = _serve(_sends(sent), server)  # type: ignore[misc]
    assert isinstance(first, Head) and isinstance(second, Head)
    assert (first.target, second.target, end1, end2, gone) == (b"/a", b"/b", END, END, None)


def test_a_client_that_sends_nothing_is_cut_at_the_idle_deadline() -> None:
    async def client(port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        await reader.read()  # until the front cuts it
        writer.close()

    async def server(down: Downstream) -> tuple[object, bool]:
        return await down.event(idle=0.05), down.expired

    assert _serve(client, server) == (None, True)


def test_the_fronts_own_answer_is_a_whole_response_that_closes() -> None:
    answers: list[bytes] = []

    async def client(port: int) -> None:
        answers.append(await _sends(b"GET / HTTP/1.1\r\n\r\n", reads=True)(port))  # type: ignore[arg-type]

    async def server(down: Downstream) -> None:
        await down.event()
        await down.answer(407, "proxy credential needed \u2014 set HTTPS_PROXY", [(b"x-a", b"1")])

    _serve(client, server)
    head, _, body = answers[0].partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.1 407 proxy credential needed ? set HTTPS_PROXY"
    assert b"x-a: 1" in head and b"connection: close" in head
    assert body == "proxy credential needed \u2014 set HTTPS_PROXY\n".encode()


@pytest.fixture(scope="module")
def tls(tmp_path_factory: pytest.TempPathFactory) -> tuple[ssl.SSLContext, ssl.SSLContext]:
    """The front's server context for api.github.com, and a client's that trusts its CA."""
    now = dt.datetime.now(dt.UTC)
    run = prepare_ca(tmp_path_factory.mktemp("ca"), ["api.github.com"], now, base_bundle=None)
    server = server_context(run.leaf_cert, run.leaf_key)
    client = ssl.create_default_context(cafile=str(run.cert))
    return server, client


def test_a_request_inside_tls_is_an_event(tls: tuple[ssl.SSLContext, ssl.SSLContext]) -> None:
    server_tls, client_tls = tls
    got: list[object] = []

    async def client(port: int) -> None:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, ssl=client_tls, server_hostname="api.github.com"
        )
        writer.write(b"GET /user HTTP/1.1\r\nHost: api.github.com\r\n\r\n")
        await writer.drain()
        got.append(await reader.read())
        writer.close()

    async def server(down: Downstream) -> tuple[Handshake, object]:
        outcome, _ = await down.start_tls(server_tls, b"")
        head = await down.event()
        await down.answer(418, "teapot")
        return outcome, head

    outcome, head = _serve(client, server)  # type: ignore[misc]
    assert outcome is Handshake.DONE and isinstance(head, Head) and head.target == b"/user"
    assert got[0].startswith(b"HTTP/1.1 418 teapot\r\n")  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("sent", "outcome"),
    [
        (b"GET / HTTP/1.1\r\n\r\n", Handshake.NOT_TLS),  # plain HTTP inside the tunnel
        (b"", Handshake.ABANDONED),  # closed before any TLS
    ],
)
def test_a_handshake_that_fails_says_how(
    sent: bytes, outcome: Handshake, tls: tuple[ssl.SSLContext, ssl.SSLContext]
) -> None:
    async def server(down: Downstream) -> tuple[Handshake, str]:
        return await down.start_tls(tls[0], b"")

    got, why = _serve(_sends(sent), server)  # type: ignore[misc]
    assert got is outcome and why


def test_a_client_that_distrusts_the_ca_is_an_alert(
    tls: tuple[ssl.SSLContext, ssl.SSLContext],
) -> None:
    def handshake(port: int) -> None:  # OpenSSL's own client, which sends its alert
        distrusting = ssl.create_default_context(cafile=SYSTEM_BUNDLE)
        with (
            socket.create_connection(("127.0.0.1", port), timeout=10) as raw,
            contextlib.suppress(ssl.SSLError, ConnectionError),
        ):
            distrusting.wrap_socket(raw, server_hostname="api.github.com")

    async def client(port: int) -> None:
        await asyncio.to_thread(handshake, port)

    async def server(down: Downstream) -> tuple[Handshake, str]:
        return await down.start_tls(tls[0], b"")

    outcome, why = _serve(client, server)  # type: ignore[misc]
    assert outcome is Handshake.ALERT and "UNKNOWN_CA" in why


def test_the_session_is_read_from_the_environment_of_the_process_that_connected() -> None:
    bash = require_tool("bash")

    async def connect(port: int, session: str) -> None:
        script = f"exec 3<>/dev/tcp/127.0.0.1/{port}; read -t 10 <&3"
        process = await asyncio.create_subprocess_exec(
            bash, "-c", script, env={"AO_SESSION_ID": session, "PATH": "/usr/bin:/bin"}
        )
        await process.wait()

    async def server(down: Downstream) -> str:
        return await asyncio.to_thread(peer_session, down.writer, ("X_NONE", "AO_SESSION_ID"))

    assert _serve(lambda port: connect(port, "ta-7"), server) == "ta-7"
    assert _serve(lambda port: connect(port, "not a name"), server) == ""
