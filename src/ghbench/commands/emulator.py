"""``ghbench emulator``: run the embedded GitHub API emulator."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ghbench.commands.options import flag_options
from ghbench.emulator.control_access import CONTROL_KEY_ENV, is_loopback_host
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
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on: a loopback address unless --allow-remote.",
)
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Let --host be an address other machines can reach (the API then answers "
    "anyone who can connect; the control API still answers only loopback callers).",
)
@click.option("--port", default=0, show_default=True, type=int, help="Port; 0 picks a free one.")
@click.option(
    "--state",
    "state_dir",
    # absolute: git runs on the repositories under it from directories of its own
    type=click.Path(file_okay=False, path_type=Path, resolve_path=True),
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
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="YAML/JSON settings: limits, secondary limits, faults, users, repos.",
)
@click.option(
    "--uds",
    "uds",
    type=click.Path(path_type=Path),
    default=None,
    help="Also listen on a unix socket at this path (gh's http_unix_socket reaches the "
    "emulator as a GitHub Enterprise host over it); removed at exit.",
)
@flag_options("emulator serve")
def serve(
    *,
    host: str,
    allow_remote: bool,
    port: int,
    state_dir: Path | None,
    tokens: tuple[str, ...],
    repos: tuple[str, ...],
    seed: int,
    config_path: Path | None,
    uds: Path | None,
) -> None:
    """Serve the emulator over HTTP until SIGTERM or Ctrl-C."""
    # the emulator loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.emulator.bootstrap import ListenError  # noqa: PLC0415
    from ghbench.emulator.config import EmulatorConfig, load_config  # noqa: PLC0415
    from ghbench.emulator.core import Emulator  # noqa: PLC0415
    from ghbench.emulator.process import TOKENS_ENV  # noqa: PLC0415
    from ghbench.emulator.serve import serve_emulator  # noqa: PLC0415
    from ghbench.emulator.unix_socket import UnixSocketError  # noqa: PLC0415

    if not 0 <= port <= 65535:
        raise UsageError(f"--port {port}: use 0..65535")
    if not is_loopback_host(host):
        if not allow_remote:
            raise UsageError(
                f"--host {host}: not a loopback address, so other machines could use the "
                "emulator's API and its tokens; use 127.0.0.1, or add --allow-remote"
            )
        click.echo(
            f"warning: --host {host} --allow-remote: the emulator's API answers anyone who "
            "can reach this address (its tokens are not secret from them)",
            err=True,
        )
    config = load_config(config_path) if config_path else EmulatorConfig()
    # Secrets come in the environment; taken out of ours so nothing we start (git
    # http-backend) inherits them.
    pairs = _parse_tokens(tokens, os.environ.pop(TOKENS_ENV, ""))
    control_key = os.environ.pop(CONTROL_KEY_ENV, "") or None
    for login, token in pairs:
        config.users.setdefault(login, []).append(token)
    for repo in repos:
        if repo.count("/") != 1:
            raise UsageError(f"--repo {repo!r}: expected owner/name")
        config.repos.append(repo)

    accepted = [token for owned in config.users.values() for token in owned]

    def ready(url: str) -> None:
        click.echo(_ready_line(url, uds, accepted, state_dir, control_key is not None))
        sys.stdout.flush()

    try:
        serve_emulator(
            host=host,
            port=port,
            uds=uds,
            make_emulator=lambda: Emulator(
                seed=seed, state_dir=state_dir, config=config, control_key=control_key
            ),
            on_ready=ready,
        )
    except ListenError as exc:
        raise UsageError(f"--port {port}: cannot listen on {host} ({exc.reason})") from exc
    except UnixSocketError as exc:
        raise UsageError(f"--uds {uds}: {exc.reason}") from exc


def _ready_line(
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
