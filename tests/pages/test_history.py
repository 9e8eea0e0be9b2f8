"""``--format bmf`` and ``--format gab``: the shapes Bencher and github-action-benchmark
read, with the artifacts' numbers, from ``report``, ``simulate``, ``compare`` and the
matrix.

The shapes, as their documentation gives them: BMF (bencher.dev/docs/reference/
bencher-metric-format) is an object of benchmarks, each an object of measures, each an
object with a number ``value`` and optional number ``lower_value``/``upper_value``;
github-action-benchmark's custom tools (its ``src/extract.ts``, ``BenchmarkResult``)
read a non-empty array of ``{name: string, value: number, unit: string}`` with optional
string ``range`` and ``extra``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ghbench.artifacts.models import load_scorecard
from ghbench.pages.history import TRACKED

FIXTURES = Path(__file__).resolve().parents[1] / "analysis" / "fixtures" / "compare"
EXAMPLE = Path(__file__).resolve().parents[1] / "golden" / "scorecard-example.json"


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def assert_bmf(doc: Any) -> None:
    assert isinstance(doc, dict) and doc
    for benchmark, measures in doc.items():
        assert isinstance(benchmark, str) and benchmark
        assert isinstance(measures, dict) and measures
        for measure, metric in measures.items():
            assert isinstance(measure, str) and 0 < len(measure) <= 64  # a measure's name
            assert set(metric) <= {"value", "lower_value", "upper_value"}
            assert all(_is_number(v) for v in metric.values()), metric
            assert "value" in metric
            if "lower_value" in metric:
                assert metric["lower_value"] <= metric["value"] <= metric["upper_value"]


def assert_gab(doc: Any) -> None:
    assert isinstance(doc, list) and doc
    for entry in doc:
        assert (
            {"name", "value", "unit"} <= set(entry) <= {"name", "value", "unit", "range", "extra"}
        )
        assert isinstance(entry["name"], str) and isinstance(entry["unit"], str)
        assert _is_number(entry["value"])
        for key in ("range", "extra"):
            assert key not in entry or isinstance(entry[key], str)
    names = [e["name"] for e in doc]
    assert len(names) == len(set(names))


def _ghbench(*args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [sys.executable, "-m", "ghbench", *args], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == code, proc.stderr
    return proc


def test_report_prints_the_scorecards_figures_for_each_tracker(tmp_path: Path) -> None:
    bmf = json.loads(
        _ghbench("report", "--example", "--out", str(tmp_path), "--format", "bmf").stdout
    )
    assert_bmf(bmf)
    (card_path,) = tmp_path.glob("scorecard-*.json")
    card = load_scorecard(card_path)
    (measures,) = bmf.values()
    assert list(bmf) == [card.scenario_id]
    assert measures["totalCalls"] == {"value": card.scorecard.total_calls}
    assert (
        measures["consumption.graphql.perHr"]["value"] == card.insights.consumption.graphql.per_hr
    )
    assert set(measures) <= set(TRACKED)
    gab = json.loads(
        _ghbench("report", "--example", "--out", str(tmp_path), "--format", "gab").stdout
    )
    assert_gab(gab)
    by_name = {e["name"]: e for e in gab}
    entry = by_name[f"{card.scenario_id} graphqlPointsPerHr"]
    assert entry == {
        "name": f"{card.scenario_id} graphqlPointsPerHr",
        "unit": "points/h",
        "value": card.scorecard.graphql_points_per_hr,
    }


def test_two_outputs_at_once_are_refused(tmp_path: Path) -> None:
    proc = _ghbench("report", "--example", "--json", "--format", "bmf", code=2)
    assert proc.stderr.strip() == "error: --json and --format bmf: choose one output"
    proc = _ghbench("compare", str(EXAMPLE), str(EXAMPLE), "--json", "--markdown", code=2)
    assert proc.stderr.strip() == "error: --json and --markdown: choose one output"


@pytest.mark.slow
def test_simulate_prints_its_scorecards_figures(tmp_path: Path) -> None:
    args = ("simulate", "--sessions", "3", "--duration", "3m", "--out", str(tmp_path))
    gab = json.loads(_ghbench(*args, "--format", "gab").stdout)
    assert_gab(gab)
    (card_path,) = tmp_path.glob("scorecard-*.json")
    card = load_scorecard(card_path)
    assert f"{card.scenario_id} totalCalls" in {e["name"] for e in gab}


def test_compare_tracks_the_candidates_medians_with_their_range(tmp_path: Path) -> None:
    base, cand = FIXTURES / "base", FIXTURES / "cand"
    compared = json.loads(_ghbench("compare", str(base), str(cand), "--json").stdout)
    medians = {m["name"]: m["candidate"] for m in compared["metrics"]}
    bmf = json.loads(_ghbench("compare", str(base), str(cand), "--format", "bmf").stdout)
    assert_bmf(bmf)
    (measures,) = bmf.values()
    spread = medians["graphqlPointsPerHr"]
    assert measures["graphqlPointsPerHr"] == {
        "value": spread["median"],
        "lower_value": spread["min"],
        "upper_value": spread["max"],
    }
    gab = json.loads(_ghbench("compare", str(base), str(cand), "--format", "gab").stdout)
    assert_gab(gab)
    entry = next(e for e in gab if e["name"].endswith(" graphqlPointsPerHr"))
    assert entry["extra"] == "median of 4 runs"
    # a failed threshold still fails the job with --format, the figures printed first
    proc = _ghbench(
        "compare", str(base), str(cand), "--format", "bmf", "--fail", "totalCalls>-100%", code=3
    )
    assert_bmf(json.loads(proc.stdout))
    assert "threshold(s) failed" in proc.stderr


@pytest.mark.slow
def test_the_matrix_prints_every_cells_latest_run(tmp_path: Path) -> None:
    out = tmp_path / "m"
    args = ("matrix", "run", "--cells", "S2-T1-1,S2-T1-5", "--out", str(out))
    proc = _ghbench(*args, "--format", "bmf")
    bmf = json.loads(proc.stdout)
    assert_bmf(bmf)
    assert "baseline.md" in proc.stderr
    assert sorted(bmf) == ["quiet-steady.single-repo.1", "quiet-steady.single-repo.5"]
    baseline = json.loads((out / "baseline.json").read_text())
    for run in baseline["runs"]:
        name = f"quiet-steady.single-repo.{run['cell'].rsplit('-', 1)[1]}"
        assert bmf[name]["totalCalls"]["value"] == run["scorecard"]["totalCalls"]
    merged = _ghbench(
        "matrix", "merge", str(out), "--out", str(tmp_path / "merged"), "--format", "gab"
    )
    gab = json.loads(merged.stdout)
    assert_gab(gab)
    assert {e["name"] for e in gab} == {
        f"{benchmark} {measure}" for benchmark, measures in bmf.items() for measure in measures
    }
