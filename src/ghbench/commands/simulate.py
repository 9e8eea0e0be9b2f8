"""``ghbench simulate``: runbook cells of the workload model in virtual time.

Writes the same trace and scorecard artifact as ``measure`` and prints the
console scorecard (or the artifact as JSON with ``--json``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
import msgspec

from ghbench.commands.options import flag_options
from ghbench.runspec.spec import RunSpec

__all__ = ["command"]


@click.command(name="simulate")
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Workload config whose profile (unless --profile), policy and trace options apply.",
)
@flag_options("simulate", base=RunSpec(backend="simulated"))
def command(
    *, spec: RunSpec, typed: frozenset[str], config_path: Path | None, as_json: bool
) -> None:
    """Run one runbook cell of the workload model against the in-process emulator."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.scorecard import render_console, use_color  # noqa: PLC0415
    from ghbench.simulation.simulate import simulate_cell  # noqa: PLC0415
    from ghbench.workload.config import load_workload_config  # noqa: PLC0415

    if config_path is not None:
        cfg = load_workload_config(config_path)
        spec = msgspec.structs.replace(
            spec,
            profile=spec.profile if "profile" in typed else cfg.profile,
            policy=cfg.policy,
            session_ids=cfg.trace.session_ids,
        )
    result = simulate_cell(spec)
    if as_json:
        click.echo(result.scorecard_json(), nl=False)
    else:
        paths = {"Trace": result.trace_path, "Scorecard": result.scorecard_path}
        color = use_color(sys.stdout.isatty(), os.environ)
        click.echo(render_console(result.scorecard, color=color, paths=paths), nl=False)
    click.echo(result.summary(), err=True)
