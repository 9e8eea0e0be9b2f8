"""Merging pull requests, and what GitHub computes about it.

- **Mergeability** is git's merge of the head into the base branch's tip, computed again
  whenever either moves. The request that finds a pair of commits without an answer
  gets GitHub's "not computed yet" (REST ``mergeable: null``, GraphQL ``UNKNOWN``) and
  starts the job; the answer is there for the requests after it (GitHub: "a background
  job ... after giving the job time to complete, resubmit the request"; how long it
  takes is not documented, here it is done by the next request).
- **The merge state** (REST ``mergeable_state``, GraphQL ``mergeStateStatus``): one rule
  (:meth:`MergeOps.merge_state`).
- **Merges** are refused with GitHub's 405s (not mergeable, a required review or
  status check missing), then made by git. A merge into the default branch closes the
  issues that the pull request's body or its commits' messages name after a closing
  keyword (``closes #3``, ``Fixes: owner/repo#4``, ``resolved <issue URL>``).
- **A deleted head branch** closes its open pull requests (GitHub does so); pushing the
  branch again is a ``head_ref_restored`` event and lets them be reopened.
- **Auto-merge** (``enablePullRequestAutoMerge``): the pull request merges, by the user
  who enabled it, as soon as no required review or status check holds it back.
"""

from __future__ import annotations

import re

from ghbench.emulator.errors import (
    ApiError,
    Conflict,
    MethodNotAllowed,
    ValidationFailed,
    invalid_field,
)
from ghbench.emulator.git.objects import Signature
from ghbench.emulator.state.checks import CheckOps
from ghbench.emulator.state.models import Issue, PullRequest, Repo, User
from ghbench.emulator.state.protection import ProtectionOps
from ghbench.emulator.state.pulls import PullOps

__all__ = ["MERGE_METHODS", "MergeOps", "closing_references"]

MERGE_METHODS = ("merge", "squash", "rebase")
# GitHub's closing keywords, then an issue in this repository (#N), another one
# (owner/repo#N) or by its URL; the colon after the keyword is optional.
_CLOSING = re.compile(
    r"\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+"
    r"(?:(?P<repo>[\w.-]+/[\w.-]+)#|#|https?://[^\s/]+/(?P<url_repo>[\w.-]+/[\w.-]+)/issues/)"
    r"(?P<number>\d+)\b",
    re.IGNORECASE,
)


def closing_references(text: str, repo: str) -> list[tuple[str, int]]:
    """``(owner/name, number)`` of each issue ``text`` closes, in order, without
    repeats; ``repo`` is the repository a bare ``#N`` is in."""
    found: list[tuple[str, int]] = []
    for match in _CLOSING.finditer(text):
        ref = ((match["repo"] or match["url_repo"] or repo).lower(), int(match["number"]))
        if ref not in found:
            found.append(ref)
    return found


def _tree(tree: str | None) -> str:
    """A merge's tree, or GitHub's 405 when git found a conflict."""
    if tree is None:
        raise MethodNotAllowed("Pull Request is not mergeable")
    return tree


