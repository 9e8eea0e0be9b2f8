"""``ghbench demo``: ``setup`` then ``measure`` of the workload model on the embedded emulator.

No token, no config: the demo writes its own ``agent-orchestrator.yaml`` (project
``demo``, repo ``acme/todo``) into its output directory and runs the same flows as
the two commands, as real processes over loopback: the emulator, and ``ghbench
workload run`` calling it through the real ``gh`` (or HTTP when gh is missing). The
emulator is stopped after setup and started again for measure, from the same state
directory, exactly as two separate commands would.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import msgspec
import yaml

from ghbench.artifacts.io import write_new
from ghbench.clock import Clock
from ghbench.drivers.project import Project, load_project
from ghbench.harness.measure import measure_setup
from ghbench.harness.progress import Progress
from ghbench.harness.setup import SetupOutcome, setup_on
from ghbench.harness.window import MeasureResult, WindowPlan
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec

__all__ = ["DemoResult", "demo_spec", "run_demo"]

DEMO_PROJECT = "demo"
DEMO_REPO = "acme/todo"


@dataclass(frozen=True)
class DemoResult:
    config_path: Path
    setup: SetupOutcome
    measure: MeasureResult

    def lines(self) -> list[str]:
        """What ``ghbench demo`` prints after the console scorecard: where things went."""
        report = self.measure.paths.get("report")
        return [
            f"  setup artifact:   {self.setup.path}",
            f"  demo config:      {self.config_path}",
            *([] if report is None else [f"  report page:      {report}"]),
        ]


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


def demo_spec(spec: RunSpec) -> RunSpec:
    """The demo's run of what the flags gave: the model on the emulator, its own project
    and an issue per session, quick setup polling."""
    return msgspec.structs.replace(
        spec,
        driver="workload",
        backend="emulator",
        cell=Cell("S2", "T1", spec.cell.sessions),
        project=DEMO_PROJECT,
        issues=tuple(range(1, spec.cell.sessions + 1)),
        poll_interval=Duration(1.0, "1s"),
        setup_timeout=Duration(60.0, "60s"),
    )


def run_demo(
    spec: RunSpec,
    *,
    clock: Clock,
    progress: Callable[[], Progress],
    color: bool,
    announce: Callable[[str], None],
) -> DemoResult:
    """``demo_spec(spec)``'s setup, then its measurement, each as its own command would
    run it."""
    spec = demo_spec(spec)
    out = spec.out_dir
    out.mkdir(parents=True, exist_ok=True)
    config = write_demo_config(out)
    project: Project = load_project(DEMO_PROJECT, env={}, cwd=out, home=out, explicit=config)

    announce(
        f"demo: {spec.cell.sessions} sessions of the workload model ({spec.transport}"
        f" transport) on the embedded emulator; output in {out}"
    )
    setup = setup_on(spec, project, clock=clock, progress=progress)
    announce(f"setup: {setup.path}")
    # the emulator starts again for measure, from the same state, as two commands would
    result = measure_setup(
        spec,
        project,
        setup.path,
        setup.setup,
        plan=WindowPlan(),
        clock=clock,
        progress=progress,
        color=color,
        announce=announce,
    )
    return DemoResult(config_path=config, setup=setup, measure=result)
