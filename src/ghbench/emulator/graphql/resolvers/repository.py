"""The query root, repositories, refs and actors (users, bots, organizations)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ghbench.emulator.graphql.resolvers.connections import paginate
from ghbench.emulator.graphql.resolvers.context import (
    Info,
    context_of,
    iso,
    resolved,
    store_of,
)
from ghbench.emulator.graphql.resolvers.labels import repository_label, repository_labels
from ghbench.emulator.graphql.resolvers.people import organization
from ghbench.emulator.graphql.resolvers.views import CommitView, RefView
from ghbench.emulator.search import has_any_label, involves, mentions

if TYPE_CHECKING:
    from ghbench.emulator.state import Issue, PullRequest, Repo, Store, User

__all__ = [
    "ACTOR_FIELDS",
    "BRANCH_PROTECTION_FIELDS",
    "QUERY_FIELDS",
    "REF_FIELDS",
    "REPOSITORY_FIELDS",
    "actor",
]


# PullRequestState / IssueState enum -> predicate over a record's (state, merged).
_PULL_STATES: dict[str, Callable[[PullRequest], bool]] = {
    "OPEN": lambda p: p.state == "open",
    "CLOSED": lambda p: p.state == "closed" and not p.merged,
    "MERGED": lambda p: p.merged,
}
_ORDER_KEYS = {
    "CREATED_AT": lambda r: (r.created_at, r.id),
    "UPDATED_AT": lambda r: (r.updated_at, r.id),
    "COMMENTS": lambda r: (0, r.id),
}


def actor(info: Info, user_id: int | None) -> User | None:
    """The user record for an author/actor field, or None (a deleted user: "ghost")."""
    if user_id is None:
        return None
    return store_of(info).users.get(user_id)


# -- Query ------------------------------------------------------------------------
def _repository(_: object, info: Info, owner: str, name: str, **_args: Any) -> Repo:
    return resolved(
        store_of(info).repo(owner, name), f"a Repository with the name '{owner}/{name}'."
    )


def _node(_: object, info: Info, id: str) -> object:
    return resolved(store_of(info).node(id), f"a node with the global id of '{id}'")


def _user(_: object, info: Info, login: str) -> User:
    return resolved(store_of(info).user(login), f"a User with the login of '{login}'.")


def _rate_limit(_: object, info: Info, **_args: Any) -> dict[str, Any]:
    context = context_of(info)
    return {
        "cost": context.report.cost,
        "limit": context.bucket.limit,
        "remaining": context.bucket.remaining,
        "used": context.bucket.used,
        "resetAt": iso(context.bucket.reset),
        "nodeCount": context.report.node_count,
    }


QUERY_FIELDS = {
    "repository": _repository,
    "repositoryOwner": _user,
    "user": _user,
    "node": _node,
    "nodes": lambda _, info, ids: [store_of(info).node(i) for i in ids],
    "viewer": lambda _, info: context_of(info).viewer,
    "rateLimit": _rate_limit,
    "organization": organization,
}


# -- Repository ---------------------------------------------------------------------
def _pull_requests(repo: Repo, info: Info, **args: Any) -> Any:
    pulls: list[PullRequest] = store_of(info).pulls(repo, "all")
    states = args.get("states")
    if states:
        wanted = [_PULL_STATES[s] for s in states]
        pulls = [p for p in pulls if any(test(p) for test in wanted)]
    for argument, attribute in (("headRefName", "head_ref"), ("baseRefName", "base_ref")):
        if args.get(argument) is not None:
            pulls = [p for p in pulls if getattr(p, attribute) == args[argument]]
    if args.get("labels"):
        pulls = [p for p in pulls if has_any_label(p, args["labels"])]
    order = args.get("orderBy")
    if order:
        pulls = sorted(pulls, key=_ORDER_KEYS[order["field"]], reverse=order["direction"] == "DESC")
    return paginate(pulls, **args)


def _issues(repo: Repo, info: Info, **args: Any) -> Any:
    store = store_of(info)
    issues: list[Issue] = store.issues(repo, "all")
    filters = args.get("filterBy") or {}
    states = args.get("states") or filters.get("states")
    if states:
        issues = [i for i in issues if i.state.upper() in states]
    labels = args.get("labels") or filters.get("labels")
    if labels:
        issues = [i for i in issues if has_any_label(i, labels)]
    issues = [i for i in issues if _passes(store, i, filters, context_of(info).viewer)]
    order = args.get("orderBy")
    if order:
        issues = sorted(
            issues, key=_ORDER_KEYS[order["field"]], reverse=order["direction"] == "DESC"
        )
    return paginate(issues, **args)


def _passes(store: Store, issue: Issue, filters: dict[str, Any], viewer: User) -> bool:
    """``IssueFilters`` (gh's ``issue list --author/--assignee/--mention``): ``assignee``
    a login, ``*`` (anyone) or an explicit ``null`` (no one). Nothing has a milestone
    here, so only ``null`` or "none" let an issue through; ``viewerSubscribed`` counts
    the issues the viewer is involved in."""
    author = filters.get("createdBy")
    if author and store.users[issue.user_id].login.lower() != author.lower():
        return False
    if "assignee" in filters and not _assigned(store, issue, filters["assignee"]):
        return False
    if filters.get("mentioned") and not mentions(store, issue, filters["mentioned"]):
        return False
    milestone = filters.get("milestone")
    if milestone is not None and str(milestone).lower() != "none":
        return False
    since = filters.get("since")
    if since and issue.updated_at < _epoch(since):
        return False
    return not (filters.get("viewerSubscribed") and not involves(store, issue, viewer.login))


def _assigned(store: Store, issue: Issue, wanted: str | None) -> bool:
    if wanted is None:
        return not issue.assignees
    if wanted == "*":
        return bool(issue.assignees)
    logins = {store.users[i].login.lower() for i in issue.assignees if i in store.users}
    return wanted.lower() in logins


def _epoch(value: str) -> float:
    moment = datetime.fromisoformat(value)
    return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp()


def _pull_request(repo: Repo, info: Info, number: int) -> PullRequest:
    return resolved(
        store_of(info).pull(repo, number), f"a PullRequest with the number of {number}."
    )


def _issue(repo: Repo, info: Info, number: int) -> object:
    return resolved(store_of(info).issue(repo, number), f"an Issue with the number of {number}.")


def _issue_or_pull(repo: Repo, info: Info, number: int) -> object:
    store = store_of(info)
    return resolved(
        store.issue(repo, number) or store.pull(repo, number),
        f"an issue or pull request with the number of {number}.",
    )


def _default_branch(repo: Repo, info: Info) -> RefView:
    return RefView(repo, repo.default_branch, store_of(info).branch_sha(repo, repo.default_branch))


def _ref(repo: Repo, info: Info, qualifiedName: str) -> RefView | None:  # noqa: N803
    branch = qualifiedName.removeprefix("refs/heads/")
    sha = store_of(info).branch_sha(repo, branch)
    return None if sha is None else RefView(repo, branch, sha)


def _viewer_permission(repo: Repo, info: Info) -> str:
    return "ADMIN" if repo.owner_id == context_of(info).viewer.id else "WRITE"


def _object(repo: Repo, info: Info, expression: str | None = None, oid: str | None = None) -> Any:
    """A commit by ``oid`` or by ``expression`` (a sha, branch or tag, as git's rev
    parse takes them); other kinds of object (``main:path``, trees, blobs) are not
    served: null."""
    store = store_of(info)
    sha = oid if oid is not None else store.resolve(repo, expression or "")
    return _commit_view(info, repo, sha)


REPOSITORY_FIELDS = {
    "id": lambda r, _: r.node_id,
    "databaseId": lambda r, _: r.id,
    "name": lambda r, _: r.name,
    "nameWithOwner": lambda r, _: r.full_name,
    "owner": lambda r, info: store_of(info).users.get(r.owner_id),
    "url": lambda r, info: context_of(info).repo_url(r),
    "description": lambda r, _: r.description,
    "isPrivate": lambda r, _: r.private,
    "isFork": lambda r, _: False,
    "isArchived": lambda r, _: False,
    "isInOrganization": lambda r, info: (
        getattr(store_of(info).users.get(r.owner_id), "type", "User") == "Organization"
    ),
    "hasIssuesEnabled": lambda r, _: True,
    "hasProjectsEnabled": lambda r, _: True,
    "hasWikiEnabled": lambda r, _: False,
    "mergeCommitAllowed": lambda r, _: True,
    "squashMergeAllowed": lambda r, _: True,
    "rebaseMergeAllowed": lambda r, _: True,
    "deleteBranchOnMerge": lambda r, _: r.delete_branch_on_merge,
    "viewerDefaultMergeMethod": lambda r, _: "MERGE",
    "viewerPermission": _viewer_permission,
    "createdAt": lambda r, _: iso(r.created_at),
    "updatedAt": lambda r, _: iso(r.updated_at),
    "pushedAt": lambda r, _: iso(r.pushed_at),
    "parent": lambda r, _: None,
    "defaultBranchRef": _default_branch,
    "ref": _ref,
    "pullRequest": _pull_request,
    "pullRequests": _pull_requests,
    "issue": _issue,
    "issues": _issues,
    "issueOrPullRequest": _issue_or_pull,
    "label": repository_label,
    "labels": repository_labels,
    "object": _object,
}

REF_FIELDS = {
    "id": lambda ref, _: f"REF_{ref.repo.node_id}_{ref.name}",
    "name": lambda ref, _: ref.name,
    "prefix": lambda ref, _: "refs/heads/",
    "repository": lambda ref, _: ref.repo,
    "target": lambda ref, info: _commit_view(info, ref.repo, ref.sha),
    "branchProtectionRule": lambda ref, info: store_of(info).protection(ref.repo, ref.name),
}

# A branch's protection (state/protection.py) as GitHub's rule for that one branch name.
BRANCH_PROTECTION_FIELDS = {
    "id": lambda r, _: r.node_id,
    "pattern": lambda r, _: r.branch,
    "repository": lambda r, info: store_of(info).repos[r.repo_id],
    "allowsDeletions": lambda r, _: r.allow_deletions,
    "allowsForcePushes": lambda r, _: r.allow_force_pushes,
    "isAdminEnforced": lambda r, _: r.enforce_admins,
    "requiresApprovingReviews": lambda r, _: bool(r.required_reviews),
    "requiredApprovingReviewCount": lambda r, _: r.required_reviews,
    "requiresCodeOwnerReviews": lambda r, _: r.require_code_owner_reviews,
    "requiresStatusChecks": lambda r, _: r.required_contexts is not None,
    "requiredStatusCheckContexts": lambda r, _: list(r.required_contexts or []),
    "requiresStrictStatusChecks": lambda r, _: r.strict,
}


def _commit_view(info: Info, repo: Repo, sha: str | None) -> CommitView | None:
    if sha is None:
        return None
    commit = store_of(info).commit(repo, sha)
    return None if commit is None else CommitView(repo, commit)


# -- Actors (User, Bot, Organization share these) ---------------------------------
def _owned_repository(user: User, info: Info, name: str, **_args: Any) -> Repo | None:
    return store_of(info).repo(user.login, name)


ACTOR_FIELDS = {
    "id": lambda u, _: u.node_id,
    "databaseId": lambda u, _: u.id,
    "login": lambda u, _: u.login,
    "name": lambda u, _: u.name,
    "email": lambda u, _: u.email or "",
    "avatarUrl": lambda u, _, **_a: f"https://avatars.githubusercontent.com/u/{u.id}?v=4",
    "url": lambda u, info: context_of(info).user_url(u.login),
    "resourcePath": lambda u, _: f"/{u.login}",
    "repository": _owned_repository,
}
