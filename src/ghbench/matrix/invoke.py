"""One ``matrix run`` invocation: its plan (fresh, or the stored one ``--resume``
continues), then the plan's cells on the runner its backend names.

Virtual time runs the model in-process (``SimulatedCells``); real time runs every cell
on one GitHub, the emulator's state kept in ``OUT/state/emulator`` and the cells' shared
setups and driver state in ``OUT/realtime`` (``RealtimeCells``). The table below is the
one place a backend's name picks its runner. Each series' capacity (``series_search``:
the capacity engine with the plan's profile), where ``capacity/`` does not hold it with
these settings, is a job the runner takes once its cells are done (in virtual time on
both lanes), and ``baseline.md`` shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import msgspec

from ghbench.analysis.capacity import CapacityResult
from ghbench.clock import Clock
from ghbench.collector import batch_collection
from ghbench.errors import UsageError
from ghbench.matrix.capacity import capacity_command, series_search, series_searches, store_series
from ghbench.matrix.realtime import RealtimeCells
from ghbench.matrix.runner import (
    CellRunner,
    MatrixOutcome,
    SimulatedCells,
    done_cells,
    run_matrix,
    write_baseline,
)
from ghbench.matrix.state import (
    STATE_FILE,
    MatrixPlan,
    describe_settings,
    load_plan,
    new_plan,
    resolve_ao,
    resume_plan,
    save_plan,
)
from ghbench.matrix.topology import cell_repos
from ghbench.runspec.cells import Cell, cell_from_id
from ghbench.runspec.spec import Duration, RunSpec

__all__ = ["MatrixStart", "cell_runner", "matrix_run", "run_plan", "start_plan"]

Log = Callable[[str], None]


@dataclass(frozen=True)
class MatrixStart:
    plan: MatrixPlan
    note: str | None = None  # what a resumed plan continues with


def start_plan(
    spec: RunSpec,
    typed: Collection[str],
    *,
    cells: Callable[[], list[Cell]] | None,
    env: Mapping[str, str],
    clock: Clock,
    hold: Callable[[Path], None],
) -> MatrixStart:
    """The plan this invocation runs, in ``spec.out_dir``: the stored one (``cells`` is
    None: ``--resume``), checked against the ``typed`` flags, or a fresh one of the
    cells ``cells()`` selects (every cell's repos checked before anything is written).
    ``hold`` takes the directory for this invocation before the plan is written."""
    out_dir = spec.out_dir
    if spec.ao_command is not None:  # fixed now, so a resume from elsewhere runs the same
        spec = msgspec.structs.replace(spec, ao_command=resolve_ao(spec.ao_command, env))
    if cells is None:
        hold(out_dir)
        stored = load_plan(out_dir)
        if stored.matrix_run == "merged":
            raise UsageError(
                f"--resume: {out_dir} was assembled by 'matrix merge'; resume in the job"
                " directories it was merged from, then merge again"
            )
        if not stored.settings_recorded and stored.run.driver == "ao":
            spec = msgspec.structs.replace(spec, ao_command=resolve_ao(spec.ao_command, env))
        plan = resume_plan(stored, spec, typed, out_dir / STATE_FILE)
        if plan is not stored:  # a version-1 plan now records what it runs with
            save_plan(out_dir, plan)
        done = len(done_cells(out_dir, plan.matrix_run) & set(plan.cells))
        note = (
            f"resuming {plan.matrix_run}: {done} of {len(plan.cells)} cell(s) done;"
            f" {describe_settings(plan)}"
        )
        return MatrixStart(plan, note)
    chosen = cells()
    if spec.backend == "github":
        for cell in chosen:
            cell_repos(cell, spec.repos)
    if spec.driver == "ao":
        spec = msgspec.structs.replace(spec, ao_command=resolve_ao(spec.ao_command, env))
    if spec.backend == "emulator":  # setup's PR polling: the emulator answers at once
        spec = msgspec.structs.replace(spec, poll_interval=Duration(1.0, "1s"))
    hold(out_dir)
    return MatrixStart(new_plan(out_dir, chosen, spec, clock))


def _simulated(
    plan: MatrixPlan, out_dir: Path, clock: Clock, env: Mapping[str, str], log: Log
) -> CellRunner:
    return SimulatedCells()


def _realtime(
    plan: MatrixPlan, out_dir: Path, clock: Clock, env: Mapping[str, str], log: Log
) -> CellRunner:
    root = out_dir.resolve()
    return RealtimeCells(
        spec=plan.run,
        state_dir=root / "state" / "emulator",
        work_dir=root / "realtime",
        clock=clock,
        env=env,
        log=log,
    )


_RUNNERS: dict[str, Callable[[MatrixPlan, Path, Clock, Mapping[str, str], Log], CellRunner]] = {
    "simulated": _simulated,
    "emulator": _realtime,
    "github": _realtime,
}


def cell_runner(
    plan: MatrixPlan, out_dir: Path, *, clock: Clock, env: Mapping[str, str], log: Log
) -> CellRunner:
    """The runner the plan's backend names, configured only from the plan."""
    return _RUNNERS[plan.run.backend](plan, out_dir, clock, env, log)


def run_plan(
    plan: MatrixPlan,
    out_dir: Path,
    *,
    clock: Clock,
    env: Mapping[str, str],
    operator: str,
    log: Log,
) -> MatrixOutcome:
    """Run the plan's cells not yet done, then each series' capacity where it is missing;
    whatever the runner started stops at the end."""
    cells = [c for c in (cell_from_id(i) for i in plan.cells) if c is not None]
    searches = series_searches(out_dir, plan.run, cells)
    runner = cell_runner(plan, out_dir, clock=clock, env=env, log=log)
    try:
        answers = runner.share([partial(series_search, spec) for spec in searches])
        outcome = run_matrix(plan, runner, out_dir, clock=clock, operator=operator, log=log)
        if searches:
            log(
                f"capacity of {len(searches)} series with the model of {plan.run.profile}"
                " (ghbench capacity's search)"
            )
        found = sorted(zip(searches, answers(), strict=True), key=lambda sr: sr[0].cell.id)
        for spec, result in found:
            store_series(out_dir, spec, result)
            log(f"capacity: {_answer_line(spec, result)}")
    finally:
        runner.close()
    write_baseline(out_dir, cells, chart=False)
    return outcome


def matrix_run(
    spec: RunSpec,
    typed: Collection[str],
    *,
    cells: Callable[[], list[Cell]] | None,
    operator: str | None,
    env: Mapping[str, str],
    clock: Clock,
    hold: Callable[[Path], None],
    log: Log,
) -> MatrixOutcome:
    """``ghbench matrix run``: its plan (``start_plan``; ``cells`` None: ``--resume``),
    then its cells (``run_plan``), each run's heading naming ``operator`` (default:
    ``$USER``), and in virtual time the seed."""
    start = start_plan(spec, typed, cells=cells, env=env, clock=clock, hold=hold)
    if start.note:
        log(start.note)
    who = operator or env.get("USER") or "unknown"
    if start.plan.run.backend == "simulated":
        who = f"{who} (simulated, seed {start.plan.run.seed})"
    with batch_collection():
        return run_plan(start.plan, spec.out_dir, clock=clock, env=env, operator=who, log=log)


def _answer_line(spec: RunSpec, result: CapacityResult) -> str:
    cell = spec.cell
    return (
        f"{cell.scenario}-{cell.topology}: {result.sessions} session(s) fit,"
        f" {result.limiting} binds first ({capacity_command(spec)})"
    )
