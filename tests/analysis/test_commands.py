"""``ghbench summarize`` and ``analyze`` end to end, through the real entry point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from .conftest import rows_fixture


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
