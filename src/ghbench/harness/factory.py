"""Build the backend and driver a command asked for, from its flags."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ghbench.clock import Clock
from ghbench.drivers.ao import AoDriver, resolve_ao_command
from ghbench.drivers.ao_runtime import AoRouting
from ghbench.drivers.ao_world import AoWorld
from ghbench.drivers.base import Driver
from ghbench.drivers.project import Project
from ghbench.drivers.workload import WorkloadDriver, WorkloadOptions
from ghbench.github.backend import Backend, RealGitHubBackend, make_backend
from ghbench.harness.flags import RunFlags
from ghbench.timefmt import duration_flag

__all__ = ["RunFlags", "ao_routing", "build_backend", "build_driver", "start_backend", "state_dir"]


def state_dir(out_dir: Path, *parts: str) -> Path:
    return out_dir / "state" / Path(*parts)


def build_backend(
    flags: RunFlags, out_dir: Path, clock: Clock, env: Mapping[str, str] | None = None
) -> Backend:
    environ = dict(os.environ if env is None else env)
    return make_backend(
        flags.github, env=environ, clock=clock, state_dir=state_dir(out_dir, "emulator")
    )


def build_driver(
    flags: RunFlags,
    project: Project,
    backend: Backend,
    out_dir: Path,
    env: Mapping[str, str] | None = None,
) -> Driver:
    environ = dict(os.environ if env is None else env)
    if isinstance(backend, RealGitHubBackend) and (flags.driver == "ao" or flags.transport == "gh"):
        # the orchestrator's gh must call the GitHub the control calls read
        backend.check_gh_route()
    if flags.driver == "workload":
        policy: dict[str, Any] = {}
        if flags.tick is not None:
            policy["tick"] = duration_flag("--tick", flags.tick, allow_zero=False)
        return WorkloadDriver(
            project_id=project.id,
            repo=project.repo,
            prefix=project.session_prefix,
            work_dir=state_dir(out_dir, "workload", project.id),
            backend=backend,
            options=WorkloadOptions(
                profile=flags.profile, transport=flags.transport, policy=policy
            ),
            base_env=environ,
        )
    return AoDriver(
        project=project,
        command=resolve_ao_command(flags.ao_command, environ),
        world=AoWorld(state_dir(out_dir, "ao", project.id), project),
        routing=lambda: ao_routing(backend),
        layout=flags.ao_layout,
        base_env=environ,
        agent_traces=out_dir.resolve(),
        publish_default_branch=backend.name == "emulator",
    )


def ao_routing(backend: Backend) -> AoRouting:
    """Where a running backend sends AO's gh and git, and its agents'."""
    return AoRouting(
        env=backend.orchestrator_env(),
        agent_env=backend.agent_env(),
        gh_socket=backend.gh_socket,
    )


def start_backend(
    flags: RunFlags, project: Project, out_dir: Path, clock: Clock
) -> tuple[Backend, Driver]:
    """Build the backend and driver, check the driver's tools, then start the backend."""
    backend = build_backend(flags, out_dir, clock)
    driver = build_driver(flags, project, backend, out_dir)
    driver.check_tools()
    backend.start()
    return backend, driver
