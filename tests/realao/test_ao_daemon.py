"""AO's Go daemon, measured at the network, out of the box: 0.12.6 (the desktop line its
users run today) and 0.10.3 (npm's last release).

As a new user of either: their checkout (origin on github.com), no
agent-orchestrator.yaml, the daemon's binary as AO ships it (0.12.6 under its release
file's name, not ``ao``), a coding agent on PATH that only commits, pushes and runs gh
(``pr create --fill``, ``pr view --json``, ``pr checks``, ``pr edit --add-label``), and
nothing that names ghbench anywhere. ``ghbench setup`` and two ``ghbench measure`` runs,
from the checkout, on the embedded emulator. Then what must hold:

- setup reaches ``ready: true``: the daemon spawned the agents, whose gh and git went
  through the GitHub front with their default host, and every gh command they ran
  worked; the setup names the AO release it ran (its commit and tag);
- both measures are complete; every row of the window's trace is the daemon's own
  (``scm-github``), named as AO's TypeScript builds named the same requests; none is
  opaque; the first window (no warmup) shows the daemon's GraphQL batch at start, and
  both show its ETag guards answered 304;
- the rows' spend is what the emulator's ledger charged (the bracket);
- no token is in any trace; the user's checkout and tmux server are as they were; no
  process started with the daemon's private HOME is left.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest import (
    PROJECT,
    REALAO_GH,
    TODAYS_GH,
    UserWorld,
    close_user_world,
    make_user_world,
    processes_with_home,
)
from ghbench.analysis.lab import LAB_CHOICES
from ghbench.trace.files import agent_trace_path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "harness"))
from helpers import Family

SESSIONS = 2
# each daemon build as AO ships it: (its fixture, its AO commit, its tag)
BUILDS = {
    "0.10.3": ("ao_daemon", "c89414ddb8cf4dc35e77417907e1ea663b79cf6b", "desktop-v0.10.3"),
    "0.12.6": ("ao_daemon_012", "075de7a0195d84f1de8d8eaef03ad3b98871bee1", "v0.12.6"),
}
# the gh each build's users' agents run: 0.10.3's calibration was made with Debian's 2.23;
# 0.12.6's users' agents run today's gh
AGENTS_GH = {"0.10.3": REALAO_GH, "0.12.6": TODAYS_GH}


@pytest.fixture(params=list(BUILDS))
def daemon(request: pytest.FixtureRequest) -> Path:
    """Each daemon build in turn."""
    path: Path = request.getfixturevalue(BUILDS[request.param][0])
    return path


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _common(ao: Path) -> list[str]:
    return [
        "--project", PROJECT, "--sessions", str(SESSIONS), "--driver", "ao",
        "--github", "emulator", "--ao", str(ao), "--out", "../../out",
    ]  # fmt: skip


def _home(world: UserWorld) -> Path:
    return world.root / "out" / "state" / "ao-daemon" / PROJECT / "home"


@pytest.fixture(scope="module", params=list(BUILDS))
def runs(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """One setup and two measures with each daemon build; what they left behind."""
    fixture, commit, tag = BUILDS[request.param]
    ao: Path = request.getfixturevalue(fixture)
    world = make_user_world(
        tmp_path_factory.mktemp("user-go"), ao_config=False, gh=AGENTS_GH[request.param]
    )
    assert not [k for k in world.env if "GHBENCH" in k.upper()]  # nothing names ghbench
    try:
        before = world.snapshot()
        common = _common(ao)
        setup = world.ghbench(
            "setup", *common, "--issues", "1,2", "--poll-interval", "2s", "--timeout", "4m",
            cwd=world.checkout,
        )  # fmt: skip
        windows = (["--warmup", "0s", "--duration", "35s"], ["--warmup", "5s", "--duration", "35s"])
        measures = [
            world.ghbench("measure", *common, *window, cwd=world.checkout) for window in windows
        ]
        yield {
            "build": (request.param, commit, tag),
            "world": world,
            "before": before,
            "after": world.snapshot(),
            "setup": setup,
            "measures": measures,
            "out": world.root / "out",
        }
    finally:
        close_user_world(world)


def test_setup_is_ready_with_prs_the_agents_opened_through_the_front(runs: dict[str, Any]) -> None:
    assert runs["setup"].returncode == 0, runs["setup"].stderr
    (artifact,) = runs["out"].glob("setup-*.json")
    setup = json.loads(artifact.read_text())
    assert setup["ready"] is True
    _, commit, tag = runs["build"]
    assert (setup["gitSha"], setup["branch"]) == (commit, tag)  # the release AO ran
    assert [s["issue"] for s in setup["sessions"]] == [1, 2]
    assert {s["branch"] for s in setup["sessions"]} == {
        f"ao/{s['sessionId']}/root" for s in setup["sessions"]
    }
    log = runs["world"].agent_log.read_text()
    assert log.count("pr created") == SESSIONS, log
    assert "failed" not in log, log  # pr view, pr checks, pr edit --add-label worked
    assert set(re.findall(r" start session=(\S+)", log)) == {
        s["sessionId"] for s in setup["sessions"]
    }


def test_two_measures_trace_the_daemon_at_the_network(runs: dict[str, Any]) -> None:
    for proc in runs["measures"]:
        assert proc.returncode == 0, proc.stderr
    cards = sorted(runs["out"].glob("scorecard-*.json"), key=lambda p: p.stat().st_mtime)
    assert len(cards) == 2
    for n, path in enumerate(cards):
        card = json.loads(path.read_text())
        assert card["incomplete"] is False, card.get("incompleteReason")
        score = card["scorecard"]
        assert score["opaqueCallCount"] == 0
        assert score["guardPrList304Count"] >= 1  # the daemon's ETag guard, 304 and free
        if n == 0:  # no warmup: the daemon's first poll, its GraphQL batch, is in it
            assert score["graphqlBatchCount"] >= 1
        rows = _rows(Path(card["trace"]))
        assert rows and {r["component"] for r in rows} == {"scm-github"}
        assert {r["origin"] for r in rows} == {"front"}
        ops = {r["operation"] for r in rows}
        assert {"gh.api.guard-pr-list", "gh.api.guard-commit-status"} <= ops
        assert all(r.get("httpStatus") for r in rows)
        # the window's REST spend in rows: what the emulator's ledger charged
        start, end = card["window"]["start"], card["window"]["end"]
        in_window = [r for r in rows if start <= r["timestamp"] <= end]
        charged = sum(
            1 for r in in_window if r["httpStatus"] == 200 and r["rateLimitResource"] == "core"
        )
        assert score["bracketDelta"]["core"] == charged


def test_the_lab_tabulates_the_daemons_recorded_hour(runs: dict[str, Any]) -> None:
    """``ghbench lab`` on what the real daemon spent (a measure's trace, its agents'
    beside it): a row per choice of policies, on a token's budget and on an App
    installation's on 40 repositories (issue 32)."""
    (card, *_) = sorted(runs["out"].glob("scorecard-*.json"), key=lambda p: p.stat().st_mtime)
    trace = json.loads(card.read_text())["trace"]
    tables = []
    for budget in ((), ("--budget", "app", "--repos", "40")):
        done = runs["world"].ghbench("lab", "--trace", trace, "--json", *budget)
        assert done.returncode == 0, done.stderr
        tables.append(json.loads(done.stdout))
    token, app = tables
    assert token["kind"] == "lab" and token["rows"] > 0
    assert [r["policies"] for r in token["table"]] == [r["policies"] for r in app["table"]]
    assert [r["policies"] for r in token["table"]] == [p.label for p in LAB_CHOICES]
    assert token["limits"] == {"graphql": 5000.0, "core": 5000.0}
    assert app["limits"] == {"graphql": 6000.0, "core": 6000.0}
    for mine, theirs in zip(app["table"], token["table"], strict=True):
        assert mine["sessionsFit"] >= theirs["sessionsFit"]


