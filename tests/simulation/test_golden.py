"""``ghbench simulate``'s outputs, byte for byte, through the real CLI.

Virtual time makes a cell's run exact for a seed: the trace, the scorecard artifact it
prints with ``--json`` and the console scorecard must not change. Only the output
directory (a temporary one) is replaced.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from golden_files import check_golden

CONFIG = """\
profile: ao-bench-1e73a505
repos: [acme/todo]
trace:
  session_ids: true
policy:
  tick: 45s
  review_interval: 3m
"""


def _simulate(out: Path, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "ghbench", "simulate", "--out", str(out), *args]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc


@pytest.mark.slow
def test_simulate_writes_the_same_trace_and_scorecard(tmp_path: Path) -> None:
    config = tmp_path / "workload.yaml"
    config.write_text(CONFIG)
    out = tmp_path / "out"
    args = ["--scenario", "spawn-storm", "--topology", "T2", "--sessions", "3"]
    args += ["--warmup", "30s", "--duration", "5m", "--seed", "7", "--config", str(config)]
    proc = _simulate(out, *args, "--json")
    check_golden("simulate-scorecard.json", proc.stdout.replace(str(out), "OUT"))
    check_golden("simulate-stderr.txt", proc.stderr)
    (trace,) = out.glob("gh-trace-sim-*.jsonl")
    check_golden("simulate-trace.jsonl", trace.read_bytes())
    (card,) = out.glob("scorecard-*.json")
    assert card.read_text() == proc.stdout
    (page,) = out.glob("report-*.html")
    check_golden("simulate-report.html", page.read_text().replace(str(out), "OUT"))


@pytest.mark.slow
def test_simulate_prints_the_same_console(tmp_path: Path) -> None:
    out = tmp_path / "out"
    proc = _simulate(out, "--scenario", "S6", "--sessions", "2", "--duration", "3m")
    check_golden("simulate-console.txt", proc.stdout.replace(str(out), "OUT"))
