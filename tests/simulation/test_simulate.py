"""``simulate_cell`` and ``ghbench simulate`` end to end: trace, artifact, ledger agreement."""

import json
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from ghbench.errors import UsageError
from ghbench.runspec.cells import parse_scenario
from ghbench.simulation.simulate import simulate_cell
from specs import model_spec


@pytest.mark.parametrize(
    ("scenario", "profile"), [("S2", "ao-bench-1e73a505"), ("S4", "ao-main-60e8c881")]
)
def test_scorecard_burn_equals_the_ledger_to_the_point(
    tmp_path: Path, scenario: str, profile: str
) -> None:
    spec = model_spec(
        scenario, sessions=5, profile=profile, warmup_s=60.0, duration_s=600.0, seed=1
    )
    result = simulate_cell(msgspec.structs.replace(spec, out_dir=tmp_path))
    doc = json.loads(result.scorecard_path.read_text())
    ledger = result.ledger.points
    assert sum(ledger.values()) > 0
    consumption = doc["insights"]["consumption"]
    for resource in ("graphql", "core"):
        charged = ledger.get(resource, 0)
        assert doc["scorecard"]["bracketDelta"][resource] == charged
        if consumption[resource]["source"] == "rows":
            assert consumption[resource]["points"] == charged
    assert doc["scorecard"]["benchmarkControlCalls"] == 2
    rows = result.trace_path.read_text().splitlines()
    assert len(rows) >= doc["scorecard"]["totalCalls"] > 0
    assert not any('"benchmark-control"' in r for r in rows)


@pytest.mark.slow
def test_cli_writes_artifacts_and_prints_json(tmp_path: Path) -> None:
    args = ["simulate", "--scenario", "quiet-steady", "--sessions", "3", "--warmup", "30s"]
    args += ["--duration", "2m", "--seed", "4", "--out", str(tmp_path), "--json"]
    proc = subprocess.run([sys.executable, "-m", "ghbench", *args], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["scenarioId"] == "quiet-steady.single-repo.3"
    assert len(list(tmp_path.glob("gh-trace-sim-*.jsonl"))) == 1
    assert len(list(tmp_path.glob("scorecard-*.json"))) == 1


def test_bad_scenario_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="--scenario"):
        parse_scenario("S9")
    with pytest.raises(UsageError, match="T2"):
        model_spec(topology="T2", sessions=1)


@pytest.mark.parametrize("scenario", ["S2", "S4"])
def test_a_simulation_in_virtual_time_writes_no_git_repository(scenario: str) -> None:
    # commits are git objects in memory: nothing AO main asks needs git itself, so nothing
    # is written (AO 0.10's batch asks each PR's diff stats, which git computes)
    from ghbench.simulation.cell import ScenarioPlay, _Cell

    spec = model_spec(
        scenario, sessions=5, warmup_s=60.0, duration_s=600.0, seed=1, profile="ao-main-60e8c881"
    )
    cell = _Cell(spec, ScenarioPlay())
    cell.schedule()
    cell.execute()
    storage = cell.world.emulator.git
    assert storage.root is None and storage._temp is None
    assert cell.world.emulator.store.commits  # the sessions' branches were pushed
