"""Which repos a real-time cell runs on: ghbench's own on the emulator (named for the
topology and scale; S3's fresh ones for each run), the first of the user's ``--repos``
on GitHub; and what a cell's setup keeps of its sessions. Nothing is started: a backend
is only asked whether it makes repos."""

from __future__ import annotations

from pathlib import Path

import pytest

from ghbench.artifacts.models import Session
from ghbench.clock import VirtualClock
from ghbench.errors import UsageError
from ghbench.github.backend import Backend, make_backend
from ghbench.matrix.cell_setup import EMULATOR_OWNER, CellSetup, cell_repos_on
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import RunSpec

STAMP = 1_777_000_000


def _backend(name: str, tmp_path: Path) -> Backend:
    return make_backend(name, env={}, clock=VirtualClock(0.0), state_dir=tmp_path)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cell", "repos"),
    [
        (Cell("S2", "T1", 5), ("t1-5-r1",)),
        (Cell("S2", "T2", 12), ("t2-12-r1", "t2-12-r2", "t2-12-r3")),  # N/5, rounded up
        (Cell("S2", "T2", 5), ("t2-5-r1", "t2-5-r2")),  # at least 2
        # sessions that appear in the window need repos of their own, new each run
        (Cell("S3", "T1", 1), (f"s3-{STAMP}-t1-1-r1",)),
    ],
)
def test_on_the_emulator_the_cell_gets_repos_of_its_own(
    tmp_path: Path, cell: Cell, repos: tuple[str, ...]
) -> None:
    spec = RunSpec(backend="emulator", cell=cell, repos=("o/ignored",))
    found = cell_repos_on(spec, _backend("emulator", tmp_path), STAMP)
    assert found == tuple(f"{EMULATOR_OWNER}/{r}" for r in repos)


def test_on_github_the_cell_takes_the_first_of_the_users_repos(tmp_path: Path) -> None:
    github = _backend("github", tmp_path)
    pool = ("o/a", "o/b", "o/c")
    spread = RunSpec(cell=Cell("S3", "T2", 10), repos=pool)
    assert cell_repos_on(spread, github, STAMP) == ("o/a", "o/b")  # S3 too: the user's own
    assert cell_repos_on(RunSpec(cell=Cell("S2", "T1", 5), repos=pool), github, STAMP) == ("o/a",)
    with pytest.raises(UsageError, match="--repos: cell S2-T2-15 spreads 15 sessions over 3"):
        cell_repos_on(RunSpec(cell=Cell("S2", "T2", 15), repos=pool[:2]), github, STAMP)
    with pytest.raises(UsageError, match="--repos: 'nope' is not owner/name"):
        cell_repos_on(RunSpec(repos=("nope",)), github, STAMP)


def test_the_setup_knows_the_repo_of_each_session() -> None:
    setup = CellSetup(("o/a", "o/b"), {"o/a": 1, "o/b": 1}, [])
    setup.add("o/b", Session(session_id="ta-2", issue=1, pr_number=4))
    setup.add("o/a", Session(session_id="ta-1", issue=1, pr_number=3))
    assert [s.session_id for s in setup.sessions] == ["ta-2", "ta-1"]
    assert setup.session_repos == {"ta-2": "o/b", "ta-1": "o/a"}
