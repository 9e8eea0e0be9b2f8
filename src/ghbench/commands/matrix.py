"""``ghbench matrix run|plan|merge``: the A2 scenario x topology x scale matrix."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ghbench.clock import Clock, SystemClock
from ghbench.commands.outdir import hold_out
from ghbench.commands.params import FiniteFloatRange, ProfileChoice
from ghbench.errors import UsageError
from ghbench.harness.flags import RunFlags
from ghbench.matrix.cells import Cell, parse_scales, select_cells
from ghbench.matrix.plan import render_plan
from ghbench.matrix.state import (
    SETTINGS,
    STATE_FILE,
    MatrixPlan,
    describe_settings,
    load_plan,
    resume_plan,
    save_plan,
)
from ghbench.matrix.topology import cell_repos
from ghbench.timefmt import duration_flag, iso_s
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

if TYPE_CHECKING:
    from ghbench.matrix.runner import CellBackend

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
    type=click.Choice(["gh", "http"]),
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
) -> None:
    """Run cells, rewriting OUT/baseline.md after each one."""
    clock = SystemClock()
    ctx = click.get_current_context()
    typed = {
        name
        for name in ctx.params
        if ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
    }
    given = _settings(
        backend=backend,
        driver=driver,
        seed=seed,
        session_ids=session_ids,
        duration_scale=duration_scale,
        repos=repos,
        transport=transport,
        profile=profile,
        tick=tick,
        ao_command=ao_command,
    )
    if resume:
        if cells or priority or everything or scales:
            raise UsageError(
                "--resume continues the stored selection; drop --cells/--priority/--all/--scales"
            )
        plan = _resumed_plan(out_dir, given, typed)
    else:
        _check_applicable(given, typed)
        chosen = _selection(cells, priority, everything, scales)
        if given["backend"] == "github":  # every cell has its repos before anything is written
            for cell in chosen:
                cell_repos(cell, given["repos"])
        if given["driver"] == "ao":
            given["ao_command"] = _resolve_ao(ao_command)
        hold_out(out_dir)
        plan = _new_plan(out_dir, chosen, given, clock)
    # the flags are checked; the matrix's runner loads now (see ghbench.commands)
    from ghbench.matrix.runner import run_matrix  # noqa: PLC0415

    cell_backend = _cell_backend(plan, out_dir, clock)
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


def _new_plan(
    out_dir: Path, chosen: Sequence[Cell], given: Mapping[str, Any], clock: Clock
) -> MatrixPlan:
    stamp = iso_s(clock.now()).replace("-", "").replace(":", "")
    plan = MatrixPlan(
        matrix_run=f"m{stamp}-{os.getpid()}",
        scales=sorted({c.scale for c in chosen}),
        cells=[c.id for c in chosen],
        **given,
    )
    save_plan(out_dir, plan)
    return plan


def _resumed_plan(out_dir: Path, given: dict[str, Any], typed: set[str]) -> MatrixPlan:
    """The stored plan; a typed flag that contradicts it is a usage error."""

    stored = load_plan(out_dir)
    if stored.matrix_run == "merged":
        raise UsageError(
            f"--resume: {out_dir} was assembled by 'matrix merge'; resume in the job"
            " directories it was merged from, then merge again"
        )
    if not stored.settings_recorded and stored.driver == "ao":
        given["ao_command"] = _resolve_ao(given["ao_command"])
    plan = resume_plan(stored, given, typed, out_dir / STATE_FILE)
    hold_out(out_dir)
    if plan is not stored:  # a version-1 plan now records what it runs with
        save_plan(out_dir, plan)
    # the stored plan and the flags agree; the runner loads now (see ghbench.commands)
    from ghbench.matrix.runner import done_cells  # noqa: PLC0415

    done = len(done_cells(out_dir, plan.matrix_run) & set(plan.cells))
    click.echo(
        f"resuming {plan.matrix_run}: {done} of {len(plan.cells)} cell(s) done;"
        f" {describe_settings(plan)}",
        err=True,
    )
    return plan


def _cell_backend(plan: MatrixPlan, out_dir: Path, clock: Clock) -> CellBackend:
    """The backend the plan names, configured only from the plan."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.matrix.runner import SimulatedBackend  # noqa: PLC0415

    if plan.backend == "simulated":
        return SimulatedBackend(
            seed=plan.seed, session_ids=plan.session_ids, profile=plan.profile, tick=plan.tick
        )
    from ghbench.matrix.realtime import RealtimeBackend  # noqa: PLC0415

    return RealtimeBackend(
        name=plan.backend,
        driver=plan.driver,
        state_dir=out_dir.resolve() / "state" / "emulator",
        clock=clock,
        env=dict(os.environ),
        work_dir=out_dir.resolve() / "realtime",
        flags=RunFlags(
            driver=plan.driver,
            transport=plan.transport,
            ao_command=plan.ao_command,
            profile=plan.profile,
            tick=None if plan.tick is None else f"{plan.tick:g}",
        ),
        duration_scale=plan.duration_scale,
        repos=tuple(plan.repos),
        seed=plan.seed,
        log=lambda line: click.echo(line, err=True),
    )


