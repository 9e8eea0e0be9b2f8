"""Setup actions the GitHub way (no push): a ref, a contents-API commit and a PR per
session, under GitHub's secondary limit on content creation.

The emulator runs in-process on a virtual clock, so the minute-long waits the
content-creation limit imposes take no time; the sleeps go on that clock.
"""

from __future__ import annotations

import httpx
import pytest

from ghbench.clock import VirtualClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.transport import EmulatorTransport
from ghbench.errors import GitHubError
from ghbench.workload.setup_actions import create_session_prs

TOKEN = "ghp_" + "S" * 36
REPO = "acme/todo"


@pytest.fixture
def emulator() -> Emulator:
    emu = Emulator(clock=VirtualClock(), seed=3)
    emu.create_user("octo", [TOKEN])
    emu.create_repo(REPO)
    for n in range(1, 4):
        emu.create_issue(REPO, f"Task {n}")
    return emu


def _client(emulator: Emulator) -> httpx.Client:
    return httpx.Client(
        transport=EmulatorTransport(emulator),
        base_url="http://api.github.localhost/",
        headers={"Authorization": f"token {TOKEN}"},
    )


def _contents_charges(emulator: Emulator) -> int:
    return sum(e.endpoint.startswith("PUT ") for e in emulator.ledger_entries())


def test_content_creation_limit_is_waited_out(emulator: Emulator) -> None:
    # two content creations a minute: three sessions need six (a commit and a PR each)
    emulator.set_secondary(content_per_minute=2)
    clock = emulator.clock
    assert isinstance(clock, VirtualClock)
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        clock.advance(seconds)

    with _client(emulator) as client:
        specs = create_session_prs(client, REPO, [("s-1", 1), ("s-2", 2), ("s-3", 3)], sleep=sleep)
        assert len({s.pr for s in specs}) == 3
        for spec in specs:
            pr = client.get(f"repos/{REPO}/pulls/{spec.pr}").json()
            assert pr["state"] == "open" and pr["head"]["ref"] == f"feat/issue-{spec.issue}"
    assert _contents_charges(emulator) == 3
    assert len(waits) == 2 and all(0 < w <= 60 for w in waits)  # the server's retry-after


def test_a_spent_primary_budget_is_an_error_not_a_wait(emulator: Emulator) -> None:
    emulator.set_limit("core", 3, owner="octo")

    def sleep(seconds: float) -> None:
        raise AssertionError(f"slept {seconds}s on a primary limit")

    with _client(emulator) as client, pytest.raises(GitHubError) as info:
        create_session_prs(client, REPO, [("s-1", 1)], sleep=sleep)
    assert "primary rate limit is spent until" in str(info.value)
    assert "run setup again after it" in str(info.value)


def test_a_branch_left_without_its_commit_gets_one(emulator: Emulator) -> None:
    # an interrupted setup: the ref was created, the commit never came
    with _client(emulator) as client:
        base = client.get(f"repos/{REPO}/git/ref/heads/main").json()["object"]["sha"]
        made = client.post(
            f"repos/{REPO}/git/refs", json={"ref": "refs/heads/feat/issue-2", "sha": base}
        )
        assert made.status_code == 201
        (spec,) = create_session_prs(client, REPO, [("s-2", 2)])
        head = client.get(f"repos/{REPO}/pulls/{spec.pr}").json()["head"]["sha"]
    assert head != base
    assert _contents_charges(emulator) == 1
