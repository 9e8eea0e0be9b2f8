"""``ghbench replay``: a recorded trace's calls re-issued against the emulator.

Writes a trace of the re-issued calls and its scorecard (as ``measure`` does) and
prints how the replay's spend compares with the recording's, what could not be
re-issued and why, and what the counterfactual policies held back.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from ghbench.commands.params import MAX_SESSIONS, FiniteFloatRange
from ghbench.errors import UsageError
from ghbench.timefmt import duration_flag

__all__ = ["command"]

SCHEMA_VERSION = 1


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
@click.option(
    "--trace",
    "trace_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="A recorded trace: AO's, record's, the agents', the network front's (with the"
    " agents' trace beside it, gh-trace-agents-*, when there is one).",
)
@click.option(
    "--sessions",
    type=click.IntRange(min=1, max=MAX_SESSIONS),
    default=None,
    help="Sessions to replay [default: the recorded count]; more are copies of the recording.",
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
    help="Answer a call of OP from a cache when an identical one was re-issued within DURATION.",
)
@click.option(
    "--interval",
    multiple=True,
    metavar="OP=DURATION",
    help="A session re-issues OP at most once per DURATION (a slower poll).",
)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("ghbench-out"),
    show_default=True,
)
@click.option("--json", "as_json", is_flag=True, help="Print the replay summary as JSON.")
def command(  # noqa: PLR0917 - one parameter per flag, as click passes them
    trace_path: Path,
    sessions: int | None,
    speed: float | None,
    drop: tuple[str, ...],
    ttl: tuple[str, ...],
    interval: tuple[str, ...],
    seed: int,
    out_dir: Path,
    as_json: bool,
) -> None:
    """Re-issue a recorded trace's calls against the emulator, scaled to N sessions."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.simulation.replay import (  # noqa: PLC0415
        ReplaySpec,
        load_recording,
        replay_trace,
        write_replay,
    )
    from ghbench.workload.replay import ReplayPolicy  # noqa: PLC0415

    policy = ReplayPolicy(
        drop=frozenset(drop),
        ttl=_per_operation("--ttl", ttl),
        interval=_per_operation("--interval", interval),
    )
    rows, agents = load_recording(trace_path)
    # on the wall clock a replay lasts as long as its recording: it says how far it is
    said = None if speed is None else (lambda line: click.echo(line, err=True))
    result = replay_trace(
        rows,
        ReplaySpec(sessions=sessions, speed=speed, policy=policy, progress=said),
        seed=seed,
    )
    trace, scorecard, report = write_replay(result, out_dir=out_dir, source=trace_path)
    summary = result.summary()
    if as_json:
        doc = {
            "schemaVersion": SCHEMA_VERSION,
            "source": str(trace_path),
            "agentSource": None if agents is None else str(agents),
            "trace": str(trace),
            "scorecard": str(scorecard),
            "page": str(report),
            **summary,
        }
        click.echo(json.dumps(doc, indent=2))
        return
    from ghbench.artifacts.models import load_scorecard  # noqa: PLC0415
    from ghbench.scorecard import render_console, use_color  # noqa: PLC0415

    click.echo(
        render_console(
            load_scorecard(scorecard),
            color=use_color(sys.stdout.isatty(), os.environ),
            paths={"Trace": trace, "Scorecard": scorecard, "Report": report},
        ),
        nl=False,
    )
    for line in _summary_lines(summary):
        click.echo(line)


def _summary_lines(summary: dict[str, object]) -> list[str]:
    recorded = summary["recordedPoints"]
    replayed = summary["replayedPoints"]
    assert isinstance(recorded, dict) and isinstance(replayed, dict)
    lines = [
        f"replay: {summary['sessions']} sessions ({summary['recordedSessions']} recorded, "
        f"{summary['copies']} copies), {summary['callsReissued']} calls re-issued",
    ]
    for budget in sorted(set(recorded) | set(replayed)):
        lines.append(
            f"  {budget}: recorded {recorded.get(budget, 0)} points, "
            f"replayed {replayed.get(budget, 0)}"
        )
    skipped = summary["notReissued"]
    assert isinstance(skipped, dict)
    lines.append(f"  not re-issued: {summary['notReissuedRows']} rows")
    for reason, operations in skipped.items():
        named = ", ".join(f"{op} {n}" for op, n in sorted(operations.items()))
        lines.append(f"    {reason}: {named}")
    held = summary["policy"]
    assert isinstance(held, dict)
    for reason, operations in held.items():
        named = ", ".join(f"{op} {n}" for op, n in sorted(operations.items()))
        lines.append(f"  policy, {reason}: {named}")
    return lines
