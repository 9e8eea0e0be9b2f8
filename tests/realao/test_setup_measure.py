"""``ghbench setup`` and two ``ghbench measure`` runs with each real AO build, out of the box.

As a new user: their checkout (origin on github.com), their config, a coding agent on
PATH, the embedded emulator; no gh wrapper, no profile edit, nothing ghbench-specific
in the agent. Then what must hold:

- setup reaches ``ready: true`` (the agents pushed and opened their PRs through the
  emulator's git and API); measure runs twice in a row on it, both complete;
- every trace row is AO's own, and none is a failure caused by the stop;
- no orchestrator agent ever ran (the agents' log names only the worker sessions);
- AO's own shutdown ran on stop (current AO writes ``last-stop.json``);
- the user's checkout, config, git config and tmux server are as they were, and no
  process started with AO's private HOME is left;
- the agents' gh calls during setup are in their own trace, per session;
- ``ghbench report`` on each real trace equals AO's own ``benchmark.mjs report``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from ao_sources import BENCH_TARBALL, extract_from_tarball, node_available
from conftest import (
    PROJECT,
    UserWorld,
    close_user_world,
    make_user_world,
    processes_with_home,
)
from ghbench.drivers.ao_typescript.layout import layout_of_checkout

SESSIONS = 2
AO_COMPONENTS = {"scm-github", "scm-github-batch", "tracker-github"}


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module", params=["main", "bench"])
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One setup and two measures with one AO build; what they left behind."""
    version = str(request.param)
    checkout = request.getfixturevalue(f"ao_{version}")
    world = make_user_world(tmp_path_factory.mktemp(f"user-{version}"))
    try:
        before = world.snapshot()
        common = [
            "--project", PROJECT, "--sessions", str(SESSIONS), "--driver", "ao",
            "--github", "emulator", "--ao", str(checkout), "--config", str(world.config),
            "--out", "out",
        ]  # fmt: skip
        setup = world.ghbench(
            "setup", *common, "--issues", "1,2", "--poll-interval", "2s", "--timeout", "4m"
        )
        measures = [
            world.ghbench("measure", *common, "--warmup", "5s", "--duration", "40s")
            for _ in range(2)
        ]
        yield {
            "version": version,
            "checkout": checkout,
            "world": world,
            "before": before,
            "after": world.snapshot(),
            "setup": setup,
            "measures": measures,
            "out": world.root / "out",
        }
    finally:
        close_user_world(world)


def test_setup_is_ready_with_prs_the_agents_opened(runs: dict[str, Any]) -> None:
    assert runs["setup"].returncode == 0, runs["setup"].stderr
    (artifact,) = runs["out"].glob("setup-*.json")
    setup = json.loads(artifact.read_text())
    assert setup["ready"] is True
    assert [s["issue"] for s in setup["sessions"]] == [1, 2]
    log = runs["world"].agent_log.read_text()
    assert log.count("pr created") == SESSIONS, log
    started = set(re.findall(r" start session=(\S+)", log))
    # the workers, and no orchestrator agent was ever launched
    assert started == {s["sessionId"] for s in setup["sessions"]}, log


def test_two_measures_in_a_row_are_complete_and_only_aos_rows(runs: dict[str, Any]) -> None:
    for proc in runs["measures"]:
        assert proc.returncode == 0, proc.stderr
    cards = sorted(runs["out"].glob("scorecard-*.json"))
    assert len(cards) == 2
    for path in cards:
        card = json.loads(path.read_text())
        assert card["incomplete"] is False
        assert card["scorecard"]["benchmarkControlCalls"] == 2
        rows = _rows(Path(card["trace"]))
        assert rows, "AO wrote no trace row"
        assert {r["component"] for r in rows} <= AO_COMPONENTS
        assert "gh.api.guard-pr-list" in {r["operation"] for r in rows}
        # the stop killed no gh call in flight: no row failed by a signal
        assert not [r for r in rows if r.get("signal")], rows


def test_aos_own_shutdown_ran_and_nothing_is_left(runs: dict[str, Any]) -> None:
    home = runs["out"] / "state" / "ao" / PROJECT / "home"
    if layout_of_checkout(runs["checkout"]) == "json":  # current AO writes it on SIGTERM
        assert (home / ".agent-orchestrator" / "last-stop.json").is_file()
    assert processes_with_home(home) == []


def test_the_users_things_are_untouched(runs: dict[str, Any]) -> None:
    assert runs["after"] == runs["before"]
    world: UserWorld = runs["world"]
    assert not (world.checkout / ".git" / "worktrees").exists()


def test_agents_calls_of_setup_are_traced_per_session(runs: dict[str, Any]) -> None:
    (trace,) = runs["out"].glob("gh-trace-agents-setup-*.jsonl")
    rows = _rows(trace)
    setup = json.loads(next(runs["out"].glob("setup-*.json")).read_text())
    sessions = {s["sessionId"] for s in setup["sessions"]}
    assert {r["sessionId"] for r in rows} == sessions
    assert {r["component"] for r in rows} == {"agent"}
    ops = {(r["sessionId"], r["operation"]) for r in rows}
    for sid in sessions:  # the stand-in read its issue and opened its PR
        assert {(sid, "gh.issue.view"), (sid, "gh.pr.create")} <= ops
    assert all(r.get("httpStatus") for r in rows)  # none opaque


def test_report_of_each_real_trace_equals_aos_own_report(
    runs: dict[str, Any], tmp_path: Path
) -> None:
    node_available()
    script = extract_from_tarball(
        BENCH_TARBALL, "agent-orchestrator/experiments/benchmark.mjs", tmp_path / "ao"
    )
    world: UserWorld = runs["world"]
    for trace in sorted(runs["out"].glob("gh-trace-bench-*.jsonl")):
        ao = _ao_report(script, trace)
        ours = world.ghbench("report", "--trace", str(trace), "--json", "--out", str(tmp_path))
        assert ours.returncode == 0, ours.stderr
        card = json.loads(ours.stdout)
        ao_card = {k: v for k, v in ao["scorecard"].items() if k != "resourceWindows"}
        assert card["scorecard"] == ao_card
        assert card["resourceWindows"] == ao["resourceWindows"]


def _ao_report(script: Path, trace: Path) -> dict[str, Any]:
    import subprocess

    out = script.parent / "out"
    before = set(out.glob("*.json")) if out.exists() else set()
    proc = subprocess.run(
        ["node", str(script), "report", "--trace", str(trace)],
        cwd=script.parent,
        capture_output=True,
        text=True,
        env={"PATH": os.environ["PATH"], "HOME": str(script.parent)},
    )
    assert proc.returncode == 0, proc.stderr
    (written,) = set(out.glob("*.json")) - before
    doc: dict[str, Any] = json.loads(written.read_text())
    written.unlink()
    return doc
