"""ghbench.front.upstream: the front's HTTP/1.1 client against a real server on a real
socket (asyncio's own, answering canned bytes): kept-alive connections pooled and
reused, a body delimited by the close, and servers that leave early."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from ghbench.front.http1 import request_head
from ghbench.front.settings import Upstream
from ghbench.front.upstream import UpstreamPool

GET = request_head(b"GET", b"/user", [(b"host", b"api.github.com")])
Answer = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


def _no_tls() -> object:
    raise AssertionError("no https destination here")


async def _served(
    answer: Answer, where: Path | None, go: Callable[[Upstream], Awaitable[None]]
) -> int:
    """Run ``go`` against a server answering each connection with ``answer``; the number
    of connections it took."""
    connections = 0

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        try:
            await answer(reader, writer)
        finally:
            writer.close()

    if where is None:
        server = await asyncio.start_server(handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        destination = Upstream("http", "127.0.0.1", port)
    else:
        server = await asyncio.start_unix_server(handle, str(where))
        destination = Upstream("http", "localhost", 0, str(where))
    async with server:
        await go(destination)
    return connections


async def _requests(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Answer every request on the connection with a two-byte body."""
    while await reader.readuntil(b"\r\n\r\n"):
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        await writer.drain()


def _run(
    answer: Answer,
    go: Callable[[UpstreamPool, Upstream], Awaitable[None]],
    where: Path | None = None,
) -> int:
    pool = UpstreamPool(_no_tls)  # type: ignore[arg-type]

    async def main() -> int:
        try:
            return await _served(answer, where, lambda destination: go(pool, destination))
        finally:
            pool.close()

    return asyncio.run(asyncio.wait_for(main(), 30))


async def _exchange(
    pool: UpstreamPool, destination: Upstream, *, fresh: bool = False
) -> tuple[int, bytes, bool]:
    connection = await pool.acquire(destination, fresh=fresh)
    try:
        connection.write(GET)
        await connection.drain()
        head = await connection.response()
        body = b"".join([chunk async for chunk in connection.body()])
    except BaseException:
        connection.close()  # as the relay does with a connection that failed
        raise
    connection.finished(head)
    reused = connection.reused
    pool.release(connection)
    return head.status, body, reused


@pytest.mark.parametrize("unix", [False, True], ids=["tcp", "unix"])
def test_a_kept_alive_connection_is_reused(unix: bool, tmp_path: Path) -> None:
    seen: list[tuple[int, bytes, bool]] = []

    async def go(pool: UpstreamPool, destination: Upstream) -> None:
        for _ in range(3):
            seen.append(await _exchange(pool, destination))
        seen.append(await _exchange(pool, destination, fresh=True))

    connections = _run(_requests, go, tmp_path / "gh.sock" if unix else None)
    assert seen == [
        (200, b"ok", False),
        (200, b"ok", True),
        (200, b"ok", True),
        (200, b"ok", False),
    ]
    assert connections == 2


def test_a_connection_the_server_will_close_is_not_pooled() -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
        await writer.drain()

    seen: list[tuple[int, bytes, bool]] = []

    async def go(pool: UpstreamPool, destination: Upstream) -> None:
        seen.append(await _exchange(pool, destination))
        seen.append(await _exchange(pool, destination))

    assert _run(answer, go) == 2
    assert seen == [(200, b"ok", False), (200, b"ok", False)]


def test_a_body_delimited_by_the_close_ends_there() -> None:
    """Neither a length nor chunked: the body is what came before the server closed."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nhello ")
        await writer.drain()
        writer.write(b"world")

    seen: list[tuple[int, bytes, bool]] = []

    async def go(pool: UpstreamPool, destination: Upstream) -> None:
        seen.append(await _exchange(pool, destination))

    _run(answer, go)
    assert seen == [(200, b"hello world", False)]


@pytest.mark.parametrize(
    ("sent", "message"),
    [
        (b"", "before answering"),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", "mid-answer"),
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", "mid-answer"),
    ],
)
def test_a_server_that_leaves_early_is_a_reset_that_says_when(sent: bytes, message: str) -> None:
    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(sent)
        await writer.drain()

    async def go(pool: UpstreamPool, destination: Upstream) -> None:
        with pytest.raises(ConnectionResetError, match=message):
            await _exchange(pool, destination)

    _run(answer, go)
