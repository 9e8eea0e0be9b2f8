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
    from ghbench.harness.factory import find_run_project, start_backend  # noqa: PLC0415
    from ghbench.harness.measure import run_measure  # noqa: PLC0415
    from ghbench.harness.progress import make_progress  # noqa: PLC0415
    from ghbench.harness.setup_artifact import require_ready_setup  # noqa: PLC0415
    from ghbench.harness.window import WindowPlan  # noqa: PLC0415
    from ghbench.scorecard.console import use_color  # noqa: PLC0415

    project = find_run_project(spec)
    setup_path, setup = require_ready_setup(project, spec.cell.sessions, spec.out_dir)
    hold_out(spec.out_dir)
    clock = SystemClock()
    backend, driver = start_backend(spec, project, clock, setup=setup_path)
    progress = make_progress()
    try:
        result = run_measure(
            spec,
            setup,
            setup_path=setup_path,
            plan=WindowPlan(plot=not no_plot),
            driver=driver,
            backend=backend,
            clock=clock,
            progress=progress,
            color=use_color(sys.stdout.isatty(), os.environ),
            announce=lambda text: click.echo(text, err=True),
        )
    finally:
        backend.stop()
    click.echo(result.console)
    result.raise_for_outcome()
