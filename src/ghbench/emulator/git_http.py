"""git over HTTP: ``git clone``, ``fetch`` and ``push`` of the emulator's repositories.

``http://HOST/OWNER/REPO(.git)/info/refs?service=...``, ``.../git-upload-pack`` and
``.../git-receive-pack`` (git's smart protocol, v0 and v2) on any host and any
address: through the proxy (``http://github.localhost/OWNER/REPO.git`` with
``http_proxy`` at the emulator; absolute-form request lines), directly
(``http://127.0.0.1:PORT/OWNER/REPO.git``), or as an enterprise host's
``http://ghe.example.com/OWNER/REPO.git``. git's own ``git http-backend`` answers
(``git/cgi.py``); this module decides who may, as GitHub does:

- credentials are HTTP Basic with any user name and the token as password (the
  token as user name with an empty or ``x-oauth-basic`` password also works);
- anonymous reads of a public repository are served; anything else anonymous is
  401 with a Basic challenge (git then asks its credential helper), whether or not
  the repository exists, so its existence is not disclosed;
- unknown credentials: 401 "Invalid username or token. Password authentication is
  not supported for Git operations.";
- a token of a user for a repository that does not exist: 404 "Repository not found.";
- a push with a token lacking the ``repo`` scope (``public_repo`` for a public
  repository): 403 "Permission to OWNER/REPO.git denied to LOGIN.";
- git's dumb protocol: 403 (GitHub turned it off in 2011).

Messages are ``text/plain``, which git prints as ``remote: ...``. Git traffic is free:
no rate-limit bucket, no ledger entry. After a push, the pushed commits and refs are
imported into the emulator's records (``import_push``), so a pushed branch is a branch
for the whole API.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ghbench.emulator.git.cgi import cgi_environment, plain_answer, run_http_backend
from ghbench.emulator.git.command import run_git
from ghbench.emulator.git.objects import ParsedCommit, parse_commit
from ghbench.emulator.parts import EmulatorParts
from ghbench.emulator.state import Repo, Token, User
from ghbench.errors import EmulatorError

__all__ = ["GitHttp", "GitTarget", "git_target", "import_push"]

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_SMART = re.compile(
    r"/(?P<owner>[^/]+)/(?P<name>[^/]+?)(?:\.git)?/(?P<rest>info/refs|git-upload-pack|git-receive-pack)"
)
_DUMB = re.compile(r"/[^/]+/[^/]+?(?:\.git)?/(?:HEAD|objects/.+|info/packs)")
_SERVICES = ("git-upload-pack", "git-receive-pack")
_INVALID = "Invalid username or token. Password authentication is not supported for Git operations."
_CHALLENGE = [(b"www-authenticate", b'Basic realm="GitHub"')]
_LOG = logging.getLogger("ghbench.emulator")


@dataclass(frozen=True)
class GitTarget:
    owner: str
    name: str
    rest: str  # info/refs | git-upload-pack | git-receive-pack | "" (dumb protocol)
    service: str  # git-upload-pack | git-receive-pack | ""
    query: str

    @property
    def writes(self) -> bool:
        return self.service == "git-receive-pack"


def git_target(path: str, query: str) -> GitTarget | None:
    """The git request at ``path`` (origin- or absolute-form), or None for the API."""
    if path.startswith(("http://", "https://")):
        parts = urlsplit(path)
        path, query = parts.path, parts.query or query
    found = _SMART.fullmatch(path)
    if found is None:
        if _DUMB.fullmatch(path):
            return GitTarget("", "", "", "", query)
        return None
    rest = found["rest"]
    service = rest if rest != "info/refs" else (parse_qs(query).get("service") or [""])[0]
    if service not in _SERVICES:
        service, rest = "", ""  # info/refs without a service: the dumb protocol
    return GitTarget(found["owner"], found["name"], rest, service, query)


def _credential(header: str | None) -> str | None:
    """The token in an Authorization header, "" for a malformed one, None for none."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() in ("token", "bearer"):
        return value.strip()
    if scheme.lower() != "basic":
        return ""
    try:
        user, _, password = base64.b64decode(value.strip()).decode().partition(":")
    except (binascii.Error, UnicodeDecodeError):
        return ""
    return password if password and password != "x-oauth-basic" else user


def _scopes(token: Token) -> set[str]:
    return {s.strip() for s in token.scopes.split(",") if s.strip()}


@dataclass(frozen=True)
class _Refusal:
    status: int
    message: str
    challenge: bool = False


@dataclass(frozen=True)
class _Grant:
    repo: Repo
    user: User | None
    path_info: str
    root: Path


