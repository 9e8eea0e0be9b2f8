"""Pull requests: create, close, reopen; reviews, review threads and review comments
(merging and what follows from it: ``merging.py``)."""

from __future__ import annotations

from ghbench.emulator.errors import ValidationFailed, invalid_field
from ghbench.emulator.state.issues import IssueOps
from ghbench.emulator.state.models import (
    Commit,
    PullRequest,
    Repo,
    Review,
    ReviewComment,
    ReviewThread,
    User,
)
from ghbench.emulator.state.repos import RepoOps
from ghbench.emulator.state.trees import FileChange

__all__ = ["PullOps"]


class PullOps(RepoOps, IssueOps):
    def pull(self, repo: Repo, number: int) -> PullRequest | None:
        return self.pulls_by_number.get((repo.id, number))

    def pulls(
        self,
        repo: Repo,
        state: str = "open",
        *,
        head: str | None = None,
        base: str | None = None,
    ) -> list[PullRequest]:
        """Pull requests in creation order. ``state``: open, closed (incl. merged) or all;
        ``head`` is a branch name (``owner:`` prefix already removed)."""
        return [
            p
            for (rid, _), p in self.pulls_by_number.items()
            if rid == repo.id
            and state in ("all", p.state)
            and (head is None or p.head_ref == head)
            and (base is None or p.base_ref == base)
        ]

    def create_pull(
        self,
        repo: Repo,
        author: User,
        title: str,
        head: str,
        base: str,
        *,
        body: str | None = None,
        draft: bool = False,
        create_head: bool = False,
    ) -> PullRequest:
        """Open a PR from branch ``head`` into ``base``; GitHub's 422s when it cannot.

        ``create_head`` pushes a commit to a missing head branch first (for seeding).
        """
        if not title:
            raise invalid_field("PullRequest", "title")
        base_sha = self.branch_sha(repo, base)
        if base_sha is None:
            raise invalid_field("PullRequest", "base")
        head_sha = self.branch_sha(repo, head)
        if head_sha is None and create_head:
            head_sha = self.commit_to_branch(repo, head, title, author=author.login).sha
        if head_sha is None:
            raise invalid_field("PullRequest", "head")
        if head == base or head_sha == base_sha:
            raise ValidationFailed(
                errors=[
                    {
                        "resource": "PullRequest",
                        "code": "custom",
                        "message": f"No commits between {base} and {head}",
                    }
                ]
            )
        if self.pulls(repo, "open", head=head, base=base):
            raise ValidationFailed(
                errors=[
                    {
                        "resource": "PullRequest",
                        "code": "custom",
                        "message": f"A pull request already exists for {repo.owner_login}:{head}.",
                    }
                ]
            )
        pull = self.create(
            PullRequest,
            "PR",
            repo_id=repo.id,
            number=self.next_number(repo),
            title=title,
            user_id=author.id,
            head_ref=head,
            head_sha=head_sha,
            base_ref=base,
            base_sha=base_sha,
            body=body,
            draft=draft,
        )
        self.put_ref(repo, f"pull/{pull.number}/head", head_sha)
        return pull

    def update_pull(self, pull: PullRequest, **changes: object) -> PullRequest:
        """Change fields (title, body, draft, labels...); a new title is a ``renamed``
        event, a draft change ``convert_to_draft`` or ``ready_for_review``."""
        for name, value in changes.items():
            if name not in PullRequest.__struct_fields__:
                raise invalid_field("PullRequest", name)
            before = getattr(pull, name)
            setattr(pull, name, value)
            if name == "title" and value != before:
                self.record_event(pull, "renamed", rename_from=before, rename_to=str(value))
            elif name == "draft" and value != before:
                self.record_event(pull, "convert_to_draft" if value else "ready_for_review")
        pull.updated_at = self.now()
        self.save(pull)
        return pull

    def close_pull(self, pull: PullRequest) -> PullRequest:
        if pull.state == "closed":
            return pull
        now = self.now()
        pull.state = "closed"
        pull.closed_at = now
        pull.updated_at = now
        self.save(pull)
        self.drop_ref(self.repos[pull.repo_id], f"pull/{pull.number}/merge")
        self.record_event(pull, "closed")
        return pull

    def reopen_pull(self, pull: PullRequest) -> PullRequest:
        """Open a closed (unmerged) pull request again; GitHub's 422 when its head
        branch is gone. It takes up its head branch's tip."""
        if pull.state == "open":
            return pull
        head = self.branch_sha(self.repos[pull.repo_id], pull.head_ref)
        if head is None:
            raise ValidationFailed(
                errors=[
                    {
                        "resource": "PullRequest",
                        "code": "custom",
                        "field": "state",
                        "message": (
                            f"state cannot be changed. The {pull.head_ref} branch has been deleted."
                        ),
                    }
                ]
            )
        pull.state, pull.closed_at, pull.head_sha = "open", None, head
        pull.updated_at = self.now()
        self.save(pull)
        self.put_ref(self.repos[pull.repo_id], f"pull/{pull.number}/head", head)
        self.record_event(pull, "reopened")
        return pull

    def pull_base(self, pull: PullRequest) -> str:
        """What a pull request is compared with: its base branch's tip while it is open,
        the base as it was when it was opened once it is closed (so a merged PR keeps
        its commits and diff)."""
        if pull.state == "open":
            return self.branch_sha(self.repos[pull.repo_id], pull.base_ref) or pull.base_sha
        return pull.base_sha

    def pull_files(self, pull: PullRequest) -> list[FileChange]:
        """The files a pull request changes: its head against the merge base with
        ``pull_base``, by path."""
        return self.changes(self.repos[pull.repo_id], self.pull_base(pull), pull.head_sha)

    def pull_commits(self, pull: PullRequest) -> list[Commit]:
        """A pull request's commits (git's ``base..head``), parents first."""
        return self.commits_between(self.repos[pull.repo_id], self.pull_base(pull), pull.head_sha)

    # -- reviews -----------------------------------------------------------------
    def reviews(self, pull: PullRequest) -> list[Review]:
        return self.reviews_by_pull.get(pull.id, [])

    def add_review(
        self,
        pull: PullRequest,
        author: User,
        state: str,
        *,
        body: str = "",
        commit_id: str | None = None,
    ) -> Review:
        """``state``: APPROVED, CHANGES_REQUESTED, COMMENTED or PENDING; ``reviewed``
        runs after (auto-merge waits on reviews: ``merging.py``)."""
        now = self.now()
        review = self.create(
            Review,
            "PRR",
            now=(),
            repo_id=pull.repo_id,
            pull_id=pull.id,
            user_id=author.id,
            state=state,
            body=body,
            commit_id=commit_id or pull.head_sha,
            submitted_at=None if state == "PENDING" else now,
        )
        if state != "PENDING" and author.id in pull.requested_reviewers:
            pull.requested_reviewers.remove(author.id)  # a review answers the request
        pull.updated_at = now
        self.save(pull)
        self.reviewed(pull)
        return review

    def reviewed(self, pull: PullRequest) -> None:
        """What follows a review of ``pull`` (a subclass's: ``merging.py``)."""

    # -- review threads and comments --------------------------------------------
    def review_threads(self, pull: PullRequest) -> list[ReviewThread]:
        return self.threads_by_pull.get(pull.id, [])

    def review_comments(self, pull: PullRequest) -> list[ReviewComment]:
        return self.review_comments_by_pull.get(pull.id, [])

    def thread_comments(self, thread: ReviewThread) -> list[ReviewComment]:
        return [
            c
            for c in self.review_comments_by_pull.get(thread.pull_id, [])
            if c.thread_id == thread.id
        ]

    def add_review_comment(
        self,
        pull: PullRequest,
        author: User,
        body: str,
        *,
        path: str = "README.md",
        line: int | None = 1,
        in_reply_to: int | None = None,
        review_id: int | None = None,
        commit_id: str | None = None,
    ) -> ReviewComment:
        """A diff comment; a new thread unless ``in_reply_to`` names a comment of this PR."""
        now = self.now()
        if in_reply_to is not None:
            parent = self.review_comments_by_id.get(in_reply_to)
            if parent is None or parent.pull_id != pull.id:
                raise invalid_field("PullRequestReviewComment", "in_reply_to")
            thread = self.threads_by_id[parent.thread_id]
            path, line = parent.path, parent.line
        else:
            thread = self.create(
                ReviewThread,
                "PRRT",
                now=(),
                repo_id=pull.repo_id,
                pull_id=pull.id,
                path=path,
                line=line,
            )
        comment = self.create(
            ReviewComment,
            "PRRC",
            now=(),
            repo_id=pull.repo_id,
            pull_id=pull.id,
            thread_id=thread.id,
            user_id=author.id,
            body=body,
            path=path,
            line=line,
            commit_id=commit_id or pull.head_sha,
            review_id=review_id,
            in_reply_to_id=in_reply_to,
            created_at=now,
            updated_at=now,
        )
        pull.updated_at = now
        self.save(pull)
        return comment

    def delete_review_comment(self, comment: ReviewComment) -> None:
        """Remove a review comment; its thread goes with its last comment."""
        self.review_comments_by_pull[comment.pull_id].remove(comment)
        del self.review_comments_by_id[comment.id]
        self.remove(comment)
        thread = self.threads_by_id[comment.thread_id]
        if not self.thread_comments(thread):
            self.threads_by_pull[thread.pull_id].remove(thread)
            del self.threads_by_id[thread.id]
            self.remove(thread)

    def resolve_thread(
        self, thread: ReviewThread, by: User, *, resolved: bool = True
    ) -> ReviewThread:
        thread.is_resolved = resolved
        thread.resolved_by_id = by.id if resolved else None
        self.save(thread)
        return thread
