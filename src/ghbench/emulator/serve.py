"""``ghbench emulator serve``'s lifecycle: listen, load the state, serve until a stop.

The listeners open before the emulator is built, so a port or socket path that cannot
be used leaves no state behind. Until uvicorn handles SIGTERM and SIGINT (while the
state loads), they exit through the cleanup too, so the unix socket's file never
outlives a stop; once the server returns, a second signal cannot cut the cleanup short.
Everything runs through ``bootstrap`` (the one way the emulator is served).
"""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path
from types import FrameType

from ghbench.emulator.asgi import EmulatorApp
from ghbench.emulator.bootstrap import EmulatorUvicorn, Listeners, tune_interpreter, uvicorn_config
from ghbench.emulator.core import Emulator

__all__ = ["serve_emulator"]

_STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


def _exit_now(_signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(0)


def serve_emulator(
    *,
    host: str,
    port: int,
    uds: Path | None,
    make_emulator: Callable[[], Emulator],
    on_ready: Callable[[str], None],
) -> None:
    """Serve until SIGTERM or SIGINT; ``on_ready(url)`` once it listens. ``ListenError``
    and ``UnixSocketError`` say why the address could not be used."""
    previous = {sig: signal.signal(sig, _exit_now) for sig in _STOP_SIGNALS}
    listeners: Listeners | None = None
    emulator: Emulator | None = None
    app: EmulatorApp | None = None
    try:
        listeners = Listeners.open(host, port, uds)
        emulator = make_emulator()
        url = listeners.url
        app = EmulatorApp(emulator)
        server = EmulatorUvicorn(uvicorn_config(app), on_ready=lambda: on_ready(url))
        tune_interpreter()
        server.run(sockets=listeners.sockets)
    finally:
        for sig in _STOP_SIGNALS:
            signal.signal(sig, signal.SIG_IGN)
        if listeners is not None:
            listeners.close()
        if app is not None:
            app.close()
        if emulator is not None:
            emulator.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
