"""AO's daemon's driver, part by part: how the table tells it apart and builds it over a
cell's projects, where its front sends calls, its window notes. The daemon itself runs
in tests/realao/test_ao_daemon.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.clock import VirtualClock
from ghbench.drivers.ao_daemon.driver import AoDaemonDriver, front_notes
from ghbench.drivers.base import TracingReport
from ghbench.drivers.project import Project
from ghbench.drivers.registry import build_driver, driver_kind
from ghbench.errors import UsageError
from ghbench.front import FrontCounts
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.github.front_route import FrontRoute, forward_route
from ghbench.runspec.spec import RunSpec
from ghbench.trace.writer import TraceLoss

from .helpers import daemon_build

TOKEN = "ghp_daemon000000000000000000000000000001"


@pytest.mark.needs("git")
def test_what_only_a_typescript_build_acts_on_is_refused_once_the_daemon_is_known(
    tmp_path: Path,
) -> None:
    """--ao-layout and --config: the flags cannot tell AO's daemon from a TypeScript
    build, the executable can; the flag table's refusal comes then, before anything runs."""
    ao, env = str(daemon_build(tmp_path)), {"PATH": "/usr/bin:/bin"}
    for spec, flag in (
        (RunSpec(driver="ao", ao_command=ao, ao_layout="kv"), "--ao-layout"),
        (RunSpec(driver="ao", ao_command=ao, ao_config=tmp_path / "a.yaml"), "--config"),
    ):
        with pytest.raises(UsageError, match=rf"^{flag} applies only with") as refused:
            driver_kind(spec, env)
        assert "the AO this run drives is AO's daemon, which has no" in str(refused.value)
    typescript = RunSpec(driver="ao", ao_command="/bin/true", ao_layout="kv")
    assert driver_kind(typescript, env).name == "ao-typescript"


@pytest.mark.needs("git")
def test_the_daemon_is_told_apart_by_what_it_runs_and_watches_every_project(
    tmp_path: Path,
) -> None:
    ao = daemon_build(tmp_path)
    spec = RunSpec(driver="ao", ao_command=str(ao), out_dir=tmp_path / "out")
    env = {"PATH": "/usr/bin:/bin"}
    assert driver_kind(spec, env).name == "ao-daemon"
    assert driver_kind(RunSpec(driver="ao", ao_command="/bin/true"), env).name == "ao-typescript"
    backend = EmulatorBackend.attach(
        "http://127.0.0.1:9", TOKEN, VirtualClock(), tmp_path, control_key="unused"
    )
    projects = [
        Project(f"t2-4-r{i}", tmp_path / f"r{i}", f"o/t2-4-r{i}", "main", f"t2-4-r{i}", None)
        for i in (1, 2)
    ]
    driver = build_driver(spec, projects, backend=backend, out_dir=spec.out_dir, env=env)
    assert isinstance(driver, AoDaemonDriver)
    assert not driver.per_project_processes and driver.project_id == "t2-4-spread"
    assert driver.world.root == tmp_path / "out" / "state" / "ao-daemon" / "t2-4-r1"


def test_the_front_forwards_to_github_or_a_server_at_its_root() -> None:
    assert forward_route("https://api.github.com/") == FrontRoute("forward", None)
    assert forward_route("http://127.0.0.1:4321") == FrontRoute("forward", "http://127.0.0.1:4321")
    with pytest.raises(UsageError, match=r"GITHUB_API_URL=https://ghe\.example/api/v3"):
        forward_route("https://ghe.example/api/v3")


def test_a_window_notes_only_what_went_wrong_at_the_front() -> None:
    assert front_notes(FrontCounts(exchanges=12, rows_written=12)) == TracingReport()
    lost = TraceLoss(trace="/out/gh-trace-bench-1.jsonl", rows=3, reason="No space left on device")
    report = front_notes(
        FrontCounts(
            exchanges=9,
            failed_handshakes=2,
            rows_lost=3,
            losses=[lost],
            warnings=["go did not trust the CA"],
        )
    )
    assert report.notes == ("go did not trust the CA",)
    assert report.losses == (lost,)  # typed: the window counts them
    assert front_notes(FrontCounts()).notes[0].startswith("no client reached the GitHub front")
