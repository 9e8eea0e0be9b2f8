"""``ghbench workload run`` as a process against a real emulator socket; setup actions."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from ghbench.workload.setup_actions import create_session_prs, open_api_client


def _wait_rows(path: Path, count: int, deadline: float) -> int:
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_bytes().splitlines()) >= count:
            break
        time.sleep(0.05)
    return len(path.read_bytes().splitlines()) if path.exists() else 0


@pytest.mark.parametrize(
    "sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT], ids=["SIGTERM", "SIGHUP", "SIGINT"]
)
@pytest.mark.slow
def test_a_stop_signal_flushes_and_exits_0(
    seeded_server: Any, tmp_path: Path, sig: signal.Signals
) -> None:
    cfg = {
        "transport": "http",
        "api_url": seeded_server.url,
        "token_env": "WORKLOAD_TOKEN",
        "sessions": [
            {"id": s.id, "repo": s.repo, "issue": s.issue, "pr": s.pr}
            for s in seeded_server.sessions
        ],
        "policy": {"tick": "1s"},
    }
    config = tmp_path / "w.yaml"
    config.write_text(yaml.safe_dump(cfg))
    trace = tmp_path / "trace.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")}
    env.update({"AO_GH_TRACE_FILE": str(trace), "WORKLOAD_TOKEN": seeded_server.token})
    proc = subprocess.Popen(
        [sys.executable, "-m", "ghbench", "workload", "run", "--config", str(config)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        seen = _wait_rows(trace, 12, time.monotonic() + 30)
        assert seen >= 12
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, err
    lines = trace.read_bytes().splitlines()
    rows = [json.loads(line) for line in lines]  # every line complete
    assert rows[0]["operation"] == "gh.api.guard-pr-list"
    assert {r["origin"] for r in rows} == {"workload"}
    assert seeded_server.token.encode() not in trace.read_bytes()


def test_setup_actions_create_branches_and_prs_idempotently(seeded_server: Any) -> None:
    emulator = seeded_server.emulator
    issues = [emulator.create_issue("acme/todo", f"New {i}", author="ao-bot") for i in range(2)]
    with open_api_client(seeded_server.url, seeded_server.token) as client:
        first = create_session_prs(client, "acme/todo", [("s-1", issues[0]), ("s-2", issues[1])])
        again = create_session_prs(client, "acme/todo", [("s-1", issues[0]), ("s-2", issues[1])])
        assert [s.pr for s in first] == [s.pr for s in again]  # reused, not duplicated
        for spec in first:
            assert spec.branch == f"feat/issue-{spec.issue}"
            pr = client.get(f"repos/acme/todo/pulls/{spec.pr}").json()
            assert pr["state"] == "open"
            assert pr["head"]["ref"] == spec.branch
