"""``ghbench demo``: the main job, offline: setup + measure of the workload on the emulator."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import click

from ghbench.clock import SystemClock
from ghbench.commands import DEFAULT_OUT
from ghbench.commands.outdir import hold_out
from ghbench.commands.params import ProfileChoice
from ghbench.runspec.spec import Duration
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

__all__ = ["command"]


@click.command(name="demo")
@click.option("--sessions", type=click.IntRange(min=1, max=200), default=5, show_default=True)
@click.option("--warmup", default="10s", show_default=True, help="Warmup before the window.")
@click.option("--duration", default="60s", show_default=True, help="Measurement window.")
@click.option(
    "--transport",
    type=click.Choice(["auto", "gh", "http"]),
    default="auto",
    show_default=True,
    help="How the model calls the emulator: the real gh CLI (auto: when installed) or HTTP.",
)
@click.option("--tick", default=None, help="Model poll interval (default: AO's 30s).")
@click.option(
    "--profile",
    type=ProfileChoice(),
    default=DEFAULT_PROFILE,
    show_default=True,
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path, resolve_path=True),
    default=None,
    help="Output directory (default: ghbench-out/demo-<timestamp>).",
)
def command(
    *,
    sessions: int,
    warmup: str,
    duration: str,
    transport: str,
    tick: str | None,
    profile: ProfileName,
    out_dir: Path | None,
) -> None:
    """Run setup and measure of the built-in workload on the embedded emulator."""

    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.harness.demo import demo_spec, pick_transport, run_demo  # noqa: PLC0415
    from ghbench.harness.progress import make_progress  # noqa: PLC0415
    from ghbench.scorecard.console import use_color  # noqa: PLC0415

    spec = demo_spec(
        (out_dir or DEFAULT_OUT / f"demo-{int(time.time())}").resolve(),
        sessions=sessions,
        warmup=Duration.parse("--warmup", warmup),
        duration=Duration.parse("--duration", duration, allow_zero=False),
        transport=pick_transport(transport),
        tick=None if tick is None else Duration.parse("--tick", tick, allow_zero=False),
        profile=profile,
    )
    hold_out(spec.out_dir)
    result = run_demo(
        spec,
        clock=SystemClock(),
        progress=make_progress,
        color=use_color(sys.stdout.isatty(), os.environ),
        announce=lambda text: click.echo(text, err=True),
    )
    click.echo(result.measure.console)
    click.echo(f"  setup artifact:   {result.setup.path}")
    click.echo(f"  demo config:      {result.config_path}")
    if "report" in result.measure.paths:
        click.echo(f"  report page:      {result.measure.paths['report']}")
    result.measure.raise_for_outcome()
