"""``ghbench report`` end to end: real trace files, the real CLI in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ghbench.data import example_trace_path

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _run(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    full = {**os.environ, "NO_COLOR": "1", **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "ghbench", "report", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=full,
        timeout=120,
    )


def _artifacts(out: Path) -> list[Path]:
    return sorted(out.glob("scorecard-*.json"))


def test_report_of_the_example_matches_the_golden_artifact(tmp_path: Path) -> None:
    proc = _run(
        "--example",
        "--warmup-end",
        "2026-04-16T14:17:00Z",
        "--window-end",
        "2026-04-16T14:32:00Z",
        "--out",
        str(tmp_path),
        "--json",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    [written] = _artifacts(tmp_path)
    assert written.name.startswith("scorecard-example-trace-")
    printed = json.loads(proc.stdout)
    assert printed == json.loads(written.read_text(encoding="utf-8"))
    golden = json.loads((GOLDEN / "scorecard-example.json").read_text(encoding="utf-8"))
    # the golden is the same trace and window scored by the engine in measure-mode shape;
    # report mode differs only in what it cannot know
    assert printed["scorecard"] == {**golden["scorecard"], "benchmarkControlCalls": None}
    assert printed["insights"] == golden["insights"]
    assert printed["window"] == {**golden["window"], "durationRequested": None}
    assert printed["warmup"] == {"requested": None, "actualEnd": "2026-04-16T14:17:00.000Z"}
    assert printed["rateLimitSnapshots"] is None
    assert printed["scorecard"]["bracketDelta"] == {"core": None, "graphql": None}
    assert printed["sessionCount"] is None and printed["gitSha"] is None
    assert printed["scenarioId"] == "example-trace"
    assert f"scorecard: {written}" in proc.stderr


def test_console_output_is_the_scorecard_and_plain_when_not_a_tty(tmp_path: Path) -> None:
    proc = _run("--example", "--out", str(tmp_path / "o"), cwd=tmp_path, env={"NO_COLOR": ""})
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "═" * 59 and lines[1] == "  GH Rate-Limit Benchmark"
    assert "\x1b[" not in proc.stdout
    [written] = _artifacts(tmp_path / "o")
    assert f"  Scorecard: {tmp_path / 'o' / written.name}" in lines
    assert f"  Trace:     {example_trace_path()}" in lines
    assert "  Insights (ghbench; beside the spec's scorecard)" in lines
    assert proc.stderr == ""


def test_default_out_dir_and_never_overwriting(tmp_path: Path) -> None:
    for _ in range(2):
        assert _run("--example", "--json", cwd=tmp_path).returncode == 0
    written = _artifacts(tmp_path / "ghbench-out")
    assert len(written) == 2  # the second run got a -2 name, or a later second


def test_damaged_lines_are_reported_on_stderr_and_in_the_artifact(tmp_path: Path) -> None:
    lines = example_trace_path().read_text(encoding="utf-8").splitlines()
    damaged = [
        lines[0],
        "{not json",
        *lines[1:20],
        '{"timestamp": 5}',
        *lines[20:40],
        lines[40][:30],
    ]
    trace = tmp_path / "gh-trace-bench-1776400000.jsonl"
    trace.write_text("\n".join(damaged), encoding="utf-8")
    proc = _run("--trace", str(trace), "--out", str(tmp_path), "--json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert f"warning: skipped 3 unreadable line(s) in {trace}" in proc.stderr
    assert "  line 2: " in proc.stderr
    art = json.loads(proc.stdout)
    assert art["skippedLines"] == 3
    assert [w["line"] for w in art["readWarnings"]] == [2, 22, 43]
    good = [line for line in lines[:40] if "benchmark-control" not in line]
    assert art["scorecard"]["totalCalls"] == len(good)
    assert art["scenarioId"] == "gh-trace-bench-1776400000"


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        ([], 2, "error: --trace is required"),
        (["--example", "--trace", "x.jsonl"], 2, "error: --example and --trace are exclusive"),
        (
            ["--example", "--warmup-end", "yesterday"],
            2,
            "error: --warmup-end: 'yesterday' is not an ISO-8601",
        ),
        (
            ["--example", "--window-end", "14:00"],
            2,
            "error: --window-end: '14:00' is not an ISO-8601",
        ),
        (
            [
                "--example",
                "--warmup-end",
                "2026-04-16T14:20:00Z",
                "--window-end",
                "2026-04-16T14:10:00Z",
            ],
            2,
            "error: --window-end is before --warmup-end",
        ),
        (
            ["--example", "--warmup-end", "2027-01-01T00:00:00Z"],
            2,
            "error: --warmup-end 2027-01-01T00:00:00Z is after the trace's last row",
        ),
        (
            ["--example", "--window-end", "2020-01-01T00:00:00Z"],
            2,
            "error: --window-end 2020-01-01T00:00:00Z is before the trace's first row",
        ),
        (["--trace", "missing.jsonl"], 1, "error: trace missing.jsonl does not exist"),
    ],
)
def test_user_errors_are_one_line_and_write_nothing(
    tmp_path: Path, args: list[str], code: int, message: str
) -> None:
    proc = _run(*args, "--out", str(tmp_path / "o"), cwd=tmp_path)
    assert proc.returncode == code
    assert proc.stderr.startswith(message), proc.stderr
    assert len(proc.stderr.splitlines()) == 1
    assert not (tmp_path / "o").exists() or not _artifacts(tmp_path / "o")


def test_a_trace_of_only_control_rows_has_nothing_to_score(tmp_path: Path) -> None:
    trace = tmp_path / "control.jsonl"
    trace.write_text(
        '{"timestamp": "2026-04-16T14:00:00Z", "component": "benchmark-control"}\n',
        encoding="utf-8",
    )
    proc = _run("--trace", str(trace), "--out", str(tmp_path / "o"), cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"error: trace file {trace} has only benchmark-control rows")
    proc = _run(
        "--trace",
        str(trace),
        "--warmup-end",
        "2026-04-16T13:59:00Z",
        "--window-end",
        "2026-04-16T14:01:00Z",
        "--out",
        str(tmp_path / "o"),
        "--json",
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    art = json.loads(proc.stdout)
    assert art["scorecard"]["totalCalls"] == 0
    assert art["insights"]["rowsExcluded"]["benchmarkControl"] == 1
