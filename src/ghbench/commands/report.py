"""``ghbench report``: recompute a scorecard from an existing trace (the spec's report mode).

The flow is ``ghbench.harness.report``: the console scorecard, or with ``--json`` the
artifact (``--format bmf|gab``: its figures for a trend tracker), goes to stdout; what
the trace reader skipped goes to stderr. The scorecard's HTML page is written beside it.
"""

from __future__ import annotations

from pathlib import Path

import click

from ghbench.clock import SystemClock
from ghbench.commands.history import echo_scorecard, resolve_format
from ghbench.commands.options import flag_options, path_option
from ghbench.commands.readwarnings import report_read_problems
from ghbench.data import example_trace_path
from ghbench.errors import UsageError

__all__ = ["command"]


@click.command(name="report")
@path_option(
    "--trace",
    "trace",
    help="Trace JSONL file (AO_GH_TRACE_FILE) to score.",
    kind="any",
)
@click.option("--example", is_flag=True, help="Score the small example trace shipped with ghbench.")
@click.option(
    "--warmup-end",
    metavar="ISO",
    default=None,
    help="Rows completed before this time are warmup (default: the first row).",
)
@click.option(
    "--window-end",
    metavar="ISO",
    default=None,
    help="Rows completed after this time are left out (default: the last row).",
)
@path_option(
    "--agent-trace",
    help=(
        "The agents' own trace, split from the orchestrator's in the insights (default:"
        " gh-trace-agents-* beside --trace, when there is one)."
    ),
)
@flag_options("report")
def command(
    *,
    trace: Path | None,
    agent_trace: Path | None,
    example: bool,
    warmup_end: str | None,
    window_end: str | None,
    out_dir: Path,
    as_json: bool,
    fmt: str | None,
) -> None:
    """Recompute a scorecard from an existing trace file."""
    output = resolve_format(fmt, "text", json=as_json)
    if example and trace is not None:
        raise UsageError("--example and --trace are exclusive; pass one of them")
    if trace is None and not example:
        raise UsageError("--trace is required; pass the trace file to score (or --example)")
    trace_path = example_trace_path() if trace is None else trace
    # the flow loads now, not for --help (see ghbench.commands); it reads the window's bounds
    from ghbench.harness.report import report_trace, time_bounds  # noqa: PLC0415
    from ghbench.trace.frame import TraceFrame  # noqa: PLC0415

    def read_problems(frame: TraceFrame, path: Path, rest: str) -> None:
        report_read_problems(frame.skipped_lines, frame.warnings, path, rest=rest)
        if path != trace_path:
            click.echo(f"agents' trace: {path}", err=True)

    start, end = time_bounds(warmup_end, window_end)
    result = report_trace(
        trace_path,
        start=start,
        end=end,
        agent_trace=agent_trace,
        out_dir=out_dir,
        clock=SystemClock(),
        read_problems=read_problems,
    )
    paths = {"Trace": trace_path, "Scorecard": result.path, "Report": result.page}
    echo_scorecard(result.scorecard, paths, output)
    if output != "text":
        click.echo(f"scorecard: {result.path}", err=True)
        click.echo(f"report page: {result.page}", err=True)
