"""``ghbench simulate``: runbook cells of the workload model in virtual time.

Writes the same trace, scorecard artifact and report page as ``measure`` and prints
the console scorecard (the artifact as JSON with ``--json``; ``--format bmf|gab``: its
figures for a trend tracker).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
import msgspec

from ghbench.blas import one_blas_thread
from ghbench.collector import batch_collection
from ghbench.commands.history import HISTORY_FORMATS, echo_history, resolve_format
from ghbench.commands.options import flag_options, path_option
from ghbench.runspec.spec import RunSpec

__all__ = ["command"]


@click.command(name="simulate")
@path_option(
    "--config",
    "config_path",
    help="Workload config whose profile (unless --profile), policy and trace options apply.",
)
@flag_options("simulate", base=RunSpec(backend="simulated"))
def command(
    *,
    spec: RunSpec,
    typed: frozenset[str],
    config_path: Path | None,
    as_json: bool,
    fmt: str | None,
) -> None:
    """Run one runbook cell of the workload model against the in-process emulator."""
    output = resolve_format(fmt, "text", json=as_json)
    # the flow loads when the command runs, not for --help (see ghbench.commands); its
    # figures need no BLAS threads
    with one_blas_thread():
        from ghbench.simulation.simulate import simulate_cell  # noqa: PLC0415
    from ghbench.scorecard import render_console, use_color  # noqa: PLC0415
    from ghbench.workload.config import load_workload_config  # noqa: PLC0415

    if config_path is not None:
        cfg = load_workload_config(config_path)
        spec = msgspec.structs.replace(
            spec,
            profile=spec.profile if "profile" in typed else cfg.profile,
            policy=cfg.policy,
            session_ids=cfg.trace.session_ids,
        )
    with batch_collection():
        result = simulate_cell(spec)
    if output == "json":
        click.echo(result.scorecard_json(), nl=False)
    elif output in HISTORY_FORMATS:
        from ghbench.pages.history import scorecard_measurements  # noqa: PLC0415

        echo_history(scorecard_measurements(result.scorecard), output)
        click.echo(f"scorecard: {result.scorecard_path}", err=True)
    else:
        paths = {"Trace": result.trace_path, "Scorecard": result.scorecard_path}
        if result.page_path is not None:
            paths["Report"] = result.page_path
        color = use_color(sys.stdout.isatty(), os.environ)
        click.echo(render_console(result.scorecard, color=color, paths=paths), nl=False)
    click.echo(result.summary(), err=True)
