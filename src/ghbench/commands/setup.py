"""``ghbench setup``: spawn the sessions, wait for their PRs, write the setup artifact."""

from __future__ import annotations

import click

from ghbench.harness.options import CommonFlags, common_options

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
    from ghbench.harness.cli_flow import SetupArgs, setup_main

    setup_main(
        SetupArgs(
            common=common,
            issues=issues,
            poll_interval=poll_interval,
            timeout=timeout,
        )
    )
