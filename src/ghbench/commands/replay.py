"""``ghbench replay``: a recorded trace's calls re-issued against the emulator.

Writes a trace of the re-issued calls, its scorecard and the scorecard's page (as
``measure`` does) and prints how the replay's spend compares with the recording's,
what could not be re-issued and why, and what the counterfactual policies held back.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from ghbench.commands.options import FiniteFloatRange, flag_options, path_option
from ghbench.errors import UsageError
from ghbench.runspec.spec import RunSpec
from ghbench.timefmt import duration_flag

__all__ = ["command"]


def _per_operation(flag: str, values: tuple[str, ...]) -> dict[str, float]:
    """``OP=DURATION`` pairs (``gh.pr.view=30s``) as seconds per operation."""
    out: dict[str, float] = {}
    for value in values:
        operation, sep, duration = value.partition("=")
        if not sep or not operation:
            raise UsageError(f"{flag}: {value!r} is not OPERATION=DURATION (gh.pr.view=30s)")
        out[operation] = duration_flag(flag, duration, allow_zero=False)
    return out


@click.command(name="replay")
@path_option(
    "--trace",
    "trace_path",
    help=(
        "A recorded trace: AO's, record's, the agents', the network front's (with the"
        " agents' trace beside it, gh-trace-agents-*, when there is one)."
    ),
    required=True,
)
@click.option(
    "--speed",
    type=FiniteFloatRange(min=0, min_open=True),
    default=None,
    help="Replay on the wall clock at this many times recorded speed [default: virtual time].",
)
@click.option("--drop", multiple=True, metavar="OP", help="Do not re-issue operation OP.")
@click.option(
    "--ttl",
    multiple=True,
    metavar="OP=DURATION",
    help="Answer a call of OP from a cache when an identical one was re-issued within"
    " DURATION: the cache policy for OP alone (--policies cache:ttl=N is preferred for"
    " every operation).",
)
@click.option(
    "--interval",
    multiple=True,
    metavar="OP=DURATION",
    help="A session re-issues OP at most once per DURATION (a slower poll).",
)
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
    from ghbench.policies.spec import parse_policies  # noqa: PLC0415
    from ghbench.scorecard import render_console, use_color  # noqa: PLC0415
    from ghbench.simulation.replay import ReplaySpec, replay_recording  # noqa: PLC0415
    from ghbench.simulation.replay_policies import check_replayable  # noqa: PLC0415
    from ghbench.workload.replay import ReplayPolicy  # noqa: PLC0415

    chosen = parse_policies(policies)
    check_replayable(chosen)

    policy = ReplayPolicy(
        drop=frozenset(drop),
        ttl=_per_operation("--ttl", ttl),
        interval=_per_operation("--interval", interval),
    )
    # on the wall clock a replay lasts as long as its recording: it says how far it is
    said = None if speed is None else (lambda line: click.echo(line, err=True))
    replay = ReplaySpec(
        run=spec, sessions=sessions, speed=speed, policy=policy, policies=chosen, progress=said
    )
    written = replay_recording(replay, trace_path)
    if as_json:
        click.echo(json.dumps(written.json(), indent=2))
        return
    paths = {
        "Trace": written.trace_path,
        "Scorecard": written.scorecard_path,
        "Report": written.page_path,
    }
    color = use_color(sys.stdout.isatty(), os.environ)
    click.echo(render_console(written.scorecard, color=color, paths=paths), nl=False)
    for line in written.summary.lines():
        click.echo(line)
