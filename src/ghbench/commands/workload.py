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