def _decide(
    emulator: EmulatorParts, target: GitTarget, authorization: str | None
) -> _Refusal | _Grant:
    """Who may do what, as GitHub answers it (module docstring). Under the lock."""
    if not target.service:
        return _Refusal(
            403, "GitHub does not serve git's dumb HTTP protocol; use git 1.6.6 or later."
        )
    store = emulator.store
    secret = _credential(authorization)
    token = store.token_for(secret) if secret else None
    if secret is not None and token is None:
        return _Refusal(401, _INVALID, challenge=True)
    repo = store.repo(target.owner, target.name)
    user = store.user_by_id(token.user_id) if token is not None else None
    if token is None or user is None:
        if repo is None or repo.private or target.writes:
            return _Refusal(401, "", challenge=True)
    elif repo is None:
        return _Refusal(404, "Repository not found.")
    elif target.writes or repo.private:
        scopes = _scopes(token)
        allowed = "repo" in scopes or (not repo.private and "public_repo" in scopes)
        if not allowed and target.writes:
            return _Refusal(403, f"Permission to {repo.full_name}.git denied to {user.login}.")
        if not allowed:
            return _Refusal(404, "Repository not found.")
    assert repo is not None
    git_dir = store.git_dir(repo)
    return _Grant(repo, user, f"/{git_dir.name}/{target.rest}", git_dir.parent)


class GitHttp:
    """Serves git's smart HTTP protocol for one emulator (see the module docstring)."""

    def __init__(self, emulator: EmulatorParts) -> None:
        self.emulator = emulator

    async def __call__(
        self, target: GitTarget, scope: MutableMapping[str, Any], receive: Receive, send: Send
    ) -> None:
        headers: dict[str, str] = {}
        for raw_name, raw_value in scope.get("headers", ()):
            headers[raw_name.decode("latin-1").lower()] = raw_value.decode("latin-1")
        decision = await asyncio.to_thread(self._decide, target, headers.get("authorization"))
        if isinstance(decision, _Refusal):
            await _refuse(decision, send)
            return
        client = scope.get("client") or ("127.0.0.1", 0)
        env = cgi_environment(
            decision.root,
            decision.path_info,
            scope["method"],
            target.query,
            headers,
            remote_user=decision.user.login if decision.user else None,
            remote_addr=str(client[0]),
        )
        repo = decision.repo

        async def import_it() -> None:
            try:
                await asyncio.to_thread(import_push, self.emulator, repo)
            except EmulatorError as exc:  # the next push or a restart records it
                _LOG.error("recording a push to %s failed: %s", repo.full_name, exc)

        pushed = target.rest == "git-receive-pack"
        await run_http_backend(env, receive, send, import_it if pushed else None)

    def _decide(self, target: GitTarget, authorization: str | None) -> _Refusal | _Grant:
        with self.emulator.lock:
            return _decide(self.emulator, target, authorization)


async def _refuse(refusal: _Refusal, send: Send) -> None:
    await plain_answer(
        send, refusal.status, refusal.message, _CHALLENGE if refusal.challenge else []
    )


def import_push(emulator: EmulatorParts, repo: Repo) -> list[str]:
    """Bring what a push left in ``repo``'s git repository into the records: the new
    commits (read with git), then the refs as they are on disk. Returns the refs that
    changed. git runs outside the emulator's lock; the records change under it."""
    git = emulator.git.repo(repo.id)
    with emulator.lock:
        disk = git.disk_refs()
        known = sorted({r.sha for r in emulator.store.refs_with_prefix(repo, "")})
        tips = sorted(
            {sha for sha in disk.values() if (repo.id, sha) not in emulator.store.commits}
        )
    commits: list[tuple[str, ParsedCommit]] = []
    if tips:
        args = ["rev-list", "--topo-order", "--reverse", *tips, "--not", *known, "--"]
        _, out = run_git(git.path, args)
        shas = out.decode().split()
        if shas:
            _, raw = run_git(git.path, ["cat-file", "--batch"], input="\n".join(shas).encode())
            commits = list(_batch_commits(raw))
    with emulator.lock, emulator.db.transaction():
        emulator.store.import_commits(repo, commits)
        return emulator.store.sync_refs(repo, git.disk_refs())


def _batch_commits(raw: bytes) -> list[tuple[str, ParsedCommit]]:
    out, pos = [], 0
    while pos < len(raw):
        end = raw.index(b"\n", pos)
        sha, kind, size = raw[pos:end].decode().split(" ")
        body = raw[end + 1 : end + 1 + int(size)]
        pos = end + 1 + int(size) + 1
        if kind == "commit":
            out.append((sha, parse_commit(body)))
    return out
