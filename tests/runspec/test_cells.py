"""The one table of scenarios, topologies and cells."""

from __future__ import annotations

import pytest

from ghbench.errors import UsageError
from ghbench.runspec.cells import (
    SCENARIOS,
    TOPOLOGIES,
    Cell,
    cell_from_id,
    parse_scenario,
    parse_topology,
    scenario_for,
)


def test_topology_repo_counts_and_attribution() -> None:
    assert Cell("S2", "T1", 50).repo_count == 1
    assert Cell("S2", "T2", 50).repo_count == 10
    assert Cell("S2", "T2", 5).repo_count == 2
    assert Cell("S2", "T2", 12).repo_count == 3
    assert not Cell("S2", "T1", 1).needs_attribution
    assert Cell("S3", "T1", 25).needs_attribution


def test_titles_follow_the_runbook_heading() -> None:
    assert Cell("S2", "T1", 50).title == "Quiet steady state, concentrated, 50 sessions"
    assert Cell("S2", "T1", 1).title.endswith("1 session")


def test_a_cell_names_its_scenario_id_as_the_spec_does() -> None:
    """The one place a scenario id is made: measure, simulate and the matrix share it."""
    assert Cell("S2", "T1", 20).scenario_id == "quiet-steady.single-repo.20"
    assert Cell("S3", "T2", 10).scenario_id == "spawn-storm.multi-repo.10"
    assert [s.name for s in SCENARIOS.values()] == [
        "cold-start",
        "quiet-steady",
        "spawn-storm",
        "review-burst",
        "restart",
        "dashboard",
    ]
    assert {t.id: (t.name, t.title) for t in TOPOLOGIES.values()} == {
        "T1": ("single-repo", "concentrated"),
        "T2": ("multi-repo", "spread"),
    }


def test_scenarios_and_topologies_parse_by_id_or_name() -> None:
    assert parse_scenario("s4").id == "S4" and parse_scenario("review-burst").id == "S4"
    assert parse_topology("t2") == "T2" and parse_topology("single-repo") == "T1"
    with pytest.raises(UsageError, match="--scenario: unknown scenario 'S9'"):
        parse_scenario("S9")
    with pytest.raises(UsageError, match=r"use T1\|single-repo or T2\|multi-repo"):
        parse_topology("ring")


def test_a_cell_that_cannot_run_is_refused_naming_the_flag() -> None:
    assert cell_from_id("S2-T2-1") is None and cell_from_id("s2-t2-2") == Cell("S2", "T2", 2)
    with pytest.raises(UsageError, match="T2 needs at least 2 sessions"):
        Cell("S2", "T2", 1).check()
    with pytest.raises(UsageError, match="--sessions must be at least 1"):
        Cell("S2", "T1", 0).check()


def test_agents_run_in_s3_and_s4_and_name_the_default_scenario() -> None:
    assert [s.id for s in SCENARIOS.values() if s.agents] == ["S3", "S4"]
    assert scenario_for(None, agents=False).id == "S2"
    assert scenario_for(None, agents=True).id == "S3"  # the agents' active phase
    assert scenario_for("review-burst", agents=True).id == "S4"
    with pytest.raises(UsageError, match=r"--agents: S2 \(quiet-steady\) has no running agents"):
        scenario_for("S2", agents=True)
