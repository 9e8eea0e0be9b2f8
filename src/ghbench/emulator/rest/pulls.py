"""Pull requests: list, get, create, merge; changed files; review comments; reviews."""

from __future__ import annotations

from ghbench.emulator.errors import ValidationFailed, invalid_field
from ghbench.emulator.rest import git_render
from ghbench.emulator.rest.common import body_field, paginate, pull_of, repo_of, viewer
from ghbench.emulator.rest.history import pull_diff
from ghbench.emulator.rest.media import DIFF, PATCH
from ghbench.emulator.rest.routing import JSON_MEDIA, Call, Reply, Route
from ghbench.emulator.state.trees import MAX_LISTED_FILES

__all__ = ["ROUTES"]

_SORT_KEYS = {
    "created": lambda p: (p.created_at, p.id),
    "updated": lambda p: (p.updated_at, p.id),
    "popularity": lambda p: (p.updated_at, p.id),
    "long-running": lambda p: (p.created_at, p.id),
}
# What GitHub refuses on one's own pull request (422, the reason as a bare string).
_OWN_PULL = {
    "APPROVE": "Can not approve your own pull request",
    "REQUEST_CHANGES": "Can not request changes on your own pull request",
}
_REVIEW_EVENTS = {
    "APPROVE": "APPROVED",
    "REQUEST_CHANGES": "CHANGES_REQUESTED",
    "COMMENT": "COMMENTED",
    "": "PENDING",
}


def list_pulls(call: Call) -> Reply:
    """`state`, `sort` (created, updated, popularity, long-running), `direction`,
    `head=owner:branch`, `base`, `per_page` (≤100), `page`, `link` header."""
    repo = repo_of(call)
    q = call.query
    state = q.get("state", "open")
    if state not in ("open", "closed", "all"):
        raise invalid_field("PullRequest", "state")
    head = q.get("head")
    if head is not None:
        head = head.partition(":")[2] or head  # head=owner:branch
    pulls = call.store.pulls(repo, state, head=head, base=q.get("base"))
    sort = q.get("sort", "created")
    key = _SORT_KEYS.get(sort, _SORT_KEYS["created"])
    # GitHub: desc by default for created (or no sort), asc otherwise.
    default_direction = "desc" if sort == "created" else "asc"
    pulls.sort(key=key, reverse=q.get("direction", default_direction) == "desc")
    page, headers = paginate(call, pulls)
    return Reply([call.render.pull(call.store, repo, p) for p in page], headers=headers)


def get_pull(call: Call) -> Reply:
    """Full shape: `merged`, `mergeable`, `mergeable_state`, `merged_by`, counts;
    `Accept: application/vnd.github.diff` (`gh pr diff`, `.v3.diff` too) answers git's
    diff against the merge base, `.patch` `git format-patch` of its commits."""
    as_text = pull_diff(call)
    if as_text is not None:
        return as_text
    repo, pull = pull_of(call)
    return Reply(call.render.pull(call.store, repo, pull, full=True))


def create_pull(call: Call) -> Reply:
    """422s for a missing branch, no commits between base and head, an open PR from
    the same head."""
    repo = repo_of(call)
    author = viewer(call)
    head = body_field(call, "PullRequest", "head", str).rpartition(":")[2]
    pull = call.store.create_pull(
        repo,
        author,
        body_field(call, "PullRequest", "title", str),
        head,
        body_field(call, "PullRequest", "base", str),
        body=body_field(call, "PullRequest", "body", str, default=""),
        draft=body_field(call, "PullRequest", "draft", bool, default=False),
    )
    return Reply(call.render.pull(call.store, repo, pull, full=True), status=201)


def merge_pull(call: Call) -> Reply:
    """`merge_method`, `sha` (409 if stale), 405 "Pull Request is not mergeable"."""
    _, pull = pull_of(call)
    method = body_field(call, "PullRequest", "merge_method", str, default="merge")
    sha = call.store.merge_pull(
        pull,
        viewer(call),
        method=method,
        commit_title=body_field(call, "PullRequest", "commit_title", str, default=""),
        expected_head_sha=(call.body or {}).get("sha") if isinstance(call.body, dict) else None,
    )
    return Reply({"sha": sha, "merged": True, "message": "Pull Request successfully merged"})


def check_merged(call: Call) -> Reply:
    """204 when the pull request was merged, else 404 (both without a body, as GitHub
    answers them)."""
    _, pull = pull_of(call)
    return Reply(None, status=204 if pull.merged else 404)


def update_branch(call: Call) -> Reply:
    """Merges the base branch into the head branch (a merge commit by the caller), as
    the "Update branch" button does: 202; 422 when `expected_head_sha` is stale or git
    finds a conflict."""
    repo, pull = pull_of(call)
    expected = body_field(call, "PullRequest", "expected_head_sha", str, default="")
    if expected and expected != pull.head_sha:
        raise ValidationFailed("expected_head_sha must match the pull request's current head sha")
    call.store.update_branch(pull, viewer(call))
    url = f"{call.render.web}/{repo.full_name}/pull/{pull.number}"
    return Reply({"message": "Updating pull request branch.", "url": url}, status=202)


