"""Serving the emulator over a real socket: in a thread, or as a child process.

``EmulatorServer`` runs uvicorn in a daemon thread on a socket it binds first (so
``port=0`` works and the port is known before start), waits for uvicorn's ready
flag, and stops by asking uvicorn to exit. ``start_emulator_process`` starts
``ghbench emulator serve`` in its own process group, reads the one ready line from
its stdout, and stops it with SIGTERM, a deadline, then SIGKILL to the group.
Tokens and the control API's key go to the child through the environment, never
the command line. Both may
also listen on a unix socket (``listen_unix``), the way gh reaches an enterprise host.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from ghbench.emulator.asgi import EmulatorApp
from ghbench.emulator.connect import connect_refusal
from ghbench.emulator.control_access import CONTROL_KEY_ENV, new_control_key
from ghbench.emulator.core import Emulator
from ghbench.errors import EmulatorError
from ghbench.procs import kill_group, popen_guarded, stop_group

__all__ = [
    "GITHUB_REMOTE_PREFIXES",
    "TOKENS_ENV",
    "EmulatorProcess",
    "EmulatorServer",
    "UnixListener",
    "UnixSocketError",
    "gh_enterprise_environment",
    "gh_environment",
    "git_environment",
    "listen_unix",
    "start_emulator_process",
    "uvicorn_options",
]

TOKENS_ENV = "GHBENCH_EMULATOR_TOKENS"  # comma-separated TOKEN or LOGIN:TOKEN
READY_PATTERN = re.compile(r"ghbench emulator listening on (http://[^\s]+)")


def _connect_aware_httptools() -> type:
    """uvicorn's httptools protocol, answering ``CONNECT`` itself.

    httptools rejects a ``CONNECT host:443`` request line as invalid (400 "Invalid
    HTTP request received.") before the app sees it; h11 passes it through. Clients
    (curl, Go's proxy dialer) send CONNECT as the first request of a new connection,
    so a chunk that starts with it is answered with the emulator's refusal.
    """

    class ConnectAwareHttpToolsProtocol(HttpToolsProtocol):
        def data_received(self, data: bytes) -> None:
            if data[:8] == b"CONNECT ":
                target = data[8:].split(b" ", 1)[0].decode("latin-1", "replace")
                refusal = connect_refusal(target)
                head = [b"HTTP/1.1 405 Method Not Allowed\r\n"]
                for name, value in refusal.headers.items():
                    head.append(f"{name}: {value}\r\n".encode("latin-1"))
                head.append(f"content-length: {len(refusal.body)}\r\n".encode())
                head.append(b"connection: close\r\n\r\n")
                self.transport.write(b"".join(head) + refusal.body)
                self.transport.close()
                return
            super().data_received(data)

    return ConnectAwareHttpToolsProtocol


def uvicorn_options() -> dict[str, Any]:
    """uvloop's loop and httptools' parser (both required dependencies); no access log."""
    return {
        "log_level": "warning",
        "access_log": False,
        "lifespan": "off",
        "http": _connect_aware_httptools(),
        "loop": "uvloop",
    }


def quiet_exit_server(config: Any, on_ready: Callable[[], None] | None = None) -> Any:
    """A ``uvicorn.Server`` that, on SIGTERM/SIGINT, shuts down and returns normally.

    uvicorn re-raises the signal after shutting down, which kills the process before
    the caller's cleanup (closing the state database, removing a unix socket) runs.
    ``on_ready`` runs once the server accepts connections and handles those signals,
    so a caller that stops it as soon as it said so still gets a clean exit.
    """

    class _Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            if self.started and on_ready is not None:
                on_ready()

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            wanted = (signal.SIGINT, signal.SIGTERM)
            previous = {sig: signal.signal(sig, self.handle_exit) for sig in wanted}
            try:
                yield
            finally:
                for sig, handler in previous.items():
                    signal.signal(sig, handler)

    return _Server(config)


def gh_environment(url: str, token: str | None, home: Path | None = None) -> dict[str, str]:
    """Environment variables that point the real ``gh`` at the emulator at ``url``."""
    env = {
        "GH_HOST": "github.localhost",
        "HTTP_PROXY": url,
        "HTTPS_PROXY": url,
        "http_proxy": url,
        "https_proxy": url,
        "NO_PROXY": "",
        "no_proxy": "",
        "GH_NO_UPDATE_NOTIFIER": "1",
        "GH_PROMPT_DISABLED": "1",
        "NO_COLOR": "1",
    }
    if token is not None:
        env["GH_TOKEN"] = token
    if home is not None:
        env["HOME"] = str(home)
        env["GH_CONFIG_DIR"] = str(home / ".config" / "gh")
        env["XDG_CONFIG_HOME"] = str(home / ".config")
        env["XDG_CACHE_HOME"] = str(home / ".cache")
        env["TMPDIR"] = str(home / "tmp")
    return env


# Where a user's checkout may point at GitHub: every form git accepts for github.com
GITHUB_REMOTE_PREFIXES = (
    "https://github.com/",
    "http://github.com/",
    "git@github.com:",
    "ssh://git@github.com/",
    "git://github.com/",
)
GIT_TOKEN_VARIABLE = "GH_TOKEN"


def git_environment(
    url: str,
    *,
    host: str = "github.localhost",
    token_variable: str = GIT_TOKEN_VARIABLE,
    existing: Mapping[str, str] | None = None,
    remotes: Sequence[str] = GITHUB_REMOTE_PREFIXES,
) -> dict[str, str]:
    """Environment variables that send git's github.com traffic to the emulator at
    ``url``, without touching a checkout or the user's git configuration.

    git reads configuration from the environment (``GIT_CONFIG_COUNT``,
    ``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n``, the command line's scope, above every
    file): ``url.http://HOST/.insteadOf`` rewrites each form of a github.com remote
    (https, http, ssh, scp-like ``git@github.com:``, git://) to ``http://HOST/``;
    ``http.http://HOST/.proxy`` sends those requests, and only those, to the emulator;
    a credential helper for that URL alone (the list reset first, so no other helper is
    asked) answers with the token read from ``$token_variable`` when git asks, so no
    token is written to a file, a config or an argument. ``git remote -v`` then shows
    ``http://HOST/OWNER/REPO.git``, which is how gh (with ``GH_HOST=HOST``) finds the
    repository. ``remotes``: the URL prefixes rewritten (an enterprise checkout's
    ``https://HOST/``, say). Entries already in ``existing`` (a caller's own
    ``GIT_CONFIG_*``) are kept, ours appended after them.
    """
    base = f"http://{host}/"
    helper = (
        '!f() { test "$1" = get && printf "username=x-access-token\npassword=%s\n" '
        f'"${token_variable}"; }}; f'
    )
    entries = [(f"url.{base}.insteadOf", prefix) for prefix in remotes]
    entries += [
        (f"http.{base}.proxy", url),
        (f"credential.{base}.helper", ""),
        (f"credential.{base}.helper", helper),
    ]
    env = dict(existing or {})
    start = int(env.get("GIT_CONFIG_COUNT", "0") or 0)
    out: dict[str, str] = {}
    for i, (key, value) in enumerate(entries, start):
        out[f"GIT_CONFIG_KEY_{i}"] = key
        out[f"GIT_CONFIG_VALUE_{i}"] = value
    out["GIT_CONFIG_COUNT"] = str(start + len(entries))
    out["GIT_TERMINAL_PROMPT"] = "0"
    return out


def gh_enterprise_environment(
    host: str, socket_path: Path, token: str | None, home: Path
) -> dict[str, str]:
    """Environment for the real ``gh`` to reach the emulator as GitHub Enterprise ``host``.

    gh builds ``https://HOST/api/v3/`` and ``https://HOST/api/graphql`` for any host but
    github.com and github.localhost, so through a proxy it would open a CONNECT tunnel
    (which the emulator refuses). gh's ``http_unix_socket`` setting dials every request,
    https ones included, over a unix socket without TLS: this writes that setting into
    ``home``'s gh config and returns the variables (the token goes in
    ``GH_ENTERPRISE_TOKEN``, which gh reads for enterprise hosts; it ignores ``GH_TOKEN``).
    """
    config_dir = home / ".config" / "gh"
    for directory in (config_dir, home / ".cache", home / "tmp"):
        directory.mkdir(parents=True, exist_ok=True)
    (config_dir / "config.yml").write_text(f"http_unix_socket: {socket_path}\n")
    env = {
        "GH_HOST": host,
        "GH_NO_UPDATE_NOTIFIER": "1",
        "GH_PROMPT_DISABLED": "1",
        "NO_COLOR": "1",
        "HOME": str(home),
        "GH_CONFIG_DIR": str(config_dir),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "TMPDIR": str(home / "tmp"),
    }
    if token is not None:
        env["GH_ENTERPRISE_TOKEN"] = token
    return env


class UnixSocketError(EmulatorError):
    """A unix socket could not be listened on; ``reason`` says why and what to do."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot listen on the unix socket {path}: {reason}")
        self.path = path
        self.reason = reason


class UnixListener:
    """A listening unix socket whose file is ours: ``close()`` closes it and removes the
    file, unless something else has taken the path since (its inode tells)."""

    def __init__(self, path: Path, sock: socket.socket) -> None:
        self.path = path
        self.socket = sock
        info = os.lstat(path)
        self._identity = (info.st_dev, info.st_ino)

    def close(self) -> None:
        self.socket.close()
        with contextlib.suppress(FileNotFoundError):
            info = os.lstat(self.path)
            if (info.st_dev, info.st_ino) == self._identity:
                self.path.unlink()


def _stale_socket(path: Path) -> bool:
    """True if ``path`` is a socket file nobody listens on (its server was killed)."""
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.settimeout(2.0)
        probe.connect(str(path))
    except ConnectionRefusedError:
        return True
    except PermissionError as exc:
        raise UnixSocketError(
            path, "it is a socket we may not use (permission denied); choose another path"
        ) from exc
    except OSError:
        return False  # a listener too busy to accept: alive
    finally:
        probe.close()
    return False


def listen_unix(path: Path) -> UnixListener:
    """Listen on a unix socket at ``path``.

    A stale socket there (left by an emulator that was killed: nobody answers on it)
    is replaced, so a restart after ``kill -9`` needs no cleanup; anything else at the
    path (a file, a live socket, a symlink) is refused, never removed.
    """
    if not path.parent.is_dir():
        raise UnixSocketError(
            path, f"its directory {path.parent} does not exist; create it or choose another path"
        )
    try:
        mode: int | None = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None:
        if not stat.S_ISSOCK(mode):
            raise UnixSocketError(
                path, "it exists and is not a socket; remove it or choose another path"
            )
        if not _stale_socket(path):
            raise UnixSocketError(
                path, "another process listens on it; stop that process or choose another path"
            )
        path.unlink(missing_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.bind(str(path))
        sock.listen(2048)
        return UnixListener(path, sock)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            reason = "another process took the path meanwhile; choose another path"
        else:
            # "AF_UNIX path too long" has no errno: about 107 bytes is the limit on Linux
            reason = f"{exc.strerror or exc}; choose a shorter path in a writable directory"
        raise UnixSocketError(path, reason) from exc


class EmulatorServer:
    """uvicorn in a thread serving ``emulator``; ``start()`` returns the URL."""

    def __init__(
        self,
        emulator: Emulator,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        http: str = "auto",
        uds: Path | None = None,
    ) -> None:
        """``http``: "auto" (httptools) or "h11". ``uds``: also serve on
        this unix socket (see ``listen_unix``; removed on stop). gh's ``http_unix_socket``
        sends every request over it as plain HTTP, https URLs included: the one way
        gh reaches the emulator as a GitHub Enterprise host (see ``gh_enterprise_environment``)."""
        self.emulator = emulator
        self.http = http
        self.host = host
        self.port = port
        self.uds = uds
        self.app = EmulatorApp(emulator)
        self._server: Any = None
        self._thread: threading.Thread | None = None
        self._socket: socket.socket | None = None
        self._unix: UnixListener | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def control_key(self) -> str:
        """The served emulator's control-API key (``control_access.py``)."""
        key: str = self.emulator.control_key
        return key

    def start(self, timeout: float = 10.0) -> str:
        # proto=IPPROTO_TCP: asyncio only sets TCP_NODELAY on accepted sockets whose proto
        # says TCP; without it every response waits ~40 ms for a delayed ACK (Nagle).
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((self.host, self.port))
        except OSError as exc:
            sock.close()
            raise EmulatorError(
                f"cannot listen on {self.host}:{self.port} ({exc.strerror}); "
                "choose another --port or use 0 for a free one"
            ) from exc
        sock.listen(2048)
        self._socket = sock
        self.port = sock.getsockname()[1]
        sockets = [sock]
        if self.uds is not None:
            try:
                self._unix = listen_unix(self.uds)
            except UnixSocketError:
                self.stop()
                raise
            sockets.append(self._unix.socket)
        options = uvicorn_options()
        if self.http != "auto":
            options["http"] = self.http
        config = uvicorn.Config(self.app, **options)
        server = uvicorn.Server(config)
        # uvicorn installs signal handlers only in the main thread, so none here.
        self._server = server
        self._thread = threading.Thread(
            target=server.run, kwargs={"sockets": sockets}, name="ghbench-emulator", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise EmulatorError(f"the emulator did not start on {self.url} within {timeout} s")
            time.sleep(0.005)
        return self.url

    def stop(self, timeout: float = 10.0) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        if self._unix is not None:
            self._unix.close()
            self._unix = None
        self._server = None

    def __enter__(self) -> EmulatorServer:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


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

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
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
    env = dict(os.environ)
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
