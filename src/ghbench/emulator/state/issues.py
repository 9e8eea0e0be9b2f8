"""Issues and issue comments (issue comments also belong to pull requests)."""

from __future__ import annotations

from ghbench.emulator.state.labels import LabelOps
from ghbench.emulator.state.models import (
    Issue,
    IssueComment,
    PullRequest,
    Repo,
    ReviewComment,
    User,
)
from ghbench.emulator.state.people import PeopleOps

__all__ = ["IssueOps"]


class IssueOps(LabelOps, PeopleOps):
    def issue(self, repo: Repo, number: int) -> Issue | None:
        return self.issues_by_number.get((repo.id, number))

    def issues(self, repo: Repo, state: str = "open") -> list[Issue]:
        """Issues (not pull requests) in creation order; ``state``: open, closed or all."""
        return [
            i
            for (rid, _), i in self.issues_by_number.items()
            if rid == repo.id and state in ("all", i.state)
        ]

    def next_number(self, repo: Repo) -> int:
        number = repo.next_number
        repo.next_number += 1
        self.save(repo)
        return number

    def create_issue(
        self,
        repo: Repo,
        author: User,
        title: str,
        *,
        body: str | None = None,
        labels: list[str] | None = None,
        assignees: list[User] | None = None,
    ) -> Issue:
        """``labels`` are names (missing labels are created); ``assignees`` who cannot
        be assigned are dropped (see ``PeopleOps``)."""
        iid = self.new_id()
        now = self.now()
        issue = Issue(
            id=iid,
            node_id=self.make_node_id("I", iid),
            repo_id=repo.id,
            number=self.next_number(repo),
            title=title,
            user_id=author.id,
            body=body,
            labels=self.label_names(repo, list(labels or [])),
            assignees=[u.id for u in assignees or () if u.type == "User"][:10],
            created_at=now,
            updated_at=now,
        )
        self.add(issue)
        return issue

    def set_issue_state(
        self,
        issue: Issue,
        state: str,
        reason: str | None = None,
        **closed_by: str | int | None,
    ) -> Issue:
        """``reason`` is GitHub's ``state_reason``: completed or not_planned when closing,
        reopened (or None) when opening again; ``closed_by``: the closing event's
        ``commit_id`` and ``closer_number`` when a merged pull request closes it."""
        now = self.now()
        changed = issue.state != state
        issue.state = state
        issue.state_reason = reason
        issue.closed_at = now if state == "closed" else None
        issue.updated_at = now
        self.save(issue)
        if changed:
            event = "closed" if state == "closed" else "reopened"
            self.record_event(issue, event, state_reason=reason, **closed_by)
        return issue

    def set_issue_labels(self, issue: Issue, labels: list[str]) -> Issue:
        self.set_labels(issue, list(labels))
        return issue

    def issue_comments(self, repo: Repo, number: int) -> list[IssueComment]:
        return self.issue_comments_by_number.get((repo.id, number), [])

    def add_issue_comment(self, repo: Repo, number: int, author: User, body: str) -> IssueComment:
        comment = self.create(
            IssueComment, "IC", repo_id=repo.id, number=number, user_id=author.id, body=body
        )
        target = self.issues_by_number.get((repo.id, number)) or self.pulls_by_number.get(
            (repo.id, number)
        )
        if target is not None:
            target.updated_at = comment.created_at
            self.save(target)
        return comment

    def edit_issue(
        self, issue: Issue, *, title: str | None = None, body: str | None = None
    ) -> None:
        """Change the title or body (None: unchanged); a new title is a ``renamed``
        event."""
        if title is not None and title != issue.title:
            self.record_event(issue, "renamed", rename_from=issue.title, rename_to=title)
            issue.title = title
        if body is not None:
            issue.body = body
        issue.updated_at = self.now()
        self.save(issue)

    def set_locked(
        self, item: Issue | PullRequest, locked: bool, reason: str | None = None
    ) -> None:
        """Lock (with GitHub's ``lock_reason``) or unlock an issue's or pull request's
        conversation; a ``locked``/``unlocked`` event when it changes."""
        if item.locked == locked:
            return
        item.locked, item.lock_reason = locked, reason if locked else None
        item.updated_at = self.now()
        self.save(item)
        self.record_event(item, "locked" if locked else "unlocked", lock_reason=reason)

    def issue_comment(self, repo: Repo, comment_id: int) -> IssueComment | None:
        """An issue or pull request comment of ``repo`` by its id."""
        found = self.issue_comments_by_id.get(comment_id)
        return found if found is not None and found.repo_id == repo.id else None

    def set_pinned(self, issue: Issue, pinned: bool) -> None:
        issue.pinned = pinned
        self.save(issue)

    def delete_issue(self, issue: Issue) -> None:
        """Delete an issue and its comments (GitHub keeps the number used)."""
        for comment in self.issue_comments_by_number.pop((issue.repo_id, issue.number), []):
            self.remove(comment)
        del self.issues_by_number[(issue.repo_id, issue.number)]
        self.remove(issue)

    def transfer_issue(self, issue: Issue, target: Repo, *, keep_labels: bool) -> Issue:
        """Move an issue (and its comments) to ``target`` under a new number; its labels
        go with it only when ``keep_labels`` (missing ones are then created), as GitHub's
        ``createLabelsIfMissing`` decides; assignees stay."""
        source = issue.repo_id
        comments = self.issue_comments_by_number.pop((source, issue.number), [])
        del self.issues_by_number[(source, issue.number)]
        self.touch(source)
        issue.repo_id = target.id
        issue.number = self.next_number(target)
        issue.labels = self.label_names(target, issue.labels) if keep_labels else []
        issue.updated_at = self.now()
        self.issues_by_number[(target.id, issue.number)] = issue
        self.save(issue)
        for comment in comments:
            comment.repo_id, comment.number = target.id, issue.number
            self.issue_comments_by_number[(target.id, issue.number)].append(comment)
            self.save(comment)
        return issue

    def edit_comment(self, comment: IssueComment | ReviewComment, body: str) -> None:
        """A new body for an issue, pull request or review comment."""
        comment.body = body
        comment.updated_at = self.now()
        self.save(comment)

    def delete_issue_comment(self, comment: IssueComment) -> None:
        found = self.issue_comments_by_number.get((comment.repo_id, comment.number), [])
        if comment in found:
            found.remove(comment)
        self.issue_comments_by_id.pop(comment.id, None)
        self.remove(comment)
