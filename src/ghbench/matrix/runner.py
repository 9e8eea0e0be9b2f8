"""Running matrix cells: the ``CellRunner`` protocol, the simulated runner, the loop.

For each cell, in order: its timing under the plan's spec (``run_timing``), rate-limit
hygiene (real time only: wait until the run, as long as the plan's
``--duration-scale`` makes it, fits inside one reset window, or refuse), the runner's
run of the cell's spec (fresh trace, config, ``/rate_limit`` bracket, scenario
triggers), then summarize and analyze of its trace, the cell's run written once
(``ghbench.matrix.runs``), and ``baseline.md`` rewritten. A cell that fails is saved
as failed with the reason and the next cell runs. Ctrl-C (SIGTERM, SIGHUP) stops the
loop: the cell it cut short is saved as failed (its incomplete scorecard is kept),
the baseline rewritten, and the interrupt raised; ``--resume`` continues with the
cells this invocation has not finished, with the plan's stored settings. The run
comes first: a summary or analysis that cannot be made is a note on it, never a lost
cell.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec

from ghbench.analysis.analyze import ANALYSIS_COLUMNS, analyze
from ghbench.analysis.capacity import POLL_CEILING_S, traced_probe
from ghbench.analysis.load import load_trace
from ghbench.analysis.summarize import summarize
from ghbench.analysis.text import analysis_lines, summary_lines
from ghbench.artifacts.io import replace_atomic, unique_path, write_new
from ghbench.artifacts.models import ScorecardArtifact, load_scorecard
from ghbench.clock import Clock
from ghbench.errors import GhbenchError, Interrupted, interrupt_signal, signal_label
from ghbench.matrix.baseline import baseline_json, latest_ok, render_baseline
from ghbench.matrix.chart import CHART_NAME, scaling_chart_png
from ghbench.matrix.hygiene import CellTiming, Go, Refuse, Wait, decide, estimate_cost, run_timing
from ghbench.matrix.runs import (
    BudgetRecord,
    MatrixRun,
    RunStatus,
    load_capacities,
    load_runs,
    save_run,
)
from ghbench.matrix.state import MatrixPlan
from ghbench.pages.history import Measurement, scorecard_measurements, spec_measurements
from ghbench.pages.matrix_page import matrix_page
from ghbench.ratelimit import Bucket
from ghbench.runspec.cells import Cell, cell_from_id
from ghbench.runspec.result import RunResult
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.signals import uninterruptible
from ghbench.simulation.lanes import Job, SideLane
from ghbench.simulation.simulate import simulate_cell
from ghbench.timefmt import format_duration, iso_s
from ghbench.trace.frame import TraceFrame

__all__ = [
    "CellResult",
    "CellRunner",
    "MatrixOutcome",
    "SimulatedCells",
    "cell_seed",
    "cell_spec",
    "run_matrix",
    "write_baseline",
]

Log = Callable[[str], None]
MAX_WAITS = 4  # hygiene re-checks before a cell is refused


@dataclass(frozen=True)
class CellResult(RunResult):
    """What running one cell produced: the run's trace and scorecard, the repos it
    used and what the run noted."""

    repos: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


class CellRunner(Protocol):
    """Runs one cell and returns its result; raises GhbenchError when the cell fails."""

    def rate_limit(self) -> Mapping[str, Bucket] | None:
        """The buckets now, or None when cells run in virtual time (no hygiene)."""
        ...

    def run_cell(self, spec: RunSpec) -> CellResult:
        """Run ``spec.cell`` as ``spec`` says: its timing, seed and directory included
        (``cell_spec``)."""
        ...

    def ahead(self, specs: Sequence[RunSpec]) -> bool:
        """The cells it will be asked for, in order, before the first (a runner in
        virtual time may start some early); False when it takes each as it comes (then
        ``specs`` is not used, and real time's hygiene decides each cell's run)."""
        ...

    def share(self, jobs: Sequence[Job]) -> Callable[[], list[Any]]:
        """Jobs independent of the cells and of each other (a matrix's capacity
        searches), given before the cells: a runner with a second lane runs them on
        both once its cells are done. Call what it returns after the cells: the jobs'
        results, in order."""
        ...

    def close(self) -> None:
        """Stop what the runner started for its cells (an emulator, a lane)."""
        ...


def cell_seed(seed: int, cell: Cell) -> int:
    """A per-cell seed: stable across runs, different between cells."""
    return zlib.crc32(f"{seed}:{cell.id}".encode()) & 0x7FFFFFFF


def cell_spec(spec: RunSpec, cell: Cell, timing: CellTiming, cell_dir: Path) -> RunSpec:
    """The run of ``cell`` under the plan's ``spec``: hygiene's timing (a model told the
    interval the estimate counted its cycles at), the cell's seed, its directory."""
    tick = spec.tick
    if tick is None and timing.tick_s is not None:
        tick = Duration(timing.tick_s, f"{timing.tick_s:g}s")
    return msgspec.structs.replace(
        spec,
        cell=cell,
        warmup=Duration.of(timing.warmup_s),
        duration=Duration.of(timing.window_s),
        tick=tick,
        seed=cell_seed(spec.seed, cell),
        out_dir=cell_dir,
    )


def cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1


@dataclass
class SimulatedCells:
    """The workload model on the in-process emulator, in virtual time (``simulate``);
    with two cores or more, every other cell in a second lane (``SideLane``), then the
    shared jobs on whichever lane is free: each cell and job is its own world, so where
    it runs changes nothing it produces."""

    lanes: int = field(default_factory=cores)
    _side: SideLane | None = None
    _jobs: Sequence[Job] = ()

    def rate_limit(self) -> Mapping[str, Bucket] | None:
        return None

    def ahead(self, specs: Sequence[RunSpec]) -> bool:
        if self.lanes > 1 and len(specs) + len(self._jobs) > 1:
            self._side = SideLane(specs[1::2], self._jobs)
        return True

    def share(self, jobs: Sequence[Job]) -> Callable[[], list[Any]]:
        self._jobs = list(jobs)

        def results() -> list[Any]:
            if self._side is None:  # one lane (or the cells never started)
                return [job() for job in self._jobs]
            return self._side.job_results()

        return results

    def run_cell(self, spec: RunSpec) -> CellResult:
        if self._side is not None and self._side.has(spec.cell.id):
            result = self._side.result(spec.cell.id)
        else:
            result = simulate_cell(spec)
        return CellResult(result.trace_path, result.scorecard_path, result.scorecard, result.repos)

    def close(self) -> None:
        if self._side is not None:
            self._side.stop()


def _agents_note(card: ScorecardArtifact) -> list[str]:
    """What a cell's agents spent beside the orchestrator (its ``spendSplit``), for the
    cell's notes in ``baseline.md``: the spec's figures are the orchestrator's."""
    split = card.insights.spend_split
    if split is None:
        return []
    model = f" ({split.agent_model})" if split.agent_model else ""
    agents, orchestrator = split.agents, split.orchestrator
    return [
        f"agents{model}: {agents.calls:,} calls, {agents.graphql_points:,} GraphQL points,"
        f" {agents.core_points:,} core requests in the window (the orchestrator's:"
        f" {orchestrator.calls:,}, {orchestrator.graphql_points:,}, {orchestrator.core_points:,});"
        " insights.spendSplit"
    ]


@dataclass
class MatrixOutcome:
    ran: list[MatrixRun] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # done before (--resume)

    @property
    def failed(self) -> list[MatrixRun]:
        return [r for r in self.ran if r.status != "ok"]

    def summary(self, out_dir: Path) -> str:
        """One line: the cells that ran, failed or were done before; the baseline."""
        ok = len(self.ran) - len(self.failed)
        return (
            f"{ok} cell(s) ok, {len(self.failed)} failed or refused, {len(self.skipped)}"
            f" already done; {out_dir / 'baseline.md'}"
        )


