"""Build the backend and driver a command asked for, from its flags."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ghbench.clock import Clock
from ghbench.drivers.base import Driver
from ghbench.github.backend import Backend, BackendName, RealGitHubBackend, make_backend
from ghbench.harness.options import duration_option_value
from ghbench.harness.project import Project

__all__ = ["RunFlags", "build_backend", "build_driver", "state_dir"]


@dataclass(frozen=True)
class RunFlags:
    driver: str = "ao"
    github: BackendName = "github"
    ao_command: str | None = None
    ao_layout: str = "auto"
    transport: str = "gh"
    profile: str = "head"
    tick: str | None = None


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
        from ghbench.drivers.workload import WorkloadDriver, WorkloadOptions

        policy: dict[str, Any] = {}
        if flags.tick is not None:
            policy["tick"] = duration_option_value("--tick", flags.tick, allow_zero=False)
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
    from ghbench.drivers.ao import AoDriver, resolve_ao_command

    return AoDriver(
        project=project,
        command=resolve_ao_command(flags.ao_command, environ),
        layout=flags.ao_layout,
        base_env=environ,
        log_dir=state_dir(out_dir, "ao", project.id),
    )
