"""The emulator over a real socket: uvicorn in a thread and as a child process."""

from __future__ import annotations

import socket
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from emu_helpers import TOKEN

from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.emulator.core import Emulator
from ghbench.emulator.process import start_emulator_process
from ghbench.emulator.thread_server import EmulatorServer
from ghbench.errors import EmulatorError


def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(request)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


@pytest.fixture(params=["h11", "httptools"])
def any_parser(request: pytest.FixtureRequest, emulator: Emulator) -> Iterator[int]:
    """The emulator served with uvicorn's h11 parser and with the default (httptools)."""
    with EmulatorServer(emulator, http=request.param) as server:
        yield server.port


def test_absolute_form_target_routes_like_a_path(any_parser: int) -> None:
    reply = _raw(
        any_parser,
        b"GET http://api.github.localhost/repos/acme/todo?x=1 HTTP/1.1\r\n"
        b"Host: api.github.localhost\r\n"
        b"Authorization: token " + TOKEN.encode() + b"\r\nConnection: close\r\n\r\n",
    )
    head, _, body = reply.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200")
    assert b"x-ratelimit-resource: core" in head
    assert b'"url":"http://api.github.localhost/repos/acme/todo"' in body


def test_connect_is_refused_with_a_message(any_parser: int) -> None:
    reply = _raw(
        any_parser,
        b"CONNECT api.github.com:443 HTTP/1.1\r\nHost: api.github.com:443\r\n"
        b"Connection: close\r\n\r\n",
    )
    assert reply.startswith(b"HTTP/1.1 405")
    assert b"refusing CONNECT api.github.com:443" in reply
    assert b"GH_HOST=github.localhost" in reply


@pytest.mark.needs("curl")
def test_curl_through_the_proxy(emulator_server: Any) -> None:
    proxied = subprocess.run(
        ["curl", "-sS", "-x", emulator_server.url, "http://api.github.localhost/rate_limit"],
        capture_output=True,
        timeout=30,
    )
    assert proxied.returncode == 0 and b'"resources"' in proxied.stdout
    tunnel = subprocess.run(
        ["curl", "-sS", "-v", "-x", emulator_server.url, "https://api.github.com/"],
        capture_output=True,
        timeout=30,
    )
    assert tunnel.returncode != 0  # nothing leaves the machine
    assert b"CONNECT api.github.com:443" in tunnel.stderr
    assert b"405" in tunnel.stderr


def test_httpx_over_the_socket_matches_the_ledger(emulator_server: Any) -> None:
    headers = {"Authorization": f"token {emulator_server.token}"}
    with httpx.Client(base_url=emulator_server.url, headers=headers) as client:
        seen = [client.get("/repos/acme/todo") for _ in range(5)]
    used = int(seen[-1].headers["x-ratelimit-used"])
    assert used == 5 == sum(e.cost for e in emulator_server.emulator.ledger_entries())


