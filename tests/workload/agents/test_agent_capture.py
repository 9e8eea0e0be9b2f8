"""The shipped fixture is what the installed gh sends: a re-capture changes nothing."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ghbench.workload.agents.fixtures import FIXTURE_FILE

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "src/ghbench/workload/agents" / FIXTURE_FILE


@pytest.mark.gh
@pytest.mark.needs("git")
@pytest.mark.slow
def test_a_recapture_from_the_real_gh_matches_the_fixture(tmp_path: Path) -> None:
    out = tmp_path / FIXTURE_FILE
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts/capture_agent_gh.py"), "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    fresh, shipped = json.loads(out.read_text()), json.loads(SHIPPED.read_text())
    assert fresh["ghVersion"] == shipped["ghVersion"]
    for name, command in shipped["commands"].items():
        assert fresh["commands"][name] == command, name
    assert fresh == shipped
