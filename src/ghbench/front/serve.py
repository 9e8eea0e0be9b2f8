"""The front's process: ``python -m ghbench.front.serve``, started by ``process.start_front``.

It reads its ``FrontSettings`` from the first line of stdin, raises its open-files
limit to the hard limit (each client holds a descriptor, and one more upstream; at
Debian's default of 1,024 a few hundred idle clients would shut new ones out), mints
the run's CA, listens on loopback, forks its workers (``workers``: one per core,
sharing the port), prints one ``Ready`` line, then serves on uvloop until it is told
to close, its stdin ends (its parent is gone, however it died) or SIGTERM/SIGINT
arrives. Control commands come one per line on stdin and are answered one per line
on stdout (``settings.Command`` / ``Reply``), for all the workers at once. A start-up
failure is one line on stderr and exit 1.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import os
import resource
import signal
import socket
import ssl
import sys
import traceback
from collections.abc import Callable
from pathlib import Path

import msgspec
import uvloop

from ghbench.clock import SystemClock
from ghbench.errors import GhbenchError
from ghbench.front.ca import prepare_ca, system_bundle
from ghbench.front.hosts import GITHUB_HOSTS
from ghbench.front.proxy import FrontServer, Limits, server_context
from ghbench.front.relay import Relay
from ghbench.front.settings import Command, FrontSettings, Ready, Reply, parse_upstream
from ghbench.front.sink import TraceSink
from ghbench.front.upstream import UpstreamPool
from ghbench.front.workers import Child, SharedMeter, listen, merge, reap

__all__ = ["MAX_WORKERS", "main"]

MAX_WORKERS = 4  # by default one per core, up to this many


@functools.cache
def _client_tls() -> ssl.SSLContext:
    """Trust for the front's own HTTPS requests (forward mode): the system's roots, or
    ``SSL_CERT_FILE`` when the front was started with one; HTTP/1.1 only."""
    context = ssl.create_default_context()
    context.set_alpn_protocols(["http/1.1"])
    return context


def _raise_open_files() -> int:
    """The open-files soft limit raised to the hard limit; the limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (OSError, ValueError):
            return soft
    return hard


def _reply(reply: Reply | Ready) -> None:
    sys.stdout.buffer.write(msgspec.json.encode(reply) + b"\n")
    sys.stdout.buffer.flush()


def _first_line() -> bytes:
    """The settings line, read from fd 0 without read-ahead: the commands after it
    belong to the event loop's reader."""
    line = bytearray()
    while not line.endswith(b"\n"):
        byte = os.read(0, 1)
        if not byte:
            break
        line += byte
    return bytes(line)


async def _children_replies(children: list[Child], line: bytes) -> list[Reply]:
    """Pass a command line on to every worker; their replies (in a thread: the pipes
    are blocking, and a worker answers at once)."""

    def ask() -> list[Reply]:
        replies = []
        for child in children:
            os.write(child.commands, line)
        for child in children:
            answer = bytearray()
            while not answer.endswith(b"\n"):
                chunk = os.read(child.replies, 1 << 16)
                if not chunk:
                    raise GhbenchError(f"the front's worker {child.pid} has stopped")
                answer += chunk
            replies.append(msgspec.json.decode(bytes(answer), type=Reply))
        return replies

    return await asyncio.to_thread(ask) if children else []


