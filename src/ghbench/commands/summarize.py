"""``ghbench summarize TRACE``: totals, operations, statuses, longest request, burn windows."""

from __future__ import annotations

from pathlib import Path

import click

from ghbench.commands.options import flag_options
from ghbench.commands.readwarnings import report_read_problems

__all__ = ["command"]


@click.command(name="summarize")
@click.argument("trace", type=click.Path(path_type=Path))
@flag_options("summarize")
def command(trace: Path, as_json: bool) -> None:
    """Summarize the AO-schema JSONL trace TRACE."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.load import load_trace  # noqa: PLC0415
    from ghbench.analysis.summarize import SUMMARY_COLUMNS, summarize  # noqa: PLC0415
    from ghbench.analysis.text import report_text  # noqa: PLC0415

    frame = load_trace(trace, SUMMARY_COLUMNS)
    report_read_problems(frame.skipped_lines, frame.warnings, trace)
    summary = summarize(frame)
    click.echo(report_text(summary, title=f"Trace summary: {trace}", as_json=as_json))
