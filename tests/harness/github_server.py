"""A GitHub-compatible server for testing ``--github github`` / ``--backend github`` offline.

The embedded emulator over a real loopback socket, seeded the way a user finds GitHub
before a benchmark: a user with a personal token, repos, issues #1..k. ghbench is
pointed at it only through the variables a user sets for real GitHub (``GH_TOKEN`` or
``GITHUB_TOKEN`` or a gh login, ``GITHUB_API_URL`` or ``GH_HOST`` + proxies): it treats
the server as GitHub, so nothing is seeded through the control API.

The server records every ``/rate_limit`` it answers with the length of its ledger at
that moment, so a test can sum the charges between two answers: what the bracket of a
measurement window should report.
"""

from __future__ import annotations

import copy
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ghbench.clock import SystemClock
from ghbench.emulator.client_env import gh_environment
from ghbench.emulator.core import Emulator
from ghbench.emulator.thread_server import EmulatorServer

USER = "octo"
TOKEN = "ghp_" + "G1thubBackend" * 3  # registered for USER; never to be written
TOKEN_PATTERN = re.compile(rb"gh[pousr]_[A-Za-z0-9]{20,}")


@dataclass(frozen=True)
class Answer:
    """One ``GET /rate_limit`` the server answered."""

    owner: str
    ledger_len: int  # charges in the ledger when it was answered
    document: dict[str, Any]

    def bucket(self, resource: str) -> dict[str, int]:
        return dict(self.document["resources"][resource])


class ProbedEmulator(Emulator):
    """The emulator, remembering each ``/rate_limit`` answer (see the module docstring)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.answers: list[Answer] = []

    def rate_limit_document(self, owner: str) -> dict[str, Any]:
        document = super().rate_limit_document(owner)
        with self.lock:  # the request's own lock: no charge can land in between
            self.answers.append(Answer(owner, self.ledger_count(), copy.deepcopy(document)))
        return document

    def charges_between(self, first: Answer, second: Answer) -> dict[str, int]:
        """Points the ledger charged ``first.owner`` after ``first`` and before ``second``."""
        out: dict[str, int] = {}
        with self.lock:
            for e in self.ledger_entries()[first.ledger_len : second.ledger_len]:
                if e.owner == first.owner:
                    out[e.resource] = out.get(e.resource, 0) + e.cost
        return out


class BehindClock(SystemClock):
    """Wall time ``behind_s`` seconds ago: a bucket's window looks that much older.

    GitHub starts a budget's hour at its first charge; a matrix's second cell then waits
    until that window is 5 minutes old. A server whose clock is 10 minutes behind reports
    resets as for a token first used 10 minutes before the test, so hygiene lets the
    second cell start at once, as on a GitHub token used earlier in the hour.
    """

    def __init__(self, behind_s: float) -> None:
        self.behind_s = behind_s

    def now(self) -> float:
        return super().now() - self.behind_s


@dataclass
class GitHubServer:
    url: str
    emulator: ProbedEmulator


@contextmanager
def github_server(
    repos: Mapping[str, int],
    *,
    behind_s: float = 0.0,
    emulator_type: type[ProbedEmulator] = ProbedEmulator,
) -> Iterator[GitHubServer]:
    """Serve ``repos`` (``owner/name`` -> number of issues, #1..k) to ``USER``'s token;
    ``emulator_type``: a ProbedEmulator that also steers some requests (a test's)."""
    clock = BehindClock(behind_s) if behind_s else SystemClock()
    emulator = emulator_type(clock=clock, seed=11)
    emulator.create_user(USER, [TOKEN])
    for repo, issues in repos.items():
        emulator.create_repo(repo)
        for n in range(1, issues + 1):
            assert emulator.create_issue(repo, f"Task {n}") == n
    server = EmulatorServer(emulator, "127.0.0.1", 0)
    url = server.start()
    try:
        yield GitHubServer(url, emulator)
    finally:
        server.stop()


def gh_routing(url: str, home: Path) -> dict[str, str]:
    """What a user sets so gh reaches a GitHub-compatible server at ``url``: gh's
    plain-HTTP host github.localhost and the proxies (no token: the test adds one)."""
    env = gh_environment(url, None, home)
    for sub in ("tmp", ".cache"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    Path(env["GH_CONFIG_DIR"]).mkdir(parents=True, exist_ok=True)
    env["PATH"] = os.environ.get("PATH", "/usr/bin:/bin")
    env["GH_TELEMETRY"] = "false"  # a sampled event of today's gh (tools.gh_child_env)
    return env


def files_holding_a_token(root: Path, *secrets: str) -> list[Path]:
    """Every file under ``root`` holding one of ``secrets`` or anything shaped like a token."""
    found = []
    for path in root.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            if TOKEN_PATTERN.search(data) or any(s.encode() in data for s in secrets):
                found.append(path)
    return found
