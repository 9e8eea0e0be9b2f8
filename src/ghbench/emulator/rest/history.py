"""Commits and branches, from the repositories' git data.

``{ref}`` is what GitHub accepts there: a sha (or an unambiguous prefix of at least
7 hex digits), a branch or tag name (with ``/`` in it, percent-encoded or not),
``heads/NAME`` or ``refs/heads/NAME``.
"""

from __future__ import annotations

from ghbench.emulator.errors import NotFound, ValidationFailed
from ghbench.emulator.rest import git_render
from ghbench.emulator.rest.common import page_params, paginate, pull_of, repo_of
from ghbench.emulator.rest.media import DIFF, PATCH, SHA, media_param, text_reply
from ghbench.emulator.rest.routing import JSON_MEDIA, Call, Reply, Route
from ghbench.emulator.state import Commit, Repo

__all__ = ["ROUTES", "commit_for"]

_MAX_PULL_COMMITS = 250  # "Lists a maximum of 250 commits for a pull request"
_MAX_COMPARE_COMMITS = 250  # compare's commits without ?page / ?per_page


def commit_for(call: Call, repo: Repo, ref: str) -> Commit:
    """The commit ``ref`` names, or GitHub's 422 "No commit found"; a 404 when ``ref``
    is a commit followed by a path (a sub-resource of a commit that GitHub has not)."""
    sha = call.store.resolve(repo, ref)
    commit = call.store.commit(repo, sha) if sha else None
    if commit is None:
        stem = ref.rpartition("/")[0]
        while stem:
            if call.store.resolve(repo, stem) is not None:
                raise NotFound()
            stem = stem.rpartition("/")[0]
        raise ValidationFailed(f"No commit found for SHA: {ref}")
    return commit


def get_commit(call: Call) -> Reply:
    """A commit by sha, branch or tag (`/` in names, encoded or not): `stats` and the
    first 300 `files` from git's diff against its first parent; `Accept:
    application/vnd.github.diff`/`.patch` answer git's diff / `git format-patch`,
    `.sha` the sha; unknown: 422 "No commit found for SHA"; a commit followed by a
    sub-path the emulator does not serve: 404."""
    repo = repo_of(call)
    commit = commit_for(call, repo, call.params["ref"])
    media = media_param(call, ("diff", "patch", "sha"))
    if media is not None:
        if media[0] == "sha":
            return text_reply(media, commit.sha)
        if media[0] == "patch":
            return text_reply(media, call.store.format_patch(repo, None, commit.sha))
        changes = call.store.commit_files(repo, commit)
        return text_reply(media, "".join(c.diff for c in changes))
    return Reply(git_render.commit(call.render, call.store, repo, commit, files=True))


def list_commits(call: Call) -> Reply:
    """Newest first from `sha` (a sha or branch; default branch by default), as `git
    rev-list` walks them: `path` (git's history simplification), `since`/`until`
    (ISO 8601), `author` (a login or an email); `per_page`, `page`, `link`."""
    repo = repo_of(call)
    q = call.query
    start = q.get("sha") or repo.default_branch
    sha = call.store.resolve(repo, start)
    if sha is None:
        raise NotFound(f"No commit found for SHA: {start}")
    shas = call.store.log(
        repo, sha, path=q.get("path") or None, since=q.get("since"), until=q.get("until")
    )
    commits = [c for s in shas if (c := call.store.commit(repo, s)) is not None]
    if author := q.get("author", "").lower():
        commits = [
            c for c in commits if author in ((c.author_login or "").lower(), c.author_email.lower())
        ]
    page, headers = paginate(call, commits)
    body = [git_render.commit(call.render, call.store, repo, c) for c in page]
    return Reply(body, headers=headers)


def pull_commits(call: Call) -> Reply:
    """The pull request's commits (git's `base..head`), oldest first, at most 250."""
    repo, pull = pull_of(call)
    commits = call.store.pull_commits(pull)[:_MAX_PULL_COMMITS]
    page, headers = paginate(call, commits)
    body = [git_render.commit(call.render, call.store, repo, c) for c in page]
    return Reply(body, headers=headers)


def pull_diff(call: Call) -> Reply | None:
    """A pull request in the `diff` or `patch` media type (None: the JSON shape)."""
    media = media_param(call, ("diff", "patch"))
    if media is None:
        return None
    repo, pull = pull_of(call)
    if media[0] == "patch":
        base = call.store.pull_base(pull)
        ancestor = call.store.merge_base(repo, base, pull.head_sha) or base
        return text_reply(media, call.store.format_patch(repo, ancestor, pull.head_sha))
    return text_reply(media, "".join(c.diff for c in call.store.pull_files(pull)))


def _compare_side(call: Call, repo: Repo, side: str) -> str:
    """One side of ``BASE...HEAD``: a ref or sha, optionally ``OWNER:`` (this
    repository's owner; no forks are modelled); unknown: GitHub's 404."""
    owner, colon, ref = side.rpartition(":")
    if colon and owner.lower() != repo.owner_login.lower():
        raise NotFound("Not Found")
    sha = call.store.resolve(repo, ref)
    if not ref or sha is None:
        raise NotFound("Not Found")
    return sha


