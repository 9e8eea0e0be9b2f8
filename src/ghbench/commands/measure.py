"""``ghbench measure``: one benchmark window against an existing setup."""

from __future__ import annotations

from pathlib import Path

import click

from ghbench.harness.options import common_options

__all__ = ["command"]


@click.command(name="measure")
@common_options
@click.option("--warmup", default="2m", show_default=True, help="Warmup before the window.")
@click.option("--duration", required=True, help="Measurement window length, e.g. 15m.")
@click.option("--no-plot", is_flag=True, help="Do not draw the burn-curve PNG.")
def command(
    *,
    project: str,
    sessions: int,
    config_path: Path | None,
    out_dir: Path,
    driver: str,
    github: str,
    ao_command: str | None,
    ao_layout: str,
    transport: str,
    profile: str,
    tick: str | None,
    warmup: str,
    duration: str,
    no_plot: bool,
) -> None:
    """Measure one benchmark window against an existing setup."""
    from ghbench.harness.cli_flow import MeasureArgs, measure_main

    measure_main(
        MeasureArgs(
            project=project,
            sessions=sessions,
            config_path=config_path,
            out_dir=out_dir,
            flags_driver=driver,
            flags_github=github,
            ao_command=ao_command,
            ao_layout=ao_layout,
            transport=transport,
            profile=profile,
            tick=tick,
            warmup=warmup,
            duration=duration,
            plot=not no_plot,
        )
    )
