"""docs/calibration.md, "A mitigation, measured": 10 agents for 30 virtual minutes with
``gh pr checks`` through GraphQL, then through the REST shim; ``compare`` shows GraphQL
falling and core rising by what the emulator's ledger charged, and ``--fail`` gates."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ghbench.simulation.agents import AgentRunSpec, run_agents, write_agent_artifacts


def _compare(base: Path, cand: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ghbench", "compare", str(base), str(cand), "--json", *extra],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip


def _metric(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return next(m for m in doc["metrics"] if m["name"] == name)


@pytest.mark.slow
def test_the_rest_shim_moves_the_spend_by_what_the_ledger_charged(tmp_path: Path) -> None:
    ledgers = {}
    for profile in ("claude-code", "claude-code-rest-checks"):
        run = run_agents(AgentRunSpec(profile=profile, agents=10, duration_s=1800.0), seed=7)
        write_agent_artifacts(run, seed=7, out_dir=tmp_path / profile)
        ledgers[profile] = run.ledger.points
    base, shim = tmp_path / "claude-code", tmp_path / "claude-code-rest-checks"

    done = _compare(base, shim, "--fail", "bracketDelta.graphql>-50%")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    for resource in ("graphql", "core"):
        # the /rate_limit bracket around the window: what the ledger charged in it
        metric = _metric(doc, f"bracketDelta.{resource}")
        charged = ledgers["claude-code-rest-checks"][resource] - ledgers["claude-code"][resource]
        assert metric["change"] == charged, resource
    assert _metric(doc, "bracketDelta.graphql")["change"] < 0
    assert _metric(doc, "bracketDelta.core")["change"] > 0

    # the gate the other way: core rose by more than it may
    gated = _compare(base, shim, "--fail", "bracketDelta.core>+100%")
    assert gated.returncode == 3
    assert json.loads(gated.stdout)["passed"] is False
