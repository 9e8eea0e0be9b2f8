"""The emulator over a real socket: uvicorn in a thread (its bootstrap in
``test_bootstrap.py``, the child process in ``test_process.py``)."""

from __future__ import annotations

import socket
import subprocess
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from emu_helpers import TOKEN

from ghbench.emulator.core import Emulator
from ghbench.emulator.thread_server import EmulatorServer


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


def test_an_over_limit_json_body_over_the_socket_is_413(emulator: Emulator) -> None:
    """Issue 12 case 11: an 11 MiB JSON body was a 400 "Problems parsing JSON" (the
    adapter kept a truncated body under the limit, which the core then parsed)."""
    body = b'{"title": "x", "body": "' + b"a" * (11 * 1024 * 1024) + b'"}'
    headers = {"Authorization": f"token {TOKEN}", "content-type": "application/json"}
    with EmulatorServer(emulator) as server:
        for path in ("/repos/acme/todo/issues", "/graphql"):
            response = httpx.post(server.url + path, content=body, headers=headers, timeout=60)
            assert response.status_code == 413, response.text
