"""``ghbench record [--github emulator|github] [--trace FILE] [--component NAME] -- COMMAND``."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ghbench.errors import GhbenchError
from ghbench.signals import exit_like

__all__ = ["command"]


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path) if path.is_relative_to(Path.cwd()) else str(path)
    except (OSError, ValueError):
        return str(path)


def _rows(count: int, where: str) -> str:
    return f"{count} {'row' if count == 1 else 'rows'} appended to {where}"


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
@click.option(
    "--state",
    type=click.Path(path_type=Path, file_okay=False),
    default=None,
    help="With --github: keep the emulator's state and the front's CA here "
    "[default: a temporary directory, removed at the end].",
)
@click.option(
    "--keep-ca",
    is_flag=True,
    help="With --state: keep the front's CA and its key there for later runs "
    "[default: no key outlives the run].",
)
@click.option(
    "--trace",
    "trace",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
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
    if github is None:
        flags = (
            ("--upstream", upstream),
            ("--repo", repos),
            ("--state", state),
            ("--keep-ca", keep_ca),
        )
        for flag, given in flags:
            if given:
                raise click.UsageError(f"{flag} goes with --github emulator|github")
        return _record_gh(command, trace, component)
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.record.network import record_network  # noqa: PLC0415

    result = record_network(
        list(command),
        github="emulator" if github == "emulator" else "github",
        upstream=upstream,
        repos=repos,
        state=state,
        trace=trace,
        component=component,
        keep_ca=keep_ca,
    )
    counts = result.counts
    for warning in counts.warnings:
        click.echo(f"warning: {warning}", err=True)
    seen = (
        f"{counts.exchanges} exchanges, {counts.refused} refused, {counts.tunnelled} tunnelled,"
        f" {counts.failed_handshakes} failed handshakes, {counts.rows_lost} rows lost"
    )
    if counts.abandoned or counts.unauthorized:
        seen += f", {counts.abandoned} abandoned tunnels, {counts.unauthorized} unauthorized"
    click.echo(f"ghbench record: {_rows(result.rows, _shown(result.trace))} ({seen})", err=True)
    if result.returncode == 0 and not counts.reached and result.no_exchange:
        raise GhbenchError(result.no_exchange)  # a success that traced nothing is not one
    if result.no_exchange:  # whatever the exit code: the command's own error may not say
        click.echo(f"ghbench record: no GitHub exchange: {result.no_exchange}", err=True)
    if result.returncode < 0:
        exit_like(result.returncode)
    if result.returncode == 0 and counts.rows_lost:
        raise _incomplete(f"{counts.rows_lost:,} trace row(s) could not be written", result.trace)
    return result.returncode


def _record_gh(command: tuple[str, ...], trace: Path | None, component: str) -> int:
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.record.runner import record  # noqa: PLC0415

    result = record(list(command), trace=trace, component=component)
    where = _shown(result.trace)
    if result.write_failed:
        message = f"ghbench record: the trace {where} could not be written (see the warning above)"
    elif result.rows:
        message = f"ghbench record: {_rows(result.rows, where)}"
    else:
        message = f"ghbench record: no gh HTTP exchanges were recorded; trace: {where}"
    click.echo(message, err=True)
    if result.returncode < 0:
        exit_like(result.returncode)
    if result.returncode == 0 and result.write_failed:
        raise _incomplete("trace rows could not be written", result.trace)
    return result.returncode


def _incomplete(what: str, trace: Path) -> GhbenchError:
    """COMMAND succeeded but its trace did not keep every call: not a success."""
    return GhbenchError(
        f"{what} to {_shown(trace)}: the trace is incomplete; free space (or choose"
        " another --trace) and record again"
    )
