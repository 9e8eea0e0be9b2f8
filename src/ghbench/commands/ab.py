"""``ghbench ab``: A/B runs of two orchestrator builds on one setup, then their comparison.

Build A is the baseline, build B the candidate. With ``--driver ao`` each build is an AO
checkout (``--a-ao`` / ``--b-ao``); with ``--driver workload`` each is a profile of the
model (``--a-profile`` / ``--b-profile``). Exit codes as ``compare``: 3 when a
``--fail`` threshold fails.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

import click

from ghbench.clock import SystemClock
from ghbench.commands.comparison import print_report
from ghbench.commands.options import flag_options, hold_out, row_type
from ghbench.runspec.flags import flag_for
from ghbench.runspec.spec import Duration, RunSpec

__all__ = ["command"]

F = TypeVar("F", bound=Callable[..., Any])


def _build_options(func: F) -> F:
    """``--a-ao``/``--b-ao``, their layouts, ``--a-profile``/``--b-profile``: each a row
    of the flag table once per build."""
    for label in ("b", "a"):
        build = f"build {label.upper()} ({'baseline' if label == 'a' else 'candidate'})"
        for dest, shown in (("profile", False), ("ao_layout", "auto"), ("ao_command", False)):
            row = flag_for(dest)
            func = click.option(
                f"--{label}-{row.name.removeprefix('--')}",
                f"{label}_{dest}",
                type=row_type(row, "ab"),
                default=None,
                show_default=shown,
                metavar=row.metavar,
                help=f"{row.help} ({build}; {row.needs()})",
            )(func)
    return func


@click.command(name="ab")
@click.option(
    "--runs", type=click.IntRange(min=1, max=100), default=4, show_default=True, help="Per build."
)
@click.option(
    "--smoke",
    default="60s",
    show_default=True,
    help="Each build's longest smoke window (it ends at the first traced call); a build"
    " whose trace stays empty is refused.",
)
@_build_options
@flag_options("ab")
def command(*, spec: RunSpec, fail: tuple[str, ...], runs: int, smoke: str, **builds: Any) -> int:
    """Run two orchestrator builds alternately on one setup (A B A B, --runs each), keep
    every run's artifacts, and compare B (candidate) with A (baseline)."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.thresholds import parse_threshold  # noqa: PLC0415
    from ghbench.harness.ab import BuildChoice, ab_builds, compare_builds, run_ab  # noqa: PLC0415
    from ghbench.harness.factory import find_run_project  # noqa: PLC0415
    from ghbench.harness.progress import make_progress  # noqa: PLC0415

    thresholds = [parse_threshold(t) for t in fail]
    smoke_window = Duration.parse("--smoke", smoke, allow_zero=False)
    choices = {
        label: BuildChoice(
            builds[f"{label}_ao_command"], builds[f"{label}_ao_layout"], builds[f"{label}_profile"]
        )
        for label in ("a", "b")
    }
    pair = ab_builds(spec, choices, os.environ)
    project = find_run_project(pair[0].spec)
    hold_out(spec.out_dir)
    outcome = run_ab(
        project,
        pair,
        runs=runs,
        smoke=smoke_window,
        clock=SystemClock(),
        progress=make_progress,
        announce=lambda text: click.echo(text, err=True),
    )
    report, saved = compare_builds(outcome, thresholds)
    return print_report(report, "console", saved)
