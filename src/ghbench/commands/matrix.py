"""``ghbench matrix run|plan|merge``: the A2 scenario x topology x scale matrix."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ghbench.errors import UsageError

if TYPE_CHECKING:
    from ghbench.matrix.cells import Cell

__all__ = ["command"]

_DEFAULT_OUT = Path("ghbench-matrix")


def _selection(
    cells: tuple[str, ...], priority: bool, everything: bool, scales: str | None
) -> list[Cell]:
    from ghbench.matrix.cells import parse_scales, select_cells

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
@click.option(
    "--driver", type=click.Choice(["ao", "workload"]), default="workload", show_default=True
)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=_DEFAULT_OUT,
    show_default=True,
)
@click.option("--resume", is_flag=True, help="Continue the last matrix in --out.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--session-ids", is_flag=True, help="Simulated rows carry sessionId.")
@click.option("--operator", default=None, help="Name shown in each run heading [$USER].")
@click.option(
    "--duration-scale",
    type=click.FloatRange(min=0.0, min_open=True, max=1.0),
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
    type=click.Choice(["gh", "http"]),
    default="gh",
    show_default=True,
    help="--driver workload: call GitHub through the real gh CLI, or HTTP.",
)
@click.option("--ao", "ao_command", default=None, help="--driver ao: AO checkout or executable.")
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
    ao_command: str | None,
) -> None:
    """Run cells, rewriting OUT/baseline.md after each one."""
    from ghbench.clock import SystemClock
    from ghbench.matrix.runner import CellBackend, SimulatedBackend, run_matrix
    from ghbench.matrix.state import MatrixPlan, load_plan, save_plan
    from ghbench.timefmt import iso_s

    clock = SystemClock()
    if resume:
        if cells or priority or everything or scales:
            raise UsageError(
                "--resume continues the stored selection; drop --cells/--priority/--all/--scales"
            )
        plan = load_plan(out_dir)
    else:
        chosen = _selection(cells, priority, everything, scales)
        stamp = iso_s(clock.now()).replace("-", "").replace(":", "")
        plan = MatrixPlan(
            matrix_run=f"m{stamp}-{os.getpid()}",
            backend=backend,
            driver=driver if backend != "simulated" else "workload",
            seed=seed,
            scales=sorted({c.scale for c in chosen}),
            cells=[c.id for c in chosen],
            session_ids=session_ids,
        )
        save_plan(out_dir, plan)
    cell_backend: CellBackend
    if plan.backend == "simulated":
        cell_backend = SimulatedBackend(seed=plan.seed, session_ids=plan.session_ids)
    else:
        from ghbench.harness.factory import RunFlags
        from ghbench.matrix.realtime import RealtimeBackend

        cell_backend = RealtimeBackend(
            name=plan.backend,
            driver=plan.driver,
            state_dir=out_dir.resolve() / "state" / "emulator",
            clock=clock,
            env=dict(os.environ),
            work_dir=out_dir.resolve() / "realtime",
            flags=RunFlags(driver=plan.driver, transport=transport, ao_command=ao_command),
            duration_scale=duration_scale,
            repos=tuple(r.strip() for r in (repos or "").split(",") if r.strip()),
            seed=plan.seed,
            log=lambda line: click.echo(line, err=True),
        )
    who = operator or os.environ.get("USER") or "unknown"
    if plan.backend == "simulated":
        who = f"{who} (simulated, seed {plan.seed})"

    def log(line: str) -> None:
        click.echo(line, err=True)

    try:
        outcome = run_matrix(plan, cell_backend, out_dir, clock=clock, operator=who, log=log)
    finally:
        close = getattr(cell_backend, "close", None)
        if close is not None:
            close()
    ok = sum(r.status == "ok" for r in outcome.ran)
    click.echo(
        f"{ok} cell(s) ok, {len(outcome.failed)} failed or refused, {len(outcome.skipped)}"
        f" already done; {out_dir / 'baseline.md'}"
    )
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
    from ghbench.matrix.plan import render_plan

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
def merge(dirs: tuple[Path, ...], out_dir: Path) -> None:
    """Merge the matrix directories DIRS (e.g. CI job artifacts) into OUT/baseline.md."""
    from ghbench.matrix.merge import merge_dirs

    report = merge_dirs(dirs, out_dir)
    click.echo(
        f"merged {len(report.added)} run(s), skipped {report.duplicates} already present;"
        f" {out_dir / 'baseline.md'}"
    )
