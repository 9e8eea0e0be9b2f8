"""What agents would do during ``setup``, done through the API: a branch and a PR per session.

For each (session id, issue N): create ``refs/heads/feat/issue-N`` from the base
branch, add one commit on it through the contents API (GitHub refuses a PR with no
commits), and open a PR ``head=feat/issue-N`` against the base. Idempotent: an open PR
on that branch is reused, and an existing branch is kept (given its commit if it still
has none, as after an interrupted setup). Works against GitHub or the emulator; the
caller passes an httpx client whose base URL is the REST root and whose headers carry
the token.

GitHub's secondary limit on content creation (about 80 a minute, limits reference §4)
is reached by a setup of 40 sessions or more (a commit and a PR each): a refused
request waits ``retry-after`` (60 s without one, as Octokit does) on the ``sleep`` the
caller injects and is sent again (``ghbench.throttle``). An exhausted primary budget is an
error at once.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Sequence
from typing import Any

import httpx

from ghbench.errors import GitHubError
from ghbench.throttle import Sleep, response_message, send_within_limits
from ghbench.tls import tls_context
from ghbench.workload.config import SessionSpec

__all__ = ["create_session_prs", "open_api_client"]


def open_api_client(api_url: str, token: str, *, timeout_s: float = 30.0) -> httpx.Client:
    """An httpx client for setup actions: REST root, token sent as gh sends it.

    Proxies come from the environment, as they do for gh.
    """
    return httpx.Client(
        base_url=api_url if api_url.endswith("/") else api_url + "/",
        headers={
            "Authorization": f"token {token}",
            "Accept": "application/vnd.github+json",
            "User-Agent": "ghbench-setup",
        },
        timeout=timeout_s,
        verify=tls_context(),
    )


def _json(resp: httpx.Response, what: str) -> Any:
    if resp.status_code >= 300:
        detail = response_message(resp)
        raise GitHubError(f"{what} failed: HTTP {resp.status_code} {detail}".rstrip())
    return resp.json()


class _Api:
    """The client, the repo and the waiting rule, for the steps below."""

    def __init__(self, client: httpx.Client, repo: str, sleep: Sleep) -> None:
        self.client, self.repo, self.sleep = client, repo, sleep

    def send(self, method: str, path: str, **kw: Any) -> httpx.Response:
        url = f"repos/{self.repo}/{path}"
        return send_within_limits(self.client, self.sleep, method, url, **kw)

    def get(self, path: str, **kw: Any) -> httpx.Response:
        return self.send("GET", path, **kw)

    def post(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return self.send("POST", path, json=body)

    def put(self, path: str, body: dict[str, Any]) -> httpx.Response:
        return self.send("PUT", path, json=body)

    def branch_sha(self, branch: str) -> str | None:
        resp = self.get(f"git/ref/heads/{branch}")
        if resp.status_code == 404:
            return None
        return str(_json(resp, f"reading {self.repo}@{branch}")["object"]["sha"])


def _open_pr_for(api: _Api, branch: str) -> dict[str, Any] | None:
    owner = api.repo.split("/", 1)[0]
    pulls = _json(
        api.get("pulls", params={"head": f"{owner}:{branch}", "state": "open"}),
        f"listing PRs of {api.repo}",
    )
    for pr in pulls:
        if pr.get("head", {}).get("ref") == branch:
            return dict(pr)
    return None


def _ensure_branch(api: _Api, branch: str, base: str, issue: int) -> None:
    """``branch`` exists and has a commit the base has not."""
    base_sha = api.branch_sha(base)
    if base_sha is None:
        raise GitHubError(f"{api.repo} has no branch {base} to open PRs against")
    head_sha = api.branch_sha(branch)
    if head_sha is not None and head_sha != base_sha:
        return
    if head_sha is None:
        created = api.post("git/refs", {"ref": f"refs/heads/{branch}", "sha": base_sha})
        if created.status_code != 422:  # 422: created meanwhile
            _json(created, f"creating branch {branch} in {api.repo}")
    # The file is named after the base commit, so it is new on this branch even if an
    # earlier setup's commit for the issue was merged (GitHub wants a sha to overwrite).
    content = base64.b64encode(f"Work on issue #{issue}\n".encode()).decode()
    _json(
        api.put(
            f"contents/ghbench/issue-{issue}-{base_sha[:12]}.md",
            {"message": f"Work on #{issue}", "content": content, "branch": branch},
        ),
        f"committing to {branch} in {api.repo} (the token needs contents write access)",
    )


def create_session_prs(
    client: httpx.Client,
    repo: str,
    sessions: Sequence[tuple[str, int]],
    *,
    base: str | None = None,
    sleep: Sleep = time.sleep,
) -> list[SessionSpec]:
    """Branch ``feat/issue-N`` and an open PR for each ``(session_id, issue)``.

    Returns one ``SessionSpec`` per session, with its PR number, in input order.
    ``sleep`` waits out secondary-limit refusals (a virtual clock's in tests).
    """
    api = _Api(client, repo, sleep)
    if base is None:
        info = _json(send_within_limits(client, sleep, "GET", f"repos/{repo}"), f"reading {repo}")
        base = str(info["default_branch"])
    out: list[SessionSpec] = []
    for session_id, issue in sessions:
        branch = f"feat/issue-{issue}"
        pr = _open_pr_for(api, branch)
        if pr is None:
            _ensure_branch(api, branch, base, issue)
            pr = _json(
                api.post(
                    "pulls",
                    {
                        "title": _issue_title(api, issue),
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


def _issue_title(api: _Api, issue: int) -> str:
    resp = api.get(f"issues/{issue}")
    if resp.status_code == 200:
        return f"Fix #{issue}: {resp.json().get('title', '')}".rstrip(": ")
    return f"Fix #{issue}"
