"""An emulator served in a thread of this process (tests, benchmarks, the in-process AO).

``EmulatorServer`` opens its listeners first (so ``port=0`` works and the port is known
before start), runs uvicorn in a daemon thread through the same bootstrap as
``ghbench emulator serve`` (``bootstrap.py``), waits for it to accept connections, and
stops by asking uvicorn to exit.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from ghbench.emulator.asgi import EmulatorApp
from ghbench.emulator.bootstrap import HEADER_TIMEOUT_S, EmulatorUvicorn, Listeners, uvicorn_config
from ghbench.emulator.core import Emulator
from ghbench.errors import EmulatorError

__all__ = ["EmulatorServer"]


class EmulatorServer:
    """uvicorn in a thread serving ``emulator``; ``start()`` returns the URL."""

    def __init__(
        self,
        emulator: Emulator,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        http: str = "httptools",
        uds: Path | None = None,
        header_timeout_s: float = HEADER_TIMEOUT_S,
    ) -> None:
        """``http``: "httptools" (the default, as ``serve``) or "h11". ``uds``: also serve
        on this unix socket (``unix_socket.listen_unix``; removed on stop). gh's
        ``http_unix_socket`` sends every request over it as plain HTTP, https URLs
        included: the one way gh reaches the emulator as a GitHub Enterprise host
        (``client_env.gh_enterprise_environment``)."""
        self.emulator = emulator
        self.http = "httptools" if http == "auto" else http
        self.host = host
        self.port = port
        self.uds = uds
        self.header_timeout_s = header_timeout_s
        self.app = EmulatorApp(emulator)
        self._server: EmulatorUvicorn | None = None
        self._thread: threading.Thread | None = None
        self._listeners: Listeners | None = None

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def control_key(self) -> str:
        """The served emulator's control-API key (``control_access.py``)."""
        key: str = self.emulator.control_key
        return key

    def start(self, timeout: float = 10.0) -> str:
        listeners = self._listeners = Listeners.open(self.host, self.port, self.uds)
        self.port = listeners.port
        config = uvicorn_config(self.app, http=self.http, header_timeout_s=self.header_timeout_s)
        server = self._server = EmulatorUvicorn(config)
        self._thread = threading.Thread(
            target=server.run,
            kwargs={"sockets": listeners.sockets},
            name="ghbench-emulator",
            daemon=True,
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
        if self._listeners is not None:
            self._listeners.close()
            self._listeners = None
        self._server = None
        self.app.close()

    def __enter__(self) -> EmulatorServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
