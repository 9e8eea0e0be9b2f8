"""From parsed flags to a finished run: the glue behind ``ghbench setup`` and ``measure``.

The order of checks is chosen so that bad input fails before anything starts or is
written: the project and its config, then the issue count, then the tools, then the
token (real GitHub) or the emulator.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import click

from ghbench.clock import Clock, SystemClock
from ghbench.drivers.base import Driver
from ghbench.github.backend import Backend, BackendName
from ghbench.harness.factory import RunFlags, build_backend, build_driver
from ghbench.harness.options import CommonFlags, duration_option_value
from ghbench.harness.progress import make_progress
from ghbench.harness.project import Project, load_project

__all__ = [
    "MeasureArgs",
    "SetupArgs",
    "measure_main",
    "resolve_project",
    "run_flags",
    "setup_main",
]


def run_flags(common: CommonFlags) -> RunFlags:
    return RunFlags(
        driver=common.driver,
        github=cast(BackendName, common.github),
        ao_command=common.ao_command,
        ao_layout=common.ao_layout,
        transport=common.transport,
        profile=common.profile,
        tick=common.tick,
    )


@dataclass(frozen=True)
class SetupArgs:
    common: CommonFlags
    issues: str
    poll_interval: str
    timeout: str


@dataclass(frozen=True)
class MeasureArgs:
    common: CommonFlags
    warmup: str
    duration: str
    plot: bool = True


def resolve_project(project_id: str, config_path: Path | None) -> Project:
    return load_project(
        project_id,
        env=os.environ,
        cwd=Path.cwd(),
        home=Path.home(),
        explicit=config_path,
    )


def _color() -> bool:
    return sys.stdout.isatty() and not os.environ.get("NO_COLOR")


def _start_backend(common: CommonFlags, project: Project, clock: Clock) -> tuple[Backend, Driver]:
    """Build the backend and driver, check the driver's tools, then start the backend."""
    flags = run_flags(common)
    backend = build_backend(flags, common.out_dir, clock)
    driver = build_driver(flags, project, backend, common.out_dir)
    driver.check_tools()
    backend.start()
    return backend, driver


def setup_main(args: SetupArgs) -> None:
    from ghbench.harness.setup import SetupOptions, parse_issue_list, run_setup

    project = resolve_project(args.common.project, args.common.config_path)
    issues = parse_issue_list(args.issues)
    if len(issues) != args.common.sessions:
        from ghbench.errors import UsageError

        raise UsageError(
            f"--issues lists {len(issues)} issues but --sessions is {args.common.sessions};"
            " give exactly one issue per session"
        )
    options = SetupOptions(
        out_dir=args.common.out_dir,
        poll_interval=duration_option_value("--poll-interval", args.poll_interval),
        timeout=duration_option_value("--timeout", args.timeout, allow_zero=False),
    )
    clock = SystemClock()
    backend, driver = _start_backend(args.common, project, clock)
    progress = make_progress()
    try:
        outcome = run_setup(
            project,
            issues,
            sessions=args.common.sessions,
            driver=driver,
            backend=backend,
            clock=clock,
            options=options,
            progress=progress,
        )
    finally:
        progress.close()
        backend.stop()
    rec = outcome.record
    state = "reused" if outcome.reused else ("ready" if rec.ready else "NOT ready (timed out)")
    click.echo(
        f"Setup {rec.scenario_id}: {state}, {len(rec.sessions)}/{rec.session_count}"
        f" sessions with open PRs in {rec.repo}"
    )
    for s in rec.sessions:
        click.echo(f"  {s.session_id:<12} issue #{s.issue:<5} {s.branch:<24} PR #{s.pr_number}")
    click.echo(f"  control calls: {outcome.control_calls}")
    click.echo(f"  artifact: {outcome.path}")
    if not rec.ready:
        from ghbench.errors import GhbenchError

        raise GhbenchError(
            f"only {len(rec.sessions)} of {rec.session_count} sessions opened a PR before"
            f" the timeout; partial artifact {outcome.path} (ready: false); raise --timeout"
            " or check the agents, then re-run setup"
        )


def _check_setup_offline(project: Project, sessions: int, out_dir: Path) -> None:
    """Refuse early, before starting anything, when the artifact is missing or partial."""
    from ghbench.errors import ArtifactError
    from ghbench.harness.setup_record import make_scenario_id, read_setup, setup_path

    scenario = make_scenario_id(sessions)
    path = setup_path(out_dir, project.id, scenario)
    if not path.exists():
        raise ArtifactError(
            f"{path}: no setup artifact for {scenario}; run 'ghbench setup --project"
            f" {project.id} --sessions {sessions} --issues ...' first (same --out)"
        )
    record = read_setup(path)
    if not record.ready:
        raise ArtifactError(f"{path}: the setup is partial (ready: false); re-run 'ghbench setup'")


def measure_main(args: MeasureArgs) -> None:
    from ghbench.harness.measure import MeasureOptions, run_measure

    project = resolve_project(args.common.project, args.common.config_path)
    options = MeasureOptions(
        out_dir=args.common.out_dir,
        warmup=duration_option_value("--warmup", args.warmup),
        duration=duration_option_value("--duration", args.duration, allow_zero=False),
        warmup_text=args.warmup,
        duration_text=args.duration,
        plot=args.plot,
    )
    _check_setup_offline(project, args.common.sessions, args.common.out_dir)
    clock = SystemClock()
    backend, driver = _start_backend(args.common, project, clock)
    progress = make_progress()
    try:
        result = run_measure(
            project,
            sessions=args.common.sessions,
            driver=driver,
            backend=backend,
            clock=clock,
            options=options,
            progress=progress,
            color=_color(),
            announce=lambda text: click.echo(text, err=True),
        )
    finally:
        backend.stop()
    click.echo(result.console)
    result.raise_for_outcome()
