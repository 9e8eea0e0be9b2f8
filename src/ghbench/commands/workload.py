"""``ghbench workload run --config FILE``: the built-in AO model as a real-time process.

Rows go to ``$AO_GH_TRACE_FILE`` (AO's variable). SIGTERM (or SIGHUP, or Ctrl-C)
lets the call in flight finish, flushes the trace and exits 0, as the workload
driver expects; 1 when rows could not be written (each lost row is also told to the
parent that asked, over ``GHBENCH_TRACE_LOSS_FD``: ``ghbench.trace.losses``).
"""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path
from types import FrameType

import click

from ghbench.clock import SystemClock
from ghbench.commands.params import AGENT_PROFILE_HELP, FiniteFloatRange
from ghbench.errors import GhbenchError, UsageError

__all__ = ["command"]

TRACE_ENV = "AO_GH_TRACE_FILE"


@click.group(name="workload")
def command() -> None:
    """Run the built-in AO workload model as a process."""


@command.command(name="run")
@click.option(
    "--config",
    "config_path",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Workload config (YAML); see ghbench.workload.config for every key.",
)
@click.option("--max-ticks", type=click.IntRange(min=1), default=None, help="Stop after N ticks.")
def run(config_path: Path, max_ticks: int | None) -> None:
    """Poll like AO's lifecycle manager until SIGTERM; rows go to $AO_GH_TRACE_FILE."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.trace.losses import LossReporter  # noqa: PLC0415
    from ghbench.workload.config import load_workload_config  # noqa: PLC0415
    from ghbench.workload.process import open_trace_sink, run_workload  # noqa: PLC0415
    from ghbench.workload.transport import make_transport  # noqa: PLC0415

    trace = os.environ.get(TRACE_ENV)
    if not trace:
        raise UsageError(f"{TRACE_ENV} is not set; set it to the trace file the rows go to")
    cfg = load_workload_config(config_path)
    transport = make_transport(cfg)
    stop = threading.Event()

    def on_term(signum: int, frame: FrameType | None) -> None:
        stop.set()

    token = os.environ.get(cfg.token_env, "")
    secrets = (token,) if token else ()
    reporter = LossReporter.from_env(os.environ)
    write, writer = open_trace_sink(Path(trace), secrets, reporter)
    # SIGHUP and SIGINT stop it as SIGTERM does (the call in flight finishes)
    stops = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    previous = {sig: signal.signal(sig, on_term) for sig in stops}
    try:
        summary = run_workload(
            cfg,
            transport,
            write,
            clock=SystemClock(),
            stop=stop,
            max_ticks=max_ticks,
            secrets=secrets,
        )
    finally:
        writer.close()
        transport.close()
        if reporter is not None:
            reporter.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    click.echo(
        f"workload: {summary.ticks} ticks, {summary.calls} calls, "
        f"{summary.skipped_ticks} ticks skipped (overlap)",
        err=True,
    )
    loss = writer.loss()
    if loss is not None:
        raise GhbenchError(
            f"{loss.rows} of {summary.calls} trace rows could not be written to {loss.trace}"
            f" ({loss.reason})"
        )


@command.command(name="agent")
@click.option(
    "--profile",
    default="default",
    show_default=True,
    help=AGENT_PROFILE_HELP,
)
@click.option("--repo", default=None, help="The session's repository, owner/name [--cwd's origin].")
@click.option("--branch", default=None, help="The session's branch [the one checked out in --cwd].")
@click.option("--issue", required=True, type=click.IntRange(min=1), help="The session's issue.")
@click.option("--session", "session_id", default="agent-1", show_default=True, help="Session id.")
@click.option(
    "--transport",
    type=click.Choice(["gh", "http"]),
    default="http",
    show_default=True,
    help="gh: the real gh in --cwd; http: the captured requests over httpx (no gh needed).",
)
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
    "--duration", default="30m", show_default=True, help="Stop after this long (30m, 1h)."
)
@click.option("--seed", default=0, show_default=True, type=int, help="The agent's random source.")
@click.option(
    "--speed",
    type=FiniteFloatRange(min=1.0),
    default=1.0,
    show_default=True,
    help="Run the session this many times faster: every wait of the profile divided by it.",
)
def agent(
    *,
    profile: str,
    repo: str | None,
    branch: str | None,
    issue: int,
    session_id: str,
    transport: str,
    api_url: str | None,
    cwd: str | None,
    push: bool,
    duration: str,
    seed: int,
    speed: float,
) -> None:
    """Run one coding agent's gh traffic in real time; rows go to $AO_GH_TRACE_FILE."""
    # the model loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.timefmt import parse_duration  # noqa: PLC0415
    from ghbench.trace.losses import LossReporter  # noqa: PLC0415
    from ghbench.workload.agents.fleet import AgentSpec  # noqa: PLC0415
    from ghbench.workload.agents.process import (  # noqa: PLC0415
        CheckoutHooks,
        checkout_target,
        run_agent_process,
    )
    from ghbench.workload.agents.profiles import agent_profile, faster  # noqa: PLC0415
    from ghbench.workload.config import default_api_url  # noqa: PLC0415
    from ghbench.workload.process import open_trace_sink  # noqa: PLC0415
    from ghbench.workload.transport.gh import GhTransport  # noqa: PLC0415
    from ghbench.workload.transport.http import HttpTransport  # noqa: PLC0415

    trace = os.environ.get(TRACE_ENV)
    if not trace:
        raise UsageError(f"{TRACE_ENV} is not set; set it to the trace file the rows go to")
    try:
        params = faster(agent_profile(profile), speed)
        seconds = parse_duration(duration)
    except ValueError as exc:
        raise UsageError(f"--profile/--duration: {exc}") from None
    if (repo is None or branch is None) and cwd is not None:
        found_repo, found_branch = checkout_target(cwd)
        repo, branch = repo or found_repo, branch or found_branch
    if repo is None or branch is None:
        raise UsageError("--repo and --branch: give both, or --cwd a checkout on its branch")
    if "/" not in repo:
        raise UsageError(f"--repo: {repo!r} is not owner/name")
    token = os.environ.get("GH_TOKEN") or os.environ.get("GITHUB_TOKEN")
    if transport == "gh":
        runner: GhTransport | HttpTransport = GhTransport(cwd=cwd)
    else:
        base = api_url or default_api_url(os.environ.get("GH_HOST", "github.com"))
        runner = HttpTransport(base, token=token)
    stop = threading.Event()

    def on_term(signum: int, frame: FrameType | None) -> None:
        stop.set()

    secrets = (token,) if token else ()
    write, writer = open_trace_sink(Path(trace), secrets, LossReporter.from_env(os.environ))
    stops = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
    previous = {sig: signal.signal(sig, on_term) for sig in stops}
    try:
        summary = run_agent_process(
            params,
            AgentSpec(session_id, repo, branch, issue),
            runner,
            write,
            clock=SystemClock(),
            stop=stop,
            token=token,
            hooks=CheckoutHooks(cwd, push=push),
            duration_s=seconds,
            seed=seed,
            secrets=secrets,
        )
    finally:
        writer.close()
        runner.close()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    click.echo(f"agent: {summary.commands} gh commands, {summary.requests} requests", err=True)
    loss = writer.loss()
    if loss is not None:
        raise GhbenchError(
            f"{loss.rows} of {summary.requests} trace rows could not be written to {loss.trace}"
            f" ({loss.reason})"
        )


