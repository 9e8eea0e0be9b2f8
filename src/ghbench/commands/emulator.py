"""``ghbench emulator``: run the embedded GitHub API emulator."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ghbench.commands.options import flag_options, path_option

if TYPE_CHECKING:  # the emulator loads when a command runs (see ghbench.commands)
    from ghbench.emulator.secondary import SecondaryMessage

__all__ = ["command"]


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
@path_option(
    "--state",
    "state_dir",
    # absolute: git runs on the repositories under it from directories of its own
    help="Directory for durable state (SQLite); resumed on restart. Default: in memory.",
    kind="dir",
    absolute=True,
)
@click.option(
    "--token",
    "tokens",
    multiple=True,
    help="Accept this token (repeatable): TOKEN (user octo) or LOGIN:TOKEN.",
)
@click.option("--repo", "repos", multiple=True, help="Create owner/name at start (repeatable).")
@path_option(
    "--config",
    "config_path",
    help="YAML/JSON settings: limits, secondary limits, faults, users, repos.",
)
@path_option(
    "--uds",
    "uds",
    help=(
        "Also listen on a unix socket at this path (gh's http_unix_socket reaches the "
        "emulator as a GitHub Enterprise host over it); removed at exit."
    ),
    kind="any",
)
@click.option(
    "--secondary-message",
    type=click.Choice(["secondary", "primary"]),
    default=None,
    help="How a secondary-limit refusal reads [the config's secondary.message: secondary]:"
    " GitHub's own, or 'primary': the primary limit's message with budget left, as GitHub"
    " answered in 2026 (a fault, to test a client's classifier).",
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
    secondary_message: SecondaryMessage | None,
) -> None:
    """Serve the emulator over HTTP until SIGTERM or Ctrl-C."""
    # the emulator loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.emulator.serve import ServeSettings  # noqa: PLC0415
    from ghbench.emulator.serve import serve as serve_until_stopped  # noqa: PLC0415

    def ready(line: str) -> None:
        click.echo(line)
        sys.stdout.flush()

    settings = ServeSettings(
        host,
        port,
        allow_remote,
        state_dir,
        tokens,
        repos,
        seed,
        config_path,
        uds,
        secondary_message,
    )
    serve_until_stopped(
        settings,
        os.environ,
        warn=lambda text: click.echo(f"warning: {text}", err=True),
        ready=ready,
    )
