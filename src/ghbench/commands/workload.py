"""``ghbench workload run|agent|agents``: the built-in AO model, or coding agents.

``run`` and ``agent`` are processes in real time whose rows go to ``$AO_GH_TRACE_FILE``
(AO's variable): SIGTERM (or SIGHUP, or Ctrl-C) lets the call in flight finish,
flushes the trace and exits 0, as the workload driver expects; 1 when rows could not
be written (``ghbench.workload.process``). ``agents`` runs N agents in virtual time.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from ghbench.clock import SystemClock
from ghbench.commands.options import FiniteFloatRange, flag_options, path_option
from ghbench.errors import UsageError
from ghbench.runspec.spec import Duration, RunSpec

__all__ = ["command"]


@click.group(name="workload")
def command() -> None:
    """Run the built-in AO workload model (or a coding agent) as a process."""


@command.command(name="run")
@path_option(
    "--config",
    "config_path",
    help="Workload config (YAML); see ghbench.workload.config for every key.",
    required=True,
)
@click.option("--max-ticks", type=click.IntRange(min=1), default=None, help="Stop after N ticks.")
def run(config_path: Path, max_ticks: int | None) -> None:
    """Poll like AO's lifecycle manager until SIGTERM; rows go to $AO_GH_TRACE_FILE."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.workload.process import model_process  # noqa: PLC0415

    outcome = model_process(config_path, os.environ, clock=SystemClock(), max_ticks=max_ticks)
    click.echo(outcome.line, err=True)
    outcome.raise_for_loss()


def _agent_profile(spec: RunSpec) -> str:
    if spec.agents == "none":
        raise UsageError("--agents none: an agent runs a profile; give one, or drop --agents")
    return spec.agents


@command.command(name="agent")
@click.option("--repo", default=None, help="The session's repository, owner/name [--cwd's origin].")
@click.option("--branch", default=None, help="The session's branch [the one checked out in --cwd].")
@click.option("--issue", required=True, type=click.IntRange(min=1), help="The session's issue.")
@click.option("--session", "session_id", default="agent-1", show_default=True, help="Session id.")
@click.option(
    "--api-url", default=None, help="REST base for --transport http (default: GH_HOST's)."
)
@click.option(
    "--cwd",
    type=click.Path(file_okay=False, exists=True),
    default=None,
    help="The agent's checkout (gh runs there; --push pushes from it).",
)
@click.option(
    "--push", is_flag=True, help="Push an empty commit from --cwd at each of the agent's pushes."
)
@click.option(
    "--speed",
    type=FiniteFloatRange(min=1.0),
    default=1.0,
    show_default=True,
    help="Run the session this many times faster: every wait of the profile divided by it.",
)
@flag_options("workload agent")
def agent(  # noqa: PLR0917 - one parameter per flag, as click passes them
    spec: RunSpec,
    repo: str | None,
    branch: str | None,
    issue: int,
    session_id: str,
    api_url: str | None,
    cwd: str | None,
    push: bool,
    speed: float,
) -> None:
    """Run one coding agent's gh traffic in real time; rows go to $AO_GH_TRACE_FILE."""
    # the model loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.workload.agents.process import AgentProcess, agent_process  # noqa: PLC0415

    process = AgentProcess(
        profile=_agent_profile(spec),
        issue=issue,
        session_id=session_id,
        transport=spec.transport,
        duration_s=spec.duration.seconds,
        seed=spec.seed,
        speed=speed,
        repo=repo,
        branch=branch,
        cwd=cwd,
        push=push,
        api_url=api_url,
    )
    outcome = agent_process(process, os.environ, clock=SystemClock())
    click.echo(outcome.line, err=True)
    outcome.raise_for_loss()


@command.command(name="agents")
@flag_options("workload agents", base=RunSpec(backend="simulated", warmup=Duration(0.0, "0s")))
def agents(*, spec: RunSpec, as_json: bool) -> None:
    """Run N coding agents (--sessions) in virtual time against the in-process emulator."""
    _agent_profile(spec)
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.simulation.agents import simulate_agents  # noqa: PLC0415

    result = simulate_agents(spec)
    if as_json:
        click.echo(result.scorecard_json(), nl=False)
    else:
        click.echo(f"Trace: {result.trace_path}\nScorecard: {result.scorecard_path}")
    click.echo(result.summary(), err=True)
