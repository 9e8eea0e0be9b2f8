"""The matrix's source of truth: one JSON file per run of a cell, never overwritten.

A matrix directory holds ``runs/{cell}/run-{NNN}.json``. Each file is written once
(``write_new``), so re-running a cell adds a run and never loses an earlier one;
``baseline.md`` and ``baseline.json`` are rendered from all of them. Paths inside a
run are relative to the matrix directory, so a directory can be moved, uploaded as a
CI artifact and merged. A run keeps its scorecard's ``scorecard`` and
``rateLimitSnapshots`` objects typed, as the scorecard artifact's model reads them.

Beside the runs, ``capacity/{scenario}-{topology}.json``: the capacity engine's answer
for each series (``ghbench capacity --json``'s object, ``ghbench.matrix.capacity``),
which ``baseline.md``'s "Sessions that fit" shows.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Literal

import msgspec

from ghbench.artifacts.io import write_new
from ghbench.artifacts.models import RateLimitSnapshots, RunWarning, Scorecard
from ghbench.errors import ArtifactError

__all__ = [
    "CAPACITY_DIR",
    "RUN_SCHEMA_VERSION",
    "BudgetRecord",
    "MatrixRun",
    "RunStatus",
    "SeriesCapacity",
    "capacity_path",
    "load_capacities",
    "load_run",
    "load_runs",
    "run_bytes",
    "save_run",
]

# Format history of a run (``runs/{cell}/run-NNN.json``):
#   1: first version.
#   2: ``warnings`` (the scorecard's: the rate limits that answered first) and
#      ``budgets`` (each budget the capacity engine judges a count by, at the run's
#      scale: ``ghbench.analysis.capacity``); version 1 records read without them.
RUN_SCHEMA_VERSION = 2
_READS = frozenset({1, RUN_SCHEMA_VERSION})

RunStatus = Literal["ok", "failed", "refused"]
_RUN_FILE = re.compile(r"^run-(\d+)\.json$")


class BudgetRecord(msgspec.Struct, kw_only=True, rename="camel"):
    """One budget of a run as the capacity engine reads it (``BudgetUse``)."""

    name: str
    used: float
    limit: float


class MatrixRun(msgspec.Struct, kw_only=True, rename="camel"):
    """One run of one matrix cell, as ``baseline.md`` shows it."""

    schema_version: int = RUN_SCHEMA_VERSION
    cell: str
    run: int = 0  # 1-based within the cell; assigned by ``save_run``
    status: RunStatus
    reason: str | None = None  # why a run failed or was refused
    backend: str  # simulated | emulator | github
    driver: str  # workload | ao
    operator: str
    matrix_run: str  # id of the ``matrix run`` invocation that made it
    started_at: str  # ISO, UTC
    ended_at: str
    sessions: int
    repos: list[str] = msgspec.field(default_factory=list)
    warmup_s: float = 0.0
    duration_s: float = 0.0
    seed: int | None = None
    trace: str | None = None  # relative to the matrix directory
    scorecard_path: str | None = None
    rate_limit_snapshots: RateLimitSnapshots | None = None  # the scorecard's before/after
    scorecard: Scorecard | None = None  # the scorecard artifact's ``scorecard`` object
    summary_text: str | None = None
    analysis_text: str | None = None
    rows: int | None = None
    attributed_rows: int | None = None
    notes: list[str] = msgspec.field(default_factory=list)
    warnings: list[RunWarning] = msgspec.field(default_factory=list)
    budgets: list[BudgetRecord] = msgspec.field(default_factory=list)

    @property
    def attribution_missing(self) -> bool:
        """Rows exist but none carries a ``sessionId``."""
        return bool(self.rows) and not self.attributed_rows


_encoder = msgspec.json.Encoder(order="sorted")


def run_bytes(run: MatrixRun) -> bytes:
    return msgspec.json.format(_encoder.encode(run), indent=2) + b"\n"


def _next_number(cell_dir: Path) -> int:
    taken = [int(m.group(1)) for p in cell_dir.glob("run-*.json") if (m := _RUN_FILE.match(p.name))]
    return max(taken, default=0) + 1


def save_run(matrix_dir: Path, run: MatrixRun) -> tuple[MatrixRun, Path]:
    """Write ``run`` as the cell's next run; returns it numbered, and its path."""
    cell_dir = Path(matrix_dir) / "runs" / run.cell
    while True:
        number = _next_number(cell_dir)
        numbered = msgspec.structs.replace(run, run=number)
        path = cell_dir / f"run-{number:03d}.json"
        try:
            write_new(path, run_bytes(numbered))
        except ArtifactError:
            if path.exists():  # another writer took the number first; take the next
                continue
            raise
        return numbered, path


_decoder = msgspec.json.Decoder(MatrixRun)


def load_run(path: Path) -> MatrixRun:
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ArtifactError(f"cannot read {path}: {exc.strerror}") from exc
    try:
        head = msgspec.json.decode(raw)
    except msgspec.DecodeError as exc:
        raise ArtifactError(f"{path} is not valid JSON ({exc}); move it out of runs/") from exc
    version = head.get("schemaVersion") if isinstance(head, dict) else None
    if version not in _READS or isinstance(version, bool):
        raise ArtifactError(
            f"{path}: run record schemaVersion {version!r} is not supported"
            f" (this ghbench reads 1 and {RUN_SCHEMA_VERSION}); upgrade ghbench"
        )
    try:
        return _decoder.decode(raw)
    except msgspec.ValidationError as exc:
        raise ArtifactError(f"{path}: invalid run record ({exc})") from exc


def load_runs(matrix_dir: Path) -> list[MatrixRun]:
    """Every run under ``matrix_dir/runs``, by cell id then run number."""
    root = Path(matrix_dir) / "runs"
    if not root.is_dir():
        return []
    runs = [
        load_run(p)
        for cell_dir in sorted(root.iterdir())
        if cell_dir.is_dir()
        for p in sorted(cell_dir.glob("run-*.json"))
        if _RUN_FILE.match(p.name)
    ]
    runs.sort(key=lambda r: (r.cell, r.run))
    return runs


CAPACITY_DIR = "capacity"


class CapacityCell(msgspec.Struct, kw_only=True, rename="camel"):
    scenario: str
    topology: str
    profile: str
    agents: str | None = None
    seed: int
    warmup_seconds: float
    window_seconds: float


class SeriesCapacity(msgspec.Struct, kw_only=True, rename="camel"):
    """A series' answer as ``ghbench capacity --json`` gives it (the keys the baseline
    shows; the file holds the whole object)."""

    sessions: int
    limiting_resource: str
    budget_fraction: float
    reached_max: bool
    cell: CapacityCell
    poll_ceiling_seconds: float
    command: str  # the ``ghbench capacity`` run that gives the same answer


def capacity_path(matrix_dir: Path, scenario: str, topology: str) -> Path:
    return Path(matrix_dir) / CAPACITY_DIR / f"{scenario}-{topology}.json"


def load_capacities(matrix_dir: Path) -> dict[tuple[str, str], SeriesCapacity]:
    """Every series' capacity under ``matrix_dir/capacity``, by (scenario, topology); a
    file that does not read is left out (the next run of the matrix writes it again)."""
    root = Path(matrix_dir) / CAPACITY_DIR
    out: dict[tuple[str, str], SeriesCapacity] = {}
    for path in sorted(root.glob("*.json")) if root.is_dir() else ():
        try:
            found = msgspec.json.decode(path.read_bytes(), type=SeriesCapacity)
        except (OSError, msgspec.DecodeError):
            continue
        out[(found.cell.scenario, found.cell.topology)] = found
    return out