@command.command(name="agents")
@click.option(
    "--profile",
    default="default",
    show_default=True,
    help=AGENT_PROFILE_HELP,
)
@click.option(
    "--agents", "count", type=click.IntRange(min=1, max=1000), default=5, show_default=True
)
@click.option("--duration", default="30m", show_default=True, help="Window from the agents' spawn.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("ghbench-out"),
    show_default=True,
)
@click.option("--json", "as_json", is_flag=True, help="Print the scorecard artifact as JSON.")
def agents(
    *, profile: str, count: int, duration: str, seed: int, out_dir: Path, as_json: bool
) -> None:
    """Run N coding agents in virtual time against the in-process emulator."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.commands.params import MAX_VIRTUAL_S  # noqa: PLC0415
    from ghbench.simulation.agents import (  # noqa: PLC0415
        AgentRunSpec,
        run_agents,
        write_agent_artifacts,
    )
    from ghbench.timefmt import duration_flag  # noqa: PLC0415
    from ghbench.workload.agents.profiles import agent_profile  # noqa: PLC0415

    try:
        agent_profile(profile)
    except ValueError as exc:
        raise UsageError(f"--profile: {exc}") from None
    seconds = duration_flag("--duration", duration, allow_zero=False, maximum=MAX_VIRTUAL_S)
    run = run_agents(AgentRunSpec(profile=profile, agents=count, duration_s=seconds), seed=seed)
    trace, card = write_agent_artifacts(run, seed=seed, out_dir=out_dir)
    if as_json:
        click.echo(card.read_text(encoding="utf-8"), nl=False)
    else:
        click.echo(f"Trace: {trace}\nScorecard: {card}")
    points = {k: v for k, v in run.ledger["points"].items() if v}
    click.echo(
        f"agents: {count} x {profile}, {run.summary.commands} gh commands, "
        f"{run.summary.requests} requests; ledger in window: {points} "
        f"(graphql {run.points_per_hour('graphql'):.0f}/h)",
        err=True,
    )
