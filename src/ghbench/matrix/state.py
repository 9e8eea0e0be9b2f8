"""The plan of one ``matrix run`` invocation, kept for ``--resume``.

``matrix-state.json`` records which cells the invocation meant to run, in order, and
with which backend, driver, seed and scales. Progress is not stored here: a cell is
done when a run record of this invocation (same ``matrixRun`` id) says ``ok``, so a
crash between writing a record and updating any index loses nothing.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from ghbench.artifacts.io import replace_atomic
from ghbench.errors import ArtifactError, UsageError

__all__ = ["STATE_FILE", "STATE_SCHEMA_VERSION", "MatrixPlan", "load_plan", "save_plan"]

STATE_FILE = "matrix-state.json"
# Format history: 1: first version.
STATE_SCHEMA_VERSION = 1


class MatrixPlan(msgspec.Struct, kw_only=True, rename="camel", frozen=True):
    schema_version: int = STATE_SCHEMA_VERSION
    matrix_run: str
    backend: str
    driver: str
    seed: int
    scales: list[int]
    cells: list[str]  # ids, in run order
    session_ids: bool = False
    repos: list[str] = msgspec.field(default_factory=list)


def save_plan(matrix_dir: Path, plan: MatrixPlan) -> Path:
    data = msgspec.json.format(msgspec.json.encode(plan), indent=2) + b"\n"
    return replace_atomic(Path(matrix_dir) / STATE_FILE, data)


def load_plan(matrix_dir: Path) -> MatrixPlan:
    path = Path(matrix_dir) / STATE_FILE
    if not path.exists():
        raise UsageError(
            f"--resume: {path} does not exist; start the matrix without --resume first"
        )
    try:
        raw = msgspec.json.decode(path.read_bytes())
    except (OSError, msgspec.DecodeError) as exc:
        raise ArtifactError(f"{path} is unreadable ({exc}); remove it and start again") from exc
    version = raw.get("schemaVersion") if isinstance(raw, dict) else None
    if version != STATE_SCHEMA_VERSION:
        raise ArtifactError(
            f"{path}: schemaVersion {version!r} is not supported (expected"
            f" {STATE_SCHEMA_VERSION}); upgrade ghbench or start a new matrix directory"
        )
    try:
        return msgspec.convert(raw, MatrixPlan)
    except msgspec.ValidationError as exc:
        raise ArtifactError(f"{path}: invalid matrix state ({exc})") from exc
