"""A real emulator over a real socket, seeded with sessions that have open PRs."""

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from ghbench.emulator.core import Emulator
from ghbench.workload.config import SessionSpec

TOKEN = "ghp_workloadtests000000000000000000000000"


@dataclass
class Seeded:
    emulator: Emulator
    url: str
    token: str
    sessions: list[SessionSpec]


def seed_sessions(emulator: Emulator, repo: str, count: int) -> list[SessionSpec]:
    emulator.create_user("ao-bot", [TOKEN])
    emulator.create_repo(repo)
    out = []
    for i in range(count):
        issue = emulator.create_issue(repo, f"Task {i + 1}", author="ao-bot")
        pr = emulator.create_pull(repo, f"feat/issue-{issue}", title=f"Fix #{issue}")
        emulator.set_ci(repo, "success", pr=pr)
        out.append(SessionSpec(id=f"ta-{i + 1}", repo=repo, issue=issue, pr=pr))
    return out


@pytest.fixture
def seed() -> Callable[[Emulator, str, int], list[SessionSpec]]:
    return seed_sessions


@pytest.fixture
def seeded_server(serve: Callable[[Emulator], str]) -> Seeded:
    emulator = Emulator(seed=7)
    sessions = seed_sessions(emulator, "acme/todo", 3)
    return Seeded(emulator, serve(emulator), TOKEN, sessions)