class MergeOps(PullOps, ProtectionOps, CheckOps):
    def _reset_indexes(self) -> None:
        super()._reset_indexes()
        # pull id -> the request that started its mergeability job (memory only)
        self._mergeability_jobs: dict[int, int] = {}

    # -- mergeability and the merge state ----------------------------------------
    def _base_tip(self, pull: PullRequest) -> str:
        return self.branch_sha(self.repos[pull.repo_id], pull.base_ref) or pull.base_sha

    def mergeability(self, pull: PullRequest) -> bool | None:
        """Whether the head merges cleanly into the base's tip (None: not known yet,
        and for a merged pull request)."""
        if pull.state != "open":
            return None if pull.merged else pull.mergeable
        base = self._base_tip(pull)
        pair = f"{base}..{pull.head_sha}"
        if pull.mergeable_for != pair:
            repo = self.repos[pull.repo_id]
            tree = self.merged_tree(repo, base, pull.head_sha)
            pull.mergeable = tree is not None
            pull.mergeable_for = pair
            self.save(pull)
            self._test_merge(repo, pull, base, tree)
            if self.request_serial is not None:
                self._mergeability_jobs[pull.id] = self.request_serial
        started = self._mergeability_jobs.get(pull.id)
        if started is not None and started == self.request_serial:
            return None  # the job this request started
        return pull.mergeable

    def _test_merge(self, repo: Repo, pull: PullRequest, base: str, tree: str | None) -> None:
        """``refs/pull/N/merge``: the merge GitHub tests (base and head as parents), only
        while it merges cleanly."""
        name = f"pull/{pull.number}/merge"
        if tree is None:
            self.drop_ref(repo, name)
            return
        message = f"Merge {pull.head_sha} into {base}"
        commit = self.create_commit(
            repo, message, [pull.head_sha, base], author=None, tree_sha=tree
        )
        self.put_ref(repo, name, commit.sha)

    def merge_state(self, pull: PullRequest) -> str:
        """REST's ``mergeable_state`` (GraphQL's ``mergeStateStatus`` in lower case) of
        an open pull request: ``draft``; ``unknown`` while mergeability is computed;
        ``dirty`` when it conflicts; ``blocked`` while its base branch's protection
        lacks a required approval or status check; ``behind`` when the protection is
        strict and the head lacks the base's tip; ``unstable`` while any other check
        fails or is pending (GitHub: "failing/pending commit status that is not part of
        the required status checks"); else ``clean``. A closed one keeps its record's
        (``unknown`` once merged)."""
        if pull.state != "open":
            return pull.mergeable_state
        if pull.draft:
            return "draft"
        mergeable = self.mergeability(pull)
        if mergeable is None:
            return "unknown"
        if not mergeable:
            return "dirty"
        if self._protection_problem(pull) is not None:
            return "blocked"
        repo = self.repos[pull.repo_id]
        rule = self.protection(repo, pull.base_ref)
        if rule is not None and rule.strict:
            base = self._base_tip(pull)
            if self.merge_base(repo, base, pull.head_sha) != base:
                return "behind"
        states = self.check_states(repo, pull.head_sha).values()
        return "unstable" if "failure" in states or "pending" in states else "clean"

    def _protection_problem(self, pull: PullRequest) -> str | None:
        """GitHub's reason a protected base refuses the merge now, or None."""
        repo = self.repos[pull.repo_id]
        rule = self.protection(repo, pull.base_ref)
        if rule is None:
            return None
        decision = self.review_decision(pull)
        if decision == "CHANGES_REQUESTED":
            return "Changes requested by a reviewer with write access."
        if decision == "REVIEW_REQUIRED":
            count = rule.required_reviews or 1
            reviews = "review is" if count == 1 else "reviews are"
            return f"At least {count} approving {reviews} required by reviewers with write access."
        states = self.check_states(repo, pull.head_sha)
        for context in rule.required_contexts or ():
            state = states.get(context)
            if state != "success":
                verb = "failing" if state == "failure" else "expected"
                return f'Required status check "{context}" is {verb}.'
        return None

    def merge_refusal(self, pull: PullRequest, *, conflicts: bool = True) -> ApiError | None:
        """Why ``PUT .../merge`` would be refused now (GitHub's 405), or None;
        ``conflicts=False`` leaves git's merge to the caller, who makes it anyway."""
        if pull.state != "open" or pull.draft:
            return MethodNotAllowed("Pull Request is not mergeable")
        repo = self.repos[pull.repo_id]
        if conflicts and self.merged_tree(repo, self._base_tip(pull), pull.head_sha) is None:
            return MethodNotAllowed("Pull Request is not mergeable")
        problem = self._protection_problem(pull)
        if problem is not None:
            return MethodNotAllowed(problem)
        return None

    # -- merging -------------------------------------------------------------------
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
        refusal = self.merge_refusal(pull, conflicts=False)  # git's merge below says
        if refusal is not None:
            raise refusal
        if expected_head_sha is not None and expected_head_sha != pull.head_sha:
            raise Conflict("Head branch was modified. Review and try the merge again.")
        repo = self.repos[pull.repo_id]
        base_sha = self._base_tip(pull)
        commits = self.pull_commits(pull)
        if method == "rebase":
            sha = self._rebase(repo, pull, base_sha)
        else:
            tree = _tree(self.merged_tree(repo, base_sha, pull.head_sha))
            if method == "squash":
                title = commit_title or f"{pull.title} (#{pull.number})"
                parents = [base_sha]
            else:
                head_label = f"{repo.owner_login}/{pull.head_ref}"
                title = commit_title or f"Merge pull request #{pull.number} from {head_label}"
                parents = [base_sha, pull.head_sha]
            sha = self.create_commit(repo, title, parents, author=actor.login, tree_sha=tree).sha
        self.move_branch(repo, pull.base_ref, sha)
        self.drop_ref(repo, f"pull/{pull.number}/merge")
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
        pull.auto_merge_method = pull.auto_merge_by_id = pull.auto_merge_at = None
        self.save(pull)
        self.record_event(pull, "merged", commit_id=sha)
        self.record_event(pull, "closed", commit_id=sha)
        if pull.base_ref == repo.default_branch:
            texts = [pull.body or "", *(c.message for c in commits)]
            self._close_issues(repo, pull, "\n".join(texts), sha)
        return sha

    def _rebase(self, repo: Repo, pull: PullRequest, base_sha: str) -> str:
        # GitHub's rebase drops merge commits, as git rebase does
        picks = [
            c for c in self.commits_between(repo, base_sha, pull.head_sha) if len(c.parents) < 2
        ]
        trees: list[str] = []
        current = self.commits[(repo.id, base_sha)].tree_sha
        for commit in picks:
            current = _tree(self.picked_tree(repo, current, commit))
            trees.append(current)
        sha = base_sha
        for commit, tree in zip(picks, trees, strict=True):
            sha = self.create_commit(
                repo,
                commit.message,
                [sha],
                author=commit.author_login,
                tree_sha=tree,
                authored=Signature(commit.author_name, commit.author_email, int(commit.created_at)),
            ).sha
        return sha

    def closing_issues(self, pull: PullRequest) -> list[Issue]:
        """The issues ``pull``'s body links with a closing keyword (GraphQL's
        ``closingIssuesReferences``), in any repository of this emulator."""
        repo = self.repos[pull.repo_id]
        found = []
        for full, number in closing_references(pull.body or "", repo.full_name):
            owner, _, name = full.partition("/")
            target = self.repo(owner, name)
            issue = self.issue(target, number) if target is not None else None
            if issue is not None:
                found.append(issue)
        return found

    def closing_pulls(self, issue: Issue) -> list[PullRequest]:
        """The pull requests whose body links ``issue`` with a closing keyword (GraphQL's
        ``closedByPullRequestsReferences``), by repository and number."""
        found = [
            pull
            for pull in self.pulls_by_number.values()
            if any(i.id == issue.id for i in self.closing_issues(pull))
        ]
        return sorted(found, key=lambda p: (p.repo_id, p.number))

    def _close_issues(self, repo: Repo, pull: PullRequest, text: str, sha: str) -> None:
        for full, number in closing_references(text, repo.full_name):
            owner, _, name = full.partition("/")
            target = self.repo(owner, name)
            issue = self.issue(target, number) if target is not None else None
            if issue is not None and issue.state == "open":
                closer = pull.number if target is repo else None
                self.set_issue_state(
                    issue, "closed", "completed", commit_id=sha, closer_number=closer
                )

    def update_branch(self, pull: PullRequest, actor: User) -> str:
        """Merge the base branch's tip into the head branch (GitHub's "Update branch"):
        the new head; nothing when the head has it already; 422 on a conflict."""
        repo = self.repos[pull.repo_id]
        base = self._base_tip(pull)
        if self.merge_base(repo, base, pull.head_sha) == base:
            return pull.head_sha
        tree = self.merged_tree(repo, pull.head_sha, base)
        if tree is None:
            raise ValidationFailed("merge conflict between base and head")
        message = f"Merge branch '{pull.base_ref}' into {pull.head_ref}"
        sha = self.create_commit(
            repo, message, [pull.head_sha, base], author=actor.login, tree_sha=tree
        ).sha
        self.move_branch(repo, pull.head_ref, sha)
        return sha

    # -- branches ------------------------------------------------------------------
    def branch_deleted(self, repo: Repo, branch: str) -> None:
        """A deleted head branch closes its open pull requests."""
        for pull in list(self.pulls_by_id.values()):
            if pull.repo_id == repo.id and pull.head_ref == branch and not pull.merged:
                self.record_event(pull, "head_ref_deleted")
                self.close_pull(pull)

    def branch_created(self, repo: Repo, branch: str) -> None:
        for pull in list(self.pulls_by_id.values()):
            if (
                pull.repo_id == repo.id
                and pull.head_ref == branch
                and pull.state == "closed"
                and not pull.merged
                and any(e.event == "head_ref_deleted" for e in self.events(pull))
            ):
                self.record_event(pull, "head_ref_restored")

    # -- auto-merge ----------------------------------------------------------------
    def enable_auto_merge(self, pull: PullRequest, actor: User, method: str) -> None:
        """Merge ``pull`` with ``method`` as soon as it may be merged (now, if it may)."""
        pull.auto_merge_method, pull.auto_merge_by_id = method, actor.id
        pull.auto_merge_at = self.now()
        self.save(pull)
        self.record_event(pull, "auto_merge_enabled")
        self.merge_when_ready(pull)

    def disable_auto_merge(self, pull: PullRequest) -> None:
        if pull.auto_merge_method is None:
            return
        pull.auto_merge_method = pull.auto_merge_by_id = pull.auto_merge_at = None
        self.save(pull)
        self.record_event(pull, "auto_merge_disabled")

    def merge_when_ready(self, pull: PullRequest) -> None:
        """Merge an auto-merge pull request once nothing refuses it: GitHub's docs, "when
        all required reviews are met and all required status checks have passed"."""
        if pull.auto_merge_method is None or self.merge_refusal(pull) is not None:
            return
        repo = self.repos[pull.repo_id]
        actor = self.users[pull.auto_merge_by_id or repo.owner_id]
        self.merge_pull(pull, actor, method=pull.auto_merge_method)

    def ci_changed(self, repo: Repo, sha: str) -> None:
        for pull in list(self.pulls_by_id.values()):
            if pull.repo_id == repo.id and pull.head_sha == sha:
                self.merge_when_ready(pull)

    def reviewed(self, pull: PullRequest) -> None:
        self.merge_when_ready(pull)  # a review may be what auto-merge waited on
