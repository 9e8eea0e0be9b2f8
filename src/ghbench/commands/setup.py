"""``ghbench setup``: spawn the sessions, wait for their PRs, write the setup artifact.

The order of checks is chosen so that bad input fails before anything starts or is
written: the flags (the issues against the sessions among them), the project and its
config, then the tools, then the token (real GitHub) or the emulator.
"""

from __future__ import annotations

import click

from ghbench.clock import SystemClock
from ghbench.commands.options import flag_options, hold_out
from ghbench.runspec.spec import RunSpec

__all__ = ["command"]


@click.command(name="setup")
@flag_options("setup")
def command(*, spec: RunSpec) -> None:
    """Create the scenario: spawn sessions and wait for their PRs."""
    # the flags are checked; the flow loads now, not for --help (see ghbench.commands)
    from ghbench.harness.progress import make_progress  # noqa: PLC0415
    from ghbench.harness.setup import setup_run  # noqa: PLC0415

    outcome = setup_run(spec, clock=SystemClock(), progress=make_progress, hold=hold_out)
    for line in outcome.lines():
        click.echo(line)
    outcome.raise_for_ready()
