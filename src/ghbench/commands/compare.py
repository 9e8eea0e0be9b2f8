"""``ghbench compare BASELINE CANDIDATE``: before and after, with CI thresholds.

``--format bmf|gab`` prints the candidate's figures for a trend tracker; ``--html FILE``
also writes the comparison as one page (``ghbench.pages``).

Exit codes: 0 compared (and every ``--fail`` threshold held), 3 a threshold failed,
1 a scorecard is missing or unreadable, 2 bad usage (a malformed threshold, an unknown
metric, scorecards of different cells).
"""

from __future__ import annotations

from pathlib import Path

import click

from ghbench.commands.comparison import print_report
from ghbench.commands.history import HISTORY_FORMATS, echo_history, resolve_format
from ghbench.commands.options import flag_options, path_option
from ghbench.errors import UsageError

__all__ = ["command"]


@click.command(name="compare")
@click.argument("baseline", type=click.Path(path_type=Path))
@click.argument("candidate", type=click.Path(path_type=Path))
@click.option(
    "--markdown", is_flag=True, help="Print a Markdown table (a PR comment, a job summary)."
)
@path_option(
    "--html",
    "html_path",
    help="Also write the comparison as one self-contained HTML page here (a new file).",
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
    fmt: str | None,
    html_path: Path | None,
    allow_different_cells: bool,
) -> int:
    """Compare CANDIDATE with BASELINE: each a scorecard JSON or a directory of runs."""
    # the flow loads when the command runs, not for --help (see ghbench.commands)
    from ghbench.analysis.compare_render import comparison_report  # noqa: PLC0415
    from ghbench.analysis.load import load_scorecards  # noqa: PLC0415
    from ghbench.analysis.thresholds import parse_threshold  # noqa: PLC0415

    output = resolve_format(fmt, "text", json=as_json, markdown=markdown)
    if html_path is not None and html_path.exists():
        raise UsageError(f"--html {html_path}: the file exists; remove it or name another")
    thresholds = [parse_threshold(text) for text in fail]
    report = comparison_report(
        load_scorecards(baseline, "baseline"),
        load_scorecards(candidate, "candidate"),
        thresholds,
        allow_different_cells=allow_different_cells,
    )
    doc = report.document
    saved: tuple[Path, ...] = ()
    if html_path is not None:
        from ghbench.artifacts.io import write_new  # noqa: PLC0415
        from ghbench.pages.compare_page import compare_page  # noqa: PLC0415

        saved = (write_new(html_path, compare_page(doc).encode()),)
    if output in HISTORY_FORMATS:
        from ghbench.pages.history import compare_measurements  # noqa: PLC0415

        echo_history(compare_measurements(doc), output)
        return print_report(report, None, saved)
    return print_report(report, "console" if output == "text" else output, saved)
