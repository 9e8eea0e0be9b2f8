"""``ghbench capacity``: the most sessions a cell holds within a fraction of every budget."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click

from ghbench.clock import SystemClock
from ghbench.commands.options import flag_options, hold_out
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
    from ghbench.matrix.capacity import CapacityQuery  # noqa: PLC0415
    from ghbench.matrix.capacity_solve import answer_query  # noqa: PLC0415

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
    answer = answer_query(
        spec,
        query,
        typed,
        solve=solve,
        sessions=sessions,
        clock=SystemClock(),
        env=dict(os.environ),
        log=lambda line: click.echo(line, err=True),
        hold=hold_out,
    )
    if as_json:
        click.echo(json.dumps(answer.json(), indent=2))
    else:
        click.echo(answer.text(), nl=False)
