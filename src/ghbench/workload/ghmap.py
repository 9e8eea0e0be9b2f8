"""What gh 2.23 sends for an argv, and what it prints for the answer.

The ``http`` and ``inprocess`` transports do not run gh; they make the HTTP
request gh would make (``gh api`` as given; ``pr list``, ``pr view`` and
``issue view`` as gh's GraphQL queries ``PullRequestList``, ``PullRequestByNumber``
and ``IssueByNumber``) and render the answer as gh prints it: ``-i`` status line
and sorted headers, exit code 1 for any status above 299 (304 included) and
for GraphQL errors, ``--json`` output as compact JSON with sorted keys.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from http import HTTPStatus
from typing import Any

__all__ = ["GH_VERSION", "GhRequestPlan", "HttpRequest", "HttpResponse", "plan_call"]

GH_VERSION = "2.23.0"
_API_ACCEPT = (
    "application/vnd.github.merge-info-preview+json, application/vnd.github.nebula-preview"
)
_VALUE_FLAGS = {"-H", "--header", "-f", "--raw-field", "-F", "--field", "-X", "--method"}


@dataclass(frozen=True)
class HttpRequest:
    """One HTTP request: ``path`` is relative to the API root (``/repos/…``, ``/graphql``)."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes | None = None


@dataclass(frozen=True)
class HttpResponse:
    status: int
    headers: Sequence[tuple[str, str]]
    body: bytes
    # seconds the emulator's latency model assigns, for virtual time
    latency_s: float | None = None


Render = Callable[[HttpResponse], tuple[int, bytes, bytes]]


@dataclass(frozen=True)
class GhRequestPlan:
    """The request gh sends for an argv and how it prints the response."""

    request: HttpRequest
    render: Render


@functools.lru_cache(maxsize=256)
def _canonical(name: str) -> str:
    # Go's textproto.CanonicalMIMEHeaderKey, which gh's -i output shows
    return "-".join(part[:1].upper() + part[1:].lower() for part in name.split("-"))


