"""GitHub's REST shapes for git content: commits, diff entries, branches, contents.

Every value comes from the repository's git data: commit records (message, parents,
author and committer as git has them, dates), git's diffs (``FileChange``), trees
and blobs. Shapes follow GitHub's OpenAPI schemas ``commit``, ``diff-entry``,
``short-branch``, ``branch-with-protection``, ``content-file`` and
``content-directory``.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from ghbench.emulator.git.diff import FileChange
from ghbench.emulator.rest.render import RestRenderer
from ghbench.emulator.state import Commit, Repo, Store, User
from ghbench.emulator.state.commits import API_COMMITTER
from ghbench.emulator.state.trees import diff_stat
from ghbench.timefmt import iso_s

__all__ = [
    "MAX_COMMIT_FILES",
    "Contents",
    "branch",
    "commit",
    "diff_entry",
    "short_branch",
]

Json = dict[str, Any]

# "Responses include a maximum of 3000 files. The paginated response returns 300 files
# per page by default": the first page is what a client without ?page= sees.
MAX_COMMIT_FILES = 300
_UNSIGNED = {
    "verified": False,
    "reason": "unsigned",
    "signature": None,
    "payload": None,
    "verified_at": None,
}
# GitHub's account for the commits it makes for users (web edits, API, merges)
_WEB_FLOW = User(id=19864447, login="web-flow", node_id="MDQ6VXNlcjE5ODY0NDQ3")
_TYPES = {"040000": "dir", "40000": "dir", "120000": "symlink", "160000": "submodule"}


def diff_entry(render: RestRenderer, repo: Repo, at: str, change: FileChange) -> Json:
    """GitHub's ``diff-entry`` for a file of a diff whose new side is commit ``at``:
    ``patch`` is git's hunks (absent when there are none, as for a binary file),
    ``previous_filename`` a rename's old path."""
    path = quote(change.path)
    entry: Json = {
        "sha": change.sha,
        "filename": change.path,
        "status": change.status,
        "additions": change.additions,
        "deletions": change.deletions,
        "changes": change.additions + change.deletions,
        "blob_url": f"{render.web}/{repo.full_name}/blob/{at}/{path}",
        "raw_url": f"{render.web}/{repo.full_name}/raw/{at}/{path}",
        "contents_url": f"{render.repo_url(repo)}/contents/{path}?ref={at}",
    }
    if change.patch is not None:
        entry["patch"] = change.patch
    if change.previous_path is not None:
        entry["previous_filename"] = change.previous_path
    return entry


def _git_user(name: str, email: str, when: float) -> Json:
    return {"name": name, "email": email, "date": iso_s(when)}


def commit(
    render: RestRenderer, store: Store, repo: Repo, c: Commit, *, files: bool = False
) -> Json:
    """GitHub's ``commit``; with ``files``, its ``stats`` and first page of ``files``
    (git's diff against its first parent)."""
    api = render.repo_url(repo)
    html = f"{render.web}/{repo.full_name}"
    author = store.user(c.author_login) if c.author_login else None
    committer = _WEB_FLOW if c.committer_email == API_COMMITTER[1] else None
    committer = committer or store.user_for_email(c.committer_email)
    out: Json = {
        "sha": c.sha,
        "node_id": f"C_kwDO{c.id:06X}",  # GraphQL's Commit.id
        "commit": {
            "author": _git_user(c.author_name, c.author_email, c.created_at),
            "committer": _git_user(c.committer_name, c.committer_email, c.committed_at),
            "message": c.message,
            "tree": {"sha": c.tree_sha, "url": f"{api}/git/trees/{c.tree_sha}"},
            "url": f"{api}/git/commits/{c.sha}",
            "comment_count": 0,
            "verification": dict(_UNSIGNED),
        },
        "url": f"{api}/commits/{c.sha}",
        "html_url": f"{html}/commit/{c.sha}",
        "comments_url": f"{api}/commits/{c.sha}/comments",
        "author": render.user(author) if author else None,
        "committer": render.user(committer) if committer else None,
        "parents": [
            {"sha": p, "url": f"{api}/commits/{p}", "html_url": f"{html}/commit/{p}"}
            for p in c.parents
        ],
    }
    if files:
        changes = store.commit_files(repo, c)
        stat = diff_stat(changes)
        out["stats"] = {
            "total": stat.additions + stat.deletions,
            "additions": stat.additions,
            "deletions": stat.deletions,
        }
        out["files"] = [diff_entry(render, repo, c.sha, f) for f in changes[:MAX_COMMIT_FILES]]
    return out


