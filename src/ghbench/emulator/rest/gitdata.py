"""git's objects over the API: trees, commits and blobs (``git/...``) and the tags list,
read from the repository's git objects (``emulator/git``)."""

from __future__ import annotations

import base64
import re
from typing import Any

from ghbench.emulator.errors import NotFound, found
from ghbench.emulator.git.objects import TREE_MODE
from ghbench.emulator.rest.common import paginate, repo_of
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import Commit, Repo
from ghbench.timefmt import iso_s

__all__ = ["ROUTES", "git_commit_json"]

Json = dict[str, Any]

# GitHub stops a recursive tree listing here and says it is truncated.
_MAX_TREE_ENTRIES = 100_000
_OID = re.compile(r"[0-9a-f]{40}")


def _object_id(call: Call, name: str) -> str:
    """The object id in the URL (40 hex digits: anything else names no object)."""
    oid = call.params[name].lower()
    if not _OID.fullmatch(oid):
        raise NotFound()
    return oid


def get_tree(call: Call) -> Reply:
    """A tree by its sha (or a commit's, or a branch's root tree); `recursive` lists
    every entry below it, git's order."""
    repo = repo_of(call)
    wanted = call.params["tree_sha"]
    store = call.store
    sha = store.resolve(repo, wanted)
    tree = store.commits[(repo.id, sha)].tree_sha if sha else _object_id(call, "tree_sha")
    found = store.git.repo(repo.id).get(tree)
    if found is None or found[0] != "tree":
        raise NotFound()
    api = f"{call.render.repo_url(repo)}/git"
    recursive = call.query.get("recursive", "") not in ("", "0", "false")
    entries: list[dict[str, object]] = []
    pending = [("", tree)]
    while pending and len(entries) < _MAX_TREE_ENTRIES:
        prefix, oid = pending.pop(0)
        for mode, name, child in store.tree_entries(repo, oid):
            path = f"{prefix}{name}"
            if mode == TREE_MODE:
                entries.append(
                    {
                        "path": path,
                        "mode": "040000",
                        "type": "tree",
                        "sha": child,
                        "url": f"{api}/trees/{child}",
                    }
                )
                if recursive:
                    pending.append((path + "/", child))
            else:
                size = len(store.blob(repo, child) or b"")
                kind = "commit" if mode == "160000" else "blob"
                entries.append(
                    {
                        "path": path,
                        "mode": mode,
                        "type": kind,
                        "sha": child,
                        "size": size,
                        "url": f"{api}/blobs/{child}",
                    }
                )
    body = {"sha": tree, "url": f"{api}/trees/{tree}", "tree": entries, "truncated": bool(pending)}
    return Reply(body)


def git_commit_json(call: Call, repo: Repo, commit: Commit) -> Json:
    """``commit`` as the git data API shows it (the timeline's ``committed`` too)."""
    api = f"{call.render.repo_url(repo)}/git"
    html = f"{call.render.web}/{repo.full_name}/commit"
    return {
        "sha": commit.sha,
        "node_id": f"C_kwDO{commit.id:06X}",
        "url": f"{api}/commits/{commit.sha}",
        "html_url": f"{html}/{commit.sha}",
        "author": {
            "name": commit.author_name,
            "email": commit.author_email,
            "date": iso_s(commit.created_at),
        },
        "committer": {
            "name": commit.committer_name,
            "email": commit.committer_email,
            "date": iso_s(commit.committed_at or commit.created_at),
        },
        "message": commit.message,
        "tree": {"sha": commit.tree_sha, "url": f"{api}/trees/{commit.tree_sha}"},
        "parents": [
            {"sha": p, "url": f"{api}/commits/{p}", "html_url": f"{html}/{p}"}
            for p in commit.parents
        ],
        "verification": {
            "verified": False,
            "reason": "unsigned",
            "signature": None,
            "payload": None,
            "verified_at": None,
        },
    }


def get_git_commit(call: Call) -> Reply:
    """A commit as git has it (`git-commit`): tree, parents, author and committer."""
    repo = repo_of(call)
    commit = found(call.store.commit(repo, call.params["commit_sha"]))
    return Reply(git_commit_json(call, repo, commit))


def get_blob(call: Call) -> Reply:
    """A blob's bytes in base64."""
    repo = repo_of(call)
    sha = _object_id(call, "file_sha")
    data = found(call.store.blob(repo, sha))
    return Reply(
        {
            "sha": sha,
            "node_id": f"B_kwDO{int(sha[:8], 16):08X}",
            "size": len(data),
            "url": f"{call.render.repo_url(repo)}/git/blobs/{sha}",
            "content": base64.encodebytes(data).decode(),
            "encoding": "base64",
        }
    )


def list_tags(call: Call) -> Reply:
    """The repository's tags, newest name first as GitHub sorts them; `per_page`,
    `page`."""
    repo = repo_of(call)
    refs = sorted(call.store.refs_with_prefix(repo, "tags/"), key=lambda r: r.name, reverse=True)
    page, headers = paginate(call, refs)
    api = call.render.repo_url(repo)
    body = [
        {
            "name": r.name.removeprefix("tags/"),
            "commit": {"sha": r.sha, "url": f"{api}/commits/{r.sha}"},
            "zipball_url": f"{api}/zipball/refs/{r.name}",
            "tarball_url": f"{api}/tarball/refs/{r.name}",
            "node_id": f"REF_{r.id:x}",
        }
        for r in page
    ]
    return Reply(body, headers=headers)


_G = "/repos/{owner}/{repo}/git"
ROUTES = [
    Route("GET", _G + "/trees/{tree_sha}", get_tree, etag=True),
    Route("GET", _G + "/commits/{commit_sha}", get_git_commit, etag=True),
    Route("GET", _G + "/blobs/{file_sha}", get_blob, etag=True),
    Route("GET", "/repos/{owner}/{repo}/tags", list_tags, etag=True),
]
