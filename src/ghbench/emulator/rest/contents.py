"""The contents API: ``GET`` a file or directory at a ref, ``PUT`` a commit writing
one file on a branch; both from and to git.

Enough for clients that push one file to give a branch a commit before opening a PR.
The commit is a git commit (``emulator/git``), so updates are checked against the
file's blob id as GitHub checks them (measured on github.com by a third party,
pome-sh/digital-twins#400): the branch must exist (404), an existing file needs
``sha`` (422) equal to its blob id (409), a new file ignores ``sha`` (201), and an
update answers 200.
"""

from __future__ import annotations

import base64
import binascii
import json

from ghbench.emulator.errors import Conflict, NotFound, ValidationFailed, found, invalid_field
from ghbench.emulator.git.names import path_problem
from ghbench.emulator.git.objects import TREE_MODE
from ghbench.emulator.rest import git_render
from ghbench.emulator.rest.common import body_field, repo_of, viewer
from ghbench.emulator.rest.media import RAW, media_param, text_reply
from ghbench.emulator.rest.routing import JSON_MEDIA, Call, Reply, Route
from ghbench.emulator.state.commits import blob_id

__all__ = ["ROUTES"]

_DOCS = "https://docs.github.com/rest/repos/contents#create-or-update-file-contents"


def _checked_sha(call: Call, path: str, current: str) -> None:
    """GitHub's optimistic lock on an existing file: ``sha`` must be its blob id."""
    body = call.body if isinstance(call.body, dict) else {}
    if "sha" in body and not isinstance(body["sha"], str):
        value = "nil" if body["sha"] is None else json.dumps(body["sha"])
        raise ValidationFailed(
            f"Invalid request.\n\nFor 'properties/sha', {value} is not a string.",
            documentation_url=_DOCS,
        )
    sha = body.get("sha")
    if sha is None:
        raise ValidationFailed(
            'Invalid request.\n\n"sha" wasn\'t supplied.', documentation_url=_DOCS
        )
    if sha != current:
        raise Conflict(f"{path} does not match {sha}", documentation_url=_DOCS)


def _checked_path(call: Call) -> str:
    """The file's path as git can hold it, or GitHub's 422 (resource ``Commit``, field
    ``path``): a leading slash, an empty, ``.``, ``..`` or ``.git`` component, or a NUL
    byte (which git's trees cannot hold) is refused before anything is written."""
    path: str = call.params["path"]
    message = path_problem(path)
    if message is None:
        return path.rstrip("/")
    raise ValidationFailed(
        message,
        errors=[{"resource": "Commit", "code": "invalid", "field": "path"}],
        documentation_url=_DOCS,
    )


def put_contents(call: Call) -> Reply:
    """A commit writing the file on `branch` (default branch by default): 404 "Branch B
    not found" first; an existing file needs `sha` = its blob id (absent or not a
    string: 422, another value: 409 `PATH does not match SHA`); 201 for a new file
    (`sha` ignored), 200 for an update; a path git cannot hold (a NUL byte, `..`) is a
    422. The commit is a real git commit."""
    repo = repo_of(call)
    author = viewer(call)
    path = _checked_path(call)
    message = body_field(call, "Contents", "message", str)
    encoded = body_field(call, "Contents", "content", str)
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise invalid_field("Contents", "content", "content is not valid Base64") from exc
    branch = body_field(call, "Contents", "branch", str, default=repo.default_branch)
    if call.store.branch_sha(repo, branch) is None:
        raise NotFound(f"Branch {branch} not found", documentation_url=_DOCS)
    existing = call.store.branch_file(repo, branch, path)
    if existing is not None:
        _checked_sha(call, path, existing[1])
    commit = call.store.commit_to_branch(
        repo, branch, message, author=author.login, files={path: data}
    )
    blob_sha = blob_id(data)
    api = call.render.repo_url(repo)
    html = f"{call.render.web}/{repo.full_name}"
    content = {
        "name": path.rsplit("/", 1)[-1],
        "path": path,
        "sha": blob_sha,
        "size": len(data),
        "url": f"{api}/contents/{path}?ref={branch}",
        "html_url": f"{html}/blob/{branch}/{path}",
        "git_url": f"{api}/git/blobs/{blob_sha}",
        "download_url": f"https://raw.githubusercontent.com/{repo.full_name}/{branch}/{path}",
        "type": "file",
        "_links": {
            "self": f"{api}/contents/{path}?ref={branch}",
            "git": f"{api}/git/blobs/{blob_sha}",
            "html": f"{html}/blob/{branch}/{path}",
        },
    }
    commit_json = {
        "sha": commit.sha,
        "node_id": f"C_kwDO{commit.id:06X}",
        "url": f"{api}/git/commits/{commit.sha}",
        "html_url": f"{html}/commit/{commit.sha}",
        "message": message,
        "parents": [{"sha": p, "url": f"{api}/git/commits/{p}"} for p in commit.parents],
    }
    status = 201 if existing is None else 200
    return Reply({"content": content, "commit": commit_json}, status=status)


def get_contents(call: Call) -> Reply:
    """A file (`content` in base64) or a directory's entries, at `ref` (a branch, tag
    or sha; the default branch by default), read from git; `Accept:
    application/vnd.github.raw` answers a file's bytes; a missing path is 404."""
    repo = repo_of(call)
    ref = call.query.get("ref") or repo.default_branch
    sha = call.store.resolve(repo, ref)
    if sha is None:
        raise NotFound(f"No commit found for the ref {ref}")
    path = call.params.get("path", "").strip("/")
    mode, oid = found(call.store.lookup(repo, sha, path))
    contents = git_render.Contents(call.render, repo, ref)
    if mode != TREE_MODE:
        data = call.store.blob(repo, oid) or b""
        media = media_param(call, ("raw",))
        if media is not None:
            return text_reply(media, data)
        return Reply(contents.file(path, oid, data))
    entries = []
    for child_mode, name, child in call.store.tree_entries(repo, oid):
        size = len(call.store.blob(repo, child) or b"") if child_mode != TREE_MODE else 0
        entries.append(contents.entry(f"{path}/{name}" if path else name, child_mode, child, size))
    return Reply(entries)


ROUTES = [
    Route("GET", "/repos/{owner}/{repo}/contents", get_contents, etag=True),
    Route(
        "GET",
        "/repos/{owner}/{repo}/contents/{path:path}",
        get_contents,
        etag=True,
        media_types=(JSON_MEDIA, RAW),
    ),
    Route(
        "PUT",
        "/repos/{owner}/{repo}/contents/{path:path}",
        put_contents,
        creates_content=True,
        anonymous=False,
    ),
]
