"""``ghbench record [--trace FILE] [--component NAME] -- COMMAND ...``."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ghbench.signals import exit_like

__all__ = ["command"]


def _shown(path: Path) -> str:
    try:
        return os.path.relpath(path) if path.is_relative_to(Path.cwd()) else str(path)
    except (OSError, ValueError):
        return str(path)


@click.command(
    "record",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
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
    help="The 'component' field of every row.",
)
@click.argument("command", nargs=-1, type=click.UNPROCESSED, required=True)
def command(trace: Path | None, component: str, command: tuple[str, ...]) -> int:
    """Run COMMAND with a gh shim that traces every HTTP exchange gh makes.

    Every gh the command runs, however deeply nested, writes one AO-schema row per
    HTTP request (status, rate-limit headers, GraphQL cost) to the trace. gh's output,
    exit code and behaviour are unchanged. Put '--' before COMMAND.
    """
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.record.runner import record  # noqa: PLC0415

    result = record(list(command), trace=trace, component=component)
    where = _shown(result.trace)
    if result.write_failed:
        message = f"ghbench record: the trace {where} could not be written (see the warning above)"
    elif result.rows:
        noun = "row" if result.rows == 1 else "rows"
        message = f"ghbench record: {result.rows} {noun} appended to {where}"
    else:
        message = f"ghbench record: no gh HTTP exchanges were recorded; trace: {where}"
    click.echo(message, err=True)
    if result.returncode < 0:
        exit_like(result.returncode)
    return result.returncode
