"""``ghbench demo``: the main job, offline: setup + measure of the workload on the emulator."""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from typing import Any

import click

from ghbench.clock import SystemClock
from ghbench.commands.options import flag_options, hold_out
from ghbench.runspec.flags import DEFAULT_OUT
from ghbench.runspec.spec import RunSpec

__all__ = ["command"]


def _base(values: Mapping[str, Any]) -> RunSpec:
    """A demo writes to a directory of its own unless --out names one."""
    return RunSpec(backend="emulator", out_dir=DEFAULT_OUT / f"demo-{int(time.time())}")


@click.command(name="demo")
@flag_options("demo", base=_base)
def command(*, spec: RunSpec) -> None:
    """Run setup and measure of the built-in workload on the embedded emulator."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.harness.demo import run_demo  # noqa: PLC0415
    from ghbench.harness.progress import make_progress  # noqa: PLC0415
    from ghbench.scorecard.console import use_color  # noqa: PLC0415

    hold_out(spec.out_dir)
    result = run_demo(
        spec,
        clock=SystemClock(),
        progress=make_progress,
        color=use_color(sys.stdout.isatty(), os.environ),
        announce=lambda text: click.echo(text, err=True),
    )
    click.echo(result.measure.console)
    for line in result.lines():
        click.echo(line)
    result.measure.raise_for_outcome()
