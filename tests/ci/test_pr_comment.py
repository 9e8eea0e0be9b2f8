"""The Action's pull-request comment (scripts/pr_comment.py) against the emulator's REST
API over a real socket: one comment per key, found by its hidden marker across pages of
comments and edited in place; a refusal is a warning, never a failed gate."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
from tests.conftest import TEST_REPO, TEST_TOKEN, RunningEmulator

from ghbench.emulator.core import Emulator

from .conftest import REPO

SCRIPT = REPO / "scripts" / "pr_comment.py"


def _comment(
    server: RunningEmulator,
    tmp_path: Path,
    pr: int,
    key: str,
    text: str,
    *,
    token: str = TEST_TOKEN,
) -> str:
    body = tmp_path / "compare.md"
    body.write_text(text, encoding="utf-8")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "GITHUB_API_URL": server.url,
        "GITHUB_REPOSITORY": TEST_REPO,
        "GITHUB_TOKEN": token,
    }
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "--pr", str(pr), "--key", key, "--body", str(body)],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert token not in proc.stdout + proc.stderr
    return proc.stdout


def _comments(server: RunningEmulator, pr: int) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    url: str | None = f"{server.url}/repos/{TEST_REPO}/issues/{pr}/comments?per_page=100"
    with httpx.Client(headers={"Authorization": f"Bearer {TEST_TOKEN}"}) as client:
        while url:
            reply = client.get(url)
            reply.raise_for_status()
            out += reply.json()
            url = reply.links.get("next", {}).get("url")
    return out


def _pr(emulator: Emulator) -> int:
    return emulator.create_pull(TEST_REPO, "feature", title="Poll less")


def test_one_comment_per_key_is_posted_then_edited(
    emulator_server: RunningEmulator, tmp_path: Path
) -> None:
    pr = _pr(emulator_server.emulator)
    printed = _comment(emulator_server, tmp_path, pr, "S2-T1-50", "### first\n")
    assert printed.startswith("pull-request comment posted: ")
    printed = _comment(emulator_server, tmp_path, pr, "S2-T1-50", "### second | table\n")
    assert printed.startswith("pull-request comment updated: ")
    _comment(emulator_server, tmp_path, pr, "S1-T1-50", "### another cell\n")
    bodies = [str(c["body"]) for c in _comments(emulator_server, pr)]
    assert bodies == [
        "<!-- ghbench-compare: S2-T1-50 -->\n### second | table\n",
        "<!-- ghbench-compare: S1-T1-50 -->\n### another cell\n",
    ]


def test_the_marker_is_found_past_the_first_page(
    emulator_server: RunningEmulator, tmp_path: Path
) -> None:
    pr = _pr(emulator_server.emulator)
    _comment(emulator_server, tmp_path, pr, "cell", "mine\n")
    with httpx.Client(headers={"Authorization": f"Bearer {TEST_TOKEN}"}) as client:
        for i in range(120):  # a busy pull request: the marker's comment is on page 1 of 2
            reply = client.post(
                f"{emulator_server.url}/repos/{TEST_REPO}/issues/{pr}/comments",
                json={"body": f"review note {i}; quoting <!-- ghbench-compare: cell --> inside"},
            )
            reply.raise_for_status()
            emulator_server.emulator.advance_clock(1.0)  # within GitHub's 80 posts a minute
    _comment(emulator_server, tmp_path, pr, "cell", "mine, edited\n")
    comments = _comments(emulator_server, pr)
    assert len(comments) == 121
    assert comments[0]["body"] == "<!-- ghbench-compare: cell -->\nmine, edited\n"


def test_a_refused_comment_is_a_warning(emulator_server: RunningEmulator, tmp_path: Path) -> None:
    pr = _pr(emulator_server.emulator)
    printed = _comment(
        emulator_server, tmp_path, pr, "cell", "x\n", token="ghp_not_a_token_the_emulator_knows"
    )
    assert printed.startswith("::warning::no pull-request comment: GET ")
    assert "answered 401" in printed
    assert _comments(emulator_server, pr) == []
