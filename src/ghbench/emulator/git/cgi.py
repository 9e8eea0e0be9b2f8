"""git's own ``git http-backend`` (a CGI program) behind an ASGI request, streamed.

The request body goes to the program's stdin as it arrives and its stdout goes to
the client as it is written, so a large push or clone never sits in memory and the
event loop never waits on git (asyncio subprocess pipes). The program runs in its
own process group; a client that goes away, or an emulator that stops, ends the group.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from pathlib import Path
from typing import Any

from ghbench.emulator.git.command import git_env

__all__ = ["cgi_environment", "plain_answer", "run_http_backend"]

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_CHUNK = 64 * 1024
_HEADER_MAX = 64 * 1024
_STOP_GRACE_S = 2.0


def cgi_environment(
    root: Path,
    path_info: str,
    method: str,
    query: str,
    headers: Mapping[str, str],
    *,
    remote_user: str | None,
    remote_addr: str,
) -> dict[str, str]:
    """The CGI variables ``git http-backend`` reads (RFC 3875; request headers as
    ``HTTP_*``: ``Git-Protocol`` selects protocol v2, ``Content-Encoding`` gzip)."""
    env = git_env(root)
    del env["GIT_DIR"]
    env.update(
        {
            "GIT_PROJECT_ROOT": str(root),
            "GIT_HTTP_EXPORT_ALL": "1",
            "GATEWAY_INTERFACE": "CGI/1.1",
            "REQUEST_METHOD": method,
            "PATH_INFO": path_info,
            "QUERY_STRING": query,
            "REMOTE_ADDR": remote_addr,
        }
    )
    if remote_user:
        env["REMOTE_USER"] = remote_user
    for name, value in headers.items():
        if name == "authorization":
            continue  # checked already; never handed to a child process
        if name == "content-type":
            env["CONTENT_TYPE"] = value
        elif name == "content-length":
            env["CONTENT_LENGTH"] = value
        else:
            env["HTTP_" + name.upper().replace("-", "_")] = value
    return env


async def _feed(stdin: asyncio.StreamWriter, receive: Receive) -> None:
    try:
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            if chunk:
                stdin.write(chunk)
                await stdin.drain()
            if not message.get("more_body", False):
                return
    except (BrokenPipeError, ConnectionResetError):
        return  # git stopped reading (an error it will report on stdout)
    finally:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            stdin.close()


def _split_head(head: bytes) -> tuple[int, list[tuple[bytes, bytes]]]:
    status, headers = 200, []
    for line in head.replace(b"\r\n", b"\n").split(b"\n"):
        name, _, value = line.partition(b":")
        if not name:
            continue
        if name.strip().lower() == b"status":
            status = int(value.strip().split(b" ", 1)[0] or b"500")
        else:
            headers.append((name.strip().lower(), value.strip()))
    return status, headers


async def plain_answer(
    send: Send, status: int, message: str, extra: list[tuple[bytes, bytes]] | None = None
) -> None:
    """A ``text/plain`` answer (git prints such a body as ``remote: ...``)."""
    body = (message + "\n").encode() if message else b""
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    headers.append((b"content-length", str(len(body)).encode()))
    await send(
        {"type": "http.response.start", "status": status, "headers": headers + (extra or [])}
    )
    await send({"type": "http.response.body", "body": body})


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(process.wait(), _STOP_GRACE_S)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()


async def run_http_backend(
    env: Mapping[str, str],
    receive: Receive,
    send: Send,
    before_end: Callable[[], Awaitable[None]] | None = None,
) -> int:
    """Answer one request with ``git http-backend``; returns its exit status.

    ``before_end`` runs once git has exited and before the answer's last (empty) chunk
    is sent: a git client waits for the end of the answer, so what it does (importing
    a push) is done before the client's ``git push`` returns."""
    try:
        process = await asyncio.create_subprocess_exec(
            "git",
            "http-backend",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=dict(env),
            start_new_session=True,
        )
    except OSError as exc:
        await plain_answer(send, 500, f"the emulator cannot run git ({exc.strerror}); install git")
        return 127
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    feeder = asyncio.create_task(_feed(process.stdin, receive))
    errors = asyncio.create_task(process.stderr.read())
    try:
        head = b""
        while b"\r\n\r\n" not in head and b"\n\n" not in head and len(head) < _HEADER_MAX:
            chunk = await process.stdout.read(_CHUNK)
            if not chunk:
                break
            head += chunk
        if not head:  # git wrote no answer at all: say what it said instead
            code = await process.wait()
            said = (await errors).decode(errors="replace").strip().splitlines()
            await plain_answer(
                send, 500, f"git http-backend failed ({code}): {said[-1] if said else ''}"
            )
            return code
        sep = b"\r\n\r\n" if b"\r\n\r\n" in head else b"\n\n"
        header_part, _, body = head.partition(sep)
        status, headers = _split_head(header_part)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        while True:
            if body:
                await send({"type": "http.response.body", "body": body, "more_body": True})
            body = await process.stdout.read(_CHUNK)
            if not body:
                break
        await feeder
        code = await process.wait()
        if before_end is not None:
            await before_end()
        await send({"type": "http.response.body", "body": b""})
        return code
    finally:
        feeder.cancel()
        await _stop(process)
        errors.cancel()
