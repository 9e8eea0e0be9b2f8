"""One run per output directory: ``--out`` is locked while a run uses it."""

from __future__ import annotations

from pathlib import Path

import click

from ghbench.errors import GhbenchError, UsageError
from ghbench.locks import HeldLock, LockHeld, hold_lock

__all__ = ["OUT_LOCK", "hold_out"]

OUT_LOCK = "ghbench.lock"  # in --out: the pid of the run using it


def hold_out(out_dir: Path, flag: str = "--out") -> None:
    """One run per output directory: the run's lock on ``OUT/ghbench.lock`` (naming its
    pid), held until the command ends; a second run is refused, naming the first's
    pid, and a dead run's lock is taken over. Taken after the flags are checked and
    before anything is written into ``out_dir``."""
    click.get_current_context().with_resource(_lock_out(out_dir, flag))


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
