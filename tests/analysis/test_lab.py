"""``ghbench lab`` on a trace the agents' model made: the table in text, --json, HTML
and Markdown says the same; what each policy does to the recorded fleet; bad input."""

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ghbench.analysis.lab import LAB_CHOICES, calls_of, lab_table
from ghbench.analysis.lab_render import lab_cells
from ghbench.simulation.agents import AgentRunSpec, run_agents, write_agent_artifacts
from ghbench.trace.reader import read_rows

LARGE = (("graphql", 1_000_000), ("core", 1_000_000))


@pytest.fixture(scope="module")
def trace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    run = run_agents(AgentRunSpec(agents=3, duration_s=900.0, limits=LARGE), seed=3)
    return write_agent_artifacts(run, seed=3, out_dir=tmp_path_factory.mktemp("rec")).trace_path


def _lab(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "ghbench", "lab", *args],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip


def test_the_table_is_the_same_in_text_json_html_and_markdown(trace: Path, tmp_path: Path) -> None:
    shown = _lab("--trace", str(trace), "--out", str(tmp_path / "a"))
    assert shown.returncode == 0, shown.stderr
    doc = json.loads(_lab("--trace", str(trace), "--json", "--out", str(tmp_path / "b")).stdout)
    assert doc["kind"] == "lab" and doc["recordedSessions"] == 3
    assert [r["policies"] for r in doc["table"]] == [p.label for p in LAB_CHOICES]
    html = next((tmp_path / "a").glob("lab-*.html")).read_text()
    markdown = next((tmp_path / "a").glob("lab-*.md")).read_text()
    for cells in lab_cells(doc):
        assert "| " + " | ".join(cells) + " |" in markdown
        assert all(f">{c}<" in html for c in cells)
        assert all(c in shown.stdout for c in cells)


def test_what_each_policy_does_to_the_recorded_fleet(trace: Path) -> None:
    table = lab_table(calls_of(read_rows(trace)), trace=str(trace))
    rows = {r.policies: r for r in table.table}
    none = rows["none"]
    assert none.binds == "graphql" and none.absorbed == 0 and none.refused == 0
    # the cache and the probes absorb the agents' repeated status reads
    for name in ("cache", "probe", "probe+cache"):
        assert rows[name].absorbed > 0
        assert rows[name].per_session_hour["graphql"] < none.per_session_hour["graphql"] / 2
        assert rows[name].sessions_fit > none.sessions_fit
    # the shim moves pr checks to core, where it then binds
    assert rows["shim"].binds == "core"
    assert rows["shim"].per_session_hour["core"] > none.per_session_hour["core"]
    # the cooldown holds only the orchestrator's batches: an agents' trace has none
    assert rows["cooldown"].spend_per_hour == none.spend_per_hour


def test_bad_input_is_one_line_naming_the_flag(trace: Path, tmp_path: Path) -> None:
    for args, said in (
        (["--trace", str(tmp_path / "missing.jsonl")], "--trace"),
        (["--trace", str(trace), "--policies", "cahce"], "--policies cahce: no policy"),
        (["--trace", str(trace), "--policies", "gate:refil=3"], "no setting 'refil'"),
    ):
        done = _lab(*args, "--out", str(tmp_path / "o"))
        assert done.returncode != 0
        assert said in done.stderr and "Traceback" not in done.stderr


def test_an_app_installation_on_40_repositories_holds_more_than_a_token(trace: Path) -> None:
    def table(*budget: str) -> dict[str, Any]:
        done = _lab("--trace", str(trace), "--policies", "cache", "--json", *budget)
        assert done.returncode == 0, done.stderr
        doc: dict[str, Any] = json.loads(done.stdout)
        return doc

    pat, app = table(), table("--budget", "app", "--repos", "40")
    # GitHub's App installation: 5,000 + 50 for each repository over 20
    assert pat["limits"] == {"graphql": 5000.0, "core": 5000.0}
    assert app["limits"] == {"graphql": 6000.0, "core": 6000.0}
    for mine, theirs in zip(app["table"], pat["table"], strict=True):
        assert mine["policies"] == theirs["policies"]
        assert mine["sessionsFit"] >= theirs["sessionsFit"]
        assert mine["spendPerHour"] == theirs["spendPerHour"]  # the fleet is the same
    assert sum(r["sessionsFit"] for r in app["table"]) > sum(r["sessionsFit"] for r in pat["table"])
    refused = _lab("--trace", str(trace), "--budget", "app", "--rest", "10")
    assert refused.returncode != 0 and "--rest" in refused.stderr
    assert "Traceback" not in refused.stderr
