"""``ghbench setup``: spawn the sessions, wait for their PRs, write the setup artifact.

The order of checks is chosen so that bad input fails before anything starts or is
written: the flags (the issues against the sessions among them), the project and its
config, then the tools, then the token (real GitHub) or the emulator.
"""

from __future__ import annotations

import click

from ghbench.clock import SystemClock
from ghbench.commands.options import flag_options, hold_out
from ghbench.errors import GhbenchError
from ghbench.runspec.spec import RunSpec

__all__ = ["command"]


@click.command(name="setup")
@flag_options("setup")
def command(*, spec: RunSpec) -> None:
    """Create the scenario: spawn sessions and wait for their PRs."""
    # the flags are checked; the flow loads now, not for --help (see ghbench.commands)
    from ghbench.harness.factory import find_run_project, start_backend  # noqa: PLC0415
    from ghbench.harness.progress import make_progress  # noqa: PLC0415
    from ghbench.harness.setup import run_setup  # noqa: PLC0415

    project = find_run_project(spec)
    hold_out(spec.out_dir)
    clock = SystemClock()
    backend, driver = start_backend(spec, project, clock)
    progress = make_progress()
    try:
        outcome = run_setup(
            spec, project, driver=driver, backend=backend, clock=clock, progress=progress
        )
    finally:
        progress.close()
        backend.stop()
    rec = outcome.setup
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
        raise GhbenchError(
            f"only {len(rec.sessions)} of {rec.session_count} sessions opened a PR before"
            f" the timeout; partial artifact {outcome.path} (ready: false); raise --timeout"
            " or check the agents, then re-run setup"
        )
