"""``ghbench lab``: a recorded fleet under each policy and useful combination: the
sessions that fit, the budget that binds, spend per hour per budget, calls absorbed,
delayed or refused (docs/policies.md)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ghbench.commands.options import flag_options, hold_out
from ghbench.runspec.spec import RunSpec

__all__ = ["command"]


@click.command(name="lab")
@flag_options("lab", base=RunSpec(backend="simulated"))
def command(  # noqa: PLR0917 - one parameter per flag, as click passes them
    spec: RunSpec,
    trace_path: Path,
    policies: str,
    sessions: int | None,
    out_dir: Path,
    as_json: bool,
) -> None:
    """Tabulate a recorded trace under each policy (ETag probes, a GraphQL→REST shim, a
    reserve band, a caching proxy, a fleet-wide gate, AO 0.12's cooldown) and their
    combinations, on a token's budgets: a user's 5,000/h, or --budget's."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.harness.lab import run_lab  # noqa: PLC0415

    hold_out(out_dir)
    result = run_lab(
        trace_path, policies=policies, sessions=sessions, out_dir=out_dir, budget=spec.budget
    )
    if as_json:
        click.echo(json.dumps(result.table.json(), indent=2))
    else:
        click.echo(result.text(), nl=False)
