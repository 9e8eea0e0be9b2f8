"""ghbench.harness.factory: a run's GitHub from its spec: the emulator's state under
``OUT/state/emulator``, real GitHub with the environment's token, none for a simulated
run. (Starting it with a driver: the setup and measure flows, tests/harness/.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.clock import VirtualClock
from ghbench.errors import UsageError
from ghbench.github.backend import RealGitHubBackend
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.harness.factory import build_backend
from ghbench.runspec.spec import RunSpec


def test_the_emulator_keeps_its_state_under_out(tmp_path: Path) -> None:
    spec = RunSpec(driver="workload", backend="emulator", out_dir=tmp_path / "out")
    backend = build_backend(spec, VirtualClock(), env={})
    assert isinstance(backend, EmulatorBackend)
    assert backend.state_dir == tmp_path / "out" / "state" / "emulator"


def test_github_reads_the_given_environment_not_ours(tmp_path: Path) -> None:
    spec = RunSpec(driver="workload", backend="github", out_dir=tmp_path)
    backend = build_backend(spec, VirtualClock(), env={"GH_HOST": "ghe.example"})
    assert isinstance(backend, RealGitHubBackend) and backend.gh_host == "ghe.example"


def test_a_simulated_run_has_no_github(tmp_path: Path) -> None:
    spec = RunSpec(driver="workload", backend="simulated", out_dir=tmp_path)
    with pytest.raises(UsageError, match="a simulated run has no GitHub of its own"):
        build_backend(spec, VirtualClock(), env={})
