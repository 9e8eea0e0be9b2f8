"""Atomic, never-overwriting file writes for every artifact ghbench produces.

A reader never sees a half-written file: bytes go to a temporary file in the
same directory, are fsynced, and are then hard-linked into place. ``link`` fails
when the target exists, so an existing artifact or trace is never replaced.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from ghbench.errors import ArtifactError, make_dir

__all__ = ["replace_atomic", "unique_path", "write_new"]


def _write_temp(directory: Path, data: bytes) -> Path:
    fd, tmp = tempfile.mkstemp(prefix=".ghbench-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_new(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` atomically; refuse if ``path`` already exists."""
    path = Path(path)
    make_dir(
        path.parent, lambda why: ArtifactError(f"cannot create directory {path.parent}: {why}")
    )
    if path.exists():
        raise ArtifactError(f"{path} already exists; choose another --out or move the old file")
    try:
        tmp = _write_temp(path.parent, data)
    except OSError as exc:
        raise ArtifactError(f"cannot write {path}: {exc.strerror}") from exc
    try:
        os.link(tmp, path)
    except FileExistsError as exc:
        raise ArtifactError(
            f"{path} already exists; choose another --out or move the old file"
        ) from exc
    except OSError as exc:
        raise ArtifactError(f"cannot write {path}: {exc.strerror}") from exc
    finally:
        tmp.unlink(missing_ok=True)
    _fsync_dir(path.parent)
    return path


def replace_atomic(path: Path, data: bytes) -> Path:
    """Atomically replace ``path`` (for files ghbench owns and rewrites, like baseline.md)."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = _write_temp(path.parent, data)
        os.replace(tmp, path)
    except OSError as exc:
        raise ArtifactError(f"cannot write {path}: {exc.strerror}") from exc
    _fsync_dir(path.parent)
    return path


def unique_path(directory: Path, stem: str, suffix: str) -> Path:
    """``directory/stem{suffix}``, or ``stem-2{suffix}``, ``stem-3``… if taken."""
    candidate = Path(directory) / f"{stem}{suffix}"
    n = 2
    while candidate.exists():
        candidate = Path(directory) / f"{stem}-{n}{suffix}"
        n += 1
    return candidate
