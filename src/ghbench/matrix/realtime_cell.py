"""One real-time matrix cell, following the runbook's per-cell procedure on the harness.

1. Setup (``ghbench.matrix.cell_setup``): repos, projects, a setup per repo.
2. One measuring driver over every project (``ghbench.drivers.registry``: one AO per
   project for AO, one model over every repo for the workload model).
3. The window (``ghbench.harness.measure.run_measure`` with the setup already made): a
   fresh trace, warmup, the before ``/rate_limit``, the scenario's triggers
   (``ghbench.matrix.triggers``), the after snapshot, the stop and the scorecard.
4. The checks on the window's trace (``ghbench.matrix.checks``): calls at all, every
   spread repo polled when each project has its own orchestrator, and S6's split of
   the window's calls into dashboard and lifecycle traffic.

Nothing here knows a concrete driver or backend: what differs between them is asked
of the ``Driver`` and ``Backend`` interfaces.
"""

from __future__ import annotations

from collections.abc import Mapping

from ghbench.drivers.base import Dashboard
from ghbench.drivers.registry import build_driver, check_cell
from ghbench.errors import GhbenchError
from ghbench.harness.measure import run_measure
from ghbench.harness.progress import LogProgress
from ghbench.harness.setup_artifact import new_setup
from ghbench.harness.window import MeasureResult, WindowPlan
from ghbench.matrix.cell_setup import CellPlace, CellSetup, set_up_cell
from ghbench.matrix.checks import require_calls, split_dashboard_traffic, trace_rows, unpolled_repos
from ghbench.matrix.hygiene import spec_timing
from ghbench.matrix.runner import CellResult
from ghbench.matrix.triggers import CellWindow, scenario_triggers
from ghbench.runspec.flags import takes
from ghbench.runspec.spec import RunSpec
from ghbench.timefmt import format_duration

__all__ = ["STOP_GRACE_S", "run_realtime_cell"]

STOP_GRACE_S = 10.0


def run_realtime_cell(
    spec: RunSpec, place: CellPlace, *, window_faults: Mapping[str, object] | None = None
) -> CellResult:
    """Set up ``spec``'s cell, measure one window with the scenario's triggers into
    ``spec.out_dir``, check it, and return the result. ``place.work_dir`` holds the setups
    and driver state the cells share; ``window_faults``: the emulator's injected faults for
    the measured run only (setup's calls are not what is measured)."""
    cell = spec.cell
    backend, clock, env, work_dir = place.backend, place.clock, place.env, place.work_dir
    check_cell(spec, cell, env)
    setup = set_up_cell(spec, place)
    if window_faults is not None:
        backend.set_faults(window_faults)
    driver = build_driver(
        spec,
        setup.projects,
        backend=backend,
        out_dir=work_dir,
        env=env,
        dashboard=cell.info.dashboard,
    )
    driver.check_tools()
    window = CellWindow(spec, driver, backend, setup, env, work_dir, STOP_GRACE_S)
    measured_setup = new_setup(
        cell,
        project=driver.project_id,
        repo=setup.repos[0],
        sessions=setup.sessions,
        created_at=clock.now(),
    )
    plan = WindowPlan(
        stop_grace=STOP_GRACE_S,
        plot=False,
        supplemental=False,
        triggers=scenario_triggers(cell.scenario, spec.duration.seconds, window),
    )
    try:
        result = run_measure(
            spec,
            measured_setup,
            driver=driver,
            backend=backend,
            clock=clock,
            plan=plan,
            progress=LogProgress(place.log, cell.id),
        )
    finally:
        # a window cut short leaves its reader running; the measurement's end closed the
        # drivers, whose tmux servers held S3's agents
        window.stop_dashboard()
    result.raise_for_outcome()
    if result.measurement.incomplete_reason:
        raise GhbenchError(f"{cell.id}: {result.measurement.incomplete_reason}")
    _check_trace(spec, setup, result, window, spread=driver.per_project_processes)
    notes = list(window.notes)
    if spec.duration_scale != 1.0:
        notes.insert(
            0,
            f"durations scaled by {spec.duration_scale:g}: warmup"
            f" {format_duration(spec.warmup.seconds)}, window"
            f" {format_duration(spec.duration.seconds)}",
        )
    notes.extend(result.measurement.events)
    return CellResult(
        result.trace_path,
        result.scorecard_path,
        result.scorecard,
        repos=setup.repos,
        notes=tuple(notes),
    )


def _no_dashboard_calls(dashboard: Dashboard | None) -> str:
    """Why the window's trace has no dashboard call: by design, or not seen."""
    if dashboard is not None and not dashboard.calls_github:
        return (
            "S6: no dashboard calls in the window's trace, as expected: the reader's reads"
            " call no GitHub (they answer from what the orchestrator stored), so every call"
            " is lifecycle traffic"
        )
    return (
        "S6: no dashboard calls in the window's trace: the dashboard made none,"
        " or the orchestrator does not trace them"
    )


def _check_trace(
    spec: RunSpec, setup: CellSetup, result: MeasureResult, window: CellWindow, *, spread: bool
) -> None:
    """The window's trace: calls at all; with one orchestrator per project, every spread
    repo polled; S6's dashboard/lifecycle split."""
    cell, trace, measured = spec.cell, result.trace_path, result.measurement
    spread_apart = spread and len(setup.repos) > 1
    if spread_apart or cell.info.dashboard:
        rows = trace_rows(trace)
        if spread_apart:
            missing = unpolled_repos(rows, setup.repos)
            if missing:
                raise GhbenchError(
                    f"{cell.id}: AO's trace has no call for {', '.join(missing)}: the"
                    " AO of those repositories polled nothing, so the cell did not measure"
                    f" a spread; the trace is {trace}"
                )
        if cell.info.dashboard and measured.start is not None and measured.end is not None:
            # the scorecard's own window (harness.measure_outputs rounds it to milliseconds)
            start_ms, end_ms = round(measured.start * 1000), round(measured.end * 1000)
            split = split_dashboard_traffic(rows, start_ms, end_ms)
            window.notes.append(split.note())
            if split.dashboard == 0:
                window.notes.append(_no_dashboard_calls(window.dashboard))
    require_calls(
        cell,
        result.scorecard,
        spec_timing(spec),
        tick=takes("tick", spec.driver, spec.backend),
        trace=trace,
    )
