"""``ghbench simulate``: runbook cells of the workload model in virtual time.

Writes the same trace, scorecard artifact and report page as ``measure`` and prints
the console scorecard (the artifact as JSON with ``--json``; ``--format bmf|gab``: its
figures for a trend tracker).
"""

from __future__ import annotations

from pathlib import Path

import click

from ghbench.blas import one_blas_thread
from ghbench.collector import batch_collection
from ghbench.commands.history import HISTORY_FORMATS, echo_scorecard, resolve_format
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
        from ghbench.simulation.simulate import configured_spec, simulate_cell  # noqa: PLC0415

    spec = configured_spec(spec, config_path, profile_given="profile" in typed)
    with batch_collection():
        result = simulate_cell(spec)
    paths = {"Trace": result.trace_path, "Scorecard": result.scorecard_path}
    if result.page_path is not None:
        paths["Report"] = result.page_path
    echo_scorecard(result.scorecard, paths, output)
    if output in HISTORY_FORMATS:
        click.echo(f"scorecard: {result.scorecard_path}", err=True)
    click.echo(result.summary(), err=True)
