"""``ghbench summarize TRACE`` and ``ghbench analyze TRACE``: AO's two readers of a trace.

``summarize``: totals, operations, statuses, longest request, burn windows. ``analyze``:
outcomes, failures, buckets, repos, shapes, curves, coverage. Text, or ``--json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import click

from ghbench.commands.options import flag_options
from ghbench.commands.readwarnings import report_read_problems

__all__ = ["analyze", "summarize"]


def _reader(name: Literal["summarize", "analyze"], title: str) -> click.Command:
    @click.command(name=name)
    @click.argument("trace", type=click.Path(path_type=Path))
    @flag_options(name)
    def command(trace: Path, as_json: bool) -> None:
        # the flow loads when the command runs, not for --help (see ghbench.commands)
        from ghbench.analysis.text import read_report  # noqa: PLC0415

        report = read_report(trace, name)
        report_read_problems(report.frame.skipped_lines, report.frame.warnings, trace)
        click.echo(report.text(title=f"{title}: {trace}", as_json=as_json))

    return command


summarize = _reader("summarize", "Trace summary")
summarize.help = "Summarize the AO-schema JSONL trace TRACE."
analyze = _reader("analyze", "Trace analysis")
analyze.help = "Analyze the AO-schema JSONL trace TRACE in depth."
