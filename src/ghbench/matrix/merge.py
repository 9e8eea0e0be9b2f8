"""``matrix merge``: assemble cell directories (one per CI job) into one ``baseline.md``.

Each source directory is a matrix directory (``runs/``, ``artifacts/``, maybe
``matrix-state.json``). Every run is added to the target as a new run of its
cell, its artifact directory copied alongside and its paths rewritten; a run already
present (same content) is skipped, so merging the same directory twice adds nothing.
Each series' capacity (``capacity/``) is copied when the target has none for it.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

from ghbench.artifacts.io import unique_path, write_new
from ghbench.errors import ArtifactError, UsageError
from ghbench.matrix.runner import write_baseline
from ghbench.matrix.runs import CAPACITY_DIR, MatrixRun, load_runs, run_bytes, save_run
from ghbench.matrix.selection import order_cells
from ghbench.matrix.state import STATE_FILE, MatrixPlan, load_plan, save_plan
from ghbench.runspec.cells import Cell, cell_from_id

__all__ = ["MergeReport", "merge_dirs"]


@dataclass
class MergeReport:
    added: list[str] = field(default_factory=list)  # "S2-T1-1 run 3"
    duplicates: int = 0
    planned: list[Cell] = field(default_factory=list)


def _fingerprint(r: MatrixRun) -> str:
    """Content identity of a run, independent of its number and where its files live."""
    neutral = msgspec.structs.replace(r, run=0, trace=None, scorecard_path=None)
    return hashlib.sha256(run_bytes(neutral)).hexdigest()


def _copy_artifacts(r: MatrixRun, src: Path, dst: Path) -> MatrixRun:
    """Copy the run's artifact directory into ``dst`` and point the run at the copy."""
    if r.trace is None:
        return r
    rel = Path(r.trace)
    if rel.is_absolute() or len(rel.parts) < 2 or rel.parts[0] != "artifacts":
        return r  # written outside the matrix directory: keep the path as it was
    folder = rel.parts[1]
    source = src / "artifacts" / folder
    if not source.is_dir():
        return r
    target = unique_path(dst / "artifacts", folder, "")
    try:
        shutil.copytree(source, target)
    except OSError as exc:
        raise ArtifactError(f"cannot copy {source} to {target}: {exc}") from exc

    def moved(path: str | None) -> str | None:
        if path is None or not path.startswith(f"artifacts/{folder}/"):
            return path
        return f"artifacts/{target.name}/" + path[len(f"artifacts/{folder}/") :]

    return msgspec.structs.replace(r, trace=moved(r.trace), scorecard_path=moved(r.scorecard_path))


def _copy_capacities(src: Path, target: Path) -> None:
    """Each series' capacity (``capacity/{S}-{T}.json``) the target does not have yet."""
    for path in sorted((src / CAPACITY_DIR).glob("*.json")):
        copy = target / CAPACITY_DIR / path.name
        if not copy.exists():
            copy.parent.mkdir(parents=True, exist_ok=True)
            write_new(copy, path.read_bytes())


def merge_dirs(sources: Sequence[Path], target: Path) -> MergeReport:
    """Merge ``sources`` into ``target`` and re-render its outputs."""
    target = Path(target)
    report = MergeReport()
    known = {_fingerprint(r) for r in load_runs(target)}
    planned: set[Cell] = set()
    first_plan: MatrixPlan | None = None
    for given in sources:
        src = Path(given)
        if not (src / "runs").is_dir():
            raise UsageError(f"matrix merge: {src} has no runs/ directory; pass matrix output dirs")
        if src.resolve() == target.resolve():
            raise UsageError(
                f"matrix merge: {src} is the --out directory; merge other dirs into it"
            )
        if (src / STATE_FILE).exists():
            plan = load_plan(src)
            first_plan = first_plan or plan
            planned |= {c for c in map(cell_from_id, plan.cells) if c is not None}
        _copy_capacities(src, target)
        for r in load_runs(src):
            cell = cell_from_id(r.cell)
            if cell is not None:
                planned.add(cell)
            fp = _fingerprint(r)
            if fp in known:
                report.duplicates += 1
                continue
            saved, _ = save_run(target, _copy_artifacts(r, src, target))
            known.add(fp)
            report.added.append(f"{saved.cell} run {saved.run}")
    if (target / STATE_FILE).exists():
        planned |= {c for c in map(cell_from_id, load_plan(target).cells) if c is not None}
    report.planned = order_cells(planned)
    if first_plan is not None or not (target / STATE_FILE).exists():
        base = first_plan or MatrixPlan(matrix_run="merged", scales=[], cells=[])
        save_plan(
            target,
            msgspec.structs.replace(
                base,
                matrix_run="merged",
                cells=[c.id for c in report.planned],
                scales=sorted({c.sessions for c in report.planned}),
            ),
        )
    write_baseline(target, report.planned, chart=True)
    return report
