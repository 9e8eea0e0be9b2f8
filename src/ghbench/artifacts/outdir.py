"""An output directory (``--out``): refused before any work when it cannot be written,
and held by one run at a time (``ghbench.locks``, ``OUT/ghbench.lock`` naming the pid)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ghbench.errors import GhbenchError, UsageError
from ghbench.locks import HeldLock, LockHeld, hold_lock

__all__ = ["OUT_LOCK", "check_out_dir", "held_out_dir"]

OUT_LOCK = "ghbench.lock"  # in --out: the pid of the run using it


def check_out_dir(path: Path, flag: str = "--out") -> None:
    """UsageError unless ``path`` is, or can be made, a directory this process can write
    in: not a file, not under one, not under /proc or /sys. It is tried (a file made in
    it, or its first missing directory made) and left as it was."""
    target = path.absolute()
    existing = target
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        where = "is a file" if existing == target else f"is under {existing}, a file"
        raise UsageError(f"{flag} {path}: {where}, not a directory; give a directory")
    try:
        if existing == target:
            fd, probe = tempfile.mkstemp(dir=target, prefix=".ghbench-probe-")
            os.close(fd)
            os.unlink(probe)
        else:
            first = existing / target.relative_to(existing).parts[0]
            first.mkdir()
            first.rmdir()
    except OSError as exc:
        raise UsageError(
            f"{flag} {path}: cannot write there ({exc.strerror or exc}); give a directory"
            " you can write"
        ) from exc


@contextmanager
def held_out_dir(out_dir: Path, flag: str = "--out") -> Iterator[None]:
    """One run per output directory: the run's lock on ``OUT/ghbench.lock`` (naming its
    pid), held while the context lasts; a second run is refused, naming the first's
    pid, and a dead run's lock is taken over. When it ends the lock file goes, and so
    does ``out_dir`` if this run made it and left nothing in it (a run refused later,
    by a check of the token or the setup, leaves nothing behind)."""
    out_dir = out_dir.absolute()
    made = [d for d in (out_dir, *out_dir.parents) if not d.exists()]  # deepest first
    lock = _lock_out(out_dir, flag)
    try:
        yield
    finally:
        lock.release(remove=True)
        for directory in made:
            try:
                directory.rmdir()  # only when empty
            except OSError:
                break


def _lock_out(out_dir: Path, flag: str) -> HeldLock:
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        return hold_lock(
            out_dir / OUT_LOCK,
            f"{flag} {out_dir} is in use by another ghbench run; wait for it to end or"
            f" give another {flag}",
        )
    except LockHeld:
        raise
    except (OSError, GhbenchError) as exc:
        cause = exc if isinstance(exc, OSError) else exc.__cause__
        why = cause.strerror if isinstance(cause, OSError) else str(exc)
        raise UsageError(
            f"{flag} {out_dir}: cannot write there ({why}); give a directory you can write"
        ) from exc
