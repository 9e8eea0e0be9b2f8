"""Issues and issue comments (issue comments also belong to pull requests)."""

from __future__ import annotations

from ghbench.emulator.state.base import StoreBase
from ghbench.emulator.state.models import Issue, IssueComment, Repo, User

__all__ = ["IssueOps"]


class IssueOps(StoreBase):
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
    ) -> Issue:
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
            labels=list(labels or []),
            created_at=now,
            updated_at=now,
        )
        self.add(issue)
        return issue

    def set_issue_state(self, issue: Issue, state: str, reason: str | None = None) -> Issue:
        """``reason`` is GitHub's ``state_reason``: completed or not_planned when closing,
        reopened (or None) when opening again."""
        now = self.now()
        issue.state = state
        issue.state_reason = reason
        issue.closed_at = now if state == "closed" else None
        issue.updated_at = now
        self.save(issue)
        return issue

    def set_issue_labels(self, issue: Issue, labels: list[str]) -> Issue:
        issue.labels = list(labels)
        issue.updated_at = self.now()
        self.save(issue)
        return issue

    def issue_comments(self, repo: Repo, number: int) -> list[IssueComment]:
        return self.issue_comments_by_number.get((repo.id, number), [])

    def add_issue_comment(self, repo: Repo, number: int, author: User, body: str) -> IssueComment:
        cid = self.new_id()
        now = self.now()
        comment = IssueComment(
            id=cid,
            node_id=self.make_node_id("IC", cid),
            repo_id=repo.id,
            number=number,
            user_id=author.id,
            body=body,
            created_at=now,
            updated_at=now,
        )
        self.add(comment)
        target = self.issues_by_number.get((repo.id, number)) or self.pulls_by_number.get(
            (repo.id, number)
        )
        if target is not None:
            target.updated_at = now
            self.save(target)
        return comment
