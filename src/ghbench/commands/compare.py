"""``ghbench compare BASELINE CANDIDATE``: before and after, with CI thresholds.

Exit codes: 0 compared (and every ``--fail`` threshold held), 3 a threshold failed,
1 a scorecard is missing or unreadable, 2 bad usage (a malformed threshold, an unknown
metric, scorecards of different cells).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ghbench.errors import UsageError

if TYPE_CHECKING:
    from ghbench.analysis.compare import Run
    from ghbench.analysis.thresholds import Threshold

__all__ = ["THRESHOLD_FAILED", "command", "report_comparison"]

THRESHOLD_FAILED = 3


@click.command(name="compare")
@click.argument("baseline", type=click.Path(path_type=Path))
@click.argument("candidate", type=click.Path(path_type=Path))
@click.option(
    "--fail",
    "fail",
    multiple=True,
    metavar="EXPR",
    help="Fail (exit 3) when EXPR holds: 'graphqlPointsPerHr>+10%' (change from the"
    " baseline) or 'opaqueCallPct>0.05' (the candidate's value). Repeatable.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as a JSON object.")
@click.option(
    "--markdown", is_flag=True, help="Print a Markdown table (a PR comment, a job summary)."
)
@click.option(
    "--allow-different-cells",
    is_flag=True,
    help="Compare scorecards of different scenarios, topologies, sessions or windows.",
)
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
    from ghbench.analysis.load import load_scorecards  # noqa: PLC0415
    from ghbench.analysis.thresholds import parse_threshold  # noqa: PLC0415

    if as_json and markdown:
        raise UsageError("--json and --markdown: choose one output")
    thresholds = [parse_threshold(text) for text in fail]
    return report_comparison(
        load_scorecards(baseline, "baseline"),
        load_scorecards(candidate, "candidate"),
        thresholds,
        output="json" if as_json else "markdown" if markdown else "console",
        allow_different_cells=allow_different_cells,
    )


def report_comparison(
    baseline: Sequence[Run],
    candidate: Sequence[Run],
    thresholds: Sequence[Threshold],
    *,
    output: str = "console",
    allow_different_cells: bool = False,
    save_to: Path | None = None,
) -> int:
    """Compare, check the thresholds, print ``output`` (console, json or markdown), and
    return the exit code: 3 when a threshold failed. With ``save_to``, the JSON and the
    Markdown are also written there (``compare.json``, ``compare.md``, never over a file)."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.compare import compare_runs  # noqa: PLC0415
    from ghbench.analysis.compare_render import (  # noqa: PLC0415
        compare_json,
        console_text,
        markdown_text,
        summary_line,
    )
    from ghbench.analysis.thresholds import check_metric, evaluate  # noqa: PLC0415
    from ghbench.artifacts.io import unique_path, write_new  # noqa: PLC0415
    from ghbench.artifacts.jsontext import strict_json  # noqa: PLC0415

    comparison = compare_runs(baseline, candidate, allow_different_cells=allow_different_cells)
    results = [evaluate(t, check_metric(t, comparison)) for t in thresholds]
    as_json = strict_json(compare_json(comparison, results)) + "\n"
    texts = {
        "json": as_json,
        "markdown": markdown_text(comparison, results),
        "console": console_text(comparison, results),
    }
    click.echo(texts[output], nl=False)
    if save_to is not None:
        for ext, key in ((".json", "json"), (".md", "markdown")):
            path = write_new(unique_path(save_to, "compare", ext), texts[key].encode())
            click.echo(f"comparison saved: {path}", err=True)
    if any(r.failed for r in results):
        click.echo(f"compare: {summary_line(results)}", err=True)
        return THRESHOLD_FAILED
    return 0
