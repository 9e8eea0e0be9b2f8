"""``one_blas_thread``: one OpenBLAS thread inside the block unless the user named a
count, and the environment as it was after, however the block ends."""

from __future__ import annotations

import os

import pytest

from ghbench.blas import one_blas_thread

VARIABLE = "OPENBLAS_NUM_THREADS"


def test_one_thread_inside_and_nothing_left_after(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    with one_blas_thread():
        assert os.environ[VARIABLE] == "1"
    assert VARIABLE not in os.environ  # a process started later does not inherit it


def test_the_users_count_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(VARIABLE, "4")
    with one_blas_thread():
        assert os.environ[VARIABLE] == "4"
    assert os.environ[VARIABLE] == "4"


def test_a_failing_block_leaves_nothing_either(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    with pytest.raises(RuntimeError), one_blas_thread():
        raise RuntimeError("the import failed")
    assert VARIABLE not in os.environ
