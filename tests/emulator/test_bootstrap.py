"""The one way an emulator is served on sockets (``bootstrap``), seen through the
threaded server: accepted connections have TCP_NODELAY, late headers get a 408 without
cutting a kept-alive connection off, and any loopback family listens."""

from __future__ import annotations

import socket

import httpx
import pytest

from ghbench.emulator.bootstrap import ListenError, Listeners
from ghbench.emulator.core import Emulator
from ghbench.emulator.thread_server import EmulatorServer
from ghbench.errors import EmulatorError


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


def test_a_taken_port_or_unknown_host_is_one_line_naming_it() -> None:
    first = Listeners.open("127.0.0.1", 0)
    try:
        assert first.url == f"http://127.0.0.1:{first.port}" and first.port > 0
        with pytest.raises(ListenError) as taken:
            Listeners.open("127.0.0.1", first.port)
        assert str(taken.value).startswith(f"cannot listen on 127.0.0.1:{first.port} (")
        assert str(taken.value).endswith("choose another port, or 0 for a free one")
    finally:
        first.close()
    first.close()  # twice is harmless
    with pytest.raises(ListenError, match=r"cannot listen on no-such-host\.invalid:0"):
        Listeners.open("no-such-host.invalid", 0)
