"""Reading what ``summarize``/``analyze`` and ``compare`` take: a trace's columns, and
scorecards from a file or a directory of runs, with one-line errors naming the role."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from ghbench.analysis.load import load_scorecards, load_trace
from ghbench.errors import ArtifactError, TraceError

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "compare"


def test_a_directorys_scorecards_sorted_by_name_nested_included(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    shutil.copy(FIXTURES / "base" / "scorecard-run2.json", tmp_path / "b" / "scorecard-a.json")
    shutil.copy(FIXTURES / "base" / "scorecard-run1.json", tmp_path / "scorecard-z.json")
    (tmp_path / "notes.json").write_text("{}")  # not a scorecard-*.json: not read
    runs = load_scorecards(tmp_path, "baseline")
    assert [Path(r.source).relative_to(tmp_path) for r in runs] == [
        Path("b/scorecard-a.json"),
        Path("scorecard-z.json"),
    ]
    assert runs[1].artifact.scorecard.total_calls == 40


def test_one_file_is_one_run() -> None:
    (run,) = load_scorecards(FIXTURES / "cand" / "scorecard-run1.json", "candidate")
    assert run.source.endswith("cand/scorecard-run1.json")


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p / "missing", "candidate {p}/missing: no such file or directory; pass a"),
        (lambda p: p, "candidate {p}: no scorecard-*.json in this directory"),
    ],
)
def test_nothing_to_compare_is_one_line_naming_the_role(
    tmp_path: Path, make: object, message: str
) -> None:
    with pytest.raises(ArtifactError) as info:
        load_scorecards(make(tmp_path), "candidate")  # type: ignore[operator]
    assert str(info.value).startswith(message.format(p=tmp_path))
    assert "\n" not in str(info.value)


def test_a_broken_scorecard_is_named_with_its_role(tmp_path: Path) -> None:
    (tmp_path / "scorecard-x.json").write_text("{not json")
    with pytest.raises(ArtifactError, match=r"^baseline: .*scorecard-x\.json") as info:
        load_scorecards(tmp_path, "baseline")
    assert "\n" not in str(info.value)


def test_a_trace_is_read_and_a_missing_one_is_a_trace_error(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    trace.write_text('{"timestamp":"2026-04-16T14:00:00Z","operation":"gh.pr.view"}\n')
    frame = load_trace(trace, ("ts_ms", "operation"))
    assert len(frame) == 1 and frame.operation.value(0) == "gh.pr.view"
    with pytest.raises(TraceError):
        load_trace(tmp_path / "missing.jsonl")
