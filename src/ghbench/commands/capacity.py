"""``ghbench capacity``: the most sessions a cell holds within a fraction of every budget."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from ghbench.clock import SystemClock
from ghbench.commands.options import FiniteFloatRange, flag_options, hold_out, path_option
from ghbench.errors import UsageError
from ghbench.runspec.flags import MAX_VIRTUAL_S
from ghbench.runspec.names import RunBackendName
from ghbench.runspec.spec import RunSpec
from ghbench.timefmt import duration_flag

__all__ = ["command"]

# the search runs the model in virtual time; --verify runs counts on the emulator
_WORDS: dict[frozenset[RunBackendName], str] = {
    frozenset({"simulated"}): "the model alone (no --verify)",
    frozenset({"emulator", "github"}): "--verify",
}


def _base(values: Mapping[str, Any]) -> RunSpec:
    return RunSpec(backend="emulator" if values["verify"] else "simulated")


@click.command(name="capacity")
@path_option(
    "--from-trace",
    "from_trace",
    help=(
        "Answer from a recorded trace instead of the model: replayed at each count tried"
        " (with the agents' trace beside it, gh-trace-agents-*, when there is one)."
    ),
)
@click.option(
    "--budget-fraction",
    type=FiniteFloatRange(min=0.0, min_open=True, max=1.0),
    default=0.8,
    show_default=True,
    help="Share of every budget a count may use.",
)
@click.option(
    "--poll-ceiling",
    default="60s",
    show_default=True,
    metavar="DURATION",
    help="Longest acceptable poll cycle (AO's limit-finder: 60 s).",
)
@click.option(
    "--max-sessions",
    type=click.IntRange(min=1, max=100_000),
    default=1000,
    show_default=True,
    help="Largest count tried.",
)
@click.option(
    "--verify",
    is_flag=True,
    help="Run the count found and the next one in real time on the emulator, and say"
    " whether they agree with the model.",
)
@flag_options("capacity", base=_base, words=_WORDS)
def command(  # noqa: PLR0917 - one parameter per flag, as click passes them
    spec: RunSpec,
    typed: frozenset[str],
    sessions: int | None,
    solve: str | None,
    from_trace: Path | None,
    budget_fraction: float,
    poll_ceiling: str,
    max_sessions: int,
    verify: bool,
    policies: str,
    no_plot: bool,
    as_json: bool,
) -> None:
    """Search, with the AO model in virtual time (its sessions' agents too with --agents),
    or by replaying your own trace (--from-trace), for the largest session count that
    stays within --budget-fraction of every budget: GraphQL points/h, REST core
    requests/h, secondary points/min, concurrency and the poll cycle."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.matrix.capacity import CapacityQuery, answer_capacity  # noqa: PLC0415
    from ghbench.matrix.capacity_solve import answer_solve  # noqa: PLC0415

    if (solve is None) != (sessions is None):
        raise UsageError("--solve and --sessions go together: --sessions N --solve tick|agents")

    query = CapacityQuery(
        fraction=budget_fraction,
        maximum=max_sessions,
        ceiling_s=duration_flag(
            "--poll-ceiling", poll_ceiling, allow_zero=False, maximum=MAX_VIRTUAL_S
        ),
        plot=not no_plot,
        verify=verify,
        from_trace=from_trace,
        policies=policies,
    )
    if solve is not None and sessions is not None:
        solved = answer_solve(solve, spec, query, sessions)
        if as_json:
            click.echo(json.dumps(solved.json(), indent=2))
        else:
            click.echo(solved.text(), nl=False)
        return
    answer = answer_capacity(
        spec,
        query,
        typed,
        clock=SystemClock(),
        env=dict(os.environ),
        log=lambda line: click.echo(line, err=True),
        hold=hold_out,
    )
    if as_json:
        click.echo(json.dumps(answer.json(), indent=2))
    else:
        click.echo(answer.text(), nl=False)