def update_pull(call: Call) -> Reply:
    """`title`, `body`, `state` (`closed`; `open` again, a 422 when its head branch was
    deleted or it was merged)."""
    repo, pull = pull_of(call)
    changes: dict[str, object] = {}
    for name in ("title", "body"):
        if isinstance(call.body, dict) and name in call.body:
            changes[name] = body_field(call, "PullRequest", name, str)
    state = call.body.get("state") if isinstance(call.body, dict) else None
    if state == "closed":
        call.store.close_pull(pull)
    elif state == "open" and pull.merged:
        raise invalid_field(
            "PullRequest", "state", "state cannot be changed. The pull request cannot be reopened."
        )
    elif state == "open":
        call.store.reopen_pull(pull)
    if changes:
        call.store.update_pull(pull, **changes)
    return Reply(call.render.pull(call.store, repo, pull, full=True))


def list_files(call: Call) -> Reply:
    """git's diff of the head against the merge base with the base branch (a closed PR:
    the base as it was when opened, so a merged PR keeps its files), by path: lines
    counted by git, renames detected (`previous_filename`), `patch` the file's hunks
    (absent for binary files); pages of 30, `per_page` ≤ 100; the first 3,000 files
    only; GraphQL's sizes and `files` come from the same diff."""
    repo, pull = pull_of(call)
    files = call.store.pull_files(pull)[:MAX_LISTED_FILES]
    page, headers = paginate(call, files)
    body = [git_render.diff_entry(call.render, repo, pull.head_sha, f) for f in page]
    return Reply(body, headers=headers)


def list_review_comments(call: Call) -> Reply:
    """Review comments, oldest first."""
    repo, pull = pull_of(call)
    page, headers = paginate(call, call.store.review_comments(pull))
    return Reply([call.render.review_comment(call.store, repo, c) for c in page], headers=headers)


def create_review_comment(call: Call) -> Reply:
    """`in_reply_to` joins a thread; `path` defaults to README.md, `line` to 1."""
    repo, pull = pull_of(call)
    body = body_field(call, "PullRequestReviewComment", "body", str)
    reply_to = body_field(call, "PullRequestReviewComment", "in_reply_to", int, default=0)
    comment = call.store.add_review_comment(
        pull,
        viewer(call),
        body,
        path=body_field(call, "PullRequestReviewComment", "path", str, default="README.md"),
        line=body_field(call, "PullRequestReviewComment", "line", int, default=1),
        in_reply_to=reply_to or None,
        commit_id=body_field(call, "PullRequestReviewComment", "commit_id", str, default="")
        or None,
    )
    return Reply(call.render.review_comment(call.store, repo, comment), status=201)


def list_reviews(call: Call) -> Reply:
    """Reviews, oldest first."""
    repo, pull = pull_of(call)
    page, headers = paginate(call, call.store.reviews(pull))
    return Reply([call.render.review(call.store, repo, r) for r in page], headers=headers)


def create_review(call: Call) -> Reply:
    """`event` APPROVE, REQUEST_CHANGES, COMMENT, or none (a pending review), with its
    inline `comments` (`path`, `line` or `position`, `body`: each a thread); 422 for
    approving or requesting changes on one's own pull request."""
    repo, pull = pull_of(call)
    event = body_field(call, "PullRequestReview", "event", str, default="")
    if event not in _REVIEW_EVENTS:
        raise invalid_field("PullRequestReview", "event")
    author = viewer(call)
    if author.id == pull.user_id and event in _OWN_PULL:
        raise ValidationFailed("Unprocessable Entity", errors=[_OWN_PULL[event]])
    comments = body_field(call, "PullRequestReview", "comments", list, default=[])
    if not all(isinstance(c, dict) and isinstance(c.get("body"), str) for c in comments):
        raise invalid_field("PullRequestReview", "comments")
    review = call.store.add_review(
        pull,
        author,
        _REVIEW_EVENTS[event],
        body=body_field(call, "PullRequestReview", "body", str, default=""),
        commit_id=body_field(call, "PullRequestReview", "commit_id", str, default="") or None,
    )
    for comment in comments:
        line = comment.get("line", comment.get("position", 1))
        call.store.add_review_comment(
            pull,
            author,
            comment["body"],
            path=str(comment.get("path") or "README.md"),
            line=line if isinstance(line, int) and not isinstance(line, bool) else 1,
            review_id=review.id,
            commit_id=review.commit_id,
        )
    return Reply(call.render.review(call.store, repo, review))


_P = "/repos/{owner}/{repo}/pulls"
ROUTES = [
    Route("GET", _P, list_pulls, etag=True),
    Route("POST", _P, create_pull, creates_content=True, anonymous=False),
    Route("GET", _P + "/{number}", get_pull, etag=True, media_types=(JSON_MEDIA, DIFF, PATCH)),
    Route("PATCH", _P + "/{number}", update_pull, anonymous=False),
    Route("PUT", _P + "/{number}/merge", merge_pull, anonymous=False),
    Route("GET", _P + "/{number}/merge", check_merged, etag=True),
    Route("PUT", _P + "/{number}/update-branch", update_branch, anonymous=False),
    Route("GET", _P + "/{number}/files", list_files, etag=True),
    Route("GET", _P + "/{number}/comments", list_review_comments, etag=True),
    Route(
        "POST",
        _P + "/{number}/comments",
        create_review_comment,
        creates_content=True,
        anonymous=False,
    ),
    Route("GET", _P + "/{number}/reviews", list_reviews, etag=True),
    Route("POST", _P + "/{number}/reviews", create_review, creates_content=True, anonymous=False),
]
