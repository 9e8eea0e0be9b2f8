"""A real-time cell's procedure (``ghbench.matrix.realtime_cell``: setup on the user's
repos, the window bracketed by ``/rate_limit``, the scenario's triggers, the checks) on
GitHub: ``ghbench matrix run --backend github`` end to end, offline, against a
GitHub-compatible server (``harness.github_server``): the user's repos given with
``--repos``, issues #1..k already in each, a token in ``GH_TOKEN`` and the REST root in
``GITHUB_API_URL``.

The smallest faithful set: S2-T1-1 (one session on one repo), S2-T2-5 (five sessions
spread over the two repos T2 needs at scale 5, three and two) and S4-T1-1 (the review
backlog burst, posted through GitHub's REST API on the file the PR changed), with
durations scaled by 0.005. The server's clock runs 10 minutes behind (``BehindClock``),
so the hour its buckets started at the first cell's first charge looks 10 minutes old to
hygiene and the later cells need no 5-minute wait, as with a token used earlier in the
hour.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ghbench.matrix.runs import load_runs
from harness.github_server import TOKEN, USER, files_holding_a_token, github_server
from tools import coverage_env

pytestmark = pytest.mark.slow

CELLS = ("S2-T1-1", "S2-T2-5", "S4-T1-1")
REPOS = {"o/a": 3, "o/b": 2}


def _matrix(out: Path, url: str, *cells: str) -> subprocess.CompletedProcess[str]:
    """``matrix run`` with ``--out`` relative to its working directory, as users type it."""
    env = {
        **coverage_env(),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(out.parent),
        "LANG": "C.UTF-8",
        "GH_TOKEN": TOKEN,
        "GITHUB_API_URL": url,
    }
    return subprocess.run(
        [
            *(sys.executable, "-m", "ghbench", "matrix", "run", "--cells", ",".join(cells)),
            *("--backend", "github", "--driver", "workload", "--transport", "http"),
            *("--repos", ",".join(REPOS), "--duration-scale", "0.005", "--out", out.name),
        ],
        cwd=out.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        stdin=subprocess.DEVNULL,
    )


@pytest.fixture(scope="module")
def matrix(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = tmp_path_factory.mktemp("github-matrix")
    with github_server(REPOS, behind_s=600) as server:
        proc = _matrix(root / "out", server.url, *CELLS)
        assert proc.returncode == 0, proc.stderr
        answers = list(server.emulator.answers)
        # a third cell when the budget is nearly spent: hygiene refuses it on the
        # server's numbers before anything starts
        core = answers[-1].bucket("core")
        server.emulator.set_limit("core", core["used"] + 3, owner=USER)
        refused = _matrix(root / "refused", server.url, "S2-T1-1")
        yield root, proc, answers, refused, server


def test_every_cell_runs_on_the_users_repos(matrix: Any) -> None:
    root, *_ = matrix
    runs = {r.cell: r for r in load_runs(root / "out")}
    assert set(runs) == set(CELLS)
    for run in runs.values():
        assert (run.status, run.backend, run.driver) == ("ok", "github", "workload"), run.reason
        assert run.scorecard is not None and run.scorecard.benchmark_control_calls == 2
    assert runs["S2-T1-1"].repos == runs["S4-T1-1"].repos == ["o/a"]
    assert runs["S2-T2-5"].repos == ["o/a", "o/b"]
    trace = root / "out" / str(runs["S2-T2-5"].trace)
    rows = [json.loads(line) for line in trace.read_text().splitlines()]
    assert {repo for repo in REPOS for r in rows if f"repos/{repo}/" in str(r.get("endpoint"))} == {
        "o/a",
        "o/b",
    }


def test_hygiene_and_brackets_read_the_servers_rate_limit(matrix: Any) -> None:
    root, _, answers, refused, _ = matrix
    # per cell: hygiene's reading, then the window's before and after
    assert len(answers) == 3 * len(CELLS)
    runs = {r.cell: r for r in load_runs(root / "out")}
    for i, cell in enumerate(CELLS):
        before, after = answers[3 * i + 1], answers[3 * i + 2]
        snaps = runs[cell].rate_limit_snapshots
        assert snaps is not None and snaps.before is not None and snaps.after is not None
        for resource in ("core", "graphql"):
            for snap, answer in ((snaps.before, before), (snaps.after, after)):
                bucket = getattr(snap, resource)
                assert bucket.remaining == answer.bucket(resource)["remaining"]
    assert refused.returncode == 1
    (record,) = load_runs(root / "refused")
    assert record.status == "refused"
    assert record.reason is not None
    assert record.reason.startswith("refused by rate-limit hygiene: core: 3 of ")
    assert not (root / "refused" / "realtime").exists()  # refused before any setup


def test_baseline_has_a_section_per_cell(matrix: Any) -> None:
    root, proc, *_ = matrix
    baseline = (root / "out" / "baseline.md").read_text()
    assert "### S2-T1-1: Quiet steady state, concentrated, 1 session" in baseline
    assert "### S2-T2-5: Quiet steady state, spread, 5 sessions" in baseline
    assert "### S4-T1-1: Review backlog burst, concentrated, 1 session" in baseline
    assert baseline.count("| Backend / driver | github / workload |") == len(CELLS)
    assert "| Repos | o/a, o/b |" in baseline
    assert baseline.count("**Rate-limit bracket:**") == len(CELLS)
    assert baseline.count("**ghbench summarize output:**") == len(CELLS)
    assert f"{len(CELLS)} cell(s) ok, 0 failed or refused" in proc.stdout


def test_the_s4_burst_comments_on_the_file_the_pr_changed(matrix: Any) -> None:
    root, *_, server = matrix
    (run,) = [r for r in load_runs(root / "out") if r.cell == "S4-T1-1"]
    (note,) = [n for n in run.notes if n.startswith("S4: ")]
    found = re.fullmatch(r"S4: (\d+) review comments on 1 PRs at window start", note)
    assert found is not None, note
    added = int(found.group(1))
    assert 5 <= added <= 10
    # on GitHub the burst reads the PR's files to find a path, then posts file comments
    ledger = server.emulator.ledger_entries()
    files = [e for e in ledger if e.endpoint.endswith("/pulls/{number}/files")]
    posts = [
        e for e in ledger if e.endpoint == "POST /repos/{owner}/{repo}/pulls/{number}/comments"
    ]
    assert [(e.owner, e.status) for e in files] == [(USER, 200)]
    assert [e.status for e in posts] == [201] * added
    emulator = server.emulator
    with emulator.lock:
        repo = emulator.store.get_repo("o", "a")
        (pull,) = [
            p for p in emulator.store.pulls(repo, "all") if emulator.store.review_comments(p)
        ]
        changed = [f.path for f in emulator.store.pull_files(pull)]
        comments = emulator.store.review_comments(pull)
    assert len(changed) == 1 and changed[0].startswith("ghbench/issue-")
    assert {c.path for c in comments} == set(changed) and len(comments) == added


def test_no_file_holds_the_token(matrix: Any) -> None:
    root, proc, _, refused, _ = matrix
    assert files_holding_a_token(root, TOKEN) == []
    assert TOKEN not in proc.stdout + proc.stderr + refused.stdout + refused.stderr
