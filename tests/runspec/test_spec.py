"""The run spec: built once from flags, refused whole when it cannot run."""

from __future__ import annotations

import msgspec
import pytest

from ghbench.errors import UsageError
from ghbench.runspec.cells import Cell
from ghbench.runspec.names import AGENTS_NAMES
from ghbench.runspec.spec import Duration, RunSpec
from ghbench.workload.agents.profiles import AGENT_PROFILE_NAMES
from ghbench.workload.profiles import PROFILES


def test_a_duration_keeps_the_text_it_was_given() -> None:
    assert Duration.parse("--warmup", "2m") == Duration(120.0, "2m")
    assert Duration.of(90) == Duration(90, "1m 30s")
    with pytest.raises(UsageError, match="--tick: must be more than 0"):
        Duration.parse("--tick", "0", allow_zero=False)


def test_a_spec_that_cannot_run_is_refused_naming_the_flag() -> None:
    with pytest.raises(UsageError, match="T2 needs at least 2 sessions"):
        RunSpec(cell=Cell("S2", "T2", 1))
    with pytest.raises(UsageError, match="--duration must be positive"):
        RunSpec(duration=Duration(0, "0s"))
    with pytest.raises(UsageError, match="--duration-scale 2"):
        RunSpec(duration_scale=2.0)
    spec = RunSpec()
    with pytest.raises(UsageError, match="T2 needs"):  # a derived spec is checked too
        msgspec.structs.replace(spec, cell=Cell("S2", "T2", 1))
    with pytest.raises(UsageError, match="no GitHub of its own"):
        _ = RunSpec(backend="simulated").github


def test_the_model_takes_the_config_policy_then_the_tick() -> None:
    base = RunSpec(profile="ao-bench-1e73a505")
    assert base.model_policy() == PROFILES["ao-bench-1e73a505"]
    ticked = msgspec.structs.replace(base, tick=Duration(5.0, "5s"))
    assert ticked.model_policy().tick == 5.0
    assert ticked.model_policy().guard_commit == "status"  # the rest is the profile's
    own = msgspec.structs.replace(PROFILES["ao-main-60e8c881"], review_interval=7.0)
    configured = msgspec.structs.replace(ticked, policy=own)
    assert (configured.model_policy().review_interval, configured.model_policy().tick) == (7.0, 5.0)


def test_the_agents_run_in_the_cells_that_have_them() -> None:
    assert ("none", *AGENT_PROFILE_NAMES) == AGENTS_NAMES
    s3 = RunSpec(cell=Cell("S3", "T1", 2), agents="claude-code-badge")
    assert s3.runs_agents and s3.agent_model == "claude-code-badge-gh-2.102"  # by its name
    s2 = msgspec.structs.replace(s3, cell=Cell("S2", "T1", 2))  # a matrix's other cells
    assert not s2.runs_agents and s2.agent_model is None
    assert RunSpec(cell=Cell("S4", "T1", 2)).agent_model is None
