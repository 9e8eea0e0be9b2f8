"""The front as a child process, and the handle a run drives it with.

``start_front`` starts ``python -m ghbench.front.serve`` in its own process group
(guarded by the lifeline: it stops if ghbench dies, and it stops itself when its
stdin, a pipe from ghbench, ends), sends it its settings and waits for its ready
line. The ``Front`` handle then gives the environment clients need, switches the
trace between phases, reads the counts, and stops the process.

One front serves a whole run, its trace switched between phases, rather than one
front per phase: clients keep their tunnels and kept-alive connections (and the
proxy port in their environment) across the switch, which a front stopped and
started again would break.
"""

from __future__ import annotations

import contextlib
import os
import queue
import secrets
import subprocess
import sys
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import IO

import msgspec

from ghbench.credentials import without_tokens
from ghbench.errors import GhbenchError
from ghbench.front.env import client_environment, proxy_url
from ghbench.front.node import preload_file
from ghbench.front.settings import Command, FrontCounts, FrontSettings, Ready, Reply
from ghbench.procs import popen_guarded, stop_group

__all__ = ["Front", "FrontError", "start_front"]

START_TIMEOUT_S = 30.0
REPLY_TIMEOUT_S = 30.0


class FrontError(GhbenchError):
    """The front's process could not start, or stopped answering."""


class _Lines:
    """The child's stdout as lines (a thread reads them into a queue) and the tail of
    its stderr (another thread drains it), so the child never blocks on a pipe."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr_tail = b""
        assert process.stdout is not None and process.stderr is not None
        self._threads = [
            threading.Thread(target=self._read, args=(process.stdout,), daemon=True),
            threading.Thread(target=self._drain, args=(process.stderr,), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def _read(self, stream: IO[bytes]) -> None:
        with stream:
            for line in stream:
                self.lines.put(line)
        self.lines.put(None)

    def _drain(self, stream: IO[bytes]) -> None:
        with stream:
            for chunk in stream:
                self.stderr_tail = (self.stderr_tail + chunk)[-4000:]

    def next(self, timeout: float) -> bytes | None:
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def last_error(self) -> str:
        lines = self.stderr_tail.decode(errors="replace").strip().splitlines()
        return lines[-1].removeprefix("error: ") if lines else "no output"

    def join(self) -> None:
        for thread in self._threads:
            thread.join(5)


class Front:
    """A running front: where it listens, its CA, and its controls."""

    def __init__(
        self, process: subprocess.Popen[bytes], lines: _Lines, ready: Ready, settings: FrontSettings
    ) -> None:
        self.process = process
        self.settings = settings
        self.port = ready.port
        self.ca_cert = Path(ready.ca_cert)
        self.bundle = Path(ready.bundle)
        self.node_preload = preload_file(Path(settings.state_dir))
        self._lines = lines
        self._lock = threading.Lock()
        self._final: FrontCounts | None = None

    @property
    def pid(self) -> int:
        return self.process.pid

    def proxy_url(self, session: str | None = None) -> str:
        """``http://SESSION:SECRET@127.0.0.1:PORT``: the front's secret as the
        credential's password, ``session`` (or ``-``) as its user."""
        return proxy_url(self.port, self.settings.secret, session)

    def client_env(
        self, base: Mapping[str, str] | None = None, *, session: str | None = None
    ) -> dict[str, str]:
        """The variables a client needs to go through the front (``env.client_environment``);
        ``base`` is the environment they will be added to."""
        return client_environment(
            self.port,
            secret=self.settings.secret,
            bundle=self.bundle,
            ca_cert=self.ca_cert,
            session=session,
            base=base,
            node_preload=self.node_preload,
        )

    def _ask(self, command: Command) -> FrontCounts:
        with self._lock:
            if self.process.poll() is not None or self.process.stdin is None:
                raise FrontError(f"the front has stopped: {self._lines.last_error()}")
            try:
                self.process.stdin.write(msgspec.json.encode(command) + b"\n")
                self.process.stdin.flush()
            except OSError as exc:
                raise FrontError(f"the front has stopped: {self._lines.last_error()}") from exc
            line = self._lines.next(REPLY_TIMEOUT_S)
        if line is None:
            raise FrontError(f"the front did not answer {command.op!r}: {self._lines.last_error()}")
        reply = msgspec.json.decode(line, type=Reply)
        if reply.error is not None:
            raise FrontError(f"the front refused {command.op!r}: {reply.error}")
        return reply.counts

    def status(self) -> FrontCounts:
        """The counts since the trace was last set."""
        return self._ask(Command(op="status"))

    def switch_trace(self, path: Path | None, agents: Path | None = None) -> FrontCounts:
        """Rows go to ``path`` from now on (None: untraced), those of clients with a
        session to ``agents`` when given; returns the counts of the phase that ended.
        Connections stay open across the switch."""
        return self._ask(
            Command(
                op="trace",
                path=None if path is None else str(path),
                agent_path=None if path is None or agents is None else str(agents),
            )
        )

    def stop(self, timeout: float = 10.0) -> FrontCounts:
        """Close the trace, stop the process (SIGTERM, ``timeout``, SIGKILL to its group)
        and return the last phase's counts (empty if it could not say)."""
        if self._final is None:
            try:
                self._final = self._ask(Command(op="close"))
            except FrontError:
                self._final = FrontCounts()
            if self.process.stdin is not None:
                with contextlib.suppress(OSError):  # a front that died: a broken pipe
                    self.process.stdin.close()
            stop_group(self.process, timeout)
            self._lines.join()
        return self._final

    def __enter__(self) -> Front:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_front(
    settings: FrontSettings,
    *,
    env: Mapping[str, str] | None = None,
    timeout: float = START_TIMEOUT_S,
) -> Front:
    """Start a front and wait until it listens; FrontError (its own one line) if not.

    ``env``: the process's environment (default: ours); its ``SSL_CERT_FILE``, when
    set, is the bundle the CA is appended to and the trust the front's own HTTPS
    requests (forward mode) use. Without a ``secret`` in ``settings`` the front gets
    one of its own: it reaches the front's process over its private stdin, and
    clients through ``Front.client_env``, never argv."""
    if settings.secret is None:
        settings = msgspec.structs.replace(settings, secret=secrets.token_hex(16))
    argv = [sys.executable, "-m", "ghbench.front.serve"]
    try:  # guarded: stopped by the lifeline if we die
        process = popen_guarded(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            # it relays its clients' credentials and holds none of its own
            env=without_tokens(os.environ if env is None else env),
        )
    except OSError as exc:
        raise FrontError(f"cannot start the front: {exc.strerror}") from exc
    lines = _Lines(process)
    try:
        assert process.stdin is not None
        try:
            process.stdin.write(msgspec.json.encode(settings) + b"\n")
            process.stdin.flush()
        except OSError:
            pass  # it died at once: its stderr says why
        line = lines.next(timeout)
    except BaseException:  # Ctrl-C or SIGTERM while it starts: it must not outlive us
        _abandon(process, lines)
        raise
    if line is None:
        _abandon(process, lines)
        raise FrontError(f"the front did not start: {lines.last_error()}")
    return Front(process, lines, msgspec.json.decode(line, type=Ready), settings)


def _abandon(process: subprocess.Popen[bytes], lines: _Lines) -> None:
    """Stop a front that did not start, and release its pipes."""
    stop_group(process, 5)
    if process.stdin is not None:
        with contextlib.suppress(OSError):
            process.stdin.close()
    lines.join()
