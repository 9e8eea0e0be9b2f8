"""The example trace ghbench ships (``ghbench report --example``): what the script that
makes it writes, byte for byte, and a trace every reader reads whole."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from ghbench.data import example_trace_path
from ghbench.trace.reader import read_trace

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_example_trace.py"


def test_the_shipped_trace_is_the_scripts_output(tmp_path: Path) -> None:
    out = tmp_path / "example-trace.jsonl"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), str(out)], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes() == example_trace_path().read_bytes()


def test_the_shipped_trace_reads_whole() -> None:
    frame = read_trace(example_trace_path())
    assert len(frame) > 0 and frame.skipped_lines == 0 and not frame.warnings
