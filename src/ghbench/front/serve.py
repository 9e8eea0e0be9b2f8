"""The front's process: ``python -m ghbench.front.serve``, started by ``process.start_front``.

It reads its ``FrontSettings`` from the first line of stdin, raises its open-files
limit to the hard limit (each client holds a descriptor, and one more upstream; at
Debian's default of 1,024 a few hundred idle clients would shut new ones out), mints
the run's CA, listens on loopback, prints one ``Ready`` line, then serves on uvloop
until it is
told to close, its stdin ends (its parent is gone, however it died) or SIGTERM/SIGINT
arrives. Control commands come one per line on stdin and are answered one per line
on stdout (``settings.Command`` / ``Reply``). A start-up failure is one line on
stderr and exit 1.
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

__all__ = ["main"]


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


def _listen(port: int) -> socket.socket:
    # IPPROTO_TCP: asyncio sets TCP_NODELAY only on accepted sockets whose protocol
    # says TCP (see emulator/bootstrap.py); without it answers wait for delayed ACKs
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(1024)
    except OSError as exc:
        sock.close()
        raise GhbenchError(
            f"the front cannot listen on 127.0.0.1:{port} ({exc.strerror}); choose another"
            " port, or 0 for a free one"
        ) from exc
    return sock


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


async def _control(sink: TraceSink, stop: asyncio.Event) -> None:
    """Answer commands from stdin until ``close`` or end-of-file, then set ``stop``."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    decoder = msgspec.json.Decoder(Command)
    try:
        while line := await reader.readline():
            try:
                command = decoder.decode(line)
            except msgspec.DecodeError as exc:
                _reply(Reply(counts=sink.counts, error=f"bad command: {exc}"))
                continue
            if command.op == "status":
                _reply(Reply(counts=sink.snapshot()))
            elif command.op == "trace":
                ended = sink.switch(command.path, command.agent_path)
                _reply(Reply(counts=ended, error=sink.error))
            else:
                sink.close()
                _reply(Reply(counts=sink.snapshot()))
                return
    finally:
        stop.set()


async def _serve(sock: socket.socket, ready: Ready, server: FrontServer) -> None:
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    listener = await asyncio.start_server(server.handle, sock=sock, limit=1 << 20)
    _reply(ready)
    control = asyncio.ensure_future(_control(server.sink, stop))
    try:
        await stop.wait()
    finally:
        listener.close()
        server.close()
        control.cancel()
        server.sink.close()


def run(settings: FrontSettings) -> None:
    """Prepare the CA, listen, and serve until stopped (see the module docstring)."""
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
        tls = server_context(ca.leaf_cert, ca.leaf_key)
    finally:
        ca.forget(keep=settings.keep_ca)
    sock = _listen(settings.port)
    sink = TraceSink(settings.trace, settings.agent_trace)
    if sink.error is not None:
        raise GhbenchError(sink.error)
    relay = Relay(
        upstream=upstream,
        pool=UpstreamPool(_client_tls),
        sink=sink,
        clock=clock,
        component=settings.component,
    )
    # two descriptors per client (its own and one upstream), and some for the rest
    cap = max(1, min(settings.max_connections, (open_files - 64) // 2))
    server = FrontServer(
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
    ready = Ready(port=int(sock.getsockname()[1]), ca_cert=str(ca.cert), bundle=str(ca.bundle))
    uvloop.run(_serve(sock, ready, server))


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