def test_no_token_in_any_trace_and_nothing_is_left(runs: dict[str, Any]) -> None:
    out: Path = runs["out"]
    for trace in out.glob("gh-trace-*.jsonl"):
        text = trace.read_text()
        assert "authorization" not in text.lower()
        assert not re.search(r"gh[po]_[A-Za-z0-9]{20,}", text), trace
    assert processes_with_home(_home(runs["world"])) == []
    assert runs["after"] == runs["before"]


def _start_measure(world: UserWorld, ao: Path) -> subprocess.Popen[str]:
    out = world.root / "out"
    before = set(out.glob("gh-trace-bench-*.jsonl"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghbench", "measure", *_common(ao), "--warmup", "0s",
         "--duration", "5m"],
        cwd=world.checkout,
        env=world.env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:  # the daemon polls at once: its rows arrive
        traces = set(out.glob("gh-trace-bench-*.jsonl")) - before
        if any(p.stat().st_size for p in traces):
            return proc
        time.sleep(0.5)
    proc.kill()
    raise AssertionError("the daemon made no call through the front within 2 minutes")


def test_sigterm_and_kill_9_leave_nothing_running(user_world: UserWorld, daemon: Path) -> None:
    (user_world.config).unlink(missing_ok=True)
    setup = user_world.ghbench(
        "setup", *_common(daemon), "--issues", "1,2", "--poll-interval", "2s",
        cwd=user_world.checkout,
    )  # fmt: skip
    assert setup.returncode == 0, setup.stderr
    home = _home(user_world)

    proc = _start_measure(user_world, daemon)
    family = Family(proc.pid)
    assert processes_with_home(home)  # the daemon, its tmux server, placeholders
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signal.SIGTERM, err
    (card,) = [json.loads(p.read_text()) for p in (user_world.root / "out").glob("scorecard-*")]
    assert card["incomplete"] and card["incompleteReason"].startswith("interrupted (SIGTERM)")
    assert card["scorecard"]["totalCalls"] > 0
    assert family.left_after(30) == []
    assert processes_with_home(home) == []

    proc = _start_measure(user_world, daemon)
    family = Family(proc.pid)
    proc.kill()
    proc.communicate(timeout=30)
    assert family.left_after(30) == []
    deadline = time.monotonic() + 30
    while processes_with_home(home) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with_home(home) == []
    traces = list((user_world.root / "out").glob("gh-trace-bench-*.jsonl"))
    assert len(traces) == 2 and all(t.stat().st_size for t in traces)  # kept

    # a fresh setup over a stale one: the daemon kills the sessions no setup keeps
    (artifact,) = (user_world.root / "out").glob("setup-*.json")
    old = {s["sessionId"] for s in json.loads(artifact.read_text())["sessions"]}
    artifact.unlink()
    again = user_world.ghbench(
        "setup", *_common(daemon), "--issues", "1,2", "--poll-interval", "2s",
        cwd=user_world.checkout,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    new = {s["sessionId"] for s in json.loads(artifact.read_text())["sessions"]}
    registry = json.loads((home.parent / "sessions.json").read_text())["sessions"]
    assert set(registry) == new and not new & old
    assert processes_with_home(home) == []


def test_the_spawn_storm_cell_attributes_the_agents_calls(
    user_world: UserWorld, daemon: Path
) -> None:
    """S3 with the daemon: sessions spawned in the window; their agents' gh and git calls
    are rows of their own trace, each with its session, and the daemon finds their PRs."""
    proc = user_world.ghbench(
        "matrix", "run", "--cells", "S3-T1-2", "--scales", "2", "--backend", "emulator",
        "--driver", "ao", "--ao", str(daemon), "--duration-scale", "0.1", "--out", "mx",
        timeout=900,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (run,) = (user_world.root / "mx" / "runs" / "S3-T1-2").glob("run-*.json")
    record = json.loads(run.read_text())
    assert record["status"] == "ok", record.get("reason")
    trace = user_world.root / "mx" / record["trace"]
    agents = _rows(agent_trace_path(trace))
    sessions = {r["sessionId"] for r in agents}
    assert len(sessions) == 2, agents
    assert {"gh", "git"} <= {r["component"] for r in agents}
    assert {"graphql.PullRequestCreate", "git.receive-pack"} <= {r["operation"] for r in agents}
    own = _rows(trace)
    assert not [r for r in own if r.get("sessionId")]  # no agent's call among the daemon's
    # the daemon's own calls: its observer, and from 0.12, as it spawns, the issue read
    # by its tracker and the default branch asked of the remote (git ls-remote)
    components = {r["component"] for r in own}
    assert "scm-github" in components and components <= {"scm-github", "tracker-github", "git"}


def test_record_traces_the_daemons_client_in_both_modes(tmp_path: Path, ao_daemon: Path) -> None:
    """``ghbench record`` runs AO 0.10's ``ao doctor`` (it checks its token with GitHub)
    behind the front: emulate answers from the embedded emulator; forward sends the call
    to a second emulator standing in for GitHub."""
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path / "home"),
        "AO_DATA_DIR": str(tmp_path / "data"),
        "AO_TELEMETRY_REMOTE": "off",
        "LANG": "C.UTF-8",
    }
    ghbench = [sys.executable, "-m", "ghbench", "record"]
    emulate = subprocess.run(
        [*ghbench, "--github", "emulator", "--trace", str(tmp_path / "emulate.jsonl"), "--",
         str(ao_daemon), "doctor"],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    rows = _rows(tmp_path / "emulate.jsonl")
    assert rows, emulate.stderr
    assert {r["origin"] for r in rows} == {"front"}
    assert all(r["httpStatus"] == 200 for r in rows if r["endpoint"] == "user")

    token = "ghp_standin000000000000000000000000000001"
    stand_in = subprocess.Popen(
        [sys.executable, "-m", "ghbench", "emulator", "serve", "--port", "0", "--token", token],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert stand_in.stdout is not None
    try:
        url = re.search(r"http://127\.0\.0\.1:\d+", stand_in.stdout.readline())
        assert url is not None
        forward = subprocess.run(
            [*ghbench, "--github", "github", "--upstream", url.group(0), "--trace",
             str(tmp_path / "forward.jsonl"), "--", str(ao_daemon), "doctor"],
            env={**env, "AO_GITHUB_TOKEN": token}, capture_output=True, text=True, timeout=300,
        )  # fmt: skip
    finally:
        stand_in.terminate()
        stand_in.wait(30)
        stand_in.stdout.close()
    rows = _rows(tmp_path / "forward.jsonl")
    assert rows, forward.stderr
    user = [r for r in rows if r["endpoint"] == "user"]
    assert user and user[0]["httpStatus"] == 200
    assert token not in (tmp_path / "forward.jsonl").read_text()


def test_against_github_the_front_forwards_and_the_daemon_is_traced(
    tmp_path: Path, ao_daemon: Path
) -> None:
    """``--github github``: the front forwards the daemon's and its agents' calls, here to
    a second emulator standing in for GitHub (``GITHUB_API_URL`` at its root), with the
    user's token; the window's rows are the daemon's and no token is written."""
    world = make_user_world(tmp_path, ao_config=False)
    token = "ghp_standin000000000000000000000000000002"
    stand_in = subprocess.Popen(
        [sys.executable, "-m", "ghbench", "emulator", "serve", "--port", "0", "--token", token,
         "--repo", "acme/todo"],
        env={"PATH": os.environ["PATH"], "HOME": str(tmp_path)},
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert stand_in.stdout is not None
    try:
        found = re.search(r"http://127\.0\.0\.1:\d+", stand_in.stdout.readline())
        assert found is not None
        url = found.group(0)
        for n in (1, 2):
            made = httpx.post(
                f"{url}/repos/acme/todo/issues",
                json={"title": f"issue {n}"},
                headers={"Authorization": f"token {token}"},
                trust_env=False,
            )
            assert made.status_code == 201, made.text
        world.env |= {"GH_TOKEN": token, "GITHUB_API_URL": url}
        common = [*_common(ao_daemon)]
        common[common.index("emulator")] = "github"
        setup = world.ghbench(
            "setup", *common, "--issues", "1,2", "--poll-interval", "2s", cwd=world.checkout
        )
        assert setup.returncode == 0, setup.stderr
        measure = world.ghbench(
            "measure", *common, "--warmup", "0s", "--duration", "31s", cwd=world.checkout
        )
        assert measure.returncode == 0, measure.stderr
    finally:
        stand_in.terminate()
        stand_in.wait(30)
        stand_in.stdout.close()
        close_user_world(world)
    (card,) = [json.loads(p.read_text()) for p in (world.root / "out").glob("scorecard-*")]
    assert card["incomplete"] is False and card["scorecard"]["opaqueCallCount"] == 0
    rows = _rows(Path(card["trace"]))
    assert {r["component"] for r in rows} == {"scm-github"}
    assert "gh.api.graphql-batch" in {r["operation"] for r in rows}
    for trace in (world.root / "out").glob("gh-trace-*.jsonl"):
        assert token not in trace.read_text()
    assert processes_with_home(_home(world)) == []


def test_the_daemon_runs_the_agent_model_as_its_coding_agent(
    user_world: UserWorld, ao_daemon: Path
) -> None:
    """``--agents default``: AO 0.10 launches ghbench's agent model as each session's
    ``claude``; its gh and git calls reach GitHub through the front, each with its
    session, and the scorecard splits who spent."""
    proc = user_world.ghbench(
        "matrix", "run", "--cells", "S3-T1-2", "--scales", "2", "--backend", "emulator",
        "--driver", "ao", "--ao", str(ao_daemon), "--duration-scale", "0.1",
        "--agents", "default", "--out", "mx", timeout=900,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    (run,) = (user_world.root / "mx" / "runs" / "S3-T1-2").glob("run-*.json")
    record = json.loads(run.read_text())
    assert record["status"] == "ok", record.get("reason")
    trace = user_world.root / "mx" / record["trace"]
    agents = _rows(agent_trace_path(trace))
    assert len({r["sessionId"] for r in agents}) == 2
    assert {"graphql.PullRequestStatusChecks", "git.receive-pack"} <= {
        r["operation"] for r in agents
    }
    assert not user_world.agent_log.exists()  # the user's stand-in agent never ran
    (card,) = trace.parent.glob("scorecard-*.json")
    split = json.loads(card.read_text())["insights"]["spendSplit"]
    assert split["agentModel"] == "claude-code-gh-2.102"  # default: claude-code, today's gh
    assert split["agents"]["calls"] == len(agents)
