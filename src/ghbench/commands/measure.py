"""``ghbench measure``: one benchmark window against an existing setup.

A missing or partial setup artifact is refused before anything starts.
"""

from __future__ import annotations

import os
import sys

import click

from ghbench.clock import SystemClock
from ghbench.commands.options import (
    CommonFlags,
    common_options,
    resolve_project,
    run_flags,
)
from ghbench.commands.outdir import hold_out
from ghbench.harness.setup_record import require_ready_setup
from ghbench.timefmt import duration_flag

__all__ = ["command"]


@click.command(name="measure")
@common_options
@click.option("--warmup", default="2m", show_default=True, help="Warmup before the window.")
@click.option("--duration", required=True, help="Measurement window length, e.g. 15m.")
@click.option("--no-plot", is_flag=True, help="Do not draw the burn-curve PNG.")
def command(
    *,
    common: CommonFlags,
    warmup: str,
    duration: str,
    no_plot: bool,
) -> None:
    """Measure one benchmark window against an existing setup."""
    project = resolve_project(common.project, common.config_path)
    warmup_s = duration_flag("--warmup", warmup)
    duration_s = duration_flag("--duration", duration, allow_zero=False)
    require_ready_setup(project, common.sessions, common.out_dir)
    # the flags and the setup are checked; the flow loads now (see ghbench.commands)
    from ghbench.harness.factory import start_backend  # noqa: PLC0415
    from ghbench.harness.measure import run_measure  # noqa: PLC0415
    from ghbench.harness.progress import make_progress  # noqa: PLC0415
    from ghbench.harness.window import MeasureOptions  # noqa: PLC0415
    from ghbench.scorecard.console import use_color  # noqa: PLC0415

    options = MeasureOptions(
        out_dir=common.out_dir,
        warmup=warmup_s,
        duration=duration_s,
        warmup_text=warmup,
        duration_text=duration,
        plot=not no_plot,
    )
    hold_out(common.out_dir)
    clock = SystemClock()
    backend, driver = start_backend(run_flags(common), project, common.out_dir, clock)
    progress = make_progress()
    try:
        result = run_measure(
            project,
            sessions=common.sessions,
            driver=driver,
            backend=backend,
            clock=clock,
            options=options,
            progress=progress,
            color=use_color(sys.stdout.isatty(), os.environ),
            announce=lambda text: click.echo(text, err=True),
        )
    finally:
        backend.stop()
    click.echo(result.console)
    result.raise_for_outcome()
