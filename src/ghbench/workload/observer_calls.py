"""The requests AO 0.10's and 0.12's daemons send to GitHub, as data.

The daemon calls GitHub's API itself (Go's net/http, no gh), with its own User-Agent,
``Accept`` and API version; its SCM observer's requests are reproduced here byte for
byte in path, query (Go's ``url.Values.Encode``: keys sorted) and GraphQL text, from
0.10.3's ``adapters/scm/github`` (``observer_provider.go``, ``client.go``,
``provider.go``) and 0.12.6's (the same files: ``since`` on the open-PR list, the
check-runs pages, ``GET /user``, the queries' added fields). Each is written as the
``gh api`` invocation that sends the same request, so every transport runs it
(``ghbench.workload.ghmap``), and carries the daemon's User-Agent as its ``client``:
its row is the GitHub front's row of that exchange, as a real run's is. The query
shapes' page sizes are AO's constants; the check contexts per PR come from the policy
(``batch_contexts_first``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from urllib.parse import quote

from ghbench.workload.calls import BatchTarget, GhCall
from ghbench.workload.profiles import ObserverQueries

__all__ = [
    "COMPONENT",
    "USER_AGENT",
    "batch",
    "blob_download",
    "check_contexts",
    "commit_checks_guard",
    "failed_job_log",
    "identity",
    "open_prs_page",
    "post_review",
    "pr_list_guard",
    "review_threads",
]

USER_AGENT = "ao-agent-orchestrator/scm-github"  # client.go's defaultUserAgent
COMPONENT = "scm-github"  # what the front's rows of that User-Agent carry
_REST_HEADERS = (
    "-H", "Accept: application/vnd.github+json",
    "-H", "X-GitHub-Api-Version: 2022-11-28",
    "-H", f"User-Agent: {USER_AGENT}",
)  # fmt: skip
# the job-log download (fetchPlainText) sends no API version
_PLAIN_HEADERS = ("-H", "Accept: application/vnd.github+json", "-H", f"User-Agent: {USER_AGENT}")
_GRAPHQL_HEADERS = ("-H", "Accept: application/json", "-H", f"User-Agent: {USER_AGENT}")

# review threads (observer_provider.go): the latest 50, 5 comments each, 20 reviews
REVIEW_THREAD_PAGE = 50
REVIEW_COMMENTS_PER_THREAD = 5
REVIEW_SUMMARIES = 20


def _owner_name(repo: str) -> tuple[str, str]:
    owner, _, name = repo.partition("/")
    return owner, name


def _gql_string(text: str) -> str:
    """Go's ``json.Marshal`` of a string, which AO writes into its queries."""
    return json.dumps(text)


def _rest(path: str, etag: str | None, headers: tuple[str, ...] = _REST_HEADERS) -> GhCall:
    argv = ["api", path, "-i", *headers]
    if etag:
        argv += ["-H", f"If-None-Match: {etag}"]
    return GhCall(tuple(argv), COMPONENT, client=USER_AGENT)


def _graphql(query: str) -> GhCall:
    argv = ("api", "graphql", "-i", *_GRAPHQL_HEADERS, "-f", f"query={query}")
    return GhCall(argv, COMPONENT, client=USER_AGENT)


def pr_list_guard(repo: str, etag: str | None) -> GhCall:
    """``RepoPRListGuard``: the newest-updated open PR, with the repo's last ETag."""
    query = "direction=desc&per_page=1&sort=updated&state=open"
    return _rest(f"repos/{repo}/pulls?{query}", etag)


def open_prs_page(
    repo: str, page: int, per_page: int, etag: str | None, since: str | None = None
) -> GhCall:
    """``ListOpenPRsByRepo`` (0.12: ``ListPRsByRepo``, ``since`` the repo's last sync):
    one page of every open PR (its client's ETag cache revalidates a URL it fetched
    before). Go's ``url.Values.Encode``: keys sorted, ``:`` escaped."""
    since_q = f"&since={quote(since, safe='')}" if since else ""
    query = f"direction=desc&page={page}&per_page={per_page}{since_q}&sort=updated&state=open"
    return _rest(f"repos/{repo}/pulls?{query}", etag)


def commit_checks_guard(
    repo: str, sha: str, per_page: int, etag: str | None, page: int | None = None
) -> GhCall:
    """``CommitChecksGuard``: a head commit's check runs, with its last ETag; ``page``:
    a later page of a commit with more runs than one holds (0.12)."""
    query = f"page={page}&per_page={per_page}" if page else f"per_page={per_page}"
    return _rest(f"repos/{repo}/commits/{sha}/check-runs?{query}", etag)


def identity() -> GhCall:
    """``AuthenticatedIdentity`` (0.12): the token's user, once per process."""
    return _rest("user", None)


# the PR fields each build's batch asks: 0.12.6 adds the node id
_PR_FIELDS_HEAD: dict[ObserverQueries, str] = {
    "0.10.3": "\nnumber url state isDraft merged closed title ",
    "0.12.6": "\nnumber id url state isDraft merged closed title ",
}
# the decisive reviews' fields each build's review query asks: 0.12.6 adds body and commit
_REVIEW_SUMMARY_FIELDS: dict[ObserverQueries, str] = {
    "0.10.3": "id state url submittedAt author{ login __typename }",
    "0.12.6": "id state url submittedAt body commit{ oid } author{ login __typename }",
}


