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

from ghbench.blas import one_blas_thread
from ghbench.collector import batch_collection
from ghbench.commands.history import HISTORY_FORMATS, echo_history, format_option, resolve_format
from ghbench.commands.params import (
    AGENTS_HELP,
    MAX_SESSIONS,
    MAX_VIRTUAL_S,
    AgentsChoice,
    ProfileChoice,
)
from ghbench.runspec.cells import Cell, parse_topology, scenario_for
from ghbench.runspec.names import AgentsName
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.workload.profiles import DEFAULT_PROFILE, ProfileName

__all__ = ["command"]


@click.command(name="simulate")
@click.option("--scenario", default=None, help="S1..S6 or a name [S2; S3 with --agents].")
@click.option("--topology", default="T1", show_default=True, help="T1 (one repo) or T2.")
@click.option(
    "--sessions", type=click.IntRange(min=1, max=MAX_SESSIONS), default=50, show_default=True
)
@click.option("--warmup", default="2m", show_default=True, help="Warmup before the window.")
@click.option("--duration", default="15m", show_default=True, help="Measurement window.")
@click.option(
    "--profile",
    type=ProfileChoice(),
    default=None,
    help="AO version to model (head: ao-main-60e8c881, pre-b1: ao-bench-1e73a505)"
    f" [default: {DEFAULT_PROFILE}, or the config's].",
)
@click.option("--agents", type=AgentsChoice(), default="none", show_default=True, help=AGENTS_HELP)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("ghbench-out"),
    show_default=True,
)
@click.option(
    "--config",
    "config_path",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Workload config whose profile, policy and trace options apply.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the scorecard artifact as JSON.")
@format_option(["text", "json"], "text")
def command(  # noqa: PLR0917 - one parameter per flag, as click passes them
    scenario: str | None,
    topology: str,
    sessions: int,
    warmup: str,
    duration: str,
    profile: ProfileName | None,
    agents: AgentsName,
    seed: int,
    out_dir: Path,
    config_path: Path | None,
    as_json: bool,
    fmt: str | None,
) -> None:
    """Run one runbook cell of the workload model against the in-process emulator."""
    output = resolve_format(fmt, "text", json=as_json)
    # the rows carry sessionId unless a config says otherwise: a replay needs them
    chosen, policy, session_ids = profile or DEFAULT_PROFILE, None, True
    if config_path is not None:
        # the flow loads when the command runs, not for --help (see ghbench.commands)
        from ghbench.workload.config import load_workload_config  # noqa: PLC0415

        cfg = load_workload_config(config_path)
        chosen, policy, session_ids = profile or cfg.profile, cfg.policy, cfg.trace.session_ids
    spec = RunSpec(
        backend="simulated",
        cell=Cell(
            scenario_for(scenario, agents=agents != "none").id, parse_topology(topology), sessions
        ),
        warmup=Duration.parse("--warmup", warmup, maximum=MAX_VIRTUAL_S),
        duration=Duration.parse("--duration", duration, maximum=MAX_VIRTUAL_S),
        seed=seed,
        out_dir=out_dir,
        profile=chosen,
        policy=policy,
        session_ids=session_ids,
        agents=agents,
    )
    # the flow loads when the command runs, not for --help (see ghbench.commands);
    # its figures need no BLAS threads
    with one_blas_thread():
        from ghbench.simulation.simulate import simulate_cell  # noqa: PLC0415

    with batch_collection():
        result = simulate_cell(spec)
    from ghbench.artifacts.models import encode_artifact  # noqa: PLC0415
    from ghbench.scorecard import render_console, use_color  # noqa: PLC0415

    if output == "json":
        click.echo(encode_artifact(result.scorecard).decode(), nl=False)
    elif output in HISTORY_FORMATS:
        from ghbench.pages.history import scorecard_measurements  # noqa: PLC0415

        echo_history(scorecard_measurements(result.scorecard), output)
        click.echo(f"scorecard: {result.scorecard_path}", err=True)
    else:
        paths = {"Trace": result.trace_path, "Scorecard": result.scorecard_path}
        if result.page_path is not None:
            paths["Report"] = result.page_path
        click.echo(
            render_console(
                result.scorecard, color=use_color(sys.stdout.isatty(), os.environ), paths=paths
            ),
            nl=False,
        )
    with_agents = f", agents {spec.agents}" if spec.runs_agents else ""
    click.echo(
        f"simulated {spec.cell.id} ({spec.profile}{with_agents}, seed {seed}): "
        f"{result.ticks} ticks, {result.skipped_ticks} skipped, longest poll cycle in the window"
        f" {result.longest_poll_cycle:.1f} s; ledger in window: {result.ledger['points']}",
        err=True,
    )
