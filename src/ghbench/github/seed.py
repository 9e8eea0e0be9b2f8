"""The emulator's control API as ghbench calls it: seeding repos and issues, pushes.

Control-API requests (``/_ghbench/...``) are never rate-limited nor in the ledger. They
carry the emulator's control key, which only the process that started the emulator
holds (``EmulatorControl``; ``ghbench.emulator.control_access``). Issues and PRs share
one number sequence, so issues are created one at a time until the highest requested
number exists; a repo that already has them is left as it is, which keeps repeated
setups idempotent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import httpx

from ghbench.emulator.control_access import CONTROL_KEY_HEADER
from ghbench.errors import EmulatorError, GhbenchError
from ghbench.tls import tls_context

__all__ = ["EmulatorControl", "add_review_comments", "push_branch", "seed_repo", "set_faults"]


@dataclass(frozen=True)
class EmulatorControl:
    """Where an emulator's control API is and its key (in memory, never printed)."""

    url: str
    key: str = field(repr=False)

    def client(self, timeout: float = 30.0) -> httpx.Client:
        """An httpx client for ``/_ghbench/...`` paths (relative), key attached."""
        return httpx.Client(
            base_url=self.url.rstrip("/") + "/",
            headers={CONTROL_KEY_HEADER: self.key},
            timeout=timeout,
            trust_env=False,
            verify=tls_context(),
        )


def _check(resp: httpx.Response, what: str) -> httpx.Response:
    if resp.status_code >= 300:
        raise EmulatorError(f"emulator control API: {what} failed (HTTP {resp.status_code})")
    return resp


def seed_repo(
    control: EmulatorControl,
    repo: str,
    issues: Sequence[int],
    issue_exists: Callable[[int], bool],
) -> None:
    """Create ``repo`` (if missing) and issues up to ``max(issues)``.

    ``issue_exists(n)`` asks the API (a counted control call) whether issue ``n`` exists.
    """
    wanted = max(issues, default=0)
    with control.client() as c:
        _check(c.post("_ghbench/seed", json={"repos": [{"name": repo, "issues": 0}]}), "seeding")
        if wanted == 0 or issue_exists(wanted):
            return
        highest = 0
        while highest < wanted:
            resp = _check(
                c.post(f"_ghbench/repos/{repo}/issues", json={"title": f"Task {highest + 1}"}),
                f"creating an issue in {repo}",
            )
            number = resp.json().get("number")
            if not isinstance(number, int) or number <= highest:
                raise EmulatorError(f"emulator control API: unexpected issue number {number!r}")
            highest = number


def push_branch(control: EmulatorControl, repo: str, branch: str, message: str) -> None:
    """A commit on ``branch`` (created from the default branch when new), like a push."""
    with control.client() as c:
        _check(
            c.post(f"_ghbench/repos/{repo}/push", json={"branch": branch, "message": message}),
            f"pushing {branch} to {repo}",
        )


def set_faults(control: EmulatorControl, faults: Mapping[str, object]) -> None:
    """Change the emulator's injected faults (latency, errors) from now on."""
    with control.client() as c:
        _check(c.post("_ghbench/faults", json=dict(faults)), "setting faults")


def add_review_comments(control: EmulatorControl, plan: Sequence[tuple[str, int, int]]) -> int:
    """(repo, PR, count) comments on each PR, free; how many were added."""
    added = 0
    with control.client() as c:
        for repo, number, count in plan:
            resp = c.post(
                f"_ghbench/repos/{repo}/review-comments", json={"count": count, "prs": [number]}
            )
            if resp.status_code >= 400:
                raise GhbenchError(f"S4: the emulator refused review comments on {repo}#{number}")
            added += int(resp.json().get("added", 0))
    return added
