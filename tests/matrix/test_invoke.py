"""One ``matrix run``'s plan: a fresh one of the selected cells, or the stored one that
``--resume`` continues, written only once the flags are checked and the directory held."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from ghbench.clock import VirtualClock
from ghbench.errors import UsageError
from ghbench.matrix.invoke import start_plan
from ghbench.matrix.state import STATE_FILE, load_plan
from ghbench.runspec.cells import Cell
from ghbench.runspec.spec import Duration, RunSpec

CLOCK = VirtualClock(1_776_416_700.0)


def test_a_fresh_plan_is_written_after_the_directory_is_held(tmp_path: Path) -> None:
    held: list[Path] = []
    spec = RunSpec(backend="emulator", out_dir=tmp_path)

    def hold(out: Path) -> None:
        assert not (out / STATE_FILE).exists()
        held.append(out)

    start = start_plan(
        spec, set(), cells=lambda: [Cell("S2", "T1", 1)], env={}, clock=CLOCK, hold=hold
    )
    assert held == [tmp_path] and start.note is None
    assert start.plan.cells == ["S2-T1-1"]
    assert start.plan.run.poll_interval == Duration(1.0, "1s")  # the emulator answers at once
    assert load_plan(tmp_path) == start.plan


def test_a_cell_that_cannot_have_its_repos_is_refused_before_anything(tmp_path: Path) -> None:
    spec = RunSpec(backend="github", repos=("o/a",), out_dir=tmp_path)
    with pytest.raises(UsageError, match="--repos: cell S2-T2-10"):
        start_plan(
            spec,
            set(),
            cells=lambda: [Cell("S2", "T2", 10)],
            env={},
            clock=CLOCK,
            hold=lambda out: pytest.fail("held before the flags were checked"),
        )
    assert not (tmp_path / STATE_FILE).exists()


def test_resume_continues_the_stored_plan_and_says_so(tmp_path: Path) -> None:
    first = RunSpec(backend="simulated", seed=3, out_dir=tmp_path)
    start_plan(
        first, set(), cells=lambda: [Cell("S2", "T1", 1)], env={}, clock=CLOCK, hold=lambda _: None
    )
    again = msgspec.structs.replace(first, seed=0)  # untyped: the stored seed wins
    resumed = start_plan(again, set(), cells=None, env={}, clock=CLOCK, hold=lambda _: None)
    assert resumed.plan.run.seed == 3
    assert resumed.note is not None and "0 of 1 cell(s) done; backend simulated" in resumed.note
    with pytest.raises(UsageError, match="--seed 0 conflicts with the stored 3"):
        start_plan(again, {"seed"}, cells=None, env={}, clock=CLOCK, hold=lambda _: None)
