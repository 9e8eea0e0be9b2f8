"""A run's backend and driver, built from its spec (``RunSpec``)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ghbench.clock import Clock
from ghbench.drivers.base import Driver
from ghbench.drivers.project import Project
from ghbench.drivers.registry import build_driver, find_project, state_dir
from ghbench.github.backend import Backend, make_backend
from ghbench.runspec.spec import RunSpec

__all__ = ["build_backend", "find_run_project", "start_backend"]


def find_run_project(spec: RunSpec) -> Project:
    """The project ``spec``'s ``--project`` names, as its driver finds it: in the
    agent-orchestrator.yaml AO would read from here (or ``--config``), or, for AO 0.10,
    the checkout ghbench runs in."""
    return find_project(spec, os.environ, Path.cwd(), Path.home())


def build_backend(spec: RunSpec, clock: Clock, env: Mapping[str, str] | None = None) -> Backend:
    """The GitHub ``spec`` names; the emulator keeps its state in ``OUT/state/emulator``."""
    environ = dict(os.environ if env is None else env)
    where = state_dir(spec.out_dir, "emulator")
    return make_backend(spec.github, env=environ, clock=clock, state_dir=where)


def start_backend(
    spec: RunSpec, project: Project, clock: Clock, *, setup: Path | None = None
) -> tuple[Backend, Driver]:
    """Build the backend and the driver, check the driver's tools (and, to measure
    ``setup``, that the backend's state is still there), then start the backend."""
    env = dict(os.environ)
    backend = build_backend(spec, clock, env)
    driver = build_driver(spec, [project], backend=backend, out_dir=spec.out_dir, env=env)
    driver.check_tools()
    if setup is not None:
        backend.check_state(setup)
    backend.start()
    return backend, driver