@pytest.mark.slow
def test_concurrency_limit_counts_in_flight_requests() -> None:
    emulator = Emulator()  # real clock: the latency is slept by the server
    emulator.create_user("octo", [TOKEN])
    emulator.create_repo("acme/todo")
    emulator.set_secondary(max_concurrent=2)
    emulator.set_faults(latency="fixed", latency_ms=600)
    statuses: list[int] = []
    barrier = threading.Barrier(6)

    def call(url: str) -> None:
        with httpx.Client(base_url=url, headers={"Authorization": f"token {TOKEN}"}) as c:
            barrier.wait()
            statuses.append(c.get("/repos/acme/todo").status_code)

    with EmulatorServer(emulator) as server:
        threads = [threading.Thread(target=call, args=(server.url,)) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    assert 200 in statuses and 429 in statuses
    assert len(emulator.ledger_entries()) == statuses.count(200)


@pytest.mark.slow
def test_process_survives_kill_9_and_resumes(tmp_path: Path) -> None:
    state = tmp_path / "state"
    with start_emulator_process(state, tokens=[TOKEN], repos=["acme/todo"]) as proc:
        headers = {"Authorization": f"token {TOKEN}"}
        with httpx.Client(base_url=proc.url, headers=headers) as client:
            made = client.post(
                "/_ghbench/repos/acme/todo/pulls",
                json={"head": "feat/a"},
                headers={CONTROL_KEY_HEADER: proc.control_key},
            )
            assert made.json() == {"number": 1}
            used = client.get("/repos/acme/todo/pulls/1").headers["x-ratelimit-used"]
        proc.kill()  # no clean shutdown: every acknowledged write must already be on disk
    with start_emulator_process(state, tokens=[TOKEN]) as again:
        with httpx.Client(base_url=again.url, headers=headers) as client:
            pull = client.get("/repos/acme/todo/pulls/1")
            assert pull.json()["head"]["ref"] == "feat/a"
            assert int(pull.headers["x-ratelimit-used"]) == int(used) + 1
        assert again.stop() == 0  # SIGTERM: clean exit


def test_asgi_app_in_process_with_httpx(emulator: Emulator) -> None:
    import asyncio

    from ghbench.emulator.asgi import EmulatorApp

    async def run() -> httpx.Response:
        transport = httpx.ASGITransport(app=EmulatorApp(emulator))
        async with httpx.AsyncClient(
            transport=transport, base_url="http://api.github.localhost"
        ) as client:
            return await client.get("/repos/acme/todo", headers={"Authorization": f"token {TOKEN}"})

    response = asyncio.run(run())
    assert response.status_code == 200 and response.json()["full_name"] == "acme/todo"


# -- one bootstrap: TCP_NODELAY, a header timeout, any loopback family -------------------
def test_accepted_connections_have_tcp_nodelay(emulator: Emulator) -> None:
    """Issue 14 case 5: serve's own socket lacked IPPROTO_TCP, so asyncio never set
    TCP_NODELAY (48 ms per keep-alive GET); both ways of serving share Listeners now."""
    with EmulatorServer(emulator) as server:
        assert server._listeners is not None
        assert server._listeners.tcp.proto == socket.IPPROTO_TCP
        with httpx.Client(base_url=server.url) as client:
            assert client.get("/rate_limit").status_code == 200
            uvicorn_server = server._server
            assert uvicorn_server is not None
            (protocol,) = uvicorn_server.server_state.connections
            accepted = protocol.transport.get_extra_info("socket")
            assert accepted.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0


def _half_request(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(b"GET /rate_limit HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    return sock


@pytest.mark.slow
def test_slow_headers_are_cut_off(emulator: Emulator) -> None:
    """Issue 12 case 11: 400 slowloris connections were held for 40 s; each now gets a
    408 and is closed once its headers are late (a short timeout here, 10 s by default)."""
    with EmulatorServer(emulator, header_timeout_s=0.5) as server:
        slow = [_half_request(server.port) for _ in range(50)]
        idle = socket.create_connection(("127.0.0.1", server.port), timeout=30)  # says nothing
        try:
            with httpx.Client(base_url=server.url) as client:  # others are still served
                assert client.get("/rate_limit").status_code == 200
            for sock in [*slow, idle]:
                answer = b""
                while chunk := sock.recv(4096):  # until the server closes (30 s at most)
                    answer += chunk
                assert answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
        finally:
            for sock in [*slow, idle]:
                sock.close()


@pytest.mark.slow
def test_a_kept_alive_connection_is_not_cut_off_between_requests(emulator: Emulator) -> None:
    server = EmulatorServer(emulator, header_timeout_s=0.3)
    with server, httpx.Client(base_url=server.url) as client:
        assert client.get("/rate_limit").status_code == 200
        # idle past the header timeout (within keep-alive's 5 s): a connection opened
        # after the last request, that sends half a request, is timed out first
        host, port = server.url.removeprefix("http://").rsplit(":", 1)
        with socket.create_connection((host, int(port))) as late:
            late.sendall(b"GET /rate_limit HTTP/1.1\r\n")
            assert late.recv(4096).startswith(b"HTTP/1.1 408 Request Timeout\r\n")
        assert client.get("/rate_limit").status_code == 200
        assert server._server is not None
        assert len(server._server.server_state.connections) == 1  # the same connection


@pytest.mark.skipif(not socket.has_ipv6, reason="no IPv6 in this kernel")
def test_ipv6_loopback(emulator: Emulator) -> None:
    try:
        server = EmulatorServer(emulator, host="::1")
        url = server.start()
    except EmulatorError as exc:  # IPv6 compiled in but not configured
        pytest.skip(f"no ::1 here: {exc}")
    try:
        assert url.startswith("http://[::1]:")
        assert httpx.get(f"{url}/rate_limit").status_code == 200
    finally:
        server.stop()


def test_an_over_limit_json_body_over_the_socket_is_413(emulator: Emulator) -> None:
    """Issue 12 case 11: an 11 MiB JSON body was a 400 "Problems parsing JSON" (the
    adapter kept a truncated body under the limit, which the core then parsed)."""
    body = b'{"title": "x", "body": "' + b"a" * (11 * 1024 * 1024) + b'"}'
    headers = {"Authorization": f"token {TOKEN}", "content-type": "application/json"}
    with EmulatorServer(emulator) as server:
        for path in ("/repos/acme/todo/issues", "/graphql"):
            response = httpx.post(server.url + path, content=body, headers=headers, timeout=60)
            assert response.status_code == 413, response.text
