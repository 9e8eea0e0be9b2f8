"""Users, tokens, repositories, commits and git refs."""

from __future__ import annotations

import hashlib

from ghbench.emulator.errors import NotFound, ValidationFailed, invalid_field
from ghbench.emulator.state.base import StoreBase
from ghbench.emulator.state.models import Commit, PullRequest, Ref, Repo, Token, User

__all__ = ["RepoOps", "token_digest"]


def token_digest(secret: str) -> str:
    """How a token is stored and looked up: its SHA-256, never the token itself."""
    return hashlib.sha256(secret.encode()).hexdigest()


class RepoOps(StoreBase):
    # -- users and tokens --------------------------------------------------------
    def user(self, login: str) -> User | None:
        return self.users_by_login.get(login.lower())

    def ensure_user(self, login: str, *, name: str | None = None, type: str = "User") -> User:
        """The user ``login``, created if new."""
        found = self.user(login)
        if found is not None:
            return found
        uid = self.new_id()
        user = User(
            id=uid,
            login=login,
            node_id=self.make_node_id("U", uid),
            name=name,
            type=type,
            created_at=self.now(),
        )
        self.add(user)
        return user

    def add_token(self, user: User, secret: str, *, label: str | None = None) -> Token:
        """Register ``secret`` for ``user``; re-adding an existing token moves it."""
        digest = token_digest(secret)
        existing = self.tokens.get(digest)
        if existing is not None:
            existing.user_id = user.id
            self.save(existing)
            return existing
        tid = self.new_id()
        token = Token(id=tid, user_id=user.id, token_sha256=digest, label=label or f"token-{tid}")
        self.add(token)
        return token

    def token_for(self, secret: str) -> Token | None:
        return self.tokens.get(token_digest(secret))

    # -- repositories ------------------------------------------------------------
    def repo(self, owner: str, name: str) -> Repo | None:
        return self.repos_by_name.get((owner.lower(), name.lower()))

    def get_repo(self, owner: str, name: str) -> Repo:
        """The repository, or GitHub's 404."""
        found = self.repo(owner, name)
        if found is None:
            raise NotFound()
        return found

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
        rid = self.new_id()
        now = self.now()
        repo = Repo(
            id=rid,
            node_id=self.make_node_id("R", rid),
            owner_id=owner_user.id,
            owner_login=owner_user.login,
            name=name,
            default_branch=default_branch,
            description=description,
            private=private,
            created_at=now,
            updated_at=now,
            pushed_at=now,
        )
        self.add(repo)
        self.commit_to_branch(repo, default_branch, "Initial commit", author=owner_user.login)
        return repo

    # -- commits and refs --------------------------------------------------------
    def commit(self, repo: Repo, sha: str) -> Commit | None:
        return self.commits.get((repo.id, sha))

    def create_commit(
        self, repo: Repo, message: str, parents: list[str], *, author: str | None = None
    ) -> Commit:
        commit = Commit(
            id=self.new_id(),
            repo_id=repo.id,
            sha=self.new_sha(),
            message=message,
            parents=parents,
            author_login=author,
            created_at=self.now(),
        )
        self.add(commit)
        return commit

    def ref(self, repo: Repo, name: str) -> Ref | None:
        """``name`` without ``refs/``: ``heads/main``."""
        return self.refs.get((repo.id, name))

    def branch_sha(self, repo: Repo, branch: str) -> str | None:
        found = self.refs.get((repo.id, f"heads/{branch}"))
        return found.sha if found else None

    def refs_with_prefix(self, repo: Repo, prefix: str) -> list[Ref]:
        return sorted(
            (
                r
                for (rid, name), r in self.refs.items()
                if rid == repo.id and name.startswith(prefix)
            ),
            key=lambda r: r.name,
        )

    def create_ref(self, repo: Repo, name: str, sha: str) -> Ref:
        if (repo.id, name) in self.refs:
            raise ValidationFailed("Reference already exists")
        if (repo.id, sha) not in self.commits:
            raise ValidationFailed("Object does not exist")
        ref = Ref(id=self.new_id(), repo_id=repo.id, name=name, sha=sha)
        self.add(ref)
        return ref

    def update_ref(self, ref: Ref, sha: str) -> Ref:
        ref.sha = sha
        self.save(ref)
        if ref.name.startswith("heads/"):
            self._follow_head(ref.repo_id, ref.name.removeprefix("heads/"), sha)
        return ref

    def delete_ref(self, repo: Repo, name: str) -> None:
        ref = self.refs.pop((repo.id, name), None)
        if ref is None:
            raise ValidationFailed("Reference does not exist")
        self.db.delete(ref)
        self.touch(repo.id)

    def commit_to_branch(
        self, repo: Repo, branch: str, message: str, *, author: str | None = None
    ) -> Commit:
        """A push: a new commit on ``branch`` (created from the default branch if new)."""
        parent = self.branch_sha(repo, branch) or self.branch_sha(repo, repo.default_branch)
        commit = self.create_commit(repo, message, [parent] if parent else [], author=author)
        existing = self.ref(repo, f"heads/{branch}")
        if existing is None:
            self.create_ref(repo, f"heads/{branch}", commit.sha)
        else:
            self.update_ref(existing, commit.sha)
        repo.pushed_at = self.now()
        self.save(repo)
        return commit

    def _follow_head(self, repo_id: int, branch: str, sha: str) -> None:
        # Open pull requests track their head branch, as on GitHub.
        now = self.now()
        for pull in self.pulls_by_id.values():
            if pull.repo_id == repo_id and pull.head_ref == branch and pull.state == "open":
                self._move_head(pull, sha, now)

    def _move_head(self, pull: PullRequest, sha: str, now: float) -> None:
        pull.head_sha = sha
        pull.updated_at = now
        self.save(pull)
