"""A diff's totals (pure)."""

from __future__ import annotations

from ghbench.emulator.state.trees import DiffStat, FileChange, diff_stat


def test_totals_count_every_file_and_line() -> None:
    changes = [
        FileChange(path="a.py", status="added", sha="1" * 40, additions=3, deletions=0),
        FileChange(path="b.py", status="modified", sha="2" * 40, additions=2, deletions=5),
        FileChange(path="c.py", status="removed", sha="3" * 40, additions=0, deletions=7),
    ]
    assert diff_stat(changes) == DiffStat(changed_files=3, additions=5, deletions=12)
    assert diff_stat([]) == DiffStat(0, 0, 0)
