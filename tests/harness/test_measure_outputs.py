"""The scorecard first: an optional output that cannot be written is a warning, never a
lost result. The fault is the operating system's own: a file-size limit
(RLIMIT_FSIZE, what a nearly full disk looks like to one writer) that the scorecard
fits under and the burn plot does not."""

from __future__ import annotations

import json
import resource
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

import pytest

from ghbench.artifacts.models import SetupArtifact
from ghbench.errors import ArtifactError
from ghbench.harness.measure_outputs import write_outputs
from ghbench.harness.setup_artifact import new_setup
from ghbench.harness.window import Measurement, MeasureResult, WindowPlan
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.timefmt import parse_iso

LIMIT = 24 * 1024  # bytes: above a scorecard and the summaries, below its page and a burn PNG


@contextmanager
def _file_size_limit(limit: int) -> Iterator[None]:
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def _window(tmp_path: Path) -> tuple[SetupArtifact, Measurement]:
    trace = tmp_path / "gh-trace-bench-1.jsonl"
    with resources.as_file(resources.files("ghbench.data") / "example-trace.jsonl") as example:
        shutil.copyfile(example, trace)
    setup = new_setup(
        Cell("S2", "T1", 5), project="todo-app", repo="acme/todo-app", sessions=(), created_at=0.0
    )
    record = Measurement(
        trace_path=trace,
        stamp=1,
        start=parse_iso("2026-04-16T14:17:00Z"),
        end=parse_iso("2026-04-16T14:32:00Z"),
    )
    return setup, record


def _write(tmp_path: Path, setup: SetupArtifact, record: Measurement) -> MeasureResult:
    spec = RunSpec(
        cell=Cell("S2", "T1", 5),
        warmup=Duration(120, "2m"),
        duration=Duration(900, "15m"),
        out_dir=tmp_path,
    )
    return write_outputs(
        spec,
        setup,
        record,
        plan=WindowPlan(),
        version=(None, None),
        color=False,
        validation_calls=1,
        interrupted=None,
    )


@pytest.mark.slow
def test_a_plot_that_cannot_be_written_is_a_warning_and_the_scorecard_stands(
    tmp_path: Path,
) -> None:
    setup, record = _window(tmp_path)
    with _file_size_limit(LIMIT):
        result = _write(tmp_path, setup, record)
    card = json.loads(result.scorecard_path.read_text())
    assert card["scorecard"]["totalCalls"] > 0
    assert "burn" not in result.paths and "report" not in result.paths
    assert not list(tmp_path.glob("burn-*.png")) and not list(tmp_path.glob("report-*.html"))
    page, plot = record.warnings  # the page, then the plot: each optional
    assert page.startswith("no report page written: cannot write ")
    assert plot.startswith("no burn curve written: cannot write ")
    for warning in (page, plot):
        assert "File too large" in warning
        assert f"warning: {warning}" in result.console
    for key in ("summarizerOutput", "analyzerOutput"):
        assert Path(card["supplemental"][key]).read_text().strip()
    result.raise_for_outcome()


def test_a_scorecard_that_cannot_be_written_still_reaches_the_console(tmp_path: Path) -> None:
    setup, record = _window(tmp_path)
    with _file_size_limit(512):
        result = _write(tmp_path, setup, record)
    assert not list(tmp_path.glob("scorecard-*.json"))
    assert "GH Rate-Limit Benchmark" in result.console
    unwritten = r"^the scorecard was not written \(cannot write .*File too large"
    with pytest.raises(ArtifactError, match=unwritten):
        result.raise_for_outcome()
