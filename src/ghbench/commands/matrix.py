"""``ghbench matrix run|plan|merge``: the A2 scenario x topology x scale matrix."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from ghbench.blas import one_blas_thread
from ghbench.clock import SystemClock
from ghbench.collector import batch_collection
from ghbench.commands.history import echo_matrix_history, format_option
from ghbench.commands.outdir import hold_out
from ghbench.commands.params import AGENTS_HELP, AgentsChoice, FiniteFloatRange, ProfileChoice
from ghbench.errors import UsageError
from ghbench.matrix.plan import render_plan
from ghbench.matrix.selection import parse_scales, select_cells
from ghbench.matrix.state import (
    check_applicable,
    describe_settings,
    new_plan,
    resolve_ao,
    resumed_plan,
)
from ghbench.matrix.topology import cell_repos
from ghbench.runspec.cells import Cell
from ghbench.runspec.names import DRIVER_NAMES, AgentsName
from ghbench.timefmt import duration_flag
from ghbench.workload.config import TRANSPORT_NAMES
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

__all__ = ["command"]

_DEFAULT_OUT = Path("ghbench-matrix")


def _selection(
    cells: tuple[str, ...], priority: bool, everything: bool, scales: str | None
) -> list[Cell]:
    if priority and everything:
        raise UsageError("--priority and --all select different cells; give one of them")
    return select_cells(
        cells, priority=priority, everything=everything, scales=parse_scales(scales)
    )


def _select_options(func: click.decorators.FC) -> click.decorators.FC:
    for opt in reversed(
        (
            click.option(
                "--cells",
                multiple=True,
                metavar="IDS",
                help="Cell ids such as S2-T1-50 (comma-separated or repeated).",
            ),
            click.option("--priority", is_flag=True, help="The runbook's priority cells."),
            click.option("--all", "everything", is_flag=True, help="Every cell (the default)."),
            click.option(
                "--scales", default=None, metavar="LIST", help="Session counts [1,5,10,25,50]."
            ),
        )
    ):
        func = opt(func)
    return func


@click.group(name="matrix")
def command() -> None:
    """Run, plan and merge the A2 scenario x topology x scale matrix."""


@command.command(name="run")
@_select_options
@click.option(
    "--backend",
    type=click.Choice(["simulated", "emulator", "github"]),
    default="simulated",
    show_default=True,
    help="simulated: the workload model in virtual time; emulator/github: real time.",
)
@click.option("--driver", type=click.Choice(DRIVER_NAMES), default="workload", show_default=True)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=_DEFAULT_OUT,
    show_default=True,
)
@click.option(
    "--resume",
    is_flag=True,
    help="Continue the last matrix in --out with its stored cells and settings.",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--session-ids", is_flag=True, help="Simulated rows carry sessionId.")
@click.option("--operator", default=None, help="Name shown in each run heading [$USER].")
@click.option(
    "--duration-scale",
    type=FiniteFloatRange(min=0.0, min_open=True, max=1.0),
    default=1.0,
    show_default=True,
    help="Real time: multiply the runbook's warmup and window (e.g. 0.01 for a smoke run).",
)
@click.option(
    "--repos",
    default=None,
    metavar="LIST",
    help="--backend github: owner/name repos to use (T2 cells need N/5, at least 2).",
)
@click.option(
    "--transport",
    type=click.Choice(TRANSPORT_NAMES),
    default="gh",
    show_default=True,
    help="Real time, --driver workload: call GitHub through the real gh CLI, or HTTP.",
)
@click.option(
    "--profile",
    type=ProfileChoice(),
    default=DEFAULT_PROFILE,
    show_default=True,
    help="--driver workload: the workload model's profile.",
)
@click.option(
    "--tick",
    default=None,
    metavar="DURATION",
    help="--driver workload: poll interval (default: the profile's 30s; in real time"
    " scaled with --duration-scale, at least 1s).",
)
@click.option("--ao", "ao_command", default=None, help="--driver ao: AO checkout or executable.")
@click.option(
    "--agents",
    type=AgentsChoice(),
    default="none",
    show_default=True,
    help=AGENTS_HELP + " In the matrix: S3 and S4 cells (--backend simulated, or --driver ao).",
)
@format_option(["text"], "text")
def run(  # noqa: PLR0917 - one parameter per click option
    cells: tuple[str, ...],
    priority: bool,
    everything: bool,
    scales: str | None,
    backend: str,
    driver: str,
    out_dir: Path,
    resume: bool,
    seed: int,
    session_ids: bool,
    operator: str | None,
    duration_scale: float,
    repos: str | None,
    transport: str,
    profile: ProfileName,
    tick: str | None,
    ao_command: str | None,
    agents: AgentsName,
    fmt: str | None,
) -> None:
    """Run cells, rewriting OUT/baseline.md after each one."""
    clock = SystemClock()
    ctx = click.get_current_context()
    typed = {
        name
        for name in ctx.params
        if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
    }
    env = dict(os.environ)
    given: dict[str, Any] = {
        "backend": backend,
        "driver": driver,
        "seed": seed,
        "session_ids": session_ids,
        "duration_scale": duration_scale,
        "repos": [r.strip() for r in (repos or "").split(",") if r.strip()],
        "transport": transport,
        "profile": profile,
        "tick": None if tick is None else duration_flag("--tick", tick, allow_zero=False),
        "ao_command": resolve_ao(ao_command, env) if ao_command else None,
        "agents": agents,
    }
    if resume:
        if cells or priority or everything or scales:
            raise UsageError(
                "--resume continues the stored selection; drop --cells/--priority/--all/--scales"
            )
        hold_out(out_dir)
        plan = resumed_plan(out_dir, given, typed, env)
        # the stored plan and the flags agree; the runner loads now (see ghbench.commands)
        from ghbench.matrix.runner import done_cells  # noqa: PLC0415

        done = len(done_cells(out_dir, plan.matrix_run) & set(plan.cells))
        click.echo(
            f"resuming {plan.matrix_run}: {done} of {len(plan.cells)} cell(s) done;"
            f" {describe_settings(plan)}",
            err=True,
        )
    else:
        check_applicable(given, typed)
        chosen = _selection(cells, priority, everything, scales)
        if backend == "github":  # every cell has its repos before anything is written
            for cell in chosen:
                cell_repos(cell, given["repos"])
        if driver == "ao":
            given["ao_command"] = resolve_ao(ao_command, env)
        hold_out(out_dir)
        plan = new_plan(out_dir, chosen, given, clock)
    # the flags are checked; the matrix's flow loads now (see ghbench.commands)
    with one_blas_thread():  # its figures need no BLAS threads
        from ghbench.matrix.invoke import run_plan  # noqa: PLC0415

    who = operator or os.environ.get("USER") or "unknown"
    if plan.backend == "simulated":
        who = f"{who} (simulated, seed {plan.seed})"

    def log(line: str) -> None:
        click.echo(line, err=True)

    with batch_collection():
        outcome = run_plan(plan, out_dir, clock=clock, env=env, operator=who, log=log)
    ok = sum(r.status == "ok" for r in outcome.ran)
    click.echo(
        f"{ok} cell(s) ok, {len(outcome.failed)} failed or refused, {len(outcome.skipped)}"
        f" already done; {out_dir / 'baseline.md'}",
        err=fmt is not None,
    )
    if fmt is not None:
        echo_matrix_history(out_dir, fmt)
    if outcome.failed:
        raise SystemExit(1)


@command.command(name="plan")
@_select_options
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "github-actions"]),
    default="text",
    show_default=True,
)
def plan_cmd(
    cells: tuple[str, ...], priority: bool, everything: bool, scales: str | None, fmt: str
) -> None:
    """Print the selected cells in run order (github-actions: one job per cell)."""
    chosen = _selection(cells, priority, everything, scales)
    click.echo(render_plan(chosen, fmt), nl=False)


@command.command(name="merge")
@click.argument("dirs", nargs=-1, required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=_DEFAULT_OUT,
    show_default=True,
)
@format_option(["text"], "text")
def merge(dirs: tuple[Path, ...], out_dir: Path, fmt: str | None) -> None:
    """Merge the matrix directories DIRS (e.g. CI job artifacts) into OUT/baseline.md."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.matrix.merge import merge_dirs  # noqa: PLC0415

    report = merge_dirs(dirs, out_dir)
    click.echo(
        f"merged {len(report.added)} run(s), skipped {report.duplicates} already present;"
        f" {out_dir / 'baseline.md'}",
        err=fmt is not None,
    )
    if fmt is not None:
        echo_matrix_history(out_dir, fmt)