def short_branch(render: RestRenderer, store: Store, repo: Repo, name: str, sha: str) -> Json:
    return {
        "name": name,
        "commit": {"sha": sha, "url": f"{render.repo_url(repo)}/commits/{sha}"},
        "protected": store.protection(repo, name) is not None,
    }


def branch(render: RestRenderer, store: Store, repo: Repo, name: str, c: Commit) -> Json:
    """GitHub's ``branch-with-protection``: its protection's required status checks."""
    api = f"{render.repo_url(repo)}/branches/{quote(name)}"
    rule = store.protection(repo, name)
    contexts = list(rule.required_contexts or []) if rule else []
    level = "off"
    if rule is not None and rule.required_contexts is not None:
        level = "everyone" if rule.enforce_admins else "non_admins"
    return {
        "name": name,
        "commit": commit(render, store, repo, c),
        "_links": {"self": api, "html": f"{render.web}/{repo.full_name}/tree/{name}"},
        "protected": rule is not None,
        "protection": {
            "enabled": rule is not None,
            "required_status_checks": {
                "enforcement_level": level,
                "contexts": contexts,
                "checks": [{"context": c, "app_id": None} for c in contexts],
            },
        },
        "protection_url": f"{api}/protection",
    }


@dataclass(frozen=True)
class Contents:
    """The contents API's shapes for files of ``repo`` at ``ref`` (as asked)."""

    render: RestRenderer
    repo: Repo
    ref: str

    def _links(self, path: str, kind: str, oid: str) -> Json:
        api = self.render.repo_url(self.repo)
        quoted = quote(path)
        self_url = f"{api}/contents/{quoted}?ref={quote(self.ref, safe='')}"
        git_url = f"{api}/git/{'trees' if kind == 'dir' else 'blobs'}/{oid}"
        page = "tree" if kind == "dir" else "blob"
        html_url = f"{self.render.web}/{self.repo.full_name}/{page}/{self.ref}/{quoted}"
        download = None
        if kind == "file":
            download = (
                f"https://raw.githubusercontent.com/{self.repo.full_name}/{self.ref}/{quoted}"
            )
        return {
            "url": self_url,
            "html_url": html_url,
            "git_url": git_url,
            "download_url": download,
            "_links": {"self": self_url, "git": git_url, "html": html_url},
        }

    def entry(self, path: str, mode: str, oid: str, size: int) -> Json:
        """One item of a directory listing (``content-directory``)."""
        kind = _TYPES.get(mode, "file")
        entry: Json = {
            "type": kind,
            "size": size if kind == "file" else 0,
            "name": path.rsplit("/", 1)[-1],
            "path": path,
            "sha": oid,
        }
        return entry | self._links(path, kind, oid)

    def file(self, path: str, oid: str, data: bytes) -> Json:
        """A file (``content-file``): its bytes in base64, wrapped at 60 columns as
        GitHub's are."""
        encoded = base64.b64encode(data).decode()
        wrapped = "".join(encoded[i : i + 60] + "\n" for i in range(0, len(encoded), 60))
        return {
            "type": "file",
            "encoding": "base64",
            "size": len(data),
            "name": path.rsplit("/", 1)[-1],
            "path": path,
            "content": wrapped,
            "sha": oid,
        } | self._links(path, "file", oid)
