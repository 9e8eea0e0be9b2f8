"""``ghbench report``: recompute a scorecard from an existing trace (the spec's report mode).

The window runs from ``--warmup-end`` (else the earliest row) to ``--window-end``
(else the latest row). Snapshot fields and ``benchmarkControlCalls`` are null: a trace
alone cannot know them. The artifact is written under ``--out`` (never over a file)
and the console scorecard, or with ``--json`` the artifact, goes to stdout; what the
trace reader skipped goes to stderr.
"""

from __future__ import annotations

import os
import re
import sys
from importlib.resources import files
from pathlib import Path

import click

from ghbench.clock import SystemClock
from ghbench.commands import DEFAULT_OUT
from ghbench.commands.readwarnings import report_read_problems
from ghbench.errors import ArtifactError, TraceError, UsageError
from ghbench.timefmt import parse_iso

__all__ = ["command", "example_trace_path", "report_scenario_id"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def example_trace_path() -> Path:
    """The small example trace shipped in the package (``ghbench report --example``)."""

    return Path(str(files("ghbench.data").joinpath("example-trace.jsonl")))


def report_scenario_id(trace: Path) -> str:
    """Report mode has no scenario; the trace's file name (without ``.jsonl``) stands in."""
    stem = trace.name.removesuffix(".jsonl").removesuffix(".json")
    return _UNSAFE.sub("-", stem).strip("-.") or "trace"


def _epoch_ms(flag: str, text: str | None) -> int | None:

    if text is None:
        return None
    try:
        return round(parse_iso(text) * 1000)
    except ValueError:
        raise UsageError(
            f"{flag}: {text!r} is not an ISO-8601 timestamp in years 1 to 9999 (UTC); use a"
            " form like 2026-04-16T14:17:02Z"
        ) from None


@click.command(name="report")
@click.option(
    "--trace",
    "trace",
    type=click.Path(dir_okay=True, path_type=Path),
    default=None,
    help="Trace JSONL file (AO_GH_TRACE_FILE) to score.",
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
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=DEFAULT_OUT,
    show_default=True,
    help="Directory for scorecard-{scenarioId}-{timestamp}.json.",
)
@click.option(
    "--agent-trace",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The agents' own trace, split from the orchestrator's in the insights (default:"
    " gh-trace-agents-* beside --trace, when there is one).",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the artifact JSON instead of the console scorecard (still writes the file).",
)
def command(
    *,
    trace: Path | None,
    agent_trace: Path | None,
    example: bool,
    warmup_end: str | None,
    window_end: str | None,
    out_dir: Path,
    as_json: bool,
) -> None:
    """Recompute a scorecard from an existing trace file."""
    if example and trace is not None:
        raise UsageError("--example and --trace are exclusive; pass one of them")
    if trace is None and not example:
        raise UsageError("--trace is required; pass the trace file to score (or --example)")
    trace_path = example_trace_path() if trace is None else trace
    start_ms = _epoch_ms("--warmup-end", warmup_end)
    end_ms = _epoch_ms("--window-end", window_end)
    if start_ms is not None and end_ms is not None and end_ms < start_ms:
        raise UsageError("--window-end is before --warmup-end; the window would run backwards")
    # the flags are checked; the flow loads now, not for --help (see ghbench.commands)
    from ghbench.artifacts.models import encode_artifact  # noqa: PLC0415
    from ghbench.scorecard import (  # noqa: PLC0415
        SCORECARD_COLUMNS,
        build_scorecard_artifact,
        render_console,
        use_color,
        write_scorecard,
    )
    from ghbench.scorecard.window import resolve_report_window  # noqa: PLC0415
    from ghbench.trace.reader import read_trace  # noqa: PLC0415

    frame = read_trace(trace_path, columns=SCORECARD_COLUMNS)
    report_read_problems(
        frame.skipped_lines,
        frame.warnings,
        trace_path,
        rest="; the artifact's readWarnings lists them",
    )
    try:
        window = resolve_report_window(frame, warmup_end_ms=start_ms, window_end_ms=end_ms)
    except ValueError:
        if warmup_end is not None:
            raise UsageError(
                f"--warmup-end {warmup_end} is after the trace's last row; nothing would be"
                " scored, so pick an earlier time"
            ) from None
        raise UsageError(
            f"--window-end {window_end} is before the trace's first row; nothing would be"
            " scored, so pick a later time"
        ) from None
    if window is None:
        raise TraceError(
            f"trace file {trace_path} has only benchmark-control rows; there is nothing to"
            " score (pass --warmup-end and --window-end to score an empty window)"
        )
    agents = _agent_trace(agent_trace, trace)
    agent_frame = None
    if agents is not None:
        agent_frame = read_trace(agents, columns=SCORECARD_COLUMNS)
        report_read_problems(agent_frame.skipped_lines, agent_frame.warnings, agents)
        click.echo(f"agents' trace: {agents}", err=True)
    artifact = build_scorecard_artifact(
        frame,
        window_start_ms=window.start_ms,
        window_end_ms=window.end_ms,
        warmup_end_ms=start_ms,
        scenario_id=report_scenario_id(trace_path),
        measured_at=SystemClock().now(),
        trace_path=str(trace_path),
        agent_frame=agent_frame,
        agent_trace_path=None if agents is None else str(agents),
    )
    out_path = write_scorecard(artifact, _ensure_dir(out_dir))
    if as_json:
        sys.stdout.buffer.write(encode_artifact(artifact))
        sys.stdout.flush()
        click.echo(f"scorecard: {out_path}", err=True)
        return
    color = use_color(sys.stdout.isatty(), os.environ)
    paths = {"Trace": str(trace_path), "Scorecard": str(out_path)}
    click.echo(render_console(artifact, color=color, paths=paths), nl=False, color=color)


def _agent_trace(given: Path | None, trace: Path | None) -> Path | None:
    """``--agent-trace``, else the agents' trace beside ``--trace`` if the run left one."""
    from ghbench.trace.files import agent_trace_path  # noqa: PLC0415

    if given is not None:
        if not given.is_file():
            raise UsageError(f"--agent-trace {given}: no such file; pass the agents' trace")
        return given
    if trace is None:
        return None
    beside = agent_trace_path(trace)
    return beside if beside != trace and beside.is_file() and beside.stat().st_size else None


def _ensure_dir(out_dir: Path) -> Path:

    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ArtifactError(
            f"--out {out_dir}: cannot create the directory: {exc.strerror}"
        ) from None
    return out_dir
