"""An output directory: refused when it cannot be written, left as it was when it can,
and held by one run at a time."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from ghbench.artifacts.outdir import OUT_LOCK, check_out_dir, held_out_dir
from ghbench.errors import UsageError
from ghbench.locks import LockHeld


def test_a_writable_out_is_left_as_it_was(tmp_path: Path) -> None:
    check_out_dir(tmp_path / "new" / "deeper")
    check_out_dir(tmp_path)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(UsageError, match="is a file"):
        (tmp_path / "f").write_text("")
        check_out_dir(tmp_path / "f")


def test_one_run_holds_a_directory_and_leaves_nothing_it_made(tmp_path: Path) -> None:
    out = tmp_path / "made" / "out"
    with held_out_dir(out):
        assert (out / OUT_LOCK).read_text().split() == [str(os.getpid())]
        with pytest.raises(LockHeld, match=r"--out .* is in use by another ghbench run"):
            held_out_dir(out).__enter__()
    assert not (tmp_path / "made").exists()
