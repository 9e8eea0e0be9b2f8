"""Review comments on real GitHub's PRs, through its REST API (the matrix's S4 burst).

Each is a file-level review comment on the PR's first changed file, counted against
the token's budget but never in the trace. GitHub limits content creation to about 80
a minute, so a burst at 25-50 sessions waits out its 403s and takes minutes
(``ghbench.throttle``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import httpx

from ghbench.errors import GhbenchError
from ghbench.throttle import send_within_limits
from ghbench.tls import tls_context

__all__ = ["post_review_comments"]


def post_review_comments(api_url: str, token: str, plan: Sequence[tuple[str, int, int]]) -> int:
    """(repo, PR, count) comments on each PR; how many were added."""
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/vnd.github+json",
    }
    added = 0
    base = api_url.rstrip("/") + "/"
    with httpx.Client(base_url=base, timeout=30.0, headers=headers, verify=tls_context()) as c:

        def send(method: str, url: str, **kw: Any) -> httpx.Response:
            return send_within_limits(c, time.sleep, method, url, **kw)

        for repo, number, count in plan:
            pr = send("GET", f"repos/{repo}/pulls/{number}")
            files = send("GET", f"repos/{repo}/pulls/{number}/files", params={"per_page": 1})
            if pr.status_code >= 400 or files.status_code >= 400 or not files.json():
                raise GhbenchError(
                    f"S4: cannot read {repo}#{number} to comment on (HTTP {pr.status_code})"
                )
            sha, path = pr.json()["head"]["sha"], files.json()[0]["filename"]
            for i in range(count):
                body = {
                    "body": f"Review note {i + 1} (ghbench S4 burst)",
                    "commit_id": sha,
                    "path": path,
                    "subject_type": "file",
                }
                resp = send("POST", f"repos/{repo}/pulls/{number}/comments", json=body)
                if resp.status_code >= 400:
                    raise GhbenchError(
                        f"S4: GitHub refused a review comment on {repo}#{number}"
                        f" (HTTP {resp.status_code}); the token needs pull-request write access"
                    )
                added += 1
    return added
