"""Pushes: commits and refs a ``git push`` left in a repository, into the records."""

from __future__ import annotations

from collections.abc import Mapping

from ghbench.emulator.git.objects import ParsedCommit
from ghbench.emulator.state.commits import CommitOps
from ghbench.emulator.state.models import Commit, Repo, User

__all__ = ["PushOps"]


class PushOps(CommitOps):
    def import_commits(self, repo: Repo, commits: list[tuple[str, ParsedCommit]]) -> int:
        """Records for pushed commits (parents first); returns how many were new. A
        commit is attributed to the user whose email its author's is (GitHub's rule),
        GitHub's noreply addresses included."""
        added = 0
        for sha, parsed in commits:
            if (repo.id, sha) in self.commits:
                continue
            commit = Commit(
                id=self.new_id(),
                repo_id=repo.id,
                sha=sha,
                message=parsed.message.rstrip("\n"),  # as GitHub's API shows it
                parents=list(parsed.parents),
                author_login=_login(self.user_for_email(parsed.author.email)),
                created_at=float(parsed.author.when),
                tree_sha=parsed.tree,
                author_name=parsed.author.name,
                author_email=parsed.author.email,
                committer_name=parsed.committer.name,
                committer_email=parsed.committer.email,
                committed_at=float(parsed.committer.when),
            )
            self.add(commit)
            added += 1
        return added

    def user_for_email(self, email: str) -> User | None:
        """The user a git email belongs to: GitHub's noreply addresses
        (``LOGIN@users.noreply.github.com``, ``ID+LOGIN@...``) or a user's own email."""
        local, _, domain = email.lower().partition("@")
        if domain == "users.noreply.github.com":
            return self.users_by_login.get(local.partition("+")[2] or local)
        for user in self.users.values():
            if user.email and user.email.lower() == email.lower():
                return user
        return None

    def sync_refs(self, repo: Repo, disk: Mapping[str, str]) -> list[str]:
        """Make the branches and tags match ``disk`` (the repository after a push):
        moved and new refs whose commit is known, refs a push deleted. Open pull
        requests follow their head branch. Returns the names that changed."""
        changed = []
        for gone in self.refs_with_prefix(repo, ""):
            if gone.name.startswith(("heads/", "tags/")) and gone.name not in disk:
                self.delete_ref(repo, gone.name)
                changed.append(gone.name)
        for name, sha in sorted(disk.items()):
            ref = self.refs.get((repo.id, name))
            if (ref is not None and ref.sha == sha) or (repo.id, sha) not in self.commits:
                continue
            if ref is None:
                self.create_ref(repo, name, sha)
            else:
                self.update_ref(ref, sha)
            changed.append(name)
        if changed:
            repo.pushed_at = self.now()
            self.save(repo)
        return changed


def _login(user: User | None) -> str | None:
    return user.login if user else None