def _rel(path: Path | None, root: Path) -> str | None:
    if path is None:
        return None
    try:
        return str(Path(path).resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def _hygiene(
    cell: Cell, timing: CellTiming, runner: CellRunner, clock: Clock, log: Log
) -> str | None:
    """None when the cell may start now; otherwise why it was refused."""
    estimate = estimate_cost(cell, timing)
    for _ in range(MAX_WAITS + 1):
        buckets = runner.rate_limit()
        if buckets is None:
            return None
        decision = decide(buckets, clock.now(), timing.runtime_s, estimate)
        if isinstance(decision, Go):
            return None
        if isinstance(decision, Refuse):
            return f"refused by rate-limit hygiene: {decision.reason}"
        assert isinstance(decision, Wait)
        wait = decision.until - clock.now()
        until = iso_s(decision.until)
        log(f"{cell.id}: waiting {format_duration(wait)} until {until}: {decision.reason}")
        clock.sleep(wait)
    return f"refused by rate-limit hygiene: still no fitting window after {MAX_WAITS} waits"


class _CellInterrupted(Exception):
    """A cell cut short by a signal: its run, and the interrupt to raise once saved."""

    def __init__(self, run: MatrixRun, interrupt: Interrupted) -> None:
        super().__init__(str(interrupt))
        self.run, self.interrupt = run, interrupt


def _budgets(card: ScorecardArtifact, frame: TraceFrame, timing: CellTiming) -> list[BudgetRecord]:
    """The run's budgets as the capacity engine judges a count (``traced_probe``: the
    poll cycle read from the trace, as ``--verify`` reads a real run's)."""
    poll = timing.tick_s or timing.poll_s
    probe = traced_probe(card, frame, poll, POLL_CEILING_S)
    return [BudgetRecord(name=u.name, used=u.used, limit=u.limit) for u in probe.uses]


@dataclass(frozen=True)
class _Analysed:
    """What summarize and analyze said of a cell's trace (written beside it too), and
    its budgets as the capacity engine judges a count."""

    summary_text: str | None = None
    analysis_text: str | None = None
    rows: int | None = None
    attributed_rows: int | None = None
    budgets: list[BudgetRecord] = field(default_factory=list)


def _analyse(result: CellResult, cell_dir: Path, timing: CellTiming) -> _Analysed:
    frame = load_trace(result.trace_path, ANALYSIS_COLUMNS)
    summary, analysis = summarize(frame), analyze(frame)
    s_text = "\n".join(summary_lines(summary)) + "\n"
    a_text = "\n".join(analysis_lines(analysis)) + "\n"
    for name, data in (
        ("summary.txt", s_text.encode()),
        ("analysis.txt", a_text.encode()),
        ("summary.json", msgspec.json.encode(summary.to_json())),
        ("analysis.json", msgspec.json.encode(analysis.to_json())),
    ):
        write_new(cell_dir / name, data)
    return _Analysed(
        s_text,
        a_text,
        analysis.rows,
        analysis.attributed_rows,
        _budgets(result.scorecard, frame, timing),
    )


def _run_one(  # noqa: PLR0917 - private, called once
    cell: Cell,
    runner: CellRunner,
    matrix_dir: Path,
    plan: MatrixPlan,
    clock: Clock,
    operator: str,
    log: Log,
    planned: Path | None = None,
) -> MatrixRun:
    started = clock.now()
    spec = plan.run
    timing = run_timing(spec, cell)
    base: dict[str, Any] = {
        "cell": cell.id,
        "backend": spec.backend,
        "driver": spec.driver,
        "operator": operator,
        "matrix_run": plan.matrix_run,
        "sessions": cell.sessions,
        "warmup_s": timing.warmup_s,
        "duration_s": timing.window_s,
    }

    def failed(status: RunStatus, reason: str) -> MatrixRun:
        now = iso_s(clock.now())
        return MatrixRun(
            status=status, reason=reason, started_at=iso_s(started), ended_at=now, **base
        )

    if planned is None:
        refusal = _hygiene(cell, timing, runner, clock, log)
        if refusal is not None:
            return failed("refused", refusal)
    cell_dir = planned or _cell_dir(matrix_dir, cell, plan)
    run_spec = cell_spec(spec, cell, timing, cell_dir)
    try:
        result = runner.run_cell(run_spec)
    except Interrupted as exc:
        raise _CellInterrupted(failed("failed", str(exc)), exc) from exc
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM/SIGHUP, outside the window
        signum = interrupt_signal(exc)
        interrupt = Interrupted(f"{cell.id}: interrupted ({signal_label(signum)})", signum)
        raise _CellInterrupted(failed("failed", str(interrupt)), interrupt) from exc
    except GhbenchError as exc:
        return failed("failed", str(exc))
    except Exception as exc:  # a bug in one cell must not lose the rest of the matrix
        return failed("failed", f"internal error {type(exc).__name__}: {exc}")
    analysed = _Analysed()
    notes = [*result.notes, *_agents_note(result.scorecard)]
    try:
        analysed = _analyse(result, cell_dir, timing)
    except Exception as exc:  # optional: the cell's scorecard stands without them
        why = str(exc) if isinstance(exc, GhbenchError) else f"{type(exc).__name__}: {exc}"
        notes.append(f"no summary or analysis: {why}")
    card = result.scorecard
    return MatrixRun(
        status="ok",
        started_at=card.window.start or iso_s(started),
        ended_at=card.window.end or iso_s(clock.now()),
        repos=list(result.repos),
        seed=run_spec.seed,
        trace=_rel(result.trace_path, matrix_dir),
        scorecard_path=_rel(result.scorecard_path, matrix_dir),
        rate_limit_snapshots=card.rate_limit_snapshots,
        scorecard=card.scorecard,
        warnings=card.warnings,
        notes=notes,
        summary_text=analysed.summary_text,
        analysis_text=analysed.analysis_text,
        rows=analysed.rows,
        attributed_rows=analysed.attributed_rows,
        budgets=analysed.budgets,
        **base,
    )


def _cell_dir(matrix_dir: Path, cell: Cell, plan: MatrixPlan) -> Path:
    cell_dir = unique_path(matrix_dir / "artifacts", f"{cell.id}-{plan.matrix_run}", "")
    cell_dir.mkdir(parents=True)
    return cell_dir


def _planned(
    cells: Sequence[Cell], runner: CellRunner, matrix_dir: Path, plan: MatrixPlan
) -> dict[str, Path]:
    """Each cell's directory, made now, when the runner takes its cells ahead (virtual
    time: no hygiene, every cell runs as planned); else none."""
    spec = plan.run
    dirs: dict[str, Path] = {}
    specs = []
    for cell in cells:
        dirs[cell.id] = _cell_dir(matrix_dir, cell, plan)
        specs.append(cell_spec(spec, cell, run_timing(spec, cell), dirs[cell.id]))
    if not runner.ahead(specs):
        for path in dirs.values():
            path.rmdir()
        return {}
    return dirs


def write_baseline(
    matrix_dir: Path, planned: Sequence[Cell], *, chart: bool, log: Log | None = None
) -> None:
    """Re-render ``baseline.md``, ``baseline.json`` and its page ``baseline.html`` (and
    ``scaling.png`` when asked; a chart that cannot be drawn or written is a warning in
    ``log``, the runs stand)."""
    runs = load_runs(matrix_dir)
    if chart:
        try:
            replace_atomic(matrix_dir / CHART_NAME, scaling_chart_png(latest_ok(runs)))
        except Exception as exc:  # optional: the baseline is rendered without it
            if log is None:
                raise
            log(f"warning: {CHART_NAME} not written: {type(exc).__name__}: {exc}")
    has_chart = (matrix_dir / CHART_NAME).exists()
    capacities = load_capacities(matrix_dir)
    md = render_baseline(
        runs, planned, chart=CHART_NAME if has_chart else None, capacities=capacities
    )
    replace_atomic(matrix_dir / "baseline.md", md.encode())
    doc = baseline_json(runs, planned, capacities)
    index = msgspec.json.format(msgspec.json.encode(doc), indent=2)
    replace_atomic(matrix_dir / "baseline.json", index + b"\n")
    replace_atomic(matrix_dir / "baseline.html", matrix_page(doc).encode())


def latest_measurements(matrix_dir: Path) -> list[Measurement]:
    """The latest successful run of each cell under ``matrix_dir`` as the trend
    trackers' figures (``--format bmf|gab``): its whole scorecard's when the file is
    there, else the spec's figures the run record keeps."""
    measurements = []
    for cell, run in sorted(latest_ok(load_runs(matrix_dir)).items(), key=lambda c: c[0].id):
        path = None if run.scorecard_path is None else matrix_dir / run.scorecard_path
        if path is not None and path.is_file():
            artifact = load_scorecard(path)
            measurements += scorecard_measurements(artifact, benchmark=cell.scenario_id)
        elif run.scorecard is not None:
            measurements += spec_measurements(cell.scenario_id, run.scorecard)
    return measurements


def done_cells(matrix_dir: Path, matrix_run: str) -> set[str]:
    """Cells this invocation already ran successfully."""
    return {
        r.cell for r in load_runs(matrix_dir) if r.matrix_run == matrix_run and r.status == "ok"
    }


def run_matrix(
    plan: MatrixPlan,
    runner: CellRunner,
    matrix_dir: Path,
    *,
    clock: Clock,
    operator: str,
    log: Log,
) -> MatrixOutcome:
    """Run the plan's cells not yet done, rewriting ``baseline.md`` after every cell (in
    virtual time, where the whole matrix takes seconds, at the end; and when a signal
    cuts it short); every cell's run is saved as it ends."""
    matrix_dir = Path(matrix_dir)
    cells = [c for c in (cell_from_id(i) for i in plan.cells) if c is not None]
    done = done_cells(matrix_dir, plan.matrix_run)
    outcome = MatrixOutcome()
    planned = _planned([c for c in cells if c.id not in done], runner, matrix_dir, plan)
    for n, cell in enumerate(cells, start=1):
        if cell.id in done:
            outcome.skipped.append(cell.id)
            continue
        log(f"[{n}/{len(cells)}] {cell.id}: {cell.title}")
        try:
            run = _run_one(
                cell, runner, matrix_dir, plan, clock, operator, log, planned.get(cell.id)
            )
        except _CellInterrupted as cut:
            with uninterruptible(defer=False):  # a second signal is ignored while saving
                saved, _ = save_run(matrix_dir, cut.run)
                outcome.ran.append(saved)
                write_baseline(matrix_dir, cells, chart=False)
            raise cut.interrupt from None
        saved, _ = save_run(matrix_dir, run)
        outcome.ran.append(saved)
        if saved.status != "ok":
            log(f"{cell.id}: {saved.status}: {saved.reason}")
        if not planned:  # real time: baseline.md follows the run; virtual time: seconds
            write_baseline(matrix_dir, cells, chart=False)
    write_baseline(matrix_dir, cells, chart=True, log=log)
    return outcome
