"""What a trace reader skipped, on stderr: the count, then the first lines by number."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from ghbench.trace.frame import ReadWarning

__all__ = ["SHOWN_READ_WARNINGS", "report_read_problems"]

SHOWN_READ_WARNINGS = 5


def report_read_problems(
    skipped: int, warnings: Sequence[ReadWarning], path: Path, *, rest: str = ""
) -> None:
    """``rest``: where the ones not shown can be read (the report's artifact)."""
    if skipped:
        click.echo(f"warning: skipped {skipped:,} unreadable line(s) in {path}", err=True)
    for w in warnings[:SHOWN_READ_WARNINGS]:
        click.echo(f"  line {w.line}: {w.message}", err=True)
    if len(warnings) > SHOWN_READ_WARNINGS:
        click.echo(f"  … {len(warnings) - SHOWN_READ_WARNINGS} more{rest}", err=True)