def compare(call: Call) -> Reply:
    """`BASE...HEAD` (refs or shas, `OWNER:` allowed): `status` (identical, ahead,
    behind, diverged), `ahead_by`/`behind_by` (git's `base..head` / `head..base`),
    `merge_base_commit`, the commits `head` adds, oldest first (250 at most; `page` or
    `per_page` paginate them, and only the first page has `files`), and the first 300
    `files` of the diff from the merge base. `Accept: …diff` / `…patch` answer git's
    diff / `git format-patch` of the same range. No merge base: GitHub's 404."""
    repo = repo_of(call)
    basehead = call.params["basehead"]
    base_text, dots, head_text = basehead.partition("...")
    if not dots:
        raise NotFound("Not Found")
    base = _compare_side(call, repo, base_text)
    head = _compare_side(call, repo, head_text)
    ancestor = call.store.merge_base(repo, base, head)
    if ancestor is None:
        raise NotFound(f"No common ancestor between {base_text} and {head_text}.")
    media = media_param(call, ("diff", "patch"))
    if media is not None:
        if media[0] == "patch":
            return text_reply(media, call.store.format_patch(repo, ancestor, head))
        changes = call.store.changes(repo, ancestor, head, base_is_ancestor=True)
        return text_reply(media, "".join(c.diff for c in changes))
    ahead = call.store.commits_between(repo, base, head)
    behind = call.store.commits_between(repo, head, base)
    paged = "page" in call.query or "per_page" in call.query
    listed, headers = paginate(call, ahead) if paged else (ahead[:_MAX_COMPARE_COMMITS], {})
    api = call.render.repo_url(repo)
    web = f"{call.render.web}/{repo.full_name}"
    short = f"{repo.owner_login}:{base[:7]}...{repo.owner_login}:{head[:7]}"
    body = {
        "url": f"{api}/compare/{basehead}",
        "html_url": f"{web}/compare/{basehead}",
        "permalink_url": f"{web}/compare/{short}",
        "diff_url": f"{web}/compare/{basehead}.diff",
        "patch_url": f"{web}/compare/{basehead}.patch",
        "base_commit": _rendered(call, repo, base),
        "merge_base_commit": _rendered(call, repo, ancestor),
        "status": _COMPARE_STATUS[(bool(ahead), bool(behind))],
        "ahead_by": len(ahead),
        "behind_by": len(behind),
        "total_commits": len(ahead),
        "commits": [git_render.commit(call.render, call.store, repo, c) for c in listed],
    }
    if page_params(call)[0] == 1:
        changes = call.store.changes(repo, ancestor, head, base_is_ancestor=True)
        body["files"] = [
            git_render.diff_entry(call.render, repo, head, c)
            for c in changes[: git_render.MAX_COMMIT_FILES]
        ]
    return Reply(body, headers=headers)


# (head has commits base lacks, base has commits head lacks) -> GitHub's status
_COMPARE_STATUS = {
    (False, False): "identical",
    (True, False): "ahead",
    (False, True): "behind",
    (True, True): "diverged",
}


def _rendered(call: Call, repo: Repo, sha: str) -> dict[str, object]:
    found = call.store.commit(repo, sha)
    if found is None:  # resolve() only answers commits the store holds
        raise NotFound("Not Found")
    return git_render.commit(call.render, call.store, repo, found)


def list_branches(call: Call) -> Reply:
    """Branches by name (`short-branch`); `protected=true`/`false` lists the protected
    or unprotected ones; `per_page`, `page`, `link`."""
    repo = repo_of(call)
    refs = call.store.refs_with_prefix(repo, "heads/")
    wanted = call.query.get("protected", "").lower()
    if wanted in ("true", "false"):
        protected = wanted == "true"
        refs = [
            r for r in refs if (call.store.protection(repo, r.name[6:]) is not None) == protected
        ]
    page, headers = paginate(call, refs)
    body = [git_render.short_branch(call.render, call.store, repo, r.name[6:], r.sha) for r in page]
    return Reply(body, headers=headers)


def get_branch(call: Call) -> Reply:
    """One branch (`/` in its name, encoded or not) with its head commit;
    unknown: 404 "Branch not found"."""
    repo = repo_of(call)
    name = call.params["branch"]
    sha = call.store.branch_sha(repo, name)
    commit = call.store.commit(repo, sha) if sha else None
    if commit is None:
        raise NotFound("Branch not found")
    return Reply(git_render.branch(call.render, call.store, repo, name, commit))


def matching_refs(call: Call) -> Reply:
    """Refs whose name starts with `refs/{ref}` (GitHub's prefix match, not by path
    segment); an empty list when none does."""
    repo = repo_of(call)
    prefix = call.params.get("ref", "").removeprefix("refs/")
    refs = call.store.refs_with_prefix(repo, prefix)
    return Reply([call.render.ref(repo, r) for r in refs])


_R = "/repos/{owner}/{repo}"
_COMMIT_MEDIA = (JSON_MEDIA, DIFF, PATCH, SHA)
_COMPARE_MEDIA = (JSON_MEDIA, DIFF, PATCH)
ROUTES = [
    Route("GET", _R + "/commits", list_commits, etag=True),
    Route("GET", _R + "/commits/{ref:path}", get_commit, etag=True, media_types=_COMMIT_MEDIA),
    Route("GET", _R + "/pulls/{number}/commits", pull_commits, etag=True),
    Route("GET", _R + "/compare/{basehead:path}", compare, etag=True, media_types=_COMPARE_MEDIA),
    Route("GET", _R + "/branches", list_branches, etag=True),
    Route("GET", _R + "/branches/{branch:path}", get_branch, etag=True),
    Route("GET", _R + "/git/matching-refs/{ref:path}", matching_refs, etag=True),
]
