"""After the window: the scorecard, its console text, the supplemental summaries and the plot.

This is the harness's one seam to the scorecard engine (``ghbench.scorecard``): it turns
what ``measure`` measured (window, snapshots, control-call count, the incomplete reason)
into the engine's inputs, and adds any run events below the engine's console text.

File names (never overwritten; a ``-2`` suffix is added if one is taken):
``scorecard-{scenarioId}-{ts}.json``, ``summary-bench-{ts}.txt``,
``analysis-bench-{ts}.txt``, ``burn-{scenarioId}-{ts}.png`` and the HTML page
``report-{scenarioId}-{ts}.html`` (``ghbench.pages``), beside the trace
``gh-trace-bench-{ts}.jsonl``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

from ghbench.analysis.analyze import analyze
from ghbench.analysis.summarize import summarize
from ghbench.analysis.text import analysis_lines, summary_lines
from ghbench.artifacts.io import unique_path, write_new
from ghbench.artifacts.models import ScorecardArtifact, SetupArtifact
from ghbench.errors import ArtifactError, GhbenchError
from ghbench.harness.plot import render_burn_png
from ghbench.harness.window import Measurement, MeasureResult, WindowPlan
from ghbench.pages.burn import BurnSeries, burn_points
from ghbench.pages.scorecard_page import report_path, scorecard_page
from ghbench.runspec.spec import RunSpec
from ghbench.scorecard import Snapshots, build_scorecard_artifact, render_console, write_scorecard
from ghbench.scorecard.health import HealthBounds, RunHealth
from ghbench.trace.files import agent_trace_path, agents_beside
from ghbench.trace.frame import TraceFrame
from ghbench.trace.reader import read_trace

__all__ = [
    "CONSOLE_LABELS",
    "build_artifact",
    "console_text",
    "load_frame",
    "write_outputs",
]

# what each written file is called on the console, in the order shown
CONSOLE_LABELS = {
    "trace": "Trace",
    "scorecard": "Scorecard",
    "report": "Report",
    "burn": "Burn curve",
    "summarizerOutput": "Summary",
    "analyzerOutput": "Analysis",
}


def load_frame(path: Path) -> TraceFrame:
    """The trace's rows; an empty trace (no calls at all) is an empty frame, not an error."""
    return read_trace(path, empty_ok=True)


def load_agent_frame(trace: Path, events: list[str]) -> tuple[TraceFrame | None, Path]:
    """The agents' trace beside ``trace``: None when the run traced no agent call, or
    (noted in ``events``) when it cannot be read: the scorecard stands without it."""
    path = agents_beside(trace)
    if path is None:
        return None, agent_trace_path(trace)
    try:
        return read_trace(path), path
    except GhbenchError as exc:
        events.append(f"no agents' split: {exc}")
        return None, path


def _supplemental_texts(frame: TraceFrame, warnings: list[str]) -> dict[str, tuple[str, str]]:
    """``{key: (file stem, text)}`` of the summaries that could be computed."""
    makers: dict[str, tuple[str, Callable[[], list[str]]]] = {
        "summarizerOutput": ("summary", lambda: summary_lines(summarize(frame))),
        "analyzerOutput": ("analysis", lambda: analysis_lines(analyze(frame))),
    }
    texts: dict[str, tuple[str, str]] = {}
    for key, (stem, make) in makers.items():
        try:
            texts[key] = (stem, "\n".join(make()) + "\n")
        except Exception as exc:  # optional: the scorecard stands without it
            warnings.append(f"no {stem} written: {_why(exc)}")
    return texts


def _why(exc: Exception) -> str:
    return str(exc) if isinstance(exc, GhbenchError) else f"{type(exc).__name__}: {exc}"


def _plot(burn: list[BurnSeries], measured: Measurement, scenario: str, out_dir: Path) -> Path:
    window = None
    if measured.start is not None and measured.end is not None:
        window = (measured.start, measured.end)
    png = render_burn_png(
        burn,
        window=window,
        title=f"{scenario}: rate-limit remaining",
    )
    path = unique_path(out_dir, f"burn-{scenario}-{measured.stamp}", ".png")
    write_new(path, png)
    return path


