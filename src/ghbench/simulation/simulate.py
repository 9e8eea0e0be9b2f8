"""``simulate_cell``: run a cell and write its trace, scorecard artifact and report page,
as ``measure`` does.

With agents, their rows go beside the trace (``gh-trace-agents-*``, as a real run's
agents' trace) and the scorecard's ``insights.spendSplit`` splits the spend.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import msgspec

from ghbench.artifacts.io import unique_path, write_new
from ghbench.artifacts.models import ScorecardArtifact
from ghbench.pages.scorecard_page import report_path, scorecard_report
from ghbench.ratelimit import RateLimitSnapshot
from ghbench.runspec.result import RunResult
from ghbench.runspec.spec import RunSpec
from ghbench.scorecard import Snapshots, build_scorecard_artifact, write_scorecard
from ghbench.simulation.cell import CellRun, ScenarioPlay, run_cell
from ghbench.simulation.world import Ledger
from ghbench.timefmt import format_duration
from ghbench.trace.files import agent_trace_path, write_rows
from ghbench.trace.frame import TraceFrame
from ghbench.trace.schema import TraceRow
from ghbench.workload.config import load_workload_config

__all__ = [
    "Frames",
    "RunInMemory",
    "SimulationResult",
    "WrittenRun",
    "cell_scorecard",
    "configured_spec",
    "run_frames",
    "simulate_cell",
    "write_cell_artifacts",
    "write_run",
]

Frames = tuple[TraceFrame, TraceFrame | None]  # the run's rows and its agents'


class RunInMemory(Protocol):
    """A run made in-process (a simulated cell, a replay): its rows, its agents' (None
    without agents) and the rate-limit snapshots at its window's edges."""

    @property
    def rows(self) -> list[TraceRow]: ...

    @property
    def agent_rows(self) -> list[TraceRow] | None: ...

    @property
    def snapshots(self) -> dict[str, RateLimitSnapshot]: ...


@dataclass(frozen=True)
class WrittenRun:
    """Where ``write_run`` put a run's trace, agents' trace, scorecard and page."""

    trace_path: Path
    agent_trace_path: Path | None
    scorecard_path: Path
    scorecard: ScorecardArtifact
    page_path: Path


# the scorecard of a run, given its trace's path, its agents' trace's and its frames
Score = Callable[[str, str | None, Frames], ScorecardArtifact]


def run_frames(run: RunInMemory) -> Frames:
    """The run's rows and its agents' (None without agents) as frames."""
    agents = None if run.agent_rows is None else TraceFrame.from_rows(run.agent_rows)
    return TraceFrame.from_rows(run.rows), agents


def write_run(run: RunInMemory, out_dir: Path, stem: str, score: Score) -> WrittenRun:
    """The run's trace (``stem``), its agents' beside it, its scorecard and the
    scorecard's page under ``out_dir``, as ``measure`` writes them: each a new file."""
    out_dir.mkdir(parents=True, exist_ok=True)
    trace_path = write_rows(unique_path(out_dir, stem, ".jsonl"), run.rows)
    agents = None
    if run.agent_rows is not None:
        agents = write_rows(agent_trace_path(trace_path), run.agent_rows)
    frames = run_frames(run)
    artifact = score(str(trace_path), None if agents is None else str(agents), frames)
    path = write_scorecard(artifact, out_dir)
    snapshots = [run.snapshots.get("before"), run.snapshots.get("after")]
    page = scorecard_report(artifact, frames[0], snapshots=snapshots, agents=frames[1])
    page_path = write_new(unique_path(*report_path(path), ".html"), page.encode())
    return WrittenRun(trace_path, agents, path, artifact, page_path)


@dataclass(frozen=True)
class SimulationResult(RunResult):
    """What ``simulate_cell`` wrote and computed."""

    spec: RunSpec
    repos: tuple[str, ...]
    ledger: Ledger
    ticks: int
    skipped_ticks: int
    longest_poll_cycle: float = 0.0
    agent_trace_path: Path | None = None  # the agents' rows, when agents ran
    page_path: Path | None = None  # the scorecard's HTML page (``ghbench.pages``)

    def summary(self) -> str:
        """One line: the cell, its ticks and longest poll cycle, the ledger's points."""
        spec = self.spec
        agents = f", agents {spec.agents}" if spec.runs_agents else ""
        if spec.agent_count is not None:
            agents += f" in {spec.agent_count} session(s)"
        return (
            f"simulated {spec.cell.id} ({spec.profile}{agents}, seed {spec.seed}):"
            f" {self.ticks} ticks, {self.skipped_ticks} skipped, longest poll cycle in the"
            f" window {self.longest_poll_cycle:.1f} s; ledger in window: {dict(self.ledger.points)}"
        )


def cell_scorecard(
    run: CellRun,
    *,
    trace_path: str | None = None,
    agent_trace: str | None = None,
    frames: Frames | None = None,
) -> ScorecardArtifact:
    """The scorecard of a cell run in memory, as ``write_cell_artifacts`` writes it
    (``frames``: ``run_frames(run)``, when the caller has them)."""
    spec = run.spec
    frame, agents = frames or run_frames(run)
    return build_scorecard_artifact(
        frame,
        window_start_ms=round(run.window_start * 1000),
        window_end_ms=round(run.window_end * 1000),
        scenario_id=spec.cell.scenario_id,
        measured_at=run.window_end,
        warmup_requested=format_duration(spec.warmup.seconds),
        duration_requested=format_duration(spec.duration.seconds),
        snapshots=Snapshots(before=run.snapshots.get("before"), after=run.snapshots.get("after")),
        control_calls=run.control_calls,
        session_count=spec.cell.sessions,
        trace_path=trace_path,
        agent_frame=agents,
        agent_trace_path=agent_trace,
        agent_model=spec.agent_model,
    )


def write_cell_artifacts(run: CellRun, *, out_dir: Path) -> SimulationResult:
    spec = run.spec
    stem = f"gh-trace-sim-{spec.cell.slug}-seed{spec.seed}-{int(run.window_end)}"
    written = write_run(
        run,
        out_dir,
        stem,
        lambda trace, agents, frames: cell_scorecard(
            run, trace_path=trace, agent_trace=agents, frames=frames
        ),
    )
    return SimulationResult(
        trace_path=written.trace_path,
        scorecard_path=written.scorecard_path,
        scorecard=written.scorecard,
        spec=spec,
        repos=tuple(run.repos),
        ledger=run.ledger,
        ticks=run.ticks,
        skipped_ticks=run.skipped_ticks,
        longest_poll_cycle=run.longest_poll_cycle,
        agent_trace_path=written.agent_trace_path,
        page_path=written.page_path,
    )


def simulate_cell(spec: RunSpec, play: ScenarioPlay | None = None) -> SimulationResult:
    """Run ``spec``'s cell and write its trace and scorecard artifact under its
    ``out_dir``."""
    return write_cell_artifacts(run_cell(spec, play), out_dir=spec.out_dir)


def configured_spec(spec: RunSpec, config: Path | None, *, profile_given: bool) -> RunSpec:
    """``spec`` with the workload config at ``config`` (``simulate --config``): its
    profile (unless ``--profile`` was given), its policy and its trace options."""
    if config is None:
        return spec
    cfg = load_workload_config(config)
    return msgspec.structs.replace(
        spec,
        profile=spec.profile if profile_given else cfg.profile,
        policy=cfg.policy,
        session_ids=cfg.trace.session_ids,
    )
