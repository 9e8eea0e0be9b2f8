"""The emulator as a child process: ``ghbench emulator serve`` in its own process group.

``start_emulator_process`` starts it, reads the one ready line from its stdout, and
hands back an :class:`EmulatorProcess` that stops it with SIGTERM, a deadline, then
SIGKILL to the group (``ghbench.procs``; guarded by the lifeline, so it stops if we
die). Tokens and the control API's key go to the child in its environment, never on
the command line; the user's own GitHub token does not go at all.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from ghbench.credentials import without_tokens
from ghbench.emulator.control_access import CONTROL_KEY_ENV, new_control_key
from ghbench.errors import EmulatorError
from ghbench.procs import kill_group, popen_guarded, stop_group

__all__ = ["READY_PATTERN", "TOKENS_ENV", "EmulatorProcess", "start_emulator_process"]

TOKENS_ENV = "GHBENCH_EMULATOR_TOKENS"  # comma-separated TOKEN or LOGIN:TOKEN
READY_PATTERN = re.compile(r"ghbench emulator listening on (http://[^\s]+)")


class _Pipes:
    """Drains a child's stdout (watching for the ready line) and stderr (keeping its
    tail for error messages) so the child never blocks on a full pipe."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.url: str | None = None
        self.line = ""
        self.ready = threading.Event()
        self.stderr_tail = b""
        self._threads = [
            threading.Thread(target=self._stdout, args=(process.stdout,), daemon=True),
            threading.Thread(target=self._stderr, args=(process.stderr,), daemon=True),
        ]
        self._streams = [process.stdout, process.stderr]
        for thread in self._threads:
            thread.start()

    def _stdout(self, stream: Any) -> None:
        for raw in stream:
            text = raw.decode(errors="replace")
            match = READY_PATTERN.search(text)
            if match and self.url is None:
                self.url = match.group(1)
                self.line = text.strip()
                self.ready.set()
        self.ready.set()

    def _stderr(self, stream: Any) -> None:
        for raw in stream:
            self.stderr_tail = (self.stderr_tail + raw)[-4000:]

    def close(self) -> None:
        """After the child exited: wait for EOF on both pipes, then close them."""
        for thread in self._threads:
            thread.join(5)
        for stream in self._streams:
            if stream is not None:
                stream.close()


class EmulatorProcess:
    """A ``ghbench emulator serve`` child process (own process group); ``ready_line`` is
    the line it printed when it started listening."""

    def __init__(
        self, process: subprocess.Popen[bytes], url: str, pipes: _Pipes, control_key: str
    ) -> None:
        self.process = process
        self.url = url
        self.control_key = control_key  # held in memory; the child got it in its environment
        self.port = int(url.rsplit(":", 1)[1])
        self.ready_line = pipes.line
        self._pipes = pipes

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def stderr_tail(self) -> str:
        """The last few kilobytes the process wrote on stderr (why a request failed)."""
        return self._pipes.stderr_tail.decode(errors="replace")

    def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM the group, wait ``timeout``, then SIGKILL; returns the exit status."""
        stop_group(self.process, timeout)
        returncode = self.process.wait()
        self._pipes.close()
        return returncode

    def kill(self) -> None:
        """SIGKILL the group at once (crash tests)."""
        kill_group(self.process)
        self._pipes.close()

    def __enter__(self) -> EmulatorProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_emulator_process(
    state_dir: Path | None = None,
    port: int = 0,
    tokens: dict[str, str] | list[str] | tuple[str, ...] = (),
    *,
    host: str = "127.0.0.1",
    seed: int = 0,
    config: Path | None = None,
    repos: list[str] | tuple[str, ...] = (),
    uds: Path | None = None,
    control_key: str | None = None,
    timeout: float = 30.0,
) -> EmulatorProcess:
    """Start ``ghbench emulator serve`` and wait for its ready line.

    ``tokens``: a list of tokens (user ``octo``) or ``{token: login}``. ``uds``: also
    serve on this unix socket (``--uds``). ``control_key``: the control API's secret
    (None: a fresh one), passed in the child's environment like the tokens and kept
    on the handle (``.control_key``).
    """
    key = control_key or new_control_key()
    argv = [sys.executable, "-m", "ghbench", "emulator", "serve", "--host", host]
    argv += ["--port", str(port), "--seed", str(seed)]
    if state_dir is not None:
        argv += ["--state", str(state_dir)]
    if uds is not None:
        argv += ["--uds", str(uds)]
    if config is not None:
        argv += ["--config", str(config)]
    for repo in repos:
        argv += ["--repo", repo]
    pairs = tokens.items() if isinstance(tokens, dict) else ((t, "octo") for t in tokens)
    env = without_tokens(os.environ)  # it serves its own tokens, never the user's
    env[TOKENS_ENV] = ",".join(f"{login}:{token}" for token, login in pairs)
    env[CONTROL_KEY_ENV] = key
    try:  # guarded: stopped by the lifeline if we die; stop_group releases it
        process = popen_guarded(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    except OSError as exc:
        raise EmulatorError(f"cannot start the emulator process: {exc.strerror}") from exc
    pipes = _Pipes(process)
    try:
        pipes.ready.wait(timeout)
    except BaseException:  # Ctrl-C or SIGTERM while it starts: it must not outlive us
        EmulatorProcess(process, "http://127.0.0.1:0", pipes, key).stop(5)
        raise
    handle = EmulatorProcess(process, pipes.url or "http://127.0.0.1:0", pipes, key)
    if pipes.url is None:
        handle.stop(5)
        err = pipes.stderr_tail.decode(errors="replace").strip().splitlines()
        raise EmulatorError(
            "the emulator process did not become ready: " + (err[-1] if err else "no output")
        )
    return handle