def build_artifact(
    frame: TraceFrame,
    *,
    measured: Measurement,
    setup: SetupArtifact,
    spec: RunSpec,
    git_sha: str | None,
    branch: str | None,
    supplemental: Mapping[str, str],
    bounds: HealthBounds,
    agents: tuple[TraceFrame | None, Path],
) -> ScorecardArtifact:
    """``agents``: the agents' trace beside the run's (``load_agent_frame``)."""
    assert measured.start is not None and measured.end is not None
    agents_frame, agent_path = agents
    warmup_end = measured.warmup_end
    return build_scorecard_artifact(
        frame,
        window_start_ms=round(measured.start * 1000),
        window_end_ms=round(measured.end * 1000),
        scenario_id=setup.scenario_id,
        measured_at=measured.end,
        warmup_requested=spec.warmup.text,
        duration_requested=spec.duration.text,
        warmup_end_ms=None if warmup_end is None else round(warmup_end * 1000),
        snapshots=Snapshots(before=measured.before, after=measured.after),
        control_calls=measured.control_calls_in_window,
        session_count=spec.cell.sessions,
        git_sha=git_sha,
        branch=branch,
        trace_path=str(measured.trace_path),
        supplemental=dict(supplemental),
        incomplete_reason=measured.incomplete_reason,
        agent_frame=agents_frame,
        agent_trace_path=None if agents_frame is None else str(agent_path),
        agent_model=spec.agent_model,  # the driver ran the agent model as the agents
        health=RunHealth(
            # the model's tick: the orchestrator's poll interval (AO's 30 s unless set)
            poll_interval_s=spec.model_policy().tick,
            losses=measured.losses,
            snapshot_delays=measured.snapshot_delays,
            full_disk=measured.full_disk,
            bounds=bounds,
        ),
    )


def console_text(
    artifact: ScorecardArtifact,
    *,
    color: bool,
    paths: Mapping[str, Path],
    measured: Measurement,
) -> str:
    shown = {CONSOLE_LABELS.get(k, k): str(v) for k, v in paths.items()}
    text = render_console(artifact, color=color, paths=shown).rstrip("\n")
    notes = [f"  note: {e}" for e in measured.events]
    warnings = [f"  warning: {w}" for w in measured.warnings]
    return "\n".join([text, *notes, *warnings])


def write_outputs(
    spec: RunSpec,
    setup: SetupArtifact,
    measured: Measurement,
    *,
    plan: WindowPlan,
    version: tuple[str | None, str | None],
    color: bool,
    validation_calls: int,
    interrupted: int | None,
) -> MeasureResult:
    """The scorecard first; then the plot and the summaries, each of which may fail
    with a warning (in the console's notes), never losing the scorecard. A scorecard
    that cannot be written still reaches the console (``raise_for_outcome`` then
    fails with why)."""
    out_dir, stamp, warnings = spec.out_dir, measured.stamp, measured.warnings
    frame = load_frame(measured.trace_path)
    texts = _supplemental_texts(frame, warnings) if plan.supplemental else {}
    # --out is locked for the run (ghbench.commands.options.hold_out): a free name stays free
    supplemental = {
        key: unique_path(out_dir, f"{stem}-bench-{stamp}", ".txt")
        for key, (stem, _) in texts.items()
    }
    sha, branch = version  # the orchestrator's checkout: git sha and branch
    agents = load_agent_frame(measured.trace_path, measured.events)
    artifact = build_artifact(
        frame,
        measured=measured,
        setup=setup,
        spec=spec,
        git_sha=sha,
        branch=branch,
        supplemental={k: str(v) for k, v in supplemental.items()},
        bounds=plan.health,
        agents=agents,
    )
    scorecard_path = unique_path(out_dir, f"scorecard-{setup.scenario_id}-{stamp}", ".json")
    paths: dict[str, Path] = {"trace": measured.trace_path}
    scorecard_error: str | None = None
    try:
        write_scorecard(artifact, scorecard_path)
        paths["scorecard"] = scorecard_path
    except ArtifactError as exc:
        scorecard_error = str(exc)
    if scorecard_error is None:
        burn: list[BurnSeries] = []
        agent_frames = [] if agents[0] is None else [agents[0]]
        try:
            burn = burn_points(frame, [measured.before, measured.after], also=agent_frames)
            page = scorecard_page(artifact, burn).encode()
            paths["report"] = write_new(unique_path(*report_path(scorecard_path), ".html"), page)
        except Exception as exc:  # optional, as the plot: the scorecard stands without it
            warnings.append(f"no report page written: {_why(exc)}")
        if plan.plot:
            try:
                paths["burn"] = _plot(burn, measured, setup.scenario_id, out_dir)
            except Exception as exc:  # optional, as the summaries
                warnings.append(f"no burn curve written: {_why(exc)}")
        for key, path in supplemental.items():
            try:
                paths[key] = write_new(path, texts[key][1].encode())
            except ArtifactError as exc:
                warnings.append(f"{exc} (the scorecard names it)")
    console = console_text(artifact, color=color, paths=paths, measured=measured)
    return MeasureResult(
        trace_path=measured.trace_path,
        scorecard_path=scorecard_path,
        scorecard=artifact,
        console=console,
        paths=paths,
        measurement=measured,
        validation_calls=validation_calls,
        interrupted=interrupted,
        scorecard_error=scorecard_error,
    )
