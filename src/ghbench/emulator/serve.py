"""``ghbench emulator serve``'s lifecycle: listen, load the state, serve until a stop.

The listeners open before the emulator is built, so a port or socket path that cannot
be used leaves no state behind. Until uvicorn handles SIGTERM and SIGINT (while the
state loads), they exit through the cleanup too, so the unix socket's file never
outlives a stop; once the server returns, a second signal cannot cut the cleanup short.
Everything runs through ``bootstrap`` (the one way the emulator is served).

``serve`` is the command's flow: its settings checked (a host other machines reach only
when allowed), the tokens from ``--token`` and the environment (taken out of it, so
nothing the emulator starts inherits them), and one ready line that says how calls
authenticate and never shows a token or the control key.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from ghbench.emulator.asgi import EmulatorApp
from ghbench.emulator.bootstrap import (
    EmulatorUvicorn,
    ListenError,
    Listeners,
    tune_interpreter,
    uvicorn_config,
)
from ghbench.emulator.config import EmulatorConfig, load_config
from ghbench.emulator.control_access import CONTROL_KEY_ENV, is_loopback_host
from ghbench.emulator.core import Emulator
from ghbench.emulator.process import TOKENS_ENV
from ghbench.emulator.secondary import SecondaryMessage
from ghbench.emulator.unix_socket import UnixSocketError
from ghbench.errors import UsageError
from ghbench.signals import handling

__all__ = ["ServeSettings", "parse_tokens", "ready_line", "serve", "serve_emulator"]

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
    with handling(_STOP_SIGNALS, _exit_now):
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


@dataclass(frozen=True)
class ServeSettings:
    """``ghbench emulator serve``'s flags."""

    host: str = "127.0.0.1"
    port: int = 0
    allow_remote: bool = False
    state_dir: Path | None = None
    tokens: tuple[str, ...] = ()  # TOKEN (user octo) or LOGIN:TOKEN
    repos: tuple[str, ...] = ()
    seed: int = 0
    config_path: Path | None = None
    uds: Path | None = None
    # how a secondary-limit refusal reads (None: the config's): GitHub's own, or the
    # primary limit's message (a fault, ``ghbench.emulator.secondary``)
    secondary_message: SecondaryMessage | None = None


def parse_tokens(values: tuple[str, ...], from_env: str) -> list[tuple[str, str]]:
    """``TOKEN`` (user octo) or ``LOGIN:TOKEN`` -> [(login, token)]."""
    out = []
    for raw in [*values, *(v for v in from_env.split(",") if v.strip())]:
        login, sep, token = raw.strip().rpartition(":")
        if not sep:
            login = "octo"
        if not token or not login:
            raise UsageError("--token: expected TOKEN or LOGIN:TOKEN, got an empty part")
        out.append((login, token))
    return out


def _redact(token: str) -> str:
    return token[:4] + "…" if len(token) > 8 else "…"


def ready_line(
    url: str, uds: Path | None, tokens: list[str], state: Path | None, has_key: bool
) -> str:
    """The one line ``serve`` prints when it listens: how calls authenticate (never a
    token or the key)."""
    if tokens:
        token_hint = _redact(tokens[0])
    elif state is not None:
        token_hint = f"<a token kept in {state}, if any>"
    else:
        token_hint = (
            "<none: no token was given with --token or in --config, so a call with a token"
            " answers 401 and one without is anonymous, 60 an hour>"
        )
    control = (
        f"control API: the key in {CONTROL_KEY_ENV}"
        if has_key
        else f"control API closed: set {CONTROL_KEY_ENV} before serve to use it"
    )
    hint = (
        f"point gh at it: GH_HOST=github.localhost HTTP_PROXY={url} HTTPS_PROXY={url} "
        f"GH_TOKEN={token_hint}; {control}"
    )
    if uds is None:
        return f"ghbench emulator listening on {url}  ({hint})"
    path = os.path.abspath(uds)
    return (
        f"ghbench emulator listening on {url} and unix socket {path}  ({hint}; or as a "
        f"GitHub Enterprise host: gh config set http_unix_socket {path}, "
        f"GH_HOST=<enterprise host> GH_ENTERPRISE_TOKEN={token_hint})"
    )


def serve(
    settings: ServeSettings,
    env: MutableMapping[str, str],
    *,
    warn: Callable[[str], None],
    ready: Callable[[str], None],
) -> None:
    """Check ``settings``, then serve until a stop; ``ready(line)`` once it listens.
    The tokens and the control key come from ``env`` and are taken out of it."""
    if not 0 <= settings.port <= 65535:
        raise UsageError(f"--port {settings.port}: use 0..65535")
    host = settings.host
    if not is_loopback_host(host):
        if not settings.allow_remote:
            raise UsageError(
                f"--host {host}: not a loopback address, so other machines could use the "
                "emulator's API and its tokens; use 127.0.0.1, or add --allow-remote"
            )
        warn(
            f"--host {host} --allow-remote: the emulator's API answers anyone who "
            "can reach this address (its tokens are not secret from them)"
        )
    config = load_config(settings.config_path) if settings.config_path else EmulatorConfig()
    if settings.secondary_message is not None:
        config.secondary.message = settings.secondary_message
    pairs = parse_tokens(settings.tokens, env.pop(TOKENS_ENV, ""))
    control_key = env.pop(CONTROL_KEY_ENV, "") or None
    for login, token in pairs:
        config.users.setdefault(login, []).append(token)
    for repo in settings.repos:
        if repo.count("/") != 1:
            raise UsageError(f"--repo {repo!r}: expected owner/name")
        config.repos.append(repo)
    accepted = [token for owned in config.users.values() for token in owned]
    has_key = control_key is not None

    def on_ready(url: str) -> None:
        ready(ready_line(url, settings.uds, accepted, settings.state_dir, has_key))

    try:
        serve_emulator(
            host=host,
            port=settings.port,
            uds=settings.uds,
            make_emulator=lambda: Emulator(
                seed=settings.seed,
                state_dir=settings.state_dir,
                config=config,
                control_key=control_key,
            ),
            on_ready=on_ready,
        )
    except ListenError as exc:
        raise UsageError(f"--port {settings.port}: cannot listen on {host} ({exc.reason})") from exc
    except UnixSocketError as exc:
        raise UsageError(f"--uds {settings.uds}: {exc.reason}") from exc
