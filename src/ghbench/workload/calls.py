"""The gh invocations AO makes, as data: exact argv, component and operation name.

A ``GhCall`` is what the policy asks for; a transport runs it and answers a
``GhResult`` shaped like a gh process's output (exit code, stdout with ``-i``
headers, stderr), so every transport feeds the same row builder. The argv
builders reproduce AO's calls (reference §4, §5, §9) byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field

__all__ = [
    "BATCH",
    "COMPONENT_BATCH",
    "COMPONENT_SCM",
    "COMPONENT_TRACKER",
    "DASHBOARD_COMPONENT",
    "GUARD_COMMIT_STATUS",
    "GUARD_PR_LIST",
    "GUARD_REVIEW_COMMENTS",
    "BatchTarget",
    "GhCall",
    "GhResult",
    "batch_query",
    "dashboard_pr_view",
    "detect_pr",
    "graphql_batch",
    "guard_commit",
    "guard_pr_list",
    "issue_view",
    "parse_api_output",
    "pr_view_state",
    "review_comments",
    "review_threads",
]

COMPONENT_BATCH = "scm-github-batch"
COMPONENT_SCM = "scm-github"
COMPONENT_TRACKER = "tracker-github"
# S6: dashboard-like readers get their own component so their spend is separable.
DASHBOARD_COMPONENT = "dashboard"

GUARD_PR_LIST = "gh.api.guard-pr-list"
GUARD_COMMIT_STATUS = "gh.api.guard-commit-status"
GUARD_REVIEW_COMMENTS = "gh.api.guard-review-comments"
BATCH = "gh.api.graphql-batch"


@dataclass(frozen=True)
class GhCall:
    """One gh invocation: ``gh <argv…>``.

    ``operation`` is AO's explicit name (guards, batch) or None to derive it from
    argv as AO does. ``session_id`` is for optional per-session attribution.
    ``client``: the User-Agent of a client that sends this request itself rather than
    through gh (AO 0.10's daemon, ``ghbench.workload.observer_calls``); its row is the
    one the GitHub front writes for that client's exchange (``ghbench.workload.rows``).
    """

    argv: tuple[str, ...]
    component: str
    operation: str | None = None
    session_id: str | None = None
    client: str | None = None


@dataclass(frozen=True)
class GhResult:
    """What gh produced: exit code, stdout (``-i`` headers + body), stderr, wall time."""

    exit_code: int
    stdout: bytes
    stderr: bytes = b""
    duration_s: float = 0.0
    signal: str | None = None
    # HTTP exchanges behind this invocation, for transports that see them
    http_statuses: tuple[int, ...] = field(default=())


@dataclass(frozen=True)
class ApiOutput:
    """``gh api -i`` stdout split into status, lower-cased headers and body."""

    status: int | None
    headers: dict[str, str]
    body: bytes

    def json(self) -> object:
        return json.loads(self.body) if self.body.strip() else None


# the last output split: a call's row and its poller read the same output one after
# the other (the same object), and need not split it twice
_last: list[tuple[bytes, ApiOutput]] = []


def parse_api_output(stdout: bytes) -> ApiOutput:
    """Split ``gh api -i`` output; the last ``HTTP/`` block wins (redirects print several).
    Its headers are shared with the next reader of the same output: do not change them."""
    if _last and _last[0][0] is stdout:
        return _last[0][1]
    out = _split_api_output(stdout)
    _last[:] = [(stdout, out)]
    return out


def _split_api_output(stdout: bytes) -> ApiOutput:
    status: int | None = None
    headers: dict[str, str] = {}
    rest = stdout
    while rest.startswith(b"HTTP/"):
        head, sep, body = rest.partition(b"\r\n\r\n")
        if not sep:
            head, sep, body = rest.partition(b"\n\n")
        lines = head.decode("latin-1").splitlines()
        parts = lines[0].split(" ", 2)
        status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        rest = body
    return ApiOutput(status, headers, rest)


def _repo_parts(repo: str) -> tuple[str, str]:
    owner, _, name = repo.partition("/")
    return owner, name


def guard_pr_list(repo: str, etag: str | None) -> GhCall:
    argv = [
        "api",
        f"repos/{repo}/pulls?state=open&sort=updated&direction=desc&per_page=1",
        "-i",
    ]
    if etag:
        argv += ["-H", f"If-None-Match: {etag}"]
    return GhCall(tuple(argv), COMPONENT_BATCH, GUARD_PR_LIST)


_COMMIT_PATHS = {
    "check-runs": "repos/{repo}/commits/{sha}/check-runs?per_page=1",
    "status": "repos/{repo}/commits/{sha}/status",
}


def guard_commit(repo: str, sha: str, endpoint: str, etag: str | None) -> GhCall:
    argv = ["api", _COMMIT_PATHS[endpoint].format(repo=repo, sha=sha), "-i"]
    if etag:
        argv += ["-H", f"If-None-Match: {etag}"]
    return GhCall(tuple(argv), COMPONENT_BATCH, GUARD_COMMIT_STATUS)


def review_comments(repo: str, number: int, etag: str | None, *, guarded: bool) -> GhCall:
    """HEAD: ``-i`` with an ETag (Guard 3, explicit name); bench-era: a plain opaque call."""
    path = f"repos/{repo}/pulls/{number}/comments"
    if not guarded:
        return GhCall(("api", path), COMPONENT_SCM)
    argv = ["api", path, "-i"]
    if etag:
        argv += ["-H", f"If-None-Match: {etag}"]
    return GhCall(tuple(argv), COMPONENT_BATCH, GUARD_REVIEW_COMMENTS)


REVIEW_THREADS_QUERY = (
    "query($owner: String!, $name: String!, $number: Int!) { "
    "repository(owner: $owner, name: $name) { pullRequest(number: $number) { "
    "reviewThreads(first: 100) { nodes { isResolved comments(first: 1) { nodes { "
    "id author { login } body path line url createdAt } } } } "
    "reviews(last: 20) { nodes { state author { login } submittedAt } } } } }"
)


def review_threads(repo: str, number: int, *, include: bool = True) -> GhCall:
    """HEAD asks with ``-i`` (a visible row); bench-era did not (an opaque row)."""
    owner, name = _repo_parts(repo)
    argv = (
        "api",
        "graphql",
        *(("-i",) if include else ()),
        "-f",
        f"query={REVIEW_THREADS_QUERY}",
        "-f",
        f"owner={owner}",
        "-f",
        f"name={name}",
        "-F",
        f"number={number}",
    )
    return GhCall(argv, COMPONENT_SCM)


@dataclass(frozen=True)
class BatchTarget:
    repo: str
    number: int


def batch_query(targets: Sequence[BatchTarget], contexts_first: int) -> str:
    """AO's aliased ``BatchPRs`` query: ``pr0: repository(...) { pullRequest(...) {...} }``."""
    rollup = "state"
    if contexts_first > 0:
        rollup += (
            f" contexts(first: {contexts_first}) {{ nodes {{ __typename "
            "... on CheckRun { name status conclusion } "
            "... on StatusContext { context state } } }"
        )
    fields = (
        "number url title state isDraft mergeable reviewDecision "
        "headRefName headRefOid baseRefName updatedAt "
        f"commits(last: 1) {{ nodes {{ commit {{ oid statusCheckRollup {{ {rollup} }} }} }} }}"
    )
    parts = []
    for i, t in enumerate(targets):
        owner, name = _repo_parts(t.repo)
        parts.append(
            f'pr{i}: repository(owner: "{owner}", name: "{name}") '
            f"{{ pullRequest(number: {t.number}) {{ {fields} }} }}"
        )
    return "query BatchPRs { " + " ".join(parts) + " rateLimit { cost remaining resetAt } }"


def graphql_batch(targets: Sequence[BatchTarget], contexts_first: int) -> GhCall:
    query = batch_query(targets, contexts_first)
    return GhCall(("api", "graphql", "-i", "-f", f"query={query}"), COMPONENT_BATCH, BATCH)


def detect_pr(repo: str, branch: str, session_id: str | None = None) -> GhCall:
    argv = ("pr", "list", "--head", branch, "--repo", repo, "--json", "number,url", "--limit", "1")
    return GhCall(argv, COMPONENT_SCM, session_id=session_id)


def pr_view_state(repo: str, number: int, session_id: str | None = None) -> GhCall:
    argv = ("pr", "view", str(number), "--repo", repo, "--json", "state")
    return GhCall(argv, COMPONENT_SCM, session_id=session_id)


ISSUE_FIELDS = "number,title,body,url,state,labels,assignees"


def dashboard_pr_view(repo: str, number: int, session_id: str | None = None) -> GhCall:
    """S6: what a dashboard page load asks for one session's PR."""
    fields = "number,state,title,reviewDecision,mergeable"
    argv = ("pr", "view", str(number), "--repo", repo, "--json", fields)
    return GhCall(argv, DASHBOARD_COMPONENT, session_id=session_id)


def issue_view(
    repo: str, number: int, *, component: str = COMPONENT_TRACKER, session_id: str | None = None
) -> GhCall:
    argv = ("issue", "view", str(number), "--repo", repo, "--json", ISSUE_FIELDS)
    return GhCall(argv, component, session_id=session_id)
