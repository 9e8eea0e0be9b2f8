"""ghbench.matrix.topology: a real-time cell's repos and how its sessions spread."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.errors import UsageError
from ghbench.matrix.topology import cell_repos, sessions_per_repo
from ghbench.runspec.cells import Cell

POOL = [f"acme/r{i}" for i in range(1, 9)]


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(st.integers(1, 500), st.integers(1, 40))
def test_every_session_lands_once_and_repos_differ_by_at_most_one(scale: int, n: int) -> None:
    counts = sessions_per_repo(scale, [f"o/r{i}" for i in range(n)])
    assert sum(counts.values()) == scale
    assert max(counts.values()) - min(counts.values()) <= 1
    assert list(counts.values()) == sorted(counts.values(), reverse=True)  # remainders first


def test_t1_takes_one_repo_and_t2_one_per_five_sessions_at_least_two() -> None:
    assert cell_repos(Cell("S1", "T1", 10), POOL) == ("acme/r1",)
    assert cell_repos(Cell("S1", "T2", 5), POOL) == ("acme/r1", "acme/r2")
    assert cell_repos(Cell("S1", "T2", 21), POOL) == tuple(POOL[:5])


def test_too_few_repos_or_one_not_owner_name_is_a_usage_error_naming_the_flag() -> None:
    with pytest.raises(UsageError, match=r"^--repos: cell S1-T2-40 .* pass at least 8"):
        cell_repos(Cell("S1", "T2", 40), POOL[:3])
    with pytest.raises(UsageError, match=r"^--repos: 'acme' is not owner/name"):
        cell_repos(Cell("S1", "T1", 1), ["acme"])