def _pr_fields(contexts_first: int, queries: ObserverQueries) -> str:
    return (
        _PR_FIELDS_HEAD[queries] + "additions deletions changedFiles\n"
        "mergeable mergeStateStatus reviewDecision headRefName headRefOid baseRefName "
        "baseRefOid\ncreatedAt updatedAt mergedAt closedAt\nauthor{ login }\n"
        "mergeCommit{ oid }\n"
        "commits(last:1){ nodes{ commit{ oid statusCheckRollup{ state "
        f"contexts(first:{contexts_first}){{ nodes{{\n"
        "  __typename\n"
        "  ... on CheckRun { name status conclusion detailsUrl url databaseId }\n"
        "  ... on StatusContext { context state targetUrl }\n"
        "} pageInfo{ hasNextPage endCursor } } } } } }\n"
    )


def batch_query(
    targets: Sequence[BatchTarget], contexts_first: int, queries: ObserverQueries = "0.10.3"
) -> str:
    """``buildSCMBatchQuery``: ``prN: repository(...)`` per PR, anonymous."""
    fields = _pr_fields(contexts_first, queries)
    parts = ["query{\n"]
    for i, t in enumerate(targets):
        owner, name = _owner_name(t.repo)
        parts.append(
            f"pr{i}: repository(owner:{_gql_string(owner)},name:{_gql_string(name)})"
            f"{{ pullRequest(number:{t.number}){{ {fields} }} }}\n"
        )
    parts.append("}")
    return "".join(parts)


def batch(
    targets: Sequence[BatchTarget], contexts_first: int, queries: ObserverQueries = "0.10.3"
) -> GhCall:
    """``FetchPullRequests``: at most the batch size of PRs in one query."""
    return _graphql(batch_query(targets, contexts_first, queries))


def check_contexts(repo: str, number: int, cursor: str, contexts_first: int) -> GhCall:
    """``buildCheckContextsQuery``: the next page of a PR's rollup contexts."""
    owner, name = _owner_name(repo)
    query = (
        "query{\n"
        f"repo: repository(owner:{_gql_string(owner)},name:{_gql_string(name)})"
        f"{{ pullRequest(number:{number}){{\n"
        "  commits(last:1){ nodes{ commit{ statusCheckRollup{ "
        f"contexts(first:{contexts_first}, after:{_gql_string(cursor)}){{ nodes{{\n"
        "    __typename\n"
        "    ... on CheckRun { name status conclusion detailsUrl url databaseId }\n"
        "    ... on StatusContext { context state targetUrl }\n"
        "  } pageInfo{ hasNextPage endCursor } } } } } }\n"
        "} }\n"
        "}"
    )
    return _graphql(query)


def review_threads(
    repo: str, number: int, before: str | None = None, queries: ObserverQueries = "0.10.3"
) -> GhCall:
    """``fetchReviewThreadPage``: the latest review threads (the first page also asks
    the decisive reviews); ``before``: the older page's cursor."""
    owner, name = _owner_name(repo)
    summaries = (
        ""
        if before
        else f" reviewSummaries: reviews(last:{REVIEW_SUMMARIES}, "
        f"states:[APPROVED,CHANGES_REQUESTED]){{ nodes{{ {_REVIEW_SUMMARY_FIELDS[queries]} }} }}"
    )
    cursor = _gql_string(before) if before else "null"
    query = (
        "query{\n"
        f"repo: repository(owner:{_gql_string(owner)},name:{_gql_string(name)})"
        f"{{ pullRequest(number:{number}){{ reviewDecision{summaries} "
        f"reviewThreads(last:{REVIEW_THREAD_PAGE}, before:{cursor}){{ nodes{{\n"
        "  id isResolved path line\n"
        f"  comments(first:{REVIEW_COMMENTS_PER_THREAD}){{ nodes{{ id body url "
        "author{ login __typename } } }\n"
        "} pageInfo{ hasPreviousPage startCursor } } } }\n"
        "}"
    )
    return _graphql(query)


def failed_job_log(repo: str, job_id: int) -> GhCall:
    """``fetchJobLogTail``: a failed job's log, which GitHub answers with a redirect."""
    return _rest(f"repos/{repo}/actions/jobs/{job_id}/logs", None, _PLAIN_HEADERS)


def blob_download(location: str) -> GhCall:
    """The redirect's target (Go's client follows it with the same headers)."""
    path = location.split("://", 1)[-1].partition("/")[2]
    return _rest(path, None, _PLAIN_HEADERS)


REVIEWER_COMPONENT = "agent"  # a reviewer is a coding agent: its gh calls are an agent's


def post_review(repo: str, number: int, session_id: str) -> GhCall:
    """What AO 0.12's reviewer agent is told to run (``review/prompt.go``): one review
    of the PR's head, ``event`` COMMENT (the PR's author may not approve its own), as
    ``gh api --method POST …/reviews``; its fields here as ``-f`` (the prompt pipes the
    same JSON in with ``--input -`` and keeps ``--jq .id`` of the answer)."""
    argv = (
        "api", "--method", "POST", f"repos/{repo}/pulls/{number}/reviews",
        "-f", "event=COMMENT", "-f", "body=Reviewed by AO's reviewer agent.",
    )  # fmt: skip
    return GhCall(argv, REVIEWER_COMPONENT, session_id=session_id)
