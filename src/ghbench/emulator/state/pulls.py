"""Pull requests: create, merge, close; reviews, review threads and review comments."""

from __future__ import annotations

from ghbench.emulator.errors import Conflict, MethodNotAllowed, ValidationFailed, invalid_field
from ghbench.emulator.git.objects import Signature
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

MERGE_METHODS = ("merge", "squash", "rebase")


def _mergeable(tree: str | None) -> str:
    """A merge's tree, or GitHub's 405 when git found a conflict."""
    if tree is None:
        raise MethodNotAllowed("Pull Request is not mergeable")
    return tree


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
        pid = self.new_id()
        now = self.now()
        pull = PullRequest(
            id=pid,
            node_id=self.make_node_id("PR", pid),
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
            created_at=now,
            updated_at=now,
        )
        self.add(pull)
        return pull

    def update_pull(self, pull: PullRequest, **changes: object) -> PullRequest:
        """Change fields (title, body, draft, mergeable, mergeable_state, labels...)."""
        for name, value in changes.items():
            if name not in PullRequest.__struct_fields__:
                raise invalid_field("PullRequest", name)
            setattr(pull, name, value)
        pull.updated_at = self.now()
        self.save(pull)
        return pull

    def close_pull(self, pull: PullRequest) -> PullRequest:
        now = self.now()
        pull.state = "closed"
        pull.closed_at = now
        pull.updated_at = now
        self.save(pull)
        return pull

    def merge_pull(
        self,
        pull: PullRequest,
        actor: User,
        *,
        method: str = "merge",
        commit_title: str | None = None,
        expected_head_sha: str | None = None,
    ) -> str:
        """Merge like ``PUT /pulls/{n}/merge``; returns the merge commit sha (for a
        rebase, the last commit replayed onto the base branch).

        ``merge``: a commit with the base and head as parents; ``squash``: one commit
        with the base as parent; ``rebase``: the head's commits replayed one by one.
        Trees come from git's own merge (``git merge-tree``); a conflict is GitHub's 405.
        """
        if method not in MERGE_METHODS:
            raise invalid_field("PullRequest", "merge_method")
        if pull.state != "open" or pull.draft or pull.mergeable is False:
            raise MethodNotAllowed("Pull Request is not mergeable")
        if expected_head_sha is not None and expected_head_sha != pull.head_sha:
            raise Conflict("Head branch was modified. Review and try the merge again.")
        repo = self.repos[pull.repo_id]
        base_sha = self.branch_sha(repo, pull.base_ref) or pull.base_sha
        login = actor.login
        if method == "rebase":
            # GitHub's rebase drops merge commits, as git rebase does
            picks = [
                c for c in self.commits_between(repo, base_sha, pull.head_sha) if len(c.parents) < 2
            ]
            trees: list[str] = []
            current = self.commits[(repo.id, base_sha)].tree_sha
            for commit in picks:
                current = _mergeable(self.picked_tree(repo, current, commit))
                trees.append(current)
            sha = base_sha
            for commit, tree in zip(picks, trees, strict=True):
                sha = self.create_commit(
                    repo,
                    commit.message,
                    [sha],
                    author=commit.author_login,
                    tree_sha=tree,
                    authored=Signature(
                        commit.author_name, commit.author_email, int(commit.created_at)
                    ),
                ).sha
        else:
            tree = _mergeable(self.merged_tree(repo, base_sha, pull.head_sha))
            if method == "squash":
                title = commit_title or f"{pull.title} (#{pull.number})"
                parents = [base_sha]
            else:
                head_label = f"{repo.owner_login}/{pull.head_ref}"
                title = commit_title or f"Merge pull request #{pull.number} from {head_label}"
                parents = [base_sha, pull.head_sha]
            sha = self.create_commit(repo, title, parents, author=login, tree_sha=tree).sha
        self.move_branch(repo, pull.base_ref, sha)
        now = self.now()
        pull.state = "closed"
        pull.merged = True
        pull.merged_at = now
        pull.closed_at = now
        pull.updated_at = now
        pull.merged_by_id = actor.id
        pull.merge_commit_sha = sha
        pull.mergeable = None
        pull.mergeable_state = "unknown"
        self.save(pull)
        return sha

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
        """``state``: APPROVED, CHANGES_REQUESTED, COMMENTED or PENDING."""
        rid = self.new_id()
        now = self.now()
        review = Review(
            id=rid,
            node_id=self.make_node_id("PRR", rid),
            repo_id=pull.repo_id,
            pull_id=pull.id,
            user_id=author.id,
            state=state,
            body=body,
            commit_id=commit_id or pull.head_sha,
            submitted_at=None if state == "PENDING" else now,
        )
        self.add(review)
        if state != "PENDING" and author.id in pull.requested_reviewers:
            pull.requested_reviewers.remove(author.id)  # a review answers the request
        pull.updated_at = now
        self.save(pull)
        return review

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
            tid = self.new_id()
            thread = ReviewThread(
                id=tid,
                node_id=self.make_node_id("PRRT", tid),
                repo_id=pull.repo_id,
                pull_id=pull.id,
                path=path,
                line=line,
            )
            self.add(thread)
        cid = self.new_id()
        comment = ReviewComment(
            id=cid,
            node_id=self.make_node_id("PRRC", cid),
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
        self.add(comment)
        pull.updated_at = now
        self.save(pull)
        return comment

    def resolve_thread(
        self, thread: ReviewThread, by: User, *, resolved: bool = True
    ) -> ReviewThread:
        thread.is_resolved = resolved
        thread.resolved_by_id = by.id if resolved else None
        self.save(thread)
        return thread
