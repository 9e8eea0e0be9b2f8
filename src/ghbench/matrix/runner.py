"""Running matrix cells: the ``CellBackend`` protocol, the simulated backend, the loop.

For each cell, in order: rate-limit hygiene (real-time backends only: wait until the
run, as long as the plan's ``--duration-scale`` makes it, fits inside one reset
window, or refuse), the backend's run (fresh trace, config, ``/rate_limit`` bracket,
scenario triggers, durations), then summarize and analyze of its trace, a run record
written once, and ``baseline.md`` rewritten. A cell that fails is recorded as failed
with the reason and the next cell runs. Ctrl-C (SIGTERM, SIGHUP) stops the loop: the
cell it cut short is recorded as failed (its incomplete scorecard is kept), the
baseline rewritten, and the interrupt raised; ``--resume`` continues with the cells
this invocation has not finished, with the plan's stored settings. The run record
comes first: a summary or analysis that cannot be made is a note on it, never a lost
cell.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import msgspec

from ghbench.analysis.analyze import ANALYSIS_COLUMNS, analyze
from ghbench.analysis.load import load_trace
from ghbench.analysis.summarize import summarize
from ghbench.analysis.text import analysis_lines, summary_lines
from ghbench.artifacts.io import replace_atomic, unique_path, write_new
from ghbench.clock import Clock
from ghbench.errors import GhbenchError, Interrupted, interrupt_signal, signal_label
from ghbench.matrix.baseline import baseline_json, latest_ok, render_baseline
from ghbench.matrix.cells import Cell, cell_from_id
from ghbench.matrix.chart import CHART_NAME, scaling_chart_png
from ghbench.matrix.hygiene import (
    CellTiming,
    Go,
    Refuse,
    Wait,
    cell_timing,
    decide,
    estimate_cost,
)
from ghbench.matrix.record import RunRecord, RunStatus, load_runs, save_run
from ghbench.matrix.state import MatrixPlan
from ghbench.ratelimit import Bucket
from ghbench.signals import uninterruptible
from ghbench.simulation.simulate import simulate_cell
from ghbench.timefmt import format_duration, iso_s
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName
from ghbench.workload.scenarios import CellSpec, repos_for

__all__ = [
    "CellArtifacts",
    "CellBackend",
    "MatrixOutcome",
    "SimulatedBackend",
    "cell_seed",
    "plan_timing",
    "run_matrix",
    "write_outputs",
]

Log = Callable[[str], None]
MAX_WAITS = 4  # hygiene re-checks before a cell is refused


@dataclass(frozen=True)
class CellArtifacts:
    """What a backend produced for one cell."""

    trace_path: Path
    scorecard_path: Path | None
    scorecard_artifact: Mapping[str, Any]  # the spec's scorecard JSON object
    repos: tuple[str, ...]
    seed: int | None = None
    notes: tuple[str, ...] = ()
    durations: tuple[float, float] | None = None  # (warmup, window) when not the runbook's


class CellBackend(Protocol):
    """Runs one cell and returns its artifacts; raises GhbenchError when the cell fails."""

    name: str  # simulated | emulator | github
    driver: str  # workload | ao

    def rate_limit(self) -> Mapping[str, Bucket] | None:
        """The buckets now, or None when the backend runs in virtual time (no hygiene)."""
        ...

    def run_cell(self, cell: Cell, cell_dir: Path) -> CellArtifacts: ...


def cell_seed(seed: int, cell: Cell) -> int:
    """A per-cell seed: stable across runs, different between cells."""
    return zlib.crc32(f"{seed}:{cell.id}".encode()) & 0x7FFFFFFF


@dataclass
class SimulatedBackend:
    """The workload model on the in-process emulator, in virtual time (``simulate``)."""

    seed: int = 0
    session_ids: bool = False
    profile: ProfileName = DEFAULT_PROFILE
    tick: float | None = None  # seconds; None: the profile's
    name: str = "simulated"
    driver: str = "workload"

    def rate_limit(self) -> Mapping[str, Bucket] | None:
        return None

    def run_cell(self, cell: Cell, cell_dir: Path) -> CellArtifacts:
        spec = CellSpec(
            scenario=cell.scenario,
            topology=cell.topology,
            sessions=cell.scale,
            warmup_s=cell.info.warmup_s,
            duration_s=cell.info.duration_s,
            profile=self.profile,
            policy={} if self.tick is None else {"tick": self.tick},
            session_ids=self.session_ids,
        )
        seed = cell_seed(self.seed, cell)
        result = simulate_cell(spec, seed=seed, out_dir=cell_dir)
        artifact = msgspec.json.decode(Path(result.scorecard_artifact_path).read_bytes())
        return CellArtifacts(
            trace_path=Path(result.trace_path),
            scorecard_path=Path(result.scorecard_artifact_path),
            scorecard_artifact=artifact,
            repos=tuple(repos_for(cell.topology, cell.scale)),
            seed=seed,
        )


@dataclass
class MatrixOutcome:
    ran: list[RunRecord] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # done before (--resume)

    @property
    def failed(self) -> list[RunRecord]:
        return [r for r in self.ran if r.status != "ok"]


def _rel(path: Path | None, root: Path) -> str | None:
    if path is None:
        return None
    try:
        return str(Path(path).resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def plan_timing(plan: MatrixPlan, cell: Cell) -> CellTiming:
    """How long ``cell`` runs under ``plan`` and how often its orchestrator polls."""
    if plan.backend == "simulated":  # virtual time: always the runbook's durations
        return cell_timing(cell, tick_s=plan.tick)
    model = plan.driver == "workload"  # --tick and the scaled interval are the model's
    return cell_timing(
        cell,
        duration_scale=plan.duration_scale,
        tick_s=plan.tick if model else None,
        scaled_poll=model,
    )


def _hygiene(
    cell: Cell, timing: CellTiming, backend: CellBackend, clock: Clock, log: Log
) -> str | None:
    """None when the cell may start now; otherwise why it was refused."""
    estimate = estimate_cost(cell, timing)
    for _ in range(MAX_WAITS + 1):
        buckets = backend.rate_limit()
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
    """A cell cut short by a signal: its record, and the interrupt to raise once saved."""

    def __init__(self, record: RunRecord, interrupt: Interrupted) -> None:
        super().__init__(str(interrupt))
        self.record, self.interrupt = record, interrupt


def _analyse(arts: CellArtifacts, cell_dir: Path) -> dict[str, Any]:
    frame = load_trace(arts.trace_path, ANALYSIS_COLUMNS)
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
    return {
        "summary_text": s_text,
        "analysis_text": a_text,
        "rows": analysis.rows,
        "attributed_rows": analysis.attributed_rows,
    }


def _run_one(  # noqa: PLR0917 - private, called once
    cell: Cell,
    backend: CellBackend,
    matrix_dir: Path,
    plan: MatrixPlan,
    clock: Clock,
    operator: str,
    log: Log,
) -> RunRecord:
    started = clock.now()
    timing = plan_timing(plan, cell)
    base: dict[str, Any] = {
        "cell": cell.id,
        "backend": backend.name,
        "driver": backend.driver,
        "operator": operator,
        "matrix_run": plan.matrix_run,
        "sessions": cell.scale,
        "warmup_s": timing.warmup_s,
        "duration_s": timing.window_s,
    }

    def failed(status: RunStatus, reason: str) -> RunRecord:
        now = iso_s(clock.now())
        return RunRecord(
            status=status, reason=reason, started_at=iso_s(started), ended_at=now, **base
        )

    refusal = _hygiene(cell, timing, backend, clock, log)
    if refusal is not None:
        return failed("refused", refusal)
    cell_dir = unique_path(matrix_dir / "artifacts", f"{cell.id}-{plan.matrix_run}", "")
    cell_dir.mkdir(parents=True)
    try:
        arts = backend.run_cell(cell, cell_dir)
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
    extra: dict[str, Any] = {}
    notes = list(arts.notes)
    try:
        extra = _analyse(arts, cell_dir)
    except Exception as exc:  # optional: the cell's scorecard stands without them
        why = str(exc) if isinstance(exc, GhbenchError) else f"{type(exc).__name__}: {exc}"
        notes.append(f"no summary or analysis: {why}")
    if arts.durations is not None:
        base["warmup_s"], base["duration_s"] = arts.durations
    art = arts.scorecard_artifact
    window = art.get("window") or {}
    start_iso = window.get("start") or iso_s(started)
    end_iso = window.get("end") or iso_s(clock.now())
    return RunRecord(
        status="ok",
        started_at=start_iso,
        ended_at=end_iso,
        repos=list(arts.repos),
        seed=arts.seed,
        trace=_rel(arts.trace_path, matrix_dir),
        scorecard_path=_rel(arts.scorecard_path, matrix_dir),
        rate_limit_snapshots=art.get("rateLimitSnapshots"),
        scorecard=art.get("scorecard"),
        notes=notes,
        **base,
        **extra,
    )


def write_outputs(
    matrix_dir: Path, planned: Sequence[Cell], *, chart: bool, log: Log | None = None
) -> None:
    """Re-render ``baseline.md`` and ``baseline.json`` (and ``scaling.png`` when asked;
    a chart that cannot be drawn or written is a warning in ``log``, the runs stand)."""
    runs = load_runs(matrix_dir)
    if chart:
        try:
            replace_atomic(matrix_dir / CHART_NAME, scaling_chart_png(latest_ok(runs)))
        except Exception as exc:  # optional: the baseline is rendered without it
            if log is None:
                raise
            log(f"warning: {CHART_NAME} not written: {type(exc).__name__}: {exc}")
    has_chart = (matrix_dir / CHART_NAME).exists()
    md = render_baseline(runs, planned, chart=CHART_NAME if has_chart else None)
    replace_atomic(matrix_dir / "baseline.md", md.encode())
    index = msgspec.json.format(msgspec.json.encode(baseline_json(runs, planned)), indent=2)
    replace_atomic(matrix_dir / "baseline.json", index + b"\n")


def done_cells(matrix_dir: Path, matrix_run: str) -> set[str]:
    """Cells this invocation already ran successfully."""
    return {
        r.cell for r in load_runs(matrix_dir) if r.matrix_run == matrix_run and r.status == "ok"
    }


def run_matrix(
    plan: MatrixPlan,
    backend: CellBackend,
    matrix_dir: Path,
    *,
    clock: Clock,
    operator: str,
    log: Log,
) -> MatrixOutcome:
    """Run the plan's cells not yet done, rewriting ``baseline.md`` after every cell."""
    matrix_dir = Path(matrix_dir)
    cells = [c for c in (cell_from_id(i) for i in plan.cells) if c is not None]
    done = done_cells(matrix_dir, plan.matrix_run)
    outcome = MatrixOutcome()
    for n, cell in enumerate(cells, start=1):
        if cell.id in done:
            outcome.skipped.append(cell.id)
            continue
        log(f"[{n}/{len(cells)}] {cell.id}: {cell.title}")
        try:
            record = _run_one(cell, backend, matrix_dir, plan, clock, operator, log)
        except _CellInterrupted as cut:
            with uninterruptible(defer=False):  # a second signal is ignored while saving
                saved, _ = save_run(matrix_dir, cut.record)
                outcome.ran.append(saved)
                write_outputs(matrix_dir, cells, chart=False)
            raise cut.interrupt from None
        saved, _ = save_run(matrix_dir, record)
        outcome.ran.append(saved)
        if saved.status != "ok":
            log(f"{cell.id}: {saved.status}: {saved.reason}")
        write_outputs(matrix_dir, cells, chart=False)
    write_outputs(matrix_dir, cells, chart=True, log=log)
    return outcome
