"""Make the emulator hold the repo and issues a setup names, through its control API.

Control-API requests (``/_ghbench/...``) are never rate-limited nor in the ledger.
Issues and PRs share one number sequence, so issues are created one at a time
until the highest requested number exists; a repo that already has them is left
as it is, which keeps repeated setups idempotent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import httpx

from ghbench.errors import EmulatorError

__all__ = ["push_branch", "seed_repo"]


def _check(resp: httpx.Response, what: str) -> httpx.Response:
    if resp.status_code >= 300:
        raise EmulatorError(f"emulator control API: {what} failed (HTTP {resp.status_code})")
    return resp


def seed_repo(
    base_url: str, repo: str, issues: Sequence[int], issue_exists: Callable[[int], bool]
) -> None:
    """Create ``repo`` (if missing) and issues up to ``max(issues)``.

    ``issue_exists(n)`` asks the API (a counted control call) whether issue ``n`` exists.
    """
    wanted = max(issues, default=0)
    with httpx.Client(base_url=base_url.rstrip("/") + "/", timeout=30.0, trust_env=False) as c:
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


def push_branch(base_url: str, repo: str, branch: str, message: str) -> None:
    """A commit on ``branch`` (created from the default branch when new), like a push."""
    with httpx.Client(base_url=base_url.rstrip("/") + "/", timeout=30.0, trust_env=False) as c:
        _check(
            c.post(f"_ghbench/repos/{repo}/push", json={"branch": branch, "message": message}),
            f"pushing {branch} to {repo}",
        )
