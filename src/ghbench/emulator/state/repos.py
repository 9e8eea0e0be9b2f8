"""Users, tokens and repositories (commits and refs: ``commits.py``)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ghbench.emulator.errors import found, invalid_field
from ghbench.emulator.state.base import CREATED
from ghbench.emulator.state.models import Repo, Token, User
from ghbench.emulator.state.pushes import PushOps

__all__ = ["RepoOps", "TokenKind", "token_digest"]


@dataclass(frozen=True)
class TokenKind:
    """What kind of token a secret is, as ``Token`` keeps it (``Token``'s fields)."""

    kind: str = "pat"
    bucket: str | None = None
    repository: str | None = None
    core_limit: int | None = None
    graphql_limit: int | None = None


def token_digest(secret: str) -> str:
    """How a token is stored and looked up: its SHA-256, never the token itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


class RepoOps(PushOps):
    # -- users and tokens --------------------------------------------------------
    def user(self, login: str) -> User | None:
        return self.users_by_login.get(login.lower())

    def ensure_user(self, login: str, *, name: str | None = None, type: str = "User") -> User:
        """The user ``login``, created if new."""
        found = self.user(login)
        if found is not None:
            return found
        return self.create(User, "U", now=("created_at",), login=login, name=name, type=type)

    def add_token(
        self,
        user: User,
        secret: str,
        *,
        label: str | None = None,
        scopes: str | None = None,
        kind: TokenKind | None = None,
    ) -> Token:
        """Register ``secret`` for ``user``; re-adding an existing token moves it.
        ``scopes``: a classic token's scopes, comma-separated (default: repo, read:org,
        workflow); git pushes need ``repo`` (``public_repo`` for a public repository).
        ``kind``: what kind of token it is and the bucket it draws on (default: a
        personal access token on its user's buckets)."""
        digest = token_digest(secret)
        existing = self.tokens.get(digest)
        if existing is None:
            tid = self.new_id()
            token = Token(
                id=tid, user_id=user.id, token_sha256=digest, label=label or f"token-{tid}"
            )
        else:
            token = existing
        token.user_id = user.id
        if scopes is not None:
            token.scopes = scopes
        if kind is not None:
            token.kind, token.bucket, token.repository = kind.kind, kind.bucket, kind.repository
            token.core_limit, token.graphql_limit = kind.core_limit, kind.graphql_limit
        if existing is None:
            self.add(token)
        else:
            self.save(token)
        return token

    def token_for(self, secret: str) -> Token | None:
        return self.tokens.get(token_digest(secret))

    # -- repositories ------------------------------------------------------------
    def repo(self, owner: str, name: str) -> Repo | None:
        return self.repos_by_name.get((owner.lower(), name.lower()))

    def get_repo(self, owner: str, name: str) -> Repo:
        """The repository, or GitHub's 404."""
        return found(self.repo(owner, name))

    def create_repo(
        self,
        owner: str,
        name: str,
        *,
        default_branch: str = "main",
        description: str | None = None,
        private: bool = False,
    ) -> Repo:
        """A repository with one initial commit on ``default_branch``."""
        if self.repo(owner, name) is not None:
            raise invalid_field("Repository", "name", "name already exists on this account")
        owner_user = self.ensure_user(owner)
        repo = self.create(
            Repo,
            "R",
            now=(*CREATED, "pushed_at"),
            owner_id=owner_user.id,
            owner_login=owner_user.login,
            name=name,
            default_branch=default_branch,
            description=description,
            private=private,
        )
        self.git.create(repo.id, default_branch)
        readme = {"README.md": f"# {name}\n".encode()}
        self.commit_to_branch(
            repo, default_branch, "Initial commit", author=owner_user.login, files=readme
        )
        return repo
