"""What agents would do during ``setup``, done through the API: a branch and a PR per session.

For each (session id, issue N): create ``refs/heads/feat/issue-N`` from the base
branch, add one commit on it (so GitHub accepts the PR), and open a PR
``head=feat/issue-N`` against the base. Idempotent: an open PR on that branch
is reused, an existing branch is kept. Works against GitHub or the emulator;
the caller passes an httpx client whose base URL is the REST root and whose
headers carry the token.
"""

from __future__ import annotations

import base64
import contextlib
from collections.abc import Sequence
from typing import Any

import httpx

from ghbench.errors import GitHubError
from ghbench.workload.config import SessionSpec

__all__ = ["create_session_prs", "open_api_client"]


def open_api_client(api_url: str, token: str, *, timeout_s: float = 30.0) -> httpx.Client:
    """An httpx client for setup actions: REST root, token sent as gh sends it."""
    return httpx.Client(
        base_url=api_url if api_url.endswith("/") else api_url + "/",
        headers={
            "Authorization": f"token {token}",
            "Accept": "application/vnd.github+json",
            "User-Agent": "ghbench-setup",
        },
        timeout=timeout_s,
    )


def _json(resp: httpx.Response, what: str) -> Any:
    if resp.status_code >= 300:
        message = ""
        with contextlib.suppress(ValueError):
            message = str(resp.json().get("message", ""))
        raise GitHubError(f"{what} failed: HTTP {resp.status_code} {message}".rstrip())
    return resp.json()


def _open_pr_for(client: httpx.Client, repo: str, branch: str) -> dict[str, Any] | None:
    owner = repo.split("/", 1)[0]
    pulls = _json(
        client.get(f"repos/{repo}/pulls", params={"head": f"{owner}:{branch}", "state": "open"}),
        f"listing PRs of {repo}",
    )
    for pr in pulls:
        if pr.get("head", {}).get("ref") == branch:
            return dict(pr)
    return None


def _ensure_branch(client: httpx.Client, repo: str, branch: str, base: str, issue: int) -> None:
    ref = client.get(f"repos/{repo}/git/ref/heads/{branch}")
    if ref.status_code == 200:
        return
    base_ref = _json(client.get(f"repos/{repo}/git/ref/heads/{base}"), f"reading {repo}@{base}")
    sha = base_ref["object"]["sha"]
    created = client.post(
        f"repos/{repo}/git/refs", json={"ref": f"refs/heads/{branch}", "sha": sha}
    )
    if created.status_code not in (201, 422):  # 422: created meanwhile
        _json(created, f"creating branch {branch} in {repo}")
    # one commit, so the branch differs from the base; an emulator without the
    # contents API accepts a PR without it
    content = base64.b64encode(f"Work on issue #{issue}\n".encode()).decode()
    client.put(
        f"repos/{repo}/contents/ghbench/issue-{issue}.md",
        json={"message": f"Work on #{issue}", "content": content, "branch": branch},
    )


def create_session_prs(
    client: httpx.Client,
    repo: str,
    sessions: Sequence[tuple[str, int]],
    *,
    base: str | None = None,
) -> list[SessionSpec]:
    """Branch ``feat/issue-N`` and an open PR for each ``(session_id, issue)``.

    Returns one ``SessionSpec`` per session, with its PR number, in input order.
    """
    if base is None:
        base = str(_json(client.get(f"repos/{repo}"), f"reading {repo}")["default_branch"])
    out: list[SessionSpec] = []
    for session_id, issue in sessions:
        branch = f"feat/issue-{issue}"
        pr = _open_pr_for(client, repo, branch)
        if pr is None:
            _ensure_branch(client, repo, branch, base, issue)
            title = _issue_title(client, repo, issue)
            pr = _json(
                client.post(
                    f"repos/{repo}/pulls",
                    json={
                        "title": title,
                        "head": branch,
                        "base": base,
                        "body": f"Closes #{issue}",
                    },
                ),
                f"opening a PR for {branch} in {repo}",
            )
        out.append(
            SessionSpec(id=session_id, repo=repo, issue=issue, branch=branch, pr=int(pr["number"]))
        )
    return out


def _issue_title(client: httpx.Client, repo: str, issue: int) -> str:
    resp = client.get(f"repos/{repo}/issues/{issue}")
    if resp.status_code == 200:
        return f"Fix #{issue}: {resp.json().get('title', '')}".rstrip(": ")
    return f"Fix #{issue}"
