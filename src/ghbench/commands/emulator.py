"""``ghbench emulator``: run the embedded GitHub API emulator."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ghbench.errors import UsageError

__all__ = ["command"]


def _parse_tokens(values: tuple[str, ...], from_env: str) -> list[tuple[str, str]]:
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


@click.group(name="emulator")
def command() -> None:
    """Run the embedded GitHub API emulator."""


@command.command(name="serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=0, show_default=True, type=int, help="Port; 0 picks a free one.")
@click.option(
    "--state",
    "state_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Directory for durable state (SQLite); resumed on restart. Default: in memory.",
)
@click.option(
    "--token",
    "tokens",
    multiple=True,
    help="Accept this token (repeatable): TOKEN (user octo) or LOGIN:TOKEN.",
)
@click.option("--repo", "repos", multiple=True, help="Create owner/name at start (repeatable).")
@click.option("--seed", default=0, show_default=True, type=int, help="Random seed.")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="YAML/JSON settings: limits, secondary limits, faults, users, repos.",
)
def serve(
    *,
    host: str,
    port: int,
    state_dir: Path | None,
    tokens: tuple[str, ...],
    repos: tuple[str, ...],
    seed: int,
    config_path: Path | None,
) -> None:
    """Serve the emulator over HTTP until SIGTERM or Ctrl-C."""
    import uvicorn

    from ghbench.emulator.asgi import EmulatorApp
    from ghbench.emulator.config import EmulatorConfig, load_config
    from ghbench.emulator.core import Emulator
    from ghbench.emulator.server import TOKENS_ENV, quiet_exit_server, uvicorn_options

    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: use 0..65535")
    config = load_config(config_path) if config_path else EmulatorConfig()
    pairs = _parse_tokens(tokens, os.environ.get(TOKENS_ENV, ""))
    for login, token in pairs:
        config.users.setdefault(login, []).append(token)
    for repo in repos:
        if repo.count("/") != 1:
            raise UsageError(f"--repo {repo!r}: expected owner/name")
        config.repos.append(repo)
    emulator = Emulator(seed=seed, state_dir=state_dir, config=config)
    import socket

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise UsageError(f"--port {port}: cannot listen on {host} ({exc.strerror})") from exc
    sock.listen(2048)
    url = f"http://{host}:{sock.getsockname()[1]}"
    token_hint = _redact(pairs[0][1]) if pairs else "<a token given with --token>"
    click.echo(
        f"ghbench emulator listening on {url}  "
        f"(point gh at it: GH_HOST=github.localhost HTTP_PROXY={url} HTTPS_PROXY={url} "
        f"GH_TOKEN={token_hint})",
    )
    import sys

    sys.stdout.flush()
    server = quiet_exit_server(uvicorn.Config(EmulatorApp(emulator), **uvicorn_options()))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
        emulator.db.close()
