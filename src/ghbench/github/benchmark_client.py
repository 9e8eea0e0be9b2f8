"""The benchmark's own GitHub calls: ``/rate_limit`` snapshots and PR state.

These are the spec's *benchmark-control* calls (the scorecard's
``benchmarkControlCalls``; inside ghbench "control" names only the emulator's control
API). They never go through the orchestrator's traced path: they are plain HTTPS
requests from this process, so no trace row can come from them, and every request
sent (retries included) is counted in ``BenchmarkClient.calls``; the scorecard
reports that count.

Transient failures (connection errors, 5xx, secondary-limit 403/429 with
``retry-after``) are retried a few times with a backoff on the injected clock.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx

from ghbench import __version__
from ghbench.clock import Clock
from ghbench.errors import GitHubError
from ghbench.ratelimit import RateLimitSnapshot, parse_rate_limit
from ghbench.tls import tls_context

__all__ = ["BenchmarkClient", "OpenPullRequest"]

USER_AGENT = f"ghbench-control/{__version__}"
RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
SNAPSHOT_RESOURCES = ("core", "graphql", "search")


@dataclass(frozen=True)
class OpenPullRequest:
    number: int
    url: str
    branch: str


@dataclass
class BenchmarkClient:
    """Counted, retried control calls against one GitHub (or emulator) base URL.

    ``base_url`` is the REST root (``https://api.github.com`` or the emulator's
    ``http://127.0.0.1:PORT``). The token is sent as gh does, ``Authorization: token T``.
    ``trust_env``: honour ``HTTP(S)_PROXY`` and CA settings as gh does (real GitHub, so
    the harness reaches it the way the orchestrator's gh does); off for the emulator
    ghbench started itself. A 401 says where the token came from (``token_source``)
    and what to do (``token_fix``).
    """

    base_url: str
    token: str = field(repr=False)
    clock: Clock
    attempts: int = 4
    timeout: float = 30.0
    calls: int = 0
    trust_env: bool = False
    token_source: str = "GH_TOKEN"
    token_fix: str = "check GH_TOKEN"
    _client: httpx.Client | None = field(default=None, repr=False)

    def _http(self) -> httpx.Client:
        if self._client is None:
            self._client = httpx.Client(
                base_url=self.base_url.rstrip("/") + "/",
                headers={
                    "Authorization": f"token {self.token}",
                    "Accept": "application/vnd.github+json",
                    "User-Agent": USER_AGENT,
                },
                timeout=self.timeout,
                trust_env=self.trust_env,
                verify=tls_context(),
            )
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def __enter__(self) -> BenchmarkClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, path: str, params: dict[str, str | int] | None = None) -> httpx.Response:
        last: str = ""
        advice = ""
        backoff = 0.0
        for attempt in range(self.attempts):
            if attempt:  # the wait the previous failure asked for; none after the last
                self.clock.sleep(backoff)
            self.calls += 1
            try:
                resp = self._http().get(path, params=params)
            except httpx.TransportError as exc:
                last = f"{type(exc).__name__}"
                advice = "check the network and that the API is reachable"
                backoff = min(2.0**attempt, 10.0)
                continue
            if resp.status_code in RETRY_STATUSES or _secondary_limited(resp):
                last = f"HTTP {resp.status_code}"
                advice = "the API answered, with an error each time"
                backoff = _retry_after(resp, attempt)
                continue
            return resp
        where = self.base_url
        raise GitHubError(
            f"GET {path} on {where} failed after {self.attempts} attempts ({last}); {advice}"
        )

    def _get(self, path: str, params: dict[str, str | int] | None = None) -> httpx.Response:
        resp = self._send(path, params)
        if resp.status_code == 401:
            raise GitHubError(
                f"GET {path} on {self.base_url}: the token from {self.token_source} was"
                f" rejected (401 Bad credentials); {self.token_fix}"
            )
        return resp

    def _get_json(self, path: str, params: dict[str, str | int] | None = None) -> Any:
        resp = self._get(path, params)
        if resp.status_code >= 400:
            raise GitHubError(f"GET {path}: HTTP {resp.status_code} {_message(resp)}")
        try:
            return resp.json()
        except ValueError:
            raise GitHubError(f"GET {path}: the response is not JSON") from None

    def rate_limit(self) -> RateLimitSnapshot:
        """One ``/rate_limit`` snapshot (free on GitHub: it spends no budget)."""
        captured = self.clock.now()
        snapshot = parse_rate_limit(self._get_json("rate_limit"), captured, SNAPSHOT_RESOURCES)
        if snapshot.get("core") is None or snapshot.get("graphql") is None:
            raise GitHubError("GET rate_limit: the answer has no core/graphql resources")
        return snapshot

    def pr_state(self, repo: str, number: int) -> str:
        """``OPEN``, ``CLOSED``, ``MERGED`` (gh's names), or ``MISSING`` for a 404."""
        resp = self._get(f"repos/{repo}/pulls/{number}")
        if resp.status_code == 404:
            return "MISSING"
        if resp.status_code >= 400:
            raise GitHubError(
                f"GET repos/{repo}/pulls/{number}: HTTP {resp.status_code} {_message(resp)}"
            )
        body = resp.json()
        if body.get("merged") or body.get("merged_at"):
            return "MERGED"
        return "OPEN" if body.get("state") == "open" else "CLOSED"

    def require_repo(self, repo: str) -> None:
        """GitHubError unless ``repo`` exists and the token can see it."""
        resp = self._get(f"repos/{repo}")
        if resp.status_code == 404:
            raise GitHubError(
                f"{repo}: no such repo at {self.base_url}, or the token from"
                f" {self.token_source} cannot see it; check the repo name and the token's access"
            )
        if resp.status_code >= 400:
            raise GitHubError(f"GET repos/{repo}: HTTP {resp.status_code} {_message(resp)}")

    def is_issue(self, repo: str, number: int) -> bool:
        """Whether ``number`` is an issue of ``repo`` (a pull request's number is not)."""
        body = self._issue(repo, number)
        return isinstance(body, dict) and "pull_request" not in body

    def issue_exists(self, repo: str, number: int) -> bool:
        """Whether issue (or PR) ``number`` exists in ``repo``."""
        return self._issue(repo, number) is not None

    def _issue(self, repo: str, number: int) -> Any:
        """The issue (or PR) ``number`` of ``repo`` as GitHub returns it; None if absent."""
        resp = self._get(f"repos/{repo}/issues/{number}")
        if resp.status_code in (404, 410):
            return None
        if resp.status_code >= 400:
            raise GitHubError(
                f"GET repos/{repo}/issues/{number}: HTTP {resp.status_code} {_message(resp)}"
            )
        return resp.json()

    def open_pull_requests(self, repo: str) -> dict[str, OpenPullRequest]:
        """Every open PR of ``repo`` keyed by head branch: one call per 100 PRs.

        One listing answers "does branch B have an open PR?" for every session at
        once, which is far cheaper than one ``--head`` query per session.
        """
        found: dict[str, OpenPullRequest] = {}
        for item in self._paginate(f"repos/{repo}/pulls", {"state": "open"}):
            head = item.get("head") or {}
            branch = head.get("ref")
            if isinstance(branch, str) and branch not in found:
                found[branch] = OpenPullRequest(
                    number=int(item["number"]), url=str(item.get("html_url", "")), branch=branch
                )
        return found

    def _paginate(self, path: str, params: dict[str, str | int]) -> Iterator[dict[str, Any]]:
        page = 1
        while True:
            batch = self._get_json(path, {**params, "per_page": 100, "page": page})
            if not isinstance(batch, list):
                raise GitHubError(f"GET {path}: expected a list")
            yield from (x for x in batch if isinstance(x, dict))
            if len(batch) < 100:
                return
            page += 1


def _secondary_limited(resp: httpx.Response) -> bool:
    return resp.status_code == 403 and "retry-after" in resp.headers


def _retry_after(resp: httpx.Response, attempt: int) -> float:
    try:
        return min(float(resp.headers.get("retry-after", "")), 60.0)
    except ValueError:
        return min(2.0**attempt, 10.0)


def _message(resp: httpx.Response) -> str:
    try:
        body = resp.json()
    except ValueError:
        return ""
    msg = body.get("message") if isinstance(body, dict) else None
    return f"({msg})" if isinstance(msg, str) else ""
