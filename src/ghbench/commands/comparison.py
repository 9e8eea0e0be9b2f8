"""A comparison on the console: what ``compare`` and ``ab`` both print, and their exit code."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from ghbench.analysis.compare_render import ComparisonReport

__all__ = ["print_report"]


def print_report(report: ComparisonReport, output: str | None, saved: tuple[Path, ...] = ()) -> int:
    """Print ``output`` (console, json or markdown; None: the caller printed stdout)
    and where the comparison was ``saved``; the exit code: 3 when a threshold failed."""
    if output is not None:
        click.echo(report.texts[output], nl=False)
    for path in saved:
        click.echo(f"comparison saved: {path}", err=True)
    if report.failed:
        click.echo(f"compare: {report.summary}", err=True)
    return report.exit_code
