"""The ASGI adapter: bytes in, ``Emulator.handle``, bytes out.

A plain ASGI callable rather than a starlette router: starlette would 404 a
``CONNECT api.github.com:443`` (its target is not a path) before we could answer
with a message that explains it, and the core already routes. It works under
uvicorn and with ``httpx.ASGITransport``. git's smart HTTP protocol is answered
first, streamed and free (``git_http.py``). The adapter counts in-flight requests
per credential (for the concurrency secondary limit) and waits out injected
latency with ``asyncio.sleep``, so slow responses overlap like real ones.

The core runs in worker threads, never on the event loop: while one request is
computed, the loop keeps reading, answering and accepting for everyone else, and the
core's turnstile decides who goes next (``fairness.py``). There are enough workers
(``WORKERS``) that requests waiting their turn never keep a new one from starting.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from collections.abc import Awaitable, Callable, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ghbench.emulator.core import Emulator
from ghbench.emulator.git_http import GitHttp, git_target
from ghbench.emulator.http import EmuRequest, EmuResponse

__all__ = ["WORKERS", "EmulatorApp"]

WORKERS = 64

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


class EmulatorApp:
    """ASGI application serving one :class:`Emulator`."""

    def __init__(self, emulator: Emulator) -> None:
        self.emulator = emulator
        self.in_flight: dict[str, int] = defaultdict(int)
        self.git_http = GitHttp(emulator)
        self._workers = ThreadPoolExecutor(WORKERS, thread_name_prefix="ghbench-emulator")

    def close(self) -> None:
        """Stop the worker threads (requests still running finish first)."""
        self._workers.shutdown(wait=True, cancel_futures=True)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        git = git_target(scope.get("path", "/"), scope.get("query_string", b"").decode("latin-1"))
        if git is not None:  # git's smart HTTP: streamed, free (git_http.py)
            await self.git_http(git, scope, receive, send)
            return
        # keep at most one byte over the limit, so the core sees "too large" (413)
        keep = self.emulator.config.max_body_bytes + 1
        chunks: list[bytes] = []
        kept = 0
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return  # the client hung up mid-body: nothing to answer
            chunk = message.get("body", b"")
            if kept < keep:
                chunks.append(chunk[: keep - kept])
                kept += len(chunks[-1])
            more = bool(message.get("more_body", False))
        headers: dict[str, str] = {}
        for raw_name, raw_value in scope.get("headers", ()):
            name = raw_name.decode("latin-1").lower()
            value = raw_value.decode("latin-1")
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        client = scope.get("client") or ("127.0.0.1", 0)
        credential = headers.get("authorization") or f"ip:{client[0]}"
        self.in_flight[credential] += 1
        try:
            request = EmuRequest(
                method=scope["method"],
                path=_request_path(scope),
                query=scope.get("query_string", b"").decode("latin-1"),
                headers=headers,
                body=b"".join(chunks),
                client=str(client[0]),
                concurrency=self.in_flight[credential],
            )
            loop = asyncio.get_running_loop()
            gone = threading.Event()
            watcher = asyncio.ensure_future(_watch_disconnect(receive, gone))
            try:
                answer = await loop.run_in_executor(
                    self._workers, _unless_gone, self.emulator.handle, request, gone
                )
            finally:
                watcher.cancel()
            if answer is None:
                return  # the client hung up before its turn came: nothing was done
            response = answer
            if response.delay_s > 0:
                await asyncio.sleep(response.delay_s)
        finally:
            self.in_flight[credential] -= 1
            if not self.in_flight[credential]:
                del self.in_flight[credential]
        raw_headers = [
            (k.encode("latin-1"), v.encode("latin-1")) for k, v in response.headers.items()
        ]
        if response.status != 304 and scope["method"] != "HEAD":
            raw_headers.append((b"content-length", str(len(response.body)).encode()))
        await send(
            {"type": "http.response.start", "status": response.status, "headers": raw_headers}
        )
        await send({"type": "http.response.body", "body": response.body})

    @staticmethod
    async def _lifespan(receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return


def _request_path(scope: Scope) -> str:
    """The target's path as the client sent it, percent-encoding kept: the route table
    decodes each parameter once, after matching, so an encoded ``?`` or ``/`` inside
    a ref stays part of it (ASGI's ``path`` is already decoded: ``%3F`` there would
    end the path). An absolute-form target arrives whole in ``path`` only."""
    raw = scope.get("raw_path")
    path = scope.get("path", "/")
    if not raw or path.startswith(("http://", "https://")):
        return str(path)
    return bytes(raw).decode("latin-1").partition("?")[0] or "/"


async def _watch_disconnect(receive: Receive, gone: threading.Event) -> None:
    """Set ``gone`` when the client disconnects (the body has been read by then)."""
    while (await receive())["type"] != "http.disconnect":
        pass
    gone.set()


def _unless_gone(
    handle: Callable[[EmuRequest], EmuResponse], request: EmuRequest, gone: threading.Event
) -> EmuResponse | None:
    """The request's answer, or None when its client left while it queued for a worker:
    a client that times out and retries must not leave work queued ahead of live
    clients. A request already running is finished (its charge and writes are
    committed) even if nobody reads the answer."""
    return None if gone.is_set() else handle(request)
