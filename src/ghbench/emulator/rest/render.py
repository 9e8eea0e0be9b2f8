"""GitHub's REST representations of the emulator's records.

Shapes follow GitHub's OpenAPI description closely enough that typed clients
(githubkit's pydantic models) accept them: every required field is present, URL
fields are built from the request's API base (``http://api.github.localhost`` for gh)
and the configured web base (``https://github.com`` by default, which is what AO
parses PR URLs with).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from ghbench.emulator.state import (
    CommitStatus,
    Issue,
    IssueComment,
    Label,
    PullRequest,
    Ref,
    Repo,
    Review,
    ReviewComment,
    Store,
    User,
)
from ghbench.emulator.state.reactions import REACTION_CONTENTS
from ghbench.emulator.state.trees import diff_stat
from ghbench.timefmt import iso_s

__all__ = ["RestRenderer"]

Json = dict[str, Any]

# Repository URL fields: name -> path below the repository's API URL.
_REPO_URLS = {
    "archive_url": "/{archive_format}{/ref}",
    "assignees_url": "/assignees{/user}",
    "blobs_url": "/git/blobs{/sha}",
    "branches_url": "/branches{/branch}",
    "collaborators_url": "/collaborators{/collaborator}",
    "comments_url": "/comments{/number}",
    "commits_url": "/commits{/sha}",
    "compare_url": "/compare/{base}...{head}",
    "contents_url": "/contents/{+path}",
    "contributors_url": "/contributors",
    "deployments_url": "/deployments",
    "downloads_url": "/downloads",
    "events_url": "/events",
    "forks_url": "/forks",
    "git_commits_url": "/git/commits{/sha}",
    "git_refs_url": "/git/refs{/sha}",
    "git_tags_url": "/git/tags{/sha}",
    "hooks_url": "/hooks",
    "issue_comment_url": "/issues/comments{/number}",
    "issue_events_url": "/issues/events{/number}",
    "issues_url": "/issues{/number}",
    "keys_url": "/keys{/key_id}",
    "labels_url": "/labels{/name}",
    "languages_url": "/languages",
    "merges_url": "/merges",
    "milestones_url": "/milestones{/number}",
    "notifications_url": "/notifications{?since,all,participating}",
    "pulls_url": "/pulls{/number}",
    "releases_url": "/releases{/id}",
    "stargazers_url": "/stargazers",
    "statuses_url": "/statuses/{sha}",
    "subscribers_url": "/subscribers",
    "subscription_url": "/subscription",
    "tags_url": "/tags",
    "teams_url": "/teams",
    "trees_url": "/git/trees{/sha}",
}
# A repository's merge settings (every method allowed, as the GraphQL side reports;
# auto-merge and deleting merged branches as the repository says).
_MERGE_SETTINGS = {
    "allow_merge_commit": True,
    "allow_squash_merge": True,
    "allow_rebase_merge": True,
    "allow_auto_merge": False,
    "delete_branch_on_merge": False,
    "allow_update_branch": False,
    "use_squash_pr_title_as_default": False,
    "squash_merge_commit_title": "COMMIT_OR_PR_TITLE",
    "squash_merge_commit_message": "COMMIT_MESSAGES",
    "merge_commit_title": "MERGE_MESSAGE",
    "merge_commit_message": "PR_TITLE",
}
_USER_URLS = {
    "followers_url": "/followers",
    "following_url": "/following{/other_user}",
    "gists_url": "/gists{/gist_id}",
    "starred_url": "/starred{/owner}{/repo}",
    "subscriptions_url": "/subscriptions",
    "organizations_url": "/orgs",
    "repos_url": "/repos",
    "events_url": "/events{/privacy}",
    "received_events_url": "/received_events",
}


def _iso(value: float | None) -> str | None:
    return None if value is None else iso_s(value)


@dataclass(frozen=True)
class RestRenderer:
    """The REST serializer: every record as GitHub's JSON, its URLs built on the
    request's API base (``api``: the layout the client used) and the web base."""

    api: str  # e.g. http://api.github.localhost (no trailing slash)
    web: str  # e.g. https://github.com

    def repo_url(self, repo: Repo) -> str:
        """A repository's API URL (``GET /repos/{owner}/{repo}``), the root of its records'."""
        return f"{self.api}/repos/{repo.full_name}"

    # -- users -------------------------------------------------------------------
    def user(self, user: User) -> Json:
        """GitHub's ``simple-user``."""
        base = f"{self.api}/users/{user.login}"
        out: Json = {
            "login": user.login,
            "id": user.id,
            "node_id": user.node_id,
            "avatar_url": f"https://avatars.githubusercontent.com/u/{user.id}?v=4",
            "gravatar_id": "",
            "url": base,
            "html_url": f"{self.web}/{user.login}",
            "type": user.type,
            "site_admin": False,
            "user_view_type": "public",
        }
        for name, suffix in _USER_URLS.items():
            out[name] = base + suffix
        return out

    def public_user(self, user: User) -> Json:
        """``GET /users/{username}``: GitHub's ``public-user`` (profile fields empty,
        counts zero: the emulator keeps no profiles, followers or gists)."""
        created = iso_s(user.created_at)
        return self.user(user) | {
            "name": user.name,
            "company": None,
            "blog": "",
            "location": None,
            "email": user.email,
            "hireable": None,
            "bio": None,
            "twitter_username": None,
            "public_repos": 0,
            "public_gists": 0,
            "followers": 0,
            "following": 0,
            "created_at": created,
            "updated_at": created,
        }

    def private_user(self, user: User) -> Json:
        """``GET /user``: GitHub's ``private-user``, the token owner's own view."""
        return self.public_user(user) | {
            "user_view_type": "private",
            "private_gists": 0,
            "total_private_repos": 0,
            "owned_private_repos": 0,
            "disk_usage": 0,
            "collaborators": 0,
            "two_factor_authentication": True,
            "plan": {
                "name": "free",
                "space": 976562499,
                "collaborators": 0,
                "private_repos": 10000,
            },
        }

    # -- repositories ------------------------------------------------------------
    def repo(self, store: Store, repo: Repo, *, full: bool = False) -> Json:
        """GitHub's ``repository`` (in pull requests), or with ``full`` its
        ``full-repository`` (``GET /repos/{owner}/{repo}``)."""
        base = self.repo_url(repo)
        html = f"{self.web}/{repo.full_name}"
        open_issues = sum(1 for i in store.issues(repo, "open")) + len(store.pulls(repo, "open"))
        out: Json = {
            "id": repo.id,
            "node_id": repo.node_id,
            "name": repo.name,
            "full_name": repo.full_name,
            "owner": self.user(store.user_by_id(repo.owner_id)),
            "private": repo.private,
            "visibility": "private" if repo.private else "public",
            "html_url": html,
            "description": repo.description,
            "fork": False,
            "url": base,
            "git_url": f"git://github.com/{repo.full_name}.git",
            "ssh_url": f"git@github.com:{repo.full_name}.git",
            "clone_url": f"{html}.git",
            "svn_url": html,
            "mirror_url": None,
            "homepage": None,
            "language": None,
            "forks_count": 0,
            "forks": 0,
            "stargazers_count": 0,
            "watchers_count": 0,
            "watchers": 0,
            "size": 1,
            "default_branch": repo.default_branch,
            "open_issues_count": open_issues,
            "open_issues": open_issues,
            "is_template": False,
            "topics": [],
            "has_issues": True,
            "has_projects": True,
            "has_wiki": True,
            "has_pages": False,
            "has_downloads": True,
            "has_discussions": False,
            "archived": False,
            "disabled": False,
            "license": None,
            "allow_forking": True,
            "web_commit_signoff_required": False,
            "pushed_at": iso_s(repo.pushed_at),
            "created_at": iso_s(repo.created_at),
            "updated_at": iso_s(repo.updated_at),
            "permissions": {
                "admin": True,
                "maintain": True,
                "push": True,
                "triage": True,
                "pull": True,
            },
        }
        for name, suffix in _REPO_URLS.items():
            out[name] = base + suffix
        if full:
            out |= {"subscribers_count": 0, "network_count": 0, **_MERGE_SETTINGS}
            out["allow_auto_merge"] = repo.allow_auto_merge
            out["delete_branch_on_merge"] = repo.delete_branch_on_merge
        return out

    # -- issues ------------------------------------------------------------------
    def label(self, repo: Repo, label: Label) -> Json:
        return {
            "id": label.id,
            "node_id": label.node_id,
            "url": f"{self.repo_url(repo)}/labels/{quote(label.name)}",
            "name": label.name,
            "color": label.color,
            "default": label.default,
            "description": label.description,
            # labels are never archived here; GitHub's newer descriptions require both
            "archived_at": None,
            "archived_by": None,
        }

    def labels(self, store: Store, repo: Repo, names: list[str]) -> list[Json]:
        """The labels an issue or pull request carries (by name)."""
        found = (store.label(repo, n) for n in names)
        return [self.label(repo, label) for label in found if label is not None]

    def assignees(self, store: Store, user_ids: list[int]) -> Json:
        """``assignee`` (the first) and ``assignees``, as simple users."""
        users = [self.user(store.users[i]) for i in user_ids if i in store.users]
        return {"assignee": users[0] if users else None, "assignees": users}

    def issue(self, store: Store, repo: Repo, issue: Issue) -> Json:
        base = f"{self.repo_url(repo)}/issues/{issue.number}"
        return {
            "id": issue.id,
            "node_id": issue.node_id,
            "url": base,
            "repository_url": self.repo_url(repo),
            "labels_url": base + "/labels{/name}",
            "comments_url": base + "/comments",
            "events_url": base + "/events",
            "html_url": f"{self.web}/{repo.full_name}/issues/{issue.number}",
            "number": issue.number,
            "state": issue.state,
            "state_reason": issue.state_reason,
            "title": issue.title,
            "body": issue.body,
            "user": self.user(store.user_by_id(issue.user_id)),
            "labels": self.labels(store, repo, issue.labels),
            **self.assignees(store, issue.assignees),
            "milestone": None,
            "locked": issue.locked,
            "active_lock_reason": issue.lock_reason,
            "comments": len(store.issue_comments(repo, issue.number)),
            "closed_at": _iso(issue.closed_at),
            "created_at": iso_s(issue.created_at),
            "updated_at": iso_s(issue.updated_at),
            "author_association": store.association(repo, issue.user_id),
            "reactions": self.reactions(store, issue.node_id, base + "/reactions"),
        }

    def reactions(self, store: Store, subject_id: str, url: str) -> Json:
        """GitHub's ``reaction-rollup``: the count of each content."""
        counts = dict.fromkeys(REACTION_CONTENTS, 0)
        for reaction in store.reactions(subject_id):
            counts[reaction.content] += 1
        return {"url": url, "total_count": sum(counts.values()), **counts}

    def issue_comment(self, store: Store, repo: Repo, comment: IssueComment) -> Json:
        return {
            "id": comment.id,
            "node_id": comment.node_id,
            "url": f"{self.repo_url(repo)}/issues/comments/{comment.id}",
            "html_url": (
                f"{self.web}/{repo.full_name}/issues/{comment.number}#issuecomment-{comment.id}"
            ),
            "issue_url": f"{self.repo_url(repo)}/issues/{comment.number}",
            "body": comment.body,
            "user": self.user(store.user_by_id(comment.user_id)),
            "created_at": iso_s(comment.created_at),
            "updated_at": iso_s(comment.updated_at),
            "author_association": store.association(repo, comment.user_id),
            "reactions": self.reactions(
                store,
                comment.node_id,
                f"{self.repo_url(repo)}/issues/comments/{comment.id}/reactions",
            ),
        }

    # -- pull requests -----------------------------------------------------------
    def _branch(self, store: Store, repo: Repo, ref: str, sha: str) -> Json:
        return {
            "label": f"{repo.owner_login}:{ref}",
            "ref": ref,
            "sha": sha,
            "user": self.user(store.user_by_id(repo.owner_id)),
            "repo": self.repo(store, repo),
        }

    def pull(self, store: Store, repo: Repo, pull: PullRequest, *, full: bool = False) -> Json:
        base = f"{self.repo_url(repo)}/pulls/{pull.number}"
        issue_base = f"{self.repo_url(repo)}/issues/{pull.number}"
        html = f"{self.web}/{repo.full_name}/pull/{pull.number}"
        statuses = f"{self.repo_url(repo)}/statuses/{pull.head_sha}"
        out: Json = {
            "url": base,
            "id": pull.id,
            "node_id": pull.node_id,
            "html_url": html,
            "diff_url": html + ".diff",
            "patch_url": html + ".patch",
            "issue_url": issue_base,
            "commits_url": base + "/commits",
            "review_comments_url": base + "/comments",
            "review_comment_url": f"{self.repo_url(repo)}/pulls/comments{{/number}}",
            "comments_url": issue_base + "/comments",
            "statuses_url": statuses,
            "number": pull.number,
            "state": pull.state,
            "locked": pull.locked,
            "title": pull.title,
            "user": self.user(store.user_by_id(pull.user_id)),
            "body": pull.body,
            "labels": self.labels(store, repo, pull.labels),
            "milestone": None,
            "active_lock_reason": pull.lock_reason,
            "created_at": iso_s(pull.created_at),
            "updated_at": iso_s(pull.updated_at),
            "closed_at": _iso(pull.closed_at),
            "merged_at": _iso(pull.merged_at),
            "merge_commit_sha": pull.merge_commit_sha,
            **self.assignees(store, pull.assignees),
            "requested_reviewers": [
                self.user(store.users[i]) for i in pull.requested_reviewers if i in store.users
            ],
            "requested_teams": [],
            "head": self._branch(store, repo, pull.head_ref, pull.head_sha),
            "base": self._branch(store, repo, pull.base_ref, pull.base_sha),
            "_links": {
                "self": {"href": base},
                "html": {"href": html},
                "issue": {"href": issue_base},
                "comments": {"href": issue_base + "/comments"},
                "review_comments": {"href": base + "/comments"},
                "review_comment": {"href": f"{self.repo_url(repo)}/pulls/comments{{/number}}"},
                "commits": {"href": base + "/commits"},
                "statuses": {"href": statuses},
            },
            "author_association": store.association(repo, pull.user_id),
            "auto_merge": self._auto_merge(store, pull),
            "draft": pull.draft,
        }
        if full:
            merged_by = store.user_by_id(pull.merged_by_id) if pull.merged_by_id else None
            stat = diff_stat(store.pull_files(pull))
            mergeable = store.mergeability(pull)
            out |= {
                "merged": pull.merged,
                "mergeable": mergeable,
                "rebaseable": mergeable,
                "mergeable_state": store.merge_state(pull),
                "merged_by": self.user(merged_by) if merged_by else None,
                "comments": len(store.issue_comments(repo, pull.number)),
                "review_comments": len(store.review_comments(pull)),
                "maintainer_can_modify": False,
                "commits": len(store.pull_commits(pull)),
                "additions": stat.additions,
                "deletions": stat.deletions,
                "changed_files": stat.changed_files,
            }
        return out

    def _auto_merge(self, store: Store, pull: PullRequest) -> Json | None:
        if pull.auto_merge_method is None or pull.auto_merge_by_id is None:
            return None
        return {
            "enabled_by": self.user(store.user_by_id(pull.auto_merge_by_id)),
            "merge_method": pull.auto_merge_method,
            "commit_title": "",
            "commit_message": "",
        }

    def review_comment(self, store: Store, repo: Repo, comment: ReviewComment) -> Json:
        pull = store.pulls_by_id[comment.pull_id]
        url = f"{self.repo_url(repo)}/pulls/comments/{comment.id}"
        html = f"{self.web}/{repo.full_name}/pull/{pull.number}#discussion_r{comment.id}"
        pull_url = f"{self.repo_url(repo)}/pulls/{pull.number}"
        out: Json = {
            "url": url,
            "pull_request_review_id": comment.review_id,
            "id": comment.id,
            "node_id": comment.node_id,
            "diff_hunk": comment.diff_hunk,
            "path": comment.path,
            "position": comment.line,
            "original_position": comment.line,
            "commit_id": comment.commit_id,
            "original_commit_id": comment.commit_id,
            "user": self.user(store.user_by_id(comment.user_id)),
            "body": comment.body,
            "created_at": iso_s(comment.created_at),
            "updated_at": iso_s(comment.updated_at),
            "html_url": html,
            "pull_request_url": pull_url,
            "author_association": store.association(repo, comment.user_id),
            "reactions": self.reactions(store, comment.node_id, url + "/reactions"),
            "_links": {
                "self": {"href": url},
                "html": {"href": html},
                "pull_request": {"href": pull_url},
            },
            "line": comment.line,
            "original_line": comment.line,
            "side": comment.side,
            "subject_type": "line",
        }
        if comment.in_reply_to_id is not None:
            out["in_reply_to_id"] = comment.in_reply_to_id
        return out

    def review(self, store: Store, repo: Repo, review: Review) -> Json:
        pull = store.pulls_by_id[review.pull_id]
        html = f"{self.web}/{repo.full_name}/pull/{pull.number}#pullrequestreview-{review.id}"
        pull_url = f"{self.repo_url(repo)}/pulls/{pull.number}"
        out: Json = {
            "id": review.id,
            "node_id": review.node_id,
            "user": self.user(store.user_by_id(review.user_id)),
            "body": review.body,
            "state": review.state,
            "html_url": html,
            "pull_request_url": pull_url,
            "_links": {"html": {"href": html}, "pull_request": {"href": pull_url}},
            "commit_id": review.commit_id,
            "author_association": store.association(repo, review.user_id),
        }
        if review.submitted_at is not None:
            out["submitted_at"] = iso_s(review.submitted_at)
        return out

    # -- commits: statuses and check runs ----------------------------------------
    def status(self, store: Store, repo: Repo, status: CommitStatus, *, creator: bool) -> Json:
        out: Json = {
            "url": f"{self.repo_url(repo)}/statuses/{status.sha}",
            "avatar_url": None,
            "id": status.id,
            "node_id": status.node_id,
            "state": status.state,
            "description": status.description,
            "target_url": status.target_url,
            "context": status.context,
            "created_at": iso_s(status.created_at),
            "updated_at": iso_s(status.updated_at),
        }
        if creator:
            out["creator"] = self.user(store.user_by_id(status.creator_id))
        return out

    def combined_status(self, store: Store, repo: Repo, sha: str) -> Json:
        statuses = store.latest_statuses(repo, sha)
        return {
            "state": store.combined_state(repo, sha),
            "statuses": [self.status(store, repo, s, creator=False) for s in statuses],
            "sha": sha,
            "total_count": len(statuses),
            "repository": self.minimal_repo(store, repo),
            "commit_url": f"{self.repo_url(repo)}/commits/{sha}",
            "url": f"{self.repo_url(repo)}/commits/{sha}/status",
        }

    def minimal_repo(self, store: Store, repo: Repo) -> Json:
        keep = {"id", "node_id", "name", "full_name", "owner", "private", "html_url"}
        keep |= {"description", "fork", "url", *_REPO_URLS}
        return {k: v for k, v in self.repo(store, repo).items() if k in keep}

    # -- git refs ----------------------------------------------------------------
    def ref(self, repo: Repo, ref: Ref) -> Json:
        return {
            "ref": f"refs/{ref.name}",
            "node_id": f"REF_{ref.id:x}",
            "url": f"{self.repo_url(repo)}/git/refs/{ref.name}",
            "object": {
                "sha": ref.sha,
                "type": "commit",
                "url": f"{self.repo_url(repo)}/git/commits/{ref.sha}",
            },
        }
