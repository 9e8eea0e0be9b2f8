"""S6 with the workload model: the dashboard reads GitHub only for a profile whose
dashboard does (AO 0.10's desktop app reads its daemon's API)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from ghbench.drivers.workload.dashboard import ModelDashboardReader

CONFIG = """\
profile: {profile}
transport: http
api_url: http://127.0.0.1:9/
sessions:
  - {{id: ta-1, repo: acme/todo, issue: 1, pr: 4}}
  - {{id: ta-2, repo: acme/todo, issue: 2, pr: 5}}
"""


def _read(
    tmp_path: Path, profile: str, *, rows: int, within: float = 10.0
) -> tuple[ModelDashboardReader, list[str]]:
    """Read until the trace has ``rows`` rows (at most ``within`` seconds), then stop."""
    config = tmp_path / "workload.yaml"
    config.write_text(CONFIG.format(profile=profile))
    trace = tmp_path / "trace.jsonl"
    reader = ModelDashboardReader(config, trace, {}, refresh_s=0.05, click_s=0.05)
    reader.start()
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and (
        not trace.exists() or len(trace.read_text().splitlines()) < rows
    ):
        time.sleep(0.05)
    reader.stop()
    return reader, trace.read_text().splitlines() if trace.exists() else []


@pytest.mark.slow
def test_the_daemons_dashboard_reads_no_github(tmp_path: Path) -> None:
    # a second of its cadence: twenty refreshes and clicks' worth, and no row
    reader, rows = _read(tmp_path, "ao-0.10.3", rows=1, within=1.0)
    assert reader.error is None and reader.calls == 0 and rows == []


def test_a_typescript_dashboard_reads_github(tmp_path: Path) -> None:
    # nothing listens at port 9: every read fails at once, and is traced
    reader, rows = _read(tmp_path, "ao-main-60e8c881", rows=3)
    assert len(rows) == reader.calls >= 3  # the titles (two issues), then a PR
    assert '"component":"dashboard"' in rows[0]
