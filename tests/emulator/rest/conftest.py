"""REST test fixtures: a seeded repository; PyGithub over a real socket on a bot's world."""

from __future__ import annotations

from typing import Any

import pytest
from github import Auth, Github

from ghbench.emulator.core import Emulator


@pytest.fixture
def seeded(emulator: Emulator) -> Emulator:
    emulator.seed({"repos": [{"name": "acme/todo", "issues": 3, "pulls": 3, "ci": "success"}]})
    return emulator


@pytest.fixture
def bot_github(emulator_server: Any) -> Github:
    """PyGithub as ``octo`` on the session's server: issue 1 ``Bug``, pull request 2
    ``Feature A`` from ``feat/a``; users ``hubot`` (a collaborator) and ``acme`` (the
    repository's owner)."""
    emu = emulator_server.emulator
    emu.create_user("hubot", ["ghp_hubot000000000000000000000000000000002"])
    emu.create_user("acme", ["ghp_acme0000000000000000000000000000000003"])
    emu.create_issue("acme/todo", "Bug", body="details", author="octo")
    emu.create_pull("acme/todo", "feat/a", title="Feature A", author="octo")
    return Github(
        auth=Auth.Token(emulator_server.token),
        base_url=emulator_server.url,
        seconds_between_requests=0,
        seconds_between_writes=0,
    )
