"""``ghbench measure``: one benchmark window against an existing setup.

A missing or partial setup artifact is refused before anything starts.
"""

from __future__ import annotations

import os
import sys

import click

from ghbench.clock import SystemClock
from ghbench.commands.options import flag_options, hold_out
from ghbench.runspec.spec import RunSpec

__all__ = ["command"]


@click.command(name="measure")
@flag_options("measure")
def command(*, spec: RunSpec, no_plot: bool) -> None:
    """Measure one benchmark window against an existing setup."""
    # the flags are checked; the flow loads now (see ghbench.commands)
    from ghbench.harness.measure import measure_run  # noqa: PLC0415
    from ghbench.harness.progress import make_progress  # noqa: PLC0415
    from ghbench.harness.window import WindowPlan  # noqa: PLC0415
    from ghbench.scorecard.console import use_color  # noqa: PLC0415

    result = measure_run(
        spec,
        WindowPlan(plot=not no_plot),
        clock=SystemClock(),
        progress=make_progress,
        color=use_color(sys.stdout.isatty(), os.environ),
        announce=lambda text: click.echo(text, err=True),
        hold=hold_out,
    )
    click.echo(result.console)
    result.raise_for_outcome()
