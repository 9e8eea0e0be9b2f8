"""After the window: the scorecard, its console text, the supplemental summaries and the plot.

File names (never overwritten; a ``-2`` suffix is added if one is taken):
``scorecard-{scenarioId}-{ts}.json``, ``summary-bench-{ts}.txt``,
``analysis-bench-{ts}.txt``, ``burn-{scenarioId}-{ts}.png``, beside the trace
``gh-trace-bench-{ts}.jsonl``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ghbench.artifacts.io import unique_path, write_new
from ghbench.drivers.base import Driver
from ghbench.errors import TraceError
from ghbench.harness.setup_record import SetupRecord

if TYPE_CHECKING:
    from ghbench.harness.measure import MeasureOptions, MeasureResult, WindowRecord
    from ghbench.trace.frame import TraceFrame

__all__ = ["load_frame", "write_outputs"]


def load_frame(path: Path) -> TraceFrame:
    """The trace's rows; an empty trace (no calls at all) is an empty frame, not an error."""
    from ghbench.trace.frame import TraceFrame
    from ghbench.trace.reader import read_trace

    if path.stat().st_size == 0:
        return TraceFrame.from_rows([])
    try:
        return read_trace(path)
    except TraceError:
        if path.stat().st_size == 0:
            return TraceFrame.from_rows([])
        raise


def _supplemental(frame: TraceFrame, out_dir: Path, stamp: int) -> dict[str, Path]:
    from ghbench.analysis.analyze import analyze
    from ghbench.analysis.summarize import summarize
    from ghbench.analysis.text import analysis_lines, summary_lines

    texts = {
        "summarizerOutput": ("summary", summary_lines(summarize(frame))),
        "analyzerOutput": ("analysis", analysis_lines(analyze(frame))),
    }
    paths: dict[str, Path] = {}
    for key, (stem, lines) in texts.items():
        path = unique_path(out_dir, f"{stem}-bench-{stamp}", ".txt")
        write_new(path, ("\n".join(lines) + "\n").encode())
        paths[key] = path
    return paths


def _plot(frame: TraceFrame, record: WindowRecord, scenario: str, out_dir: Path) -> Path:
    from ghbench.harness.plot import burn_points, render_burn_png

    window = None
    if record.start is not None and record.end is not None:
        window = (record.start, record.end)
    png = render_burn_png(
        burn_points(frame, [record.before, record.after]),
        window=window,
        title=f"{scenario}: rate-limit remaining",
    )
    path = unique_path(out_dir, f"burn-{scenario}-{record.stamp}", ".png")
    write_new(path, png)
    return path


def write_outputs(
    setup: SetupRecord,
    record: WindowRecord,
    *,
    sessions: int,
    driver: Driver,
    options: MeasureOptions,
    color: bool,
    validation_calls: int,
    interrupted: bool,
) -> MeasureResult:
    from ghbench.harness.measure import MeasureResult
    from ghbench.harness.scoring import build_artifact, console_text, save_scorecard

    out_dir = options.out_dir
    frame = load_frame(record.trace_path)
    supplemental: dict[str, Path] = {}
    if options.supplemental:
        supplemental = _supplemental(frame, out_dir, record.stamp)
    sha, branch = driver.version()
    artifact = build_artifact(
        frame,
        record=record,
        setup=setup,
        sessions=sessions,
        options=options,
        git_sha=sha,
        branch=branch,
        supplemental={k: str(v) for k, v in supplemental.items()},
    )
    scorecard_path = unique_path(out_dir, f"scorecard-{setup.scenario_id}-{record.stamp}", ".json")
    save_scorecard(artifact, scorecard_path)
    paths: dict[str, Path] = {"trace": record.trace_path, "scorecard": scorecard_path}
    if options.plot:
        paths["burn"] = _plot(frame, record, setup.scenario_id, out_dir)
    paths.update(supplemental)
    console = console_text(artifact, color=color, paths=paths, record=record)
    return MeasureResult(
        scorecard_path=scorecard_path,
        trace_path=record.trace_path,
        console=console,
        paths=paths,
        record=record,
        validation_calls=validation_calls,
        interrupted=interrupted,
    )
