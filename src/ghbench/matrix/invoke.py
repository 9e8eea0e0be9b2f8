"""One ``matrix run`` invocation: the plan's cells on the runner its backend names.

Virtual time runs the model in-process (``SimulatedCells``); real time runs every cell
on one GitHub, the emulator's state kept in ``OUT/state/emulator`` and the cells' shared
setups and driver state in ``OUT/realtime`` (``RealtimeCells``). The table below is the
one place a backend's name picks its runner. Each series' capacity (``series_search``:
the capacity engine with the plan's profile), where ``capacity/`` does not hold it with
these settings, is a job the runner takes once its cells are done (in virtual time on
both lanes), and ``baseline.md`` shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from pathlib import Path

from ghbench.analysis.capacity import CapacityResult
from ghbench.clock import Clock
from ghbench.matrix.capacity import capacity_command, series_search, series_searches, store_series
from ghbench.matrix.realtime import RealtimeCells
from ghbench.matrix.runner import (
    CellRunner,
    MatrixOutcome,
    SimulatedCells,
    run_matrix,
    write_baseline,
)
from ghbench.matrix.state import MatrixPlan
from ghbench.runspec.cells import cell_from_id
from ghbench.runspec.spec import RunSpec

__all__ = ["cell_runner", "run_plan"]

Log = Callable[[str], None]


def _simulated(
    plan: MatrixPlan, out_dir: Path, clock: Clock, env: Mapping[str, str], log: Log
) -> CellRunner:
    return SimulatedCells()


def _realtime(
    plan: MatrixPlan, out_dir: Path, clock: Clock, env: Mapping[str, str], log: Log
) -> CellRunner:
    root = out_dir.resolve()
    return RealtimeCells(
        spec=plan.run_spec(),
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
    return _RUNNERS[plan.backend](plan, out_dir, clock, env, log)


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
    searches = series_searches(out_dir, plan.run_spec(), cells)
    runner = cell_runner(plan, out_dir, clock=clock, env=env, log=log)
    try:
        answers = runner.share([partial(series_search, spec) for spec in searches])
        outcome = run_matrix(plan, runner, out_dir, clock=clock, operator=operator, log=log)
        if searches:
            log(
                f"capacity of {len(searches)} series with the model of {plan.profile}"
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


def _answer_line(spec: RunSpec, result: CapacityResult) -> str:
    cell = spec.cell
    return (
        f"{cell.scenario}-{cell.topology}: {result.sessions} session(s) fit,"
        f" {result.limiting} binds first ({capacity_command(spec)})"
    )
