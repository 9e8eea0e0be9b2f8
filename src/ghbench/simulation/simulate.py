"""``simulate_cell``: run a cell and write its trace and scorecard artifact, as ``measure`` does.

With agents, their rows go beside the trace (``gh-trace-agents-*``, as a real run's
agents' trace) and the scorecard's ``insights.spendSplit`` splits the spend.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ghbench.artifacts.io import unique_path
from ghbench.artifacts.models import ScorecardArtifact
from ghbench.runspec.result import RunResult
from ghbench.runspec.spec import RunSpec
from ghbench.scorecard import Snapshots, build_scorecard_artifact, write_scorecard
from ghbench.simulation.cell import CellRun, ScenarioPlay, run_cell
from ghbench.simulation.world import Ledger
from ghbench.timefmt import format_duration
from ghbench.trace.files import agent_trace_path, write_rows
from ghbench.trace.frame import TraceFrame

__all__ = ["SimulationResult", "cell_scorecard", "simulate_cell", "write_cell_artifacts"]


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

    def summary(self) -> str:
        """One line: the cell, its ticks and longest poll cycle, the ledger's points."""
        spec = self.spec
        agents = f", agents {spec.agents}" if spec.runs_agents else ""
        return (
            f"simulated {spec.cell.id} ({spec.profile}{agents}, seed {spec.seed}):"
            f" {self.ticks} ticks, {self.skipped_ticks} skipped, longest poll cycle in the"
            f" window {self.longest_poll_cycle:.1f} s; ledger in window: {dict(self.ledger.points)}"
        )


def cell_scorecard(
    run: CellRun, *, trace_path: str | None = None, agent_trace: str | None = None
) -> ScorecardArtifact:
    """The scorecard of a cell run in memory, as ``write_cell_artifacts`` writes it."""
    spec = run.spec
    agents = None if run.agent_rows is None else TraceFrame.from_rows(run.agent_rows)
    return build_scorecard_artifact(
        TraceFrame.from_rows(run.rows),
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
    stamp = int(run.window_end)
    out_dir.mkdir(parents=True, exist_ok=True)
    name = f"gh-trace-sim-{spec.cell.slug}-seed{spec.seed}-{stamp}"
    trace_path = write_rows(unique_path(out_dir, name, ".jsonl"), run.rows)
    agents = None
    if run.agent_rows is not None:
        agents = write_rows(agent_trace_path(trace_path), run.agent_rows)
    artifact = cell_scorecard(
        run, trace_path=str(trace_path), agent_trace=None if agents is None else str(agents)
    )
    path = write_scorecard(artifact, out_dir)
    return SimulationResult(
        trace_path=trace_path,
        scorecard_path=path,
        scorecard=artifact,
        spec=spec,
        repos=tuple(run.repos),
        ledger=run.ledger,
        ticks=run.ticks,
        skipped_ticks=run.skipped_ticks,
        longest_poll_cycle=run.longest_poll_cycle,
        agent_trace_path=agents,
    )


def simulate_cell(spec: RunSpec, play: ScenarioPlay | None = None) -> SimulationResult:
    """Run ``spec``'s cell and write its trace and scorecard artifact under its
    ``out_dir``."""
    return write_cell_artifacts(run_cell(spec, play), out_dir=spec.out_dir)
