"""``ghbench analyze TRACE``: outcomes, failures, buckets, repos, shapes, curves, coverage."""

from __future__ import annotations

from pathlib import Path

import click

from ghbench.commands.options import flag_options
from ghbench.commands.readwarnings import report_read_problems

__all__ = ["command"]


@click.command(name="analyze")
@click.argument("trace", type=click.Path(path_type=Path))
@flag_options("analyze")
def command(trace: Path, as_json: bool) -> None:
    """Analyze the AO-schema JSONL trace TRACE in depth."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.analyze import ANALYSIS_COLUMNS, analyze  # noqa: PLC0415
    from ghbench.analysis.load import load_trace  # noqa: PLC0415
    from ghbench.analysis.text import report_text  # noqa: PLC0415

    frame = load_trace(trace, ANALYSIS_COLUMNS)
    report_read_problems(frame.skipped_lines, frame.warnings, trace)
    analysis = analyze(frame)
    click.echo(report_text(analysis, title=f"Trace analysis: {trace}", as_json=as_json))
