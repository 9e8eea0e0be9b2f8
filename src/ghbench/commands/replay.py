"""``ghbench replay``: a recorded trace's calls re-issued against the emulator.

Writes a trace of the re-issued calls, its scorecard and the scorecard's page (as
``measure`` does) and prints how the replay's spend compares with the recording's,
what could not be re-issued and why, and what the counterfactual policies held back.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ghbench.commands.history import echo_scorecard
from ghbench.commands.options import flag_options
from ghbench.runspec.spec import RunSpec

__all__ = ["command"]


@click.command(name="replay")
@flag_options("replay", base=RunSpec(backend="simulated"))
def command(  # noqa: PLR0917 - one parameter per flag, as click passes them
    spec: RunSpec,
    trace_path: Path,
    sessions: int | None,
    speed: float | None,
    drop: tuple[str, ...],
    ttl: tuple[str, ...],
    interval: tuple[str, ...],
    policies: str,
    as_json: bool,
) -> None:
    """Re-issue a recorded trace's calls against the emulator, scaled to N sessions."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.simulation.replay import replay_recording, replay_spec  # noqa: PLC0415

    def progress(line: str) -> None:
        click.echo(line, err=True)

    replay = replay_spec(spec, sessions, speed, drop, ttl, interval, policies, progress)
    written = replay_recording(replay, trace_path)
    if as_json:
        click.echo(json.dumps(written.json(), indent=2))
        return
    paths = {
        "Trace": written.trace_path,
        "Scorecard": written.scorecard_path,
        "Report": written.page_path,
    }
    echo_scorecard(written.scorecard, paths)
    for line in written.summary.lines():
        click.echo(line)
