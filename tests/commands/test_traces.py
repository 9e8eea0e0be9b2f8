"""``ghbench summarize`` and ``analyze`` end to end, through the real entry point."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest
from tests.analysis.conftest import rows_fixture
from tooling.traces import SPAN_ROWS

from ghbench.cli import main as ghbench_main


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ghbench", *args], capture_output=True, text=True)


@pytest.fixture
def trace(tmp_path: Path) -> Path:
    path = tmp_path / "t.jsonl"
    enc = msgspec.json.Encoder()
    lines = [enc.encode(r) for r in rows_fixture()]
    path.write_bytes(b"\n".join(lines) + b"\nnot json\n")
    return path


@pytest.mark.parametrize("name", ["summarize", "analyze"])
def test_text_and_json(trace: Path, name: str) -> None:
    text = _run(name, str(trace))
    assert text.returncode == 0, text.stderr
    assert str(trace) in text.stdout.splitlines()[0]
    as_json = _run(name, str(trace), "--json")
    data = json.loads(as_json.stdout)
    assert data["rows"] == 9 and data["controlRowsExcluded"] == 1


def test_skipped_line_is_counted(trace: Path) -> None:
    data = json.loads(_run("summarize", str(trace), "--json").stdout)
    assert data["skippedLines"] == 1


@pytest.mark.parametrize("name", ["summarize", "analyze"])
def test_missing_trace_is_one_line_error(tmp_path: Path, name: str) -> None:
    proc = _run(name, str(tmp_path / "nope.jsonl"))
    assert proc.returncode == 1
    assert proc.stderr.startswith("error: ") and len(proc.stderr.splitlines()) == 1
    assert "nope.jsonl" in proc.stderr


_ADDRESS_SPACE = 1 << 30  # 1 GiB: far above what a two-row trace needs, far below 7.94 GiB


@pytest.mark.parametrize(
    "argv", [["analyze"], ["analyze", "--json"], ["summarize"], ["report", "--trace"]]
)
def test_a_trace_spanning_millennia_fits_in_bounded_memory(tmp_path: Path, argv: list[str]) -> None:
    trace = tmp_path / "span.jsonl"
    trace.write_bytes(SPAN_ROWS)  # per-minute arrays over its span asked 7.94 GiB

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (_ADDRESS_SPACE, _ADDRESS_SPACE))

    proc = subprocess.run(
        [sys.executable, "-m", "ghbench", *argv, str(trace)],
        capture_output=True,
        text=True,
        preexec_fn=limit,
    )
    assert proc.returncode == 0, proc.stderr
    assert "MemoryError" not in proc.stderr and "Traceback" not in proc.stderr


def _strict(text: str) -> object:
    """JSON as RFC 8259 has it: NaN and Infinity are no JSON."""

    def refuse(constant: str) -> object:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("name", ["analyze", "summarize"])
def test_json_output_is_strict_whatever_the_durations(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # 1e999 is no duration (the row is skipped, with a warning); two 1e308s are, and
    # their sum overflows a double: what cannot be a number is null
    rows = [
        b'{"timestamp":"2026-04-16T14:00:00Z","operation":"gh.pr.list","durationMs":1e999}',
        b'{"timestamp":"2026-04-16T14:00:01Z","operation":"gh.pr.list","durationMs":1e308}',
        b'{"timestamp":"2026-04-16T14:00:02Z","operation":"gh.pr.list","durationMs":1e308}',
        b'{"timestamp":"2026-04-16T14:00:03Z","operation":"gh.pr.view","durationMs":NaN}',
    ]
    trace = tmp_path / "t.jsonl"
    trace.write_bytes(b"\n".join(rows) + b"\n")
    with pytest.raises(SystemExit) as exit_info:
        ghbench_main([name, str(trace), "--json"])
    out, err = capsys.readouterr()
    assert exit_info.value.code == 0, err
    data = _strict(out)
    assert isinstance(data, dict) and data["rows"] == 2
    assert "line 1: wrong type: durationMs is 1e999, not a finite number" in err
