"""``ghbench lab``: read a recorded trace (with the agents' trace beside it), tabulate
it under each choice of policies (``analysis.lab``), write the table as HTML and as
Markdown beside each other under ``--out``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ghbench.analysis.lab import DEFAULT_LIMITS, LAB_CHOICES, LabTable, calls_of, lab_table
from ghbench.analysis.lab_render import lab_markdown, lab_text
from ghbench.artifacts.io import unique_path, write_new
from ghbench.budgets import Budget
from ghbench.errors import UsageError
from ghbench.pages.lab_page import lab_page
from ghbench.policies.spec import Policies, parse_policies
from ghbench.trace.files import agents_beside
from ghbench.trace.reader import read_rows

__all__ = ["LabResult", "lab_choices", "run_lab"]


@dataclass(frozen=True)
class LabResult:
    table: LabTable
    page_path: Path | None
    markdown_path: Path | None

    def text(self) -> str:
        """The table as text, then where its page and Markdown were written."""
        written = (("Report", self.page_path), ("Markdown", self.markdown_path))
        where = "".join(f"{label}: {path}\n" for label, path in written if path is not None)
        return lab_text(self.table.json()) + where


def lab_choices(text: str) -> tuple[Policies, ...]:
    """``--policies``: all (the lab's every choice), or one choice beside none."""
    if text.strip() == "all":
        return LAB_CHOICES
    chosen = parse_policies(text)
    return (Policies(),) if not chosen else (Policies(), chosen)


def run_lab(
    trace: Path,
    *,
    policies: str,
    sessions: int | None,
    out_dir: Path | None,
    budget: Budget | None = None,
) -> LabResult:
    """The lab's table for ``trace``, on ``budget``'s hourly limits (None: a user's
    token); its page and Markdown under ``out_dir`` (None: nothing written)."""
    choices = lab_choices(policies)
    if not trace.is_file():
        raise UsageError(f"--trace {trace}: no such file")
    rows = read_rows(trace)
    beside = agents_beside(trace)
    if beside is not None:
        rows = sorted([*rows, *read_rows(beside)], key=lambda r: r.timestamp)
    recording = calls_of(rows)
    if not recording.calls or recording.span_s <= 0:
        raise UsageError(f"--trace {trace}: no priced calls over a span of time to tabulate")
    limits = DEFAULT_LIMITS
    if budget is not None:
        hourly = budget.limits()
        limits = {"graphql": float(hourly.graphql), "core": float(hourly.core)}
    table = lab_table(
        recording, trace=str(trace), sessions=sessions, choices=choices, limits=limits
    )
    if out_dir is None:
        return LabResult(table, None, None)
    out_dir.mkdir(parents=True, exist_ok=True)
    doc = table.json()
    stem = f"lab-{trace.stem}"
    page = write_new(unique_path(out_dir, stem, ".html"), lab_page(doc).encode())
    markdown = write_new(unique_path(out_dir, stem, ".md"), lab_markdown(doc).encode())
    return LabResult(table, page, markdown)
