"""``PUT /repos/{o}/{r}/contents/{path}``: a commit on a branch (file bodies are not kept).

Enough for clients that push one file to give a branch a commit before opening a PR.
The content must be valid base64, as on GitHub; ``sha`` (for updates) is not checked.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

from ghbench.emulator.errors import invalid_field
from ghbench.emulator.rest.common import body_field, repo_of, viewer
from ghbench.emulator.routing import Call, Reply, Route

__all__ = ["ROUTES"]


def put_contents(call: Call) -> Reply:
    repo = repo_of(call)
    author = viewer(call)
    path = call.params["path"].strip("/")
    message = body_field(call, "Contents", "message", str)
    encoded = body_field(call, "Contents", "content", str)
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise invalid_field("Contents", "content", "content is not valid Base64") from exc
    branch = body_field(call, "Contents", "branch", str, default=repo.default_branch)
    commit = call.store.commit_to_branch(repo, branch, message, author=author.login)
    blob_sha = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # git's blob id
    api = f"{call.urls.api}/repos/{repo.full_name}"
    html = f"{call.urls.web}/{repo.full_name}"
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
    return Reply({"content": content, "commit": commit_json}, status=201)


ROUTES = [
    Route(
        "PUT",
        "/repos/{owner}/{repo}/contents/{path:path}",
        put_contents,
        creates_content=True,
        anonymous=False,
    )
]
