"""ghbench.drivers.ao_typescript.kind: AO's TypeScript builds' row of the driver table:
which runs it takes, where a running backend sends AO's gh and git and its agents', and
the dashboard setting it refuses. (Building drivers over a cell: tests/drivers/test_registry.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.clock import VirtualClock
from ghbench.drivers.ao_typescript.kind import AO_TYPESCRIPT, ao_routing
from ghbench.errors import UsageError
from ghbench.github.emulator_backend import EmulatorBackend
from ghbench.runspec.spec import RunSpec


def test_it_takes_ao_runs_and_always_calls_gh() -> None:
    assert AO_TYPESCRIPT.runs(RunSpec(driver="ao"), {})
    assert not AO_TYPESCRIPT.runs(RunSpec(driver="workload"), {})
    assert AO_TYPESCRIPT.uses_gh(RunSpec(driver="ao", transport="http"))


def test_aos_routing_is_the_running_backends(tmp_path: Path) -> None:
    backend = EmulatorBackend.attach(
        "http://127.0.0.1:8080",
        "ghp_" + "1" * 36,
        VirtualClock(),
        tmp_path,
        control_key="k",
        gh_socket=tmp_path / "gh.sock",
        agent_token="ghp_" + "2" * 36,
    )
    routing = ao_routing(backend)
    assert routing.env == backend.orchestrator_env() and routing.env["GH_TOKEN"].endswith("1")
    assert routing.agent_env == backend.agent_env() and routing.agent_env["GH_TOKEN"].endswith("2")
    assert routing.gh_socket == tmp_path / "gh.sock"


def test_a_chromium_that_is_no_program_is_refused(tmp_path: Path) -> None:
    AO_TYPESCRIPT.check_dashboard({"PATH": str(tmp_path), "GHBENCH_CHROMIUM": "none"})
    with pytest.raises(UsageError, match=r"^GHBENCH_CHROMIUM=no-browser: no such program"):
        AO_TYPESCRIPT.check_dashboard({"PATH": str(tmp_path), "GHBENCH_CHROMIUM": "no-browser"})