async def _control(sink: TraceSink, stop: asyncio.Event, children: list[Child]) -> None:
    """Answer commands from stdin until ``close`` or end-of-file, then set ``stop``:
    this process's segment merged with its workers' (a worker has none of its own)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    decoder = msgspec.json.Decoder(Command)
    try:
        while line := await reader.readline():
            try:
                command = decoder.decode(line)
            except msgspec.DecodeError as exc:
                _reply(Reply(counts=sink.report().counts, error=f"bad command: {exc}"))
                continue
            theirs = await _children_replies(children, line)
            if command.op == "status":
                ours = sink.report()
            elif command.op == "trace":
                ours = sink.switch(command.path, command.agent_path)
            else:
                sink.close()
                ours = sink.report()
            _reply(merge([ours, *theirs]) if theirs else ours)
            if command.op == "close":
                return
    finally:
        stop.set()


async def _serve(
    sock: socket.socket, ready: Ready | None, server: FrontServer, children: list[Child]
) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    listener = await asyncio.start_server(server.handle, sock=sock, limit=1 << 20)
    if ready is not None:
        _reply(ready)
    control = asyncio.ensure_future(_control(server.sink, stop, children))
    try:
        await stop.wait()
    finally:
        listener.close()
        server.close()
        control.cancel()
        server.sink.close()


def _fork_worker(
    serve: Callable[[], None], keep: socket.socket, others: list[socket.socket]
) -> Child:
    """A worker process serving ``keep``; its commands on its stdin, replies on its
    stdout (pipes to us: it never touches ghbench's)."""
    commands_r, commands_w = os.pipe()
    replies_r, replies_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker
        code = 0
        try:
            os.dup2(commands_r, 0)
            os.dup2(replies_w, 1)
            for fd in (commands_r, commands_w, replies_r, replies_w):
                os.close(fd)
            for sock in others:
                if sock is not keep:
                    sock.close()
            serve()
        except BaseException:
            traceback.print_exc()
            code = 1
        finally:
            os._exit(code)
    os.close(commands_r)
    os.close(replies_w)
    keep.close()
    return Child(pid, commands_w, replies_r)


def run(settings: FrontSettings) -> None:
    """Prepare the CA, listen, fork the workers and serve until stopped (see the
    module docstring)."""
    clock = SystemClock()
    upstream = parse_upstream(settings.upstream, "upstream") if settings.upstream else None
    if settings.mode == "emulate" and upstream is None:
        raise GhbenchError("the front in emulate mode needs the emulator's address (upstream)")
    open_files = _raise_open_files()
    state_dir = Path(settings.state_dir)
    ca = prepare_ca(
        state_dir,
        list(GITHUB_HOSTS),
        dt.datetime.fromtimestamp(clock.now(), dt.UTC),
        # emulate: clients reach nothing else, so they need trust nothing else
        base_bundle=None if settings.mode == "emulate" else system_bundle(os.environ),
        keep=settings.keep_ca,
        lifetime=dt.timedelta(seconds=settings.ca_lifetime),
    )
    try:
        tls = server_context(ca.leaf_cert, ca.leaf_key)  # one for all: shared tickets
    finally:
        ca.forget(keep=settings.keep_ca)
    count = settings.workers or min(os.cpu_count() or 1, MAX_WORKERS)
    try:
        socks = listen(settings.port, count)
    except OSError as exc:
        raise GhbenchError(
            f"the front cannot listen on 127.0.0.1:{settings.port} ({exc.strerror}); choose"
            " another port, or 0 for a free one"
        ) from exc
    sink = TraceSink(settings.trace, settings.agent_trace)
    if sink.error is not None:
        raise GhbenchError(sink.error)
    meter = SharedMeter()
    # two descriptors per client (its own and one upstream), and some for the rest
    cap = max(1, min(-(-settings.max_connections // count), (open_files - 64) // 2))

    def server() -> FrontServer:
        relay = Relay(
            upstream=upstream,
            pool=UpstreamPool(_client_tls),
            sink=sink,
            clock=clock,
            component=settings.component,
            meter=meter,
        )
        return FrontServer(
            mode=settings.mode,
            relay=relay,
            tls=tls,
            clock=clock,
            bundle=ca.bundle,
            ca_cert=ca.cert,
            secret=settings.secret,
            session_from=settings.session_from,
            limits=Limits(head_timeout=settings.head_timeout, max_connections=cap),
        )

    def worker(sock: socket.socket) -> Callable[[], None]:
        return lambda: uvloop.run(_serve(sock, None, server(), []))

    children = [_fork_worker(worker(sock), sock, socks) for sock in socks[1:]]
    ready = Ready(port=int(socks[0].getsockname()[1]), ca_cert=str(ca.cert), bundle=str(ca.bundle))
    try:
        uvloop.run(_serve(socks[0], ready, server(), children))
    finally:
        reap(children)


def main() -> None:
    try:
        settings = msgspec.json.decode(_first_line(), type=FrontSettings)
    except msgspec.DecodeError as exc:
        sys.stderr.write(f"error: the front's settings are not valid: {exc}\n")
        sys.exit(2)
    try:
        run(settings)
    except GhbenchError as exc:
        sys.stderr.write(f"error: {exc}\n")
        sys.exit(exc.exit_code)


if __name__ == "__main__":
    main()
