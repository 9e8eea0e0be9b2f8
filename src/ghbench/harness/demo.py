"""``ghbench demo``: ``setup`` then ``measure`` of the workload model on the embedded emulator.

No token, no config: the demo writes its own ``agent-orchestrator.yaml`` (project
``demo``, repo ``acme/todo``) into its output directory and runs the same flows as
the two commands, as real processes over loopback: the emulator, and ``ghbench
workload run`` calling it through the real ``gh`` (or HTTP when gh is missing). The
emulator is stopped after setup and started again for measure, from the same state
directory, exactly as two separate commands would.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import yaml

from ghbench.artifacts.io import write_new
from ghbench.clock import Clock
from ghbench.drivers.project import Project, load_project
from ghbench.harness.factory import build_backend, build_driver
from ghbench.harness.flags import RunFlags
from ghbench.harness.measure import run_measure
from ghbench.harness.progress import Progress
from ghbench.harness.setup import SetupOptions, SetupOutcome, run_setup
from ghbench.harness.window import MeasureOptions, MeasureResult
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

__all__ = ["DemoOptions", "DemoResult", "run_demo"]

DEMO_PROJECT = "demo"
DEMO_REPO = "acme/todo"


@dataclass(frozen=True)
class DemoOptions:
    out_dir: Path
    sessions: int = 5
    warmup: float = 10.0
    duration: float = 60.0
    warmup_text: str = "10s"
    duration_text: str = "60s"
    transport: str = "auto"  # auto | gh | http
    tick: float | None = None
    profile: ProfileName = DEFAULT_PROFILE


@dataclass(frozen=True)
class DemoResult:
    config_path: Path
    setup: SetupOutcome
    measure: MeasureResult
    transport: str


def write_demo_config(out_dir: Path) -> Path:
    """A minimal AO config for the demo project; its path is a directory in ``out_dir``."""
    workdir = out_dir / "todo"
    workdir.mkdir(parents=True, exist_ok=True)
    doc = {
        "projects": {
            DEMO_PROJECT: {
                "repo": DEMO_REPO,
                "path": str(workdir.resolve()),
                "defaultBranch": "main",
            }
        }
    }
    path = out_dir / "agent-orchestrator.yaml"
    if not path.exists():
        write_new(path, yaml.safe_dump(doc, sort_keys=False).encode())
    return path


def pick_transport(requested: str) -> str:
    if requested != "auto":
        return requested
    return "gh" if shutil.which("gh") else "http"


def run_demo(
    options: DemoOptions,
    *,
    clock: Clock,
    progress: Callable[[], Progress],
    color: bool,
    announce: Callable[[str], None],
) -> DemoResult:
    out = options.out_dir
    out.mkdir(parents=True, exist_ok=True)
    config = write_demo_config(out)
    project: Project = load_project(DEMO_PROJECT, env={}, cwd=out, home=out, explicit=config)
    transport = pick_transport(options.transport)
    flags = RunFlags(
        driver="workload",
        github="emulator",
        transport=transport,
        profile=options.profile,
        tick=None if options.tick is None else f"{options.tick}s",
    )
    issues = list(range(1, options.sessions + 1))

    announce(
        f"demo: {options.sessions} sessions of the workload model ({transport} transport)"
        f" on the embedded emulator; output in {out}"
    )
    backend = build_backend(flags, out, clock)
    driver = build_driver(flags, project, backend, out)
    driver.check_tools()
    backend.start()
    bar = progress()
    try:
        setup = run_setup(
            project,
            issues,
            sessions=options.sessions,
            driver=driver,
            backend=backend,
            clock=clock,
            options=SetupOptions(out_dir=out, poll_interval=1.0, timeout=60.0, stop_grace=10.0),
            progress=bar,
        )
    finally:
        bar.close()
        backend.stop()
    announce(f"setup: {setup.path}")

    backend = build_backend(flags, out, clock)
    driver = build_driver(flags, project, backend, out)
    backend.start()
    try:
        result = run_measure(
            project,
            sessions=options.sessions,
            driver=driver,
            backend=backend,
            clock=clock,
            options=MeasureOptions(
                out_dir=out,
                warmup=options.warmup,
                duration=options.duration,
                warmup_text=options.warmup_text,
                duration_text=options.duration_text,
            ),
            progress=progress(),
            color=color,
            announce=announce,
        )
    finally:
        backend.stop()
    return DemoResult(config_path=config, setup=setup, measure=result, transport=transport)
