"""Users, tokens, repositories, commits and git refs."""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Mapping

from ghbench.emulator.errors import NotFound, ValidationFailed, invalid_field
from ghbench.emulator.state.base import StoreBase
from ghbench.emulator.state.models import Commit, PullRequest, Ref, Repo, Token, User
from ghbench.emulator.state.trees import FileChange, FileEntry, Tree, blob_entry, diff_trees

__all__ = ["RepoOps", "token_digest"]

_DIFF_CACHE_MAX = 10_000


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
        readme = {"README.md": f"# {name}\n".encode()}
        self.commit_to_branch(
            repo, default_branch, "Initial commit", author=owner_user.login, files=readme
        )
        return repo

    # -- commits and refs --------------------------------------------------------
    def commit(self, repo: Repo, sha: str) -> Commit | None:
        return self.commits.get((repo.id, sha))

    def create_commit(
        self,
        repo: Repo,
        message: str,
        parents: list[str],
        *,
        author: str | None = None,
        tree: Mapping[str, FileEntry] | None = None,
        sha: str | None = None,
    ) -> Commit:
        """A commit whose tree is ``tree`` (default: its first parent's)."""
        if tree is None:
            tree = self.tree(repo, parents[0]) if parents else {}
        commit = Commit(
            id=self.new_id(),
            repo_id=repo.id,
            sha=sha or self.new_sha(),
            message=message,
            parents=parents,
            author_login=author,
            created_at=self.now(),
            tree=dict(tree),
        )
        self.add(commit)
        return commit

    def tree(self, repo: Repo, sha: str | None) -> Tree:
        """The files of commit ``sha`` (empty for an unknown commit)."""
        commit = self.commits.get((repo.id, sha)) if sha else None
        return commit.tree if commit is not None else {}

    def changes(
        self, repo: Repo, base: str | None, head: str, *, base_is_ancestor: bool = False
    ) -> list[FileChange]:
        """What ``head`` changes since the merge base of ``base`` and ``head`` (``base``
        itself when the caller knows it is one, as a commit's first parent is), by path.

        The one diff behind a pull request's files and sizes (REST and GraphQL) and a
        commit's stats. Cached by (repository, head, base): commits never change, so
        entries never go stale (the cache is only bounded). ``merge_base`` of a commit
        and its first parent is that parent, so both ways of asking share one entry.
        """
        key = (repo.id, head, base or "")
        found = self.diff_cache.get(key)
        if found is None:
            ancestor = base
            if base and not base_is_ancestor:
                ancestor = self.merge_base(repo, base, head) or base
            found = diff_trees(self.tree(repo, ancestor), self.tree(repo, head))
            if len(self.diff_cache) >= _DIFF_CACHE_MAX:
                self.diff_cache.clear()
            self.diff_cache[key] = found
        return found

    def commit_files(self, repo: Repo, commit: Commit) -> list[FileChange]:
        """What a commit changes: its tree against its first parent's (every file added
        for a root commit; for a merge commit, what it brought to the branch it was
        merged into), which is what GitHub's commit stats count."""
        parent = commit.parents[0] if commit.parents else None
        return self.changes(repo, parent, commit.sha, base_is_ancestor=True)

    def branch_file(self, repo: Repo, branch: str, path: str) -> FileEntry | None:
        """``(blob id, lines)`` of ``path`` at the tip of ``branch``, if it is there."""
        return self.tree(repo, self.branch_sha(repo, branch)).get(path)

    def merge_base(self, repo: Repo, one: str, two: str) -> str | None:
        """The nearest common ancestor of two commits (breadth-first from ``two``)."""
        seen_one = self._ancestors(repo, one)
        queue, seen = deque([two]), {two}
        while queue:
            sha = queue.popleft()
            if sha in seen_one:
                return sha
            commit = self.commits.get((repo.id, sha))
            for parent in commit.parents if commit else ():
                if parent not in seen:
                    seen.add(parent)
                    queue.append(parent)
        return None

    def _ancestors(self, repo: Repo, sha: str) -> set[str]:
        out, stack = {sha}, [sha]
        while stack:
            commit = self.commits.get((repo.id, stack.pop()))
            for parent in commit.parents if commit else ():
                if parent not in out:
                    out.add(parent)
                    stack.append(parent)
        return out

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
        self,
        repo: Repo,
        branch: str,
        message: str,
        *,
        author: str | None = None,
        files: Mapping[str, bytes] | None = None,
    ) -> Commit:
        """A push: a new commit on ``branch`` (created from the default branch if new)
        writing ``files`` (path -> content). A push without contents (the control API,
        a seeded pull request's head) rewrites README.md with one line naming the
        commit, so every such commit changes a file a review comment can sit on."""
        parent = self.branch_sha(repo, branch) or self.branch_sha(repo, repo.default_branch)
        sha = self.new_sha()
        if files is None:
            files = {"README.md": f"{message} ({sha[:7]})\n".encode()}
        tree = dict(self.tree(repo, parent))
        tree.update((path, blob_entry(data)) for path, data in files.items())
        commit = self.create_commit(
            repo, message, [parent] if parent else [], author=author, tree=tree, sha=sha
        )
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
