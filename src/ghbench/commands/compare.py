"""``ghbench compare BASELINE CANDIDATE``: before and after, with CI thresholds.

Exit codes: 0 compared (and every ``--fail`` threshold held), 3 a threshold failed,
1 a scorecard is missing or unreadable, 2 bad usage (a malformed threshold, an unknown
metric, scorecards of different cells).
"""

from __future__ import annotations

from pathlib import Path

import click

from ghbench.commands.comparison import print_report
from ghbench.commands.options import flag_options
from ghbench.errors import UsageError

__all__ = ["command"]


@click.command(name="compare")
@click.argument("baseline", type=click.Path(path_type=Path))
@click.argument("candidate", type=click.Path(path_type=Path))
@click.option(
    "--markdown", is_flag=True, help="Print a Markdown table (a PR comment, a job summary)."
)
@click.option(
    "--allow-different-cells",
    is_flag=True,
    help="Compare scorecards of different scenarios, topologies, sessions or windows.",
)
@flag_options("compare")
def command(  # noqa: PLR0917 - one parameter per flag, as click passes them
    baseline: Path,
    candidate: Path,
    fail: tuple[str, ...],
    as_json: bool,
    markdown: bool,
    allow_different_cells: bool,
) -> int:
    """Compare CANDIDATE with BASELINE: each a scorecard JSON or a directory of runs."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.compare_render import comparison_report  # noqa: PLC0415
    from ghbench.analysis.load import load_scorecards  # noqa: PLC0415
    from ghbench.analysis.thresholds import parse_threshold  # noqa: PLC0415

    if as_json and markdown:
        raise UsageError("--json and --markdown: choose one output")
    thresholds = [parse_threshold(text) for text in fail]
    report = comparison_report(
        load_scorecards(baseline, "baseline"),
        load_scorecards(candidate, "candidate"),
        thresholds,
        allow_different_cells=allow_different_cells,
    )
    return print_report(report, "json" if as_json else "markdown" if markdown else "console")