def _status_block(resp: HttpResponse) -> bytes:
    try:
        reason = HTTPStatus(resp.status).phrase
    except ValueError:
        reason = ""
    merged: dict[str, list[str]] = {}
    for name, value in resp.headers:
        merged.setdefault(_canonical(name), []).append(value)
    lines = [f"HTTP/1.1 {resp.status} {reason}".rstrip()]
    lines += [f"{name}: {', '.join(values)}" for name, values in sorted(merged.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1", "replace")


def _graphql_errors(body: bytes) -> list[str]:
    try:
        doc = json.loads(body)
    except ValueError:
        return []
    if not isinstance(doc, dict) or not doc.get("errors"):
        return []
    return [str(e.get("message", e)) if isinstance(e, dict) else str(e) for e in doc["errors"]]


def _http_error_text(resp: HttpResponse) -> bytes:
    message = ""
    try:
        doc = json.loads(resp.body)
        if isinstance(doc, dict) and isinstance(doc.get("message"), str):
            message = doc["message"]
    except ValueError:
        pass
    if message:
        return f"gh: {message} (HTTP {resp.status})\n".encode()
    return f"gh: HTTP {resp.status}\n".encode()


def _typed(value: str) -> Any:
    # gh api -F: true/false/null and integers become JSON values
    if value in ("true", "false"):
        return value == "true"
    if value == "null":
        return None
    if value.lstrip("-").isdigit():
        return int(value)
    return value


def _plan_api(argv: Sequence[str], auth: Mapping[str, str]) -> GhRequestPlan:
    endpoint: str | None = None
    include = False
    method: str | None = None
    headers: dict[str, str] = {}
    fields: dict[str, Any] = {}
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("-i", "--include"):
            include = True
        elif a in _VALUE_FLAGS and i + 1 < len(argv):
            value = argv[i + 1]
            if a in ("-H", "--header"):
                name, _, hv = value.partition(":")
                headers[name.strip()] = hv.strip()
            elif a in ("-X", "--method"):
                method = value.upper()
            else:
                key, _, fv = value.partition("=")
                fields[key] = _typed(fv) if a in ("-F", "--field") else fv
            i += 1
        elif not a.startswith("-") and endpoint is None:
            endpoint = a
        i += 1
    if endpoint is None:
        raise ValueError(f"gh api without an endpoint: {list(argv)!r}")
    is_graphql = endpoint == "graphql"
    method = method or ("POST" if fields else "GET")
    body: bytes | None = None
    if is_graphql:
        query = fields.pop("query", "")
        payload: dict[str, Any] = {"query": query}
        if fields:
            payload["variables"] = fields
        body = json.dumps(payload).encode()
    elif fields and method != "GET":
        body = json.dumps(fields).encode()
    req_headers = {"Accept": "*/*", "User-Agent": f"GitHub CLI {GH_VERSION}", **auth}
    if body is not None:
        req_headers["Content-Type"] = "application/json; charset=utf-8"
    req_headers.update(headers)
    path = "/" + endpoint.lstrip("/")

    def render(resp: HttpResponse) -> tuple[int, bytes, bytes]:
        stdout = (_status_block(resp) if include else b"") + resp.body
        if resp.status > 299:
            return 1, stdout, _http_error_text(resp)
        if is_graphql:
            errors = _graphql_errors(resp.body)
            if errors:
                return 1, stdout, ("\n".join(f"gh: {e}" for e in errors) + "\n").encode()
        return 0, stdout, b""

    return GhRequestPlan(HttpRequest(method, path, req_headers, body), render)


def _flag(argv: Sequence[str], *names: str) -> str | None:
    for i, a in enumerate(argv):
        if a in names and i + 1 < len(argv):
            return argv[i + 1]
    return None


def _json_out(value: Any) -> bytes:
    return (
        json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n"
    ).encode()


def _graphql_plan(
    auth: Mapping[str, str],
    query: str,
    variables: dict[str, Any],
    extract: Callable[[dict[str, Any]], Any],
) -> GhRequestPlan:
    body = json.dumps({"query": query, "variables": variables}).encode()
    headers = {
        "Accept": _API_ACCEPT,
        "Content-Type": "application/json; charset=utf-8",
        "GraphQL-Features": "merge_queue",
        "User-Agent": f"GitHub CLI {GH_VERSION}",
        **auth,
    }

    def render(resp: HttpResponse) -> tuple[int, bytes, bytes]:
        if resp.status > 299:
            return 1, b"", _http_error_text(resp)
        errors = _graphql_errors(resp.body)
        if errors:
            text = "".join(f"GraphQL: {e}\n" for e in errors)
            return 1, b"", text.encode()
        try:
            doc = json.loads(resp.body)
            return 0, _json_out(extract(doc["data"])), b""
        except (ValueError, KeyError, TypeError) as exc:
            return 1, b"", f"gh: unexpected response: {exc}\n".encode()

    return GhRequestPlan(HttpRequest("POST", "/graphql", headers, body), render)


PR_LIST_QUERY = (
    "query PullRequestList($owner: String!, $repo: String!, $limit: Int!, $endCursor: String, "
    "$baseBranch: String, $headBranch: String, $state: [PullRequestState!] = OPEN) { "
    "repository(owner: $owner, name: $repo) { pullRequests(states: $state, "
    "baseRefName: $baseBranch, headRefName: $headBranch, first: $limit, after: $endCursor, "
    "orderBy: {field: CREATED_AT, direction: DESC}) { totalCount nodes { {fields} } "
    "pageInfo { hasNextPage endCursor } } } }"
)
PR_BY_NUMBER_QUERY = (
    "query PullRequestByNumber($owner: String!, $repo: String!, $pr_number: Int!) { "
    "repository(owner: $owner, name: $repo) { pullRequest(number: $pr_number) { {fields} } } }"
)
ISSUE_BY_NUMBER_QUERY = (
    "query IssueByNumber($owner: String!, $repo: String!, $issue_number: Int!) { "
    "repository(owner: $owner, name: $repo) { hasIssuesEnabled "
    "issue: issueOrPullRequest(number: $issue_number) { __typename "
    "... on Issue { {fields} } ... on PullRequest { {fields} } } } }"
)
# --json field -> GraphQL selection, for the fields AO asks for
_FIELD_SELECTIONS = {
    "labels": "labels(first: 100) { nodes { id name description color } totalCount }",
    "assignees": "assignees(first: 100) { nodes { id name login } totalCount }",
}


def _selection(fields: Sequence[str]) -> str:
    return " ".join(_FIELD_SELECTIONS.get(f, f) for f in fields)


def _export(node: Mapping[str, Any], fields: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in fields:
        value = node.get(f)
        if isinstance(value, dict) and "nodes" in value:
            value = value["nodes"]
        out[f] = value
    return out


def _repo_vars(argv: Sequence[str]) -> dict[str, Any]:
    repo = _flag(argv, "--repo", "-R") or ""
    owner, _, name = repo.partition("/")
    return {"owner": owner, "repo": name}


def _plan_pr_list(argv: Sequence[str], auth: Mapping[str, str]) -> GhRequestPlan:
    fields = (_flag(argv, "--json") or "number,url").split(",")
    limit = int(_flag(argv, "--limit", "-L") or "30")
    variables = {**_repo_vars(argv), "limit": min(limit, 100), "state": ["OPEN"]}
    head = _flag(argv, "--head", "-H")
    if head:
        variables["headBranch"] = head
    query = PR_LIST_QUERY.replace("{fields}", _selection(fields))

    def extract(data: dict[str, Any]) -> Any:
        nodes = data["repository"]["pullRequests"]["nodes"][:limit]
        return [_export(n, fields) for n in nodes]

    return _graphql_plan(auth, query, variables, extract)


def _view_planner(
    query_template: str, default_fields: str, number_variable: str, answer_field: str
) -> Callable[[Sequence[str], Mapping[str, str]], GhRequestPlan]:
    """The plan of ``gh pr view N`` / ``gh issue view N``: one query by number, its
    ``--json`` fields (else gh's default) read from ``repository.{answer_field}``."""

    def plan(argv: Sequence[str], auth: Mapping[str, str]) -> GhRequestPlan:
        fields = (_flag(argv, "--json") or default_fields).split(",")
        variables = {**_repo_vars(argv), number_variable: int(argv[2])}
        query = query_template.replace("{fields}", _selection(fields))

        def extract(data: dict[str, Any]) -> Any:
            return _export(data["repository"][answer_field], fields)

        return _graphql_plan(auth, query, variables, extract)

    return plan


_plan_pr_view = _view_planner(PR_BY_NUMBER_QUERY, "state", "pr_number", "pullRequest")
_plan_issue_view = _view_planner(ISSUE_BY_NUMBER_QUERY, "number,title", "issue_number", "issue")


_PLANNERS: dict[tuple[str, ...], Callable[[Sequence[str], Mapping[str, str]], GhRequestPlan]] = {
    ("pr", "list"): _plan_pr_list,
    ("pr", "view"): _plan_pr_view,
    ("issue", "view"): _plan_issue_view,
}


def plan_call(argv: Sequence[str], token: str | None) -> GhRequestPlan:
    """The HTTP request gh makes for ``argv`` (one request; AO's calls need no more)."""
    auth = {"Authorization": f"token {token}"} if token else {}
    if argv and argv[0] == "api":
        return _plan_api(argv, auth)
    planner = _PLANNERS.get(tuple(argv[:2]))
    if planner is None:
        raise ValueError(f"the http transport does not know 'gh {' '.join(argv[:2])}'")
    return planner(argv, auth)
