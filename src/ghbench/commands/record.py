"""``ghbench record [--github emulator|github] [--trace FILE] [--component NAME] -- COMMAND``."""

from __future__ import annotations

from pathlib import Path

import click

from ghbench.commands.options import path_option
from ghbench.signals import exit_like

__all__ = ["command"]


@click.command(
    "record",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
)
@click.option(
    "--github",
    type=click.Choice(["emulator", "github"]),
    default=None,
    help="Run COMMAND behind the GitHub front instead of the gh shim: every client that "
    "honours HTTPS_PROXY is traced. emulator: the embedded emulator answers; github: "
    "requests go on to GitHub (or --upstream).",
)
@click.option(
    "--upstream",
    default=None,
    metavar="URL",
    help="With --github github: send GitHub's requests to this server (http://HOST:PORT, "
    "https://HOST) instead of GitHub.",
)
@click.option(
    "--repo",
    "repos",
    multiple=True,
    metavar="OWNER/NAME",
    help="With --github emulator: create this repository first (repeatable).",
)
@path_option(
    "--state",
    help=(
        "With --github: keep the emulator's state and the front's CA here "
        "[default: a temporary directory, removed at the end]."
    ),
    kind="dir",
)
@click.option(
    "--keep-ca",
    is_flag=True,
    help="With --state: keep the front's CA and its key there for later runs "
    "[default: no key outlives the run].",
)
@path_option(
    "--trace",
    "trace",
    help="Trace to append rows to [default: ./ghbench-out/gh-trace-record-{unix ts}.jsonl].",
)
@click.option(
    "--component",
    default="record",
    show_default=True,
    help="The 'component' field of every row (with --github: of rows whose client's "
    "User-Agent is not recognised).",
)
@click.argument("command", nargs=-1, type=click.UNPROCESSED, required=True)
def command(  # noqa: PLR0917 - one parameter per flag, as click passes them
    github: str | None,
    upstream: str | None,
    repos: tuple[str, ...],
    state: Path | None,
    keep_ca: bool,
    trace: Path | None,
    component: str,
    command: tuple[str, ...],
) -> int:
    """Run COMMAND and trace every GitHub call it makes, one AO-schema row each.

    Without --github, a gh shim traces every gh the command runs, however deeply
    nested. With --github, COMMAND runs behind the GitHub front, a local proxy (its
    environment gets HTTPS_PROXY and the front's CA): gh with its default host, git
    over https, curl, Go, Python and Node clients (fetch, https, octokit) are all
    traced; when none made an exchange, the last line says why it likely was. COMMAND's
    output, exit code and behaviour are unchanged, except that a COMMAND which succeeded
    while trace rows were lost, or while no client reached the front, exits 1. Put '--'
    before COMMAND.
    """
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.record.network import record_command  # noqa: PLC0415

    result = record_command(
        list(command),
        github=None if github is None else "emulator" if github == "emulator" else "github",
        upstream=upstream,
        repos=repos,
        state=state,
        keep_ca=keep_ca,
        trace=trace,
        component=component,
    )
    for line in result.lines():
        click.echo(line, err=True)
    if result.returncode < 0:
        exit_like(result.returncode)
    result.raise_for_trace()
    return result.returncode
