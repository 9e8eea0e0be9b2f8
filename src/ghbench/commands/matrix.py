"""``ghbench matrix run|plan|merge``: the A2 scenario x topology x scale matrix."""

from __future__ import annotations

import os
from pathlib import Path

import click

from ghbench.blas import one_blas_thread
from ghbench.clock import SystemClock
from ghbench.commands.history import echo_history
from ghbench.commands.options import flag_options, hold_out
from ghbench.errors import UsageError
from ghbench.matrix.plan import render_plan
from ghbench.matrix.selection import choose_cells
from ghbench.runspec.spec import RunSpec

__all__ = ["command"]


@click.group(name="matrix")
def command() -> None:
    """Run, plan and merge the A2 scenario x topology x scale matrix."""


@command.command(name="run")
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the last matrix in --out with its stored cells and settings.",
)
@click.option("--operator", default=None, help="Name shown in each run heading [$USER].")
@flag_options("matrix run")
def run(  # noqa: PLR0917 - one parameter per click option
    spec: RunSpec,
    typed: frozenset[str],
    cells: tuple[str, ...],
    priority: bool,
    everything: bool,
    scales: str | None,
    resume: bool,
    operator: str | None,
    fmt: str | None,
) -> None:
    """Run cells, rewriting OUT/baseline.md after each one."""
    if resume and (cells or priority or everything or scales):
        raise UsageError(
            "--resume continues the stored selection; drop --cells/--priority/--all/--scales"
        )
    # the flags are checked; the matrix's flow loads now (see ghbench.commands)
    with one_blas_thread():  # its figures need no BLAS threads
        from ghbench.matrix.invoke import matrix_run  # noqa: PLC0415
        from ghbench.matrix.runner import latest_measurements  # noqa: PLC0415

    outcome = matrix_run(
        spec,
        typed,
        cells=None
        if resume
        else lambda: choose_cells(cells, priority=priority, everything=everything, scales=scales),
        operator=operator,
        env=dict(os.environ),
        clock=SystemClock(),
        hold=hold_out,
        log=lambda line: click.echo(line, err=True),
    )
    click.echo(outcome.summary(spec.out_dir), err=fmt is not None)
    if fmt is not None:
        echo_history(latest_measurements(spec.out_dir), fmt)
    if outcome.failed:
        raise SystemExit(1)


@command.command(name="plan")
@flag_options("matrix plan")
def plan_cmd(
    cells: tuple[str, ...], priority: bool, everything: bool, scales: str | None, fmt: str
) -> None:
    """Print the selected cells in run order (github-actions: one job per cell)."""
    chosen = choose_cells(cells, priority=priority, everything=everything, scales=scales)
    click.echo(render_plan(chosen, fmt), nl=False)


@command.command(name="merge")
@click.argument("dirs", nargs=-1, required=True, type=click.Path(file_okay=False, path_type=Path))
@flag_options("matrix merge")
def merge(dirs: tuple[Path, ...], out_dir: Path, fmt: str | None) -> None:
    """Merge the matrix directories DIRS (e.g. CI job artifacts) into OUT/baseline.md."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.matrix.merge import merge_dirs  # noqa: PLC0415
    from ghbench.matrix.runner import latest_measurements  # noqa: PLC0415

    report = merge_dirs(dirs, out_dir)
    click.echo(
        f"merged {len(report.added)} run(s), skipped {report.duplicates} already present;"
        f" {out_dir / 'baseline.md'}",
        err=fmt is not None,
    )
    if fmt is not None:
        echo_history(latest_measurements(out_dir), fmt)
