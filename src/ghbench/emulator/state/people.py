"""Assignees and requested reviewers of issues and pull requests.

The emulator has no permissions model: every user account (type ``User``) is a
collaborator with write access to every repository, so every user is assignable and
may be asked for a review. Bots and organizations are neither (GitHub's rule for
assignees). A review from a requested reviewer removes the request, as on GitHub.
"""

from __future__ import annotations

from ghbench.emulator.state.events import EventOps
from ghbench.emulator.state.models import Issue, PullRequest, Repo, User

__all__ = ["PeopleOps"]

# GitHub's limit on assignees per issue or pull request.
MAX_ASSIGNEES = 10


class PeopleOps(EventOps):
    def assignable_users(self, repo: Repo) -> list[User]:
        """Who can be assigned in ``repo``: every user account, by login."""
        del repo  # no permissions model: the same for every repository
        return sorted(
            (u for u in self.users.values() if u.type == "User"), key=lambda u: u.login.lower()
        )

    def association(self, repo: Repo, user_id: int) -> str:
        """GitHub's ``author_association`` of ``user_id`` in ``repo``: OWNER for the
        repository's owner, NONE for a bot (an app is no collaborator), COLLABORATOR
        for everyone else (every user account is one here)."""
        if user_id == repo.owner_id:
            return "OWNER"
        user = self.users.get(user_id)
        return "COLLABORATOR" if user is not None and user.type == "User" else "NONE"

    def is_assignable(self, user: User) -> bool:
        return user.type == "User"

    def set_assignees(self, item: Issue | PullRequest, users: list[User]) -> None:
        """Replace the assignees; users who cannot be assigned are dropped, as GitHub
        drops them silently, and at most :data:`MAX_ASSIGNEES` are kept."""
        ids: list[int] = []
        for user in users:
            if self.is_assignable(user) and user.id not in ids:
                ids.append(user.id)
        before, item.assignees = item.assignees, ids[:MAX_ASSIGNEES]
        item.updated_at = self.now()
        self.save(item)
        for uid in item.assignees:
            if uid not in before:
                self.record_event(item, "assigned", subject_id=uid)
        for uid in before:
            if uid not in item.assignees:
                self.record_event(item, "unassigned", subject_id=uid)

    def add_assignees(self, item: Issue | PullRequest, users: list[User]) -> None:
        current = [self.users[i] for i in item.assignees if i in self.users]
        self.set_assignees(item, current + users)

    def remove_assignees(self, item: Issue | PullRequest, users: list[User]) -> None:
        gone = {u.id for u in users}
        self.set_assignees(item, [self.users[i] for i in item.assignees if i not in gone])

    def request_reviews(self, pull: PullRequest, users: list[User]) -> None:
        """Ask ``users`` for a review (the author cannot be asked: callers check)."""
        added = [u for u in users if u.id not in pull.requested_reviewers]
        pull.requested_reviewers += [u.id for u in added]
        pull.updated_at = self.now()
        self.save(pull)
        for user in added:
            self.record_event(pull, "review_requested", subject_id=user.id)

    def remove_review_requests(self, pull: PullRequest, users: list[User]) -> None:
        gone = {u.id for u in users}
        pull.requested_reviewers = [i for i in pull.requested_reviewers if i not in gone]
        pull.updated_at = self.now()
        self.save(pull)
