"""``ghbench setup``: spawn the sessions, wait for their PRs, write the setup artifact.

The order of checks is chosen so that bad input fails before anything starts or is
written: the project and its config, then the issue count, then the tools, then the
token (real GitHub) or the emulator.
"""

from __future__ import annotations

import click

from ghbench.clock import SystemClock
from ghbench.commands.options import (
    CommonFlags,
    common_options,
    parse_issue_list,
    resolve_project,
    run_flags,
)
from ghbench.commands.outdir import hold_out
from ghbench.errors import GhbenchError, UsageError
from ghbench.timefmt import duration_flag

__all__ = ["command"]


@click.command(name="setup")
@common_options
@click.option("--issues", required=True, help="Issues to assign, e.g. 1,2,5-9 (one per session).")
@click.option("--poll-interval", default="30s", show_default=True, help="How often to check PRs.")
@click.option("--timeout", default="10m", show_default=True, help="How long to wait for PRs.")
def command(
    *,
    common: CommonFlags,
    issues: str,
    poll_interval: str,
    timeout: str,
) -> None:
    """Create the scenario: spawn sessions and wait for their PRs."""
    project = resolve_project(common.project, common.config_path)
    issue_list = parse_issue_list(issues)
    if len(issue_list) != common.sessions:
        raise UsageError(
            f"--issues lists {len(issue_list)} issues but --sessions is {common.sessions};"
            " give exactly one issue per session"
        )
    poll = duration_flag("--poll-interval", poll_interval, allow_zero=False)
    wait = duration_flag("--timeout", timeout, allow_zero=False)
    # the flags are checked; the flow loads now, not for --help (see ghbench.commands)
    from ghbench.harness.factory import start_backend  # noqa: PLC0415
    from ghbench.harness.progress import make_progress  # noqa: PLC0415
    from ghbench.harness.setup import SetupOptions, run_setup  # noqa: PLC0415

    options = SetupOptions(out_dir=common.out_dir, poll_interval=poll, timeout=wait)
    hold_out(common.out_dir)
    clock = SystemClock()
    backend, driver = start_backend(run_flags(common), project, common.out_dir, clock)
    progress = make_progress()
    try:
        outcome = run_setup(
            project,
            issue_list,
            sessions=common.sessions,
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
        raise GhbenchError(
            f"only {len(rec.sessions)} of {rec.session_count} sessions opened a PR before"
            f" the timeout; partial artifact {outcome.path} (ready: false); raise --timeout"
            " or check the agents, then re-run setup"
        )
