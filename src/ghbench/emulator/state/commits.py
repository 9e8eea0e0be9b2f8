"""Commits and their content: real git objects behind every commit record.

A commit the API makes (a repository's first commit, ``PUT contents``, a push through
the control API, a merge) is written as git objects in Python (``emulator/git``): its
sha is the one git computes. Its files, diffs and merges come from git: a flat tree
read from the objects, ``git diff-tree`` for a diff's files and lines, ``git
merge-tree`` for a merge. Commit records keep what the API lists (message, parents,
author, dates, tree id); the content stays in git.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from pathlib import Path

from ghbench.emulator.errors import NotFound, ValidationFailed
from ghbench.emulator.git.command import run_git
from ghbench.emulator.git.diff import EMPTY_TREE, added_files, tree_changes
from ghbench.emulator.git.names import path_problem, ref_problem
from ghbench.emulator.git.objects import (
    FILE_MODE,
    TREE_MODE,
    FlatTree,
    Signature,
    commit_body,
    object_id,
    write_tree,
)
from ghbench.emulator.state.base import StoreBase, ref_dirs
from ghbench.emulator.state.models import Commit, Ref, Repo, User
from ghbench.emulator.state.trees import FileChange

__all__ = ["API_COMMITTER", "CommitOps", "blob_id", "noreply_email"]

_DIFF_CACHE_MAX = 10_000
# Commits GitHub makes for a user through the API or the web (merges, file edits) are
# committed by "GitHub <noreply@github.com>" and authored by the user.
API_COMMITTER = ("GitHub", "noreply@github.com")
_HEX = frozenset("0123456789abcdef")


def noreply_email(user: User) -> str:
    """The address GitHub uses for a user who keeps theirs private."""
    return f"{user.id}+{user.login}@users.noreply.github.com"


class CommitOps(StoreBase):
    # -- reading -----------------------------------------------------------------
    def commit(self, repo: Repo, sha: str) -> Commit | None:
        return self.commits.get((repo.id, sha))

    def tree(self, repo: Repo, sha: str | None) -> FlatTree:
        """The files of commit ``sha``: path -> (mode, blob id); empty for an unknown one."""
        commit = self.commits.get((repo.id, sha)) if sha else None
        if commit is None:
            return {}
        return self.git.repo(repo.id).flat_tree(commit.tree_sha)

    def branch_file(self, repo: Repo, branch: str, path: str) -> tuple[str, str] | None:
        """``(mode, blob id)`` of ``path`` at the tip of ``branch``, if it is there."""
        return self.tree(repo, self.branch_sha(repo, branch)).get(path)

    def lookup(self, repo: Repo, sha: str, path: str) -> tuple[str, str] | None:
        """``(mode, object id)`` of ``path`` in commit ``sha`` (the root tree for "")."""
        commit = self.commits.get((repo.id, sha))
        if commit is None:
            return None
        found: tuple[str, str] = (TREE_MODE, commit.tree_sha)
        for part in [p for p in path.split("/") if p]:
            if found[0] != TREE_MODE:
                return None
            match = [(m, o) for m, n, o in self.git.repo(repo.id).entries(found[1]) if n == part]
            if not match:
                return None
            found = match[0]
        return found

    def tree_entries(self, repo: Repo, tree: str) -> list[tuple[str, str, str]]:
        """``(mode, name, object id)`` of a tree object's entries."""
        return self.git.repo(repo.id).entries(tree)

    def blob(self, repo: Repo, oid: str) -> bytes | None:
        return self.git.repo(repo.id).blob(oid)

    def git_dir(self, repo: Repo) -> Path:
        """The repository's bare git directory, written out first if only in memory."""
        refs = {r.name: r.sha for r in self.refs_with_prefix(repo, "")}
        return self.git.on_disk(repo.id, refs, repo.default_branch)

    def resolve(self, repo: Repo, ref: str) -> str | None:
        """A commit sha from what GitHub accepts as ``{ref}``: a sha (or an unambiguous
        prefix of at least 7 hex digits), a branch or tag name, ``heads/x``, ``refs/heads/x``."""
        if (repo.id, ref) in self.commits:
            return ref
        name = ref.removeprefix("refs/")
        for candidate in (f"heads/{name}", f"tags/{name}", name):
            found = self.refs.get((repo.id, candidate))
            if found is not None and candidate.startswith(("heads/", "tags/")):
                return found.sha
        lowered = ref.lower()
        if 7 <= len(lowered) < 40 and set(lowered) <= _HEX:
            matches = {
                sha for (rid, sha) in self.commits if rid == repo.id and sha.startswith(lowered)
            }
            if len(matches) == 1:
                return matches.pop()
        return None

    # -- history -----------------------------------------------------------------
    def merge_base(self, repo: Repo, one: str, two: str) -> str | None:
        """The nearest common ancestor of two commits (breadth-first from ``two``)."""
        seen_one = self.ancestors(repo, one)
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

    def ancestors(self, repo: Repo, sha: str) -> set[str]:
        """``sha`` and every commit reachable from it."""
        out, stack = {sha}, [sha]
        while stack:
            commit = self.commits.get((repo.id, stack.pop()))
            for parent in commit.parents if commit else ():
                if parent not in out:
                    out.add(parent)
                    stack.append(parent)
        return out

    def commits_between(self, repo: Repo, base: str | None, head: str) -> list[Commit]:
        """Commits reachable from ``head`` but not from ``base`` (git's ``base..head``),
        parents before children (first parents first), as a pull request lists them.
        Cached: AO's poll asks every pull request's last commit on every batch."""
        key = (repo.id, head, base or "")
        found = self.between_cache.get(key)
        if found is not None:
            return found
        hidden = self.ancestors(repo, base) if base else set()
        out: list[Commit] = []
        done: set[str] = set()
        stack: list[tuple[str, bool]] = [(head, False)]
        while stack:
            sha, expanded = stack.pop()
            if sha in done or sha in hidden:
                continue
            commit = self.commits.get((repo.id, sha))
            if commit is None:
                continue
            if expanded:
                done.add(sha)
                out.append(commit)
                continue
            stack.append((sha, True))
            stack.extend((p, False) for p in reversed(commit.parents) if p not in done)
        if len(self.between_cache) >= _DIFF_CACHE_MAX:
            self.between_cache.clear()
        self.between_cache[key] = out
        return out

    # -- diffs -------------------------------------------------------------------
    def changes(
        self, repo: Repo, base: str | None, head: str, *, base_is_ancestor: bool = False
    ) -> list[FileChange]:
        """What ``head`` changes since the merge base of ``base`` and ``head`` (``base``
        itself when the caller knows it is one, as a commit's first parent is), by path:
        ``git diff-tree -r -M`` (renames detected, lines counted by git).

        The one diff behind a pull request's files and sizes (REST and GraphQL) and a
        commit's stats. Cached by (repository, head, base): commits never change.
        """
        key = (repo.id, head, base or "")
        found = self.diff_cache.get(key)
        if found is None:
            old, new = self._diff_trees(repo, base, head, base_is_ancestor=base_is_ancestor)
            found = [] if old == new else self._tree_changes(repo, old, new)
            if len(self.diff_cache) >= _DIFF_CACHE_MAX:
                self.diff_cache.clear()
            self.diff_cache[key] = found
        return found

    def _tree_changes(self, repo: Repo, old: str | None, new: str) -> list[FileChange]:
        """git's diff of two trees: written here when it only adds text files (no
        repository on disk, no git run), else by git."""
        git = self.git.repo(repo.id)
        flat_old = git.flat_tree(old) if old else {}
        found = added_files(flat_old, git.flat_tree(new), git.blob)
        return found if found is not None else tree_changes(self.git_dir(repo), old, new)

    def _diff_trees(
        self, repo: Repo, base: str | None, head: str, *, base_is_ancestor: bool
    ) -> tuple[str | None, str]:
        ancestor = base
        if base and not base_is_ancestor:
            ancestor = self.merge_base(repo, base, head) or base
        old = self.commits.get((repo.id, ancestor)) if ancestor else None
        new = self.commits.get((repo.id, head))
        if new is None:
            raise NotFound(f"No commit found for SHA: {head}")
        return (old.tree_sha if old else None), new.tree_sha

    def log(
        self,
        repo: Repo,
        start: str,
        *,
        path: str | None = None,
        since: str | None = None,
        until: str | None = None,
    ) -> list[str]:
        """``git rev-list START [--since] [--until] [-- PATH]``: newest first, with
        git's history simplification for a path (what GitHub's commits list shows).
        A value with a NUL byte matches nothing (no path or date has one, and git's
        arguments cannot carry it)."""
        if any("\0" in value for value in (start, path, since, until) if value):
            return []
        args = ["rev-list", start]
        args += [f"--since={since}"] if since else []
        args += [f"--until={until}"] if until else []
        args += ["--", path] if path else ["--"]
        _, out = run_git(self.git_dir(repo), args)
        return out.decode().split()

    def format_patch(self, repo: Repo, base: str | None, head: str) -> str:
        """``git format-patch --stdout`` of ``base..head`` (or the one commit ``head``
        when ``base`` is None): the ``patch`` media type."""
        args = ["format-patch", "--stdout", "--no-color", "--no-ext-diff"]
        commit = self.commits[(repo.id, head)]
        if base is not None:
            args.append(f"{base}..{head}")
        else:
            args += ["-1", head] if commit.parents else ["--root", "-1", head]
        _, out = run_git(self.git_dir(repo), args)
        return out.decode("utf-8", "replace")

    def commit_files(self, repo: Repo, commit: Commit) -> list[FileChange]:
        """What a commit changes: its tree against its first parent's (every file added
        for a root commit; for a merge commit, what it brought to the branch it was
        merged into), which is what GitHub's commit stats count."""
        parent = commit.parents[0] if commit.parents else None
        return self.changes(repo, parent, commit.sha, base_is_ancestor=True)

    # -- merges ------------------------------------------------------------------
    def merged_tree(self, repo: Repo, ours: str, theirs: str) -> str | None:
        """The tree of merging commit ``theirs`` into ``ours`` (git's merge; None on a
        conflict). When one side contains the other, its tree, without running git."""
        base = self.merge_base(repo, ours, theirs)
        if base == theirs:
            return self.commits[(repo.id, ours)].tree_sha
        if base == ours:
            return self.commits[(repo.id, theirs)].tree_sha
        return self._merge_tree(repo, ours, theirs)

    def picked_tree(self, repo: Repo, onto_tree: str, commit: Commit) -> str | None:
        """The tree of ``commit``'s change applied to tree ``onto_tree`` (a cherry-pick;
        None on a conflict)."""
        parent = self.commits.get((repo.id, commit.parents[0])) if commit.parents else None
        parent_tree = parent.tree_sha if parent else EMPTY_TREE
        if parent_tree == onto_tree:
            return commit.tree_sha
        # git merge-tree (2.39) picks the merge base itself: give it a history whose
        # only common ancestor has the parent's tree (objects nothing refers to)
        self.git_dir(repo)
        put = self.git.repo(repo.id).put
        stamp = Signature(*API_COMMITTER, 0)
        root = put("commit", commit_body(parent_tree, [], stamp, stamp, "base"))
        ours = put("commit", commit_body(onto_tree, [root], stamp, stamp, "ours"))
        theirs = put("commit", commit_body(commit.tree_sha, [root], stamp, stamp, "theirs"))
        return self._merge_tree(repo, ours, theirs)

    def _merge_tree(self, repo: Repo, ours: str, theirs: str) -> str | None:
        code, out = run_git(
            self.git_dir(repo), ["merge-tree", "--write-tree", ours, theirs], ok=(0, 1)
        )
        return out.split(b"\n", 1)[0].decode() if code == 0 else None

    # -- writing -----------------------------------------------------------------
    def _identity(self, login: str | None, repo: Repo) -> tuple[str, str]:
        user = self.users_by_login.get(login.lower()) if login else None
        user = user or self.users.get(repo.owner_id)
        if user is None:
            return (login or "ghost", f"{login or 'ghost'}@users.noreply.github.com")
        return (user.name or user.login, user.email or noreply_email(user))

    def create_commit(
        self,
        repo: Repo,
        message: str,
        parents: list[str],
        *,
        author: str | None = None,
        tree: FlatTree | None = None,
        tree_sha: str | None = None,
        authored: Signature | None = None,
    ) -> Commit:
        """A commit whose files are ``tree`` (default: its first parent's), or whose
        tree object ``tree_sha`` is already written; authored by ``author`` (a login,
        default the repository's owner) or as ``authored`` says, committed by GitHub."""
        git = self.git.repo(repo.id)
        if tree_sha is None:
            if tree is None:
                tree = self.tree(repo, parents[0]) if parents else {}
            try:
                tree_sha = write_tree(tree, git.put)
            except ValueError as exc:
                raise ValidationFailed(str(exc)) from exc
            git.remember_flat(tree_sha, tree)
        when = int(self.now())
        if authored is None:
            authored = Signature(*self._identity(author, repo), when)
        signed = authored
        committer = Signature(*API_COMMITTER, when)
        sha = git.put("commit", commit_body(tree_sha, parents, signed, committer, message))
        existing = self.commits.get((repo.id, sha))
        if existing is not None:  # the same content, parents and second: the same commit
            return existing
        commit = Commit(
            id=self.new_id(),
            repo_id=repo.id,
            sha=sha,
            message=message,
            parents=list(parents),
            author_login=author,
            created_at=float(signed.when),
            tree_sha=tree_sha,
            author_name=signed.name,
            author_email=signed.email,
            committer_name=committer.name,
            committer_email=committer.email,
            committed_at=float(when),
        )
        self.add(commit)
        return commit

    def commit_to_branch(
        self,
        repo: Repo,
        branch: str,
        message: str,
        *,
        author: str | None = None,
        files: Mapping[str, bytes | None] | None = None,
    ) -> Commit:
        """A push: a new commit on ``branch`` (created from the default branch if new)
        writing ``files`` (path -> content; None removes the file). A push without
        contents (the control API, a seeded pull request's head) writes one line naming
        the commit's parent to the branch's own file ``notes/<branch>.md``, so every such
        commit changes a file and pull requests seeded this way merge without conflicts."""
        # checked before anything is written: a ref and a tree's paths are files on disk
        if ref_problem(f"heads/{branch}") is not None:
            raise ValidationFailed(f"refs/heads/{branch} is not a valid ref name.")
        for path in files or ():
            if (problem := path_problem(path)) is not None:
                raise ValidationFailed(f"{path!r}: {problem}")
        parent = self.branch_sha(repo, branch) or self.branch_sha(repo, repo.default_branch)
        if files is None:
            line = f"{message} (after {(parent or 'nothing')[:7]})\n"
            files = {f"notes/{branch}.md": line.encode()}
        git = self.git.repo(repo.id)
        tree = dict(self.tree(repo, parent))
        for path, data in files.items():
            if data is None:
                tree.pop(path, None)
            else:
                tree[path] = (FILE_MODE, git.put("blob", data))
        commit = self.create_commit(
            repo, message, [parent] if parent else [], author=author, tree=tree
        )
        self.move_branch(repo, branch, commit.sha)
        repo.pushed_at = self.now()
        self.save(repo)
        return commit

    # -- refs --------------------------------------------------------------------
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
        if ref_problem(name) is not None:  # a ref is a file: no name may leave refs/
            raise ValidationFailed(f"refs/{name} is not a valid ref name.")
        if (repo.id, name) in self.refs:
            raise ValidationFailed("Reference already exists")
        if (repo.id, sha) not in self.commits:
            raise ValidationFailed("Object does not exist")
        if self.ref_dirs.get((repo.id, name)) or any(
            (repo.id, d) in self.refs for d in ref_dirs(name)
        ):
            # git keeps refs as files: heads/a and heads/a/b cannot both exist
            raise ValidationFailed("Reference cannot be created")
        ref = Ref(id=self.new_id(), repo_id=repo.id, name=name, sha=sha)
        self.add(ref)
        self.git.repo(repo.id).set_ref(name, sha)
        if name.startswith("heads/"):
            self.branch_created(repo, name.removeprefix("heads/"))
        return ref

    def update_ref(self, ref: Ref, sha: str) -> Ref:
        ref.sha = sha
        self.save(ref)
        self.git.repo(ref.repo_id).set_ref(ref.name, sha)
        if ref.name.startswith("heads/"):
            self._follow_head(ref.repo_id, ref.name.removeprefix("heads/"), sha)
        return ref

    def delete_ref(self, repo: Repo, name: str) -> None:
        ref = self.refs.pop((repo.id, name), None)
        if ref is None:
            raise ValidationFailed("Reference does not exist")
        for directory in ref_dirs(name):
            self.ref_dirs[(repo.id, directory)] -= 1
        self.db.delete(ref)
        self.git.repo(repo.id).set_ref(name, None)
        self.touch(repo.id)
        if name.startswith("heads/"):
            self.branch_deleted(repo, name.removeprefix("heads/"))

    def branch_created(self, repo: Repo, branch: str) -> None:
        """What follows a new branch (pull requests: ``merging.py``)."""

    def branch_deleted(self, repo: Repo, branch: str) -> None:
        """What follows a deleted branch (pull requests: ``merging.py``)."""

    def put_ref(self, repo: Repo, name: str, sha: str) -> None:
        """Point the ref ``name`` (not a branch: ``pull/1/head``) at ``sha``."""
        existing = self.ref(repo, name)
        if existing is None:
            self.create_ref(repo, name, sha)
        elif existing.sha != sha:
            self.update_ref(existing, sha)

    def drop_ref(self, repo: Repo, name: str) -> None:
        """Delete the ref ``name`` if it is there."""
        if self.ref(repo, name) is not None:
            self.delete_ref(repo, name)

    def move_branch(self, repo: Repo, branch: str, sha: str) -> None:
        """Point ``branch`` at ``sha``, creating it if new."""
        existing = self.ref(repo, f"heads/{branch}")
        if existing is None:
            self.create_ref(repo, f"heads/{branch}", sha)
        else:
            self.update_ref(existing, sha)

    def _follow_head(self, repo_id: int, branch: str, sha: str) -> None:
        # Open pull requests track their head branch (and refs/pull/N/head), as on GitHub.
        now = self.now()
        for pull in list(self.pulls_by_id.values()):
            if pull.repo_id == repo_id and pull.head_ref == branch and pull.state == "open":
                pull.head_sha = sha
                pull.updated_at = now
                self.save(pull)
                self.put_ref(self.repos[repo_id], f"pull/{pull.number}/head", sha)


def blob_id(data: bytes) -> str:
    """git's blob id of ``data`` (what GitHub reports as a file's ``sha``)."""
    return object_id("blob", data)