def _settings(**flags: Any) -> dict[str, Any]:
    """The command line's values as the plan stores them (see ``MatrixPlan``)."""
    repos = flags["repos"]
    tick = flags["tick"]
    return {
        **flags,
        "repos": [r.strip() for r in (repos or "").split(",") if r.strip()],
        "tick": None if tick is None else duration_flag("--tick", tick, allow_zero=False),
        "ao_command": _resolve_ao(flags["ao_command"]) if flags["ao_command"] else None,
    }


def _resolve_ao(spec: str | None) -> str | None:
    """The AO a matrix runs, fixed when it starts so a resume from another directory or
    environment runs the same one: ``--ao``, else ``$GHBENCH_AO``, else ``ao`` on PATH,
    as an absolute path. Unresolvable: as given (None when nothing was), and the cells
    fail with the driver's message saying what to pass."""
    chosen = spec or os.environ.get("GHBENCH_AO") or None
    path = Path(chosen or "ao").expanduser()
    if chosen is not None and path.exists():
        return str(path.resolve())
    found = shutil.which(str(path))
    return found or chosen


# flag -> (applies?, what it needs), checked for the flags typed on a fresh run
_APPLIES: dict[str, tuple[Callable[[Mapping[str, Any]], bool], str]] = {
    # virtual time has no orchestrator process: it is always the workload model
    "driver": (
        lambda g: g["backend"] != "simulated" or g["driver"] == "workload",
        "--backend emulator|github",
    ),
    "session_ids": (lambda g: g["backend"] == "simulated", "--backend simulated"),
    "duration_scale": (lambda g: g["backend"] != "simulated", "--backend emulator|github"),
    "repos": (lambda g: g["backend"] == "github", "--backend github"),
    "transport": (
        lambda g: g["backend"] != "simulated" and g["driver"] == "workload",
        "--backend emulator|github with --driver workload",
    ),
    "profile": (lambda g: g["driver"] == "workload", "--driver workload"),
    "tick": (lambda g: g["driver"] == "workload", "--driver workload"),
    "ao_command": (lambda g: g["driver"] == "ao", "--driver ao"),
}


def _check_applicable(given: Mapping[str, Any], explicit: set[str]) -> None:
    """A typed flag the run would ignore is an error: the user expects it to matter."""
    flags = dict(SETTINGS)
    plain = MatrixPlan(
        matrix_run="", backend="simulated", driver="workload", seed=0, scales=[], cells=[]
    )
    for name, (applies, needs) in _APPLIES.items():
        if name in explicit and given[name] != getattr(plain, name) and not applies(given):
            value = given[name]
            shown = f" {value}" if name == "driver" else ""
            raise UsageError(f"{flags[name]}{shown} applies only with {needs}; drop it")


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
def merge(dirs: tuple[Path, ...], out_dir: Path) -> None:
    """Merge the matrix directories DIRS (e.g. CI job artifacts) into OUT/baseline.md."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.matrix.merge import merge_dirs  # noqa: PLC0415

    report = merge_dirs(dirs, out_dir)
    click.echo(
        f"merged {len(report.added)} run(s), skipped {report.duplicates} already present;"
        f" {out_dir / 'baseline.md'}"
    )
