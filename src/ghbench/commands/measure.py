"""``ghbench measure``: one benchmark window against an existing setup."""

from __future__ import annotations

import click

from ghbench.harness.options import CommonFlags, common_options

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
    from ghbench.harness.cli_flow import MeasureArgs, measure_main

    measure_main(
        MeasureArgs(
            common=common,
            warmup=warmup,
            duration=duration,
            plot=not no_plot,
        )
    )
