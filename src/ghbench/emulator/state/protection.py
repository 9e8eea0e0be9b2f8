"""Branch protection: the rules a branch's pull requests must meet to merge.

GitHub applies them in three places the emulator models: ``reviewDecision`` (null
unless the base branch requires approving reviews), the merge state (``blocked`` while
a required review or status check is missing, ``behind`` when the rule is strict and
the head lacks the base's tip) and merges (refused with GitHub's 405 messages). Only
branch-name rules are modelled (no wildcards, rulesets, code owners or bypass lists).
"""

from __future__ import annotations

from ghbench.emulator.state.events import EventOps
from ghbench.emulator.state.models import Protection, PullRequest, Record, Repo, Review

__all__ = ["DECISIVE_REVIEWS", "ProtectionOps"]

DECISIVE_REVIEWS = ("APPROVED", "CHANGES_REQUESTED", "DISMISSED")


class ProtectionOps(EventOps):
    def _reset_indexes(self) -> None:
        super()._reset_indexes()
        self.protections: dict[tuple[int, str], Protection] = {}

    def _index(self, record: Record) -> None:
        super()._index(record)
        if isinstance(record, Protection):
            self.protections[(record.repo_id, record.branch)] = record

    def protection(self, repo: Repo, branch: str) -> Protection | None:
        return self.protections.get((repo.id, branch))

    def protect(self, repo: Repo, branch: str, **rules: object) -> Protection:
        """Set ``branch``'s protection to ``rules`` (``Protection`` fields), replacing
        any it had, as ``PUT .../protection`` does."""
        found = self.protection(repo, branch)
        pid = found.id if found else self.new_id()
        rule = Protection(
            id=pid,
            node_id=found.node_id if found else self.make_node_id("BPR", pid),
            repo_id=repo.id,
            branch=branch,
            created_at=found.created_at if found else self.now(),
            **rules,  # type: ignore[arg-type]
        )
        self.add(rule)
        return rule

    def unprotect(self, repo: Repo, branch: str) -> bool:
        rule = self.protections.pop((repo.id, branch), None)
        if rule is None:
            return False
        self.remove(rule)
        return True

    def latest_reviews(self, pull: PullRequest) -> dict[int, Review]:
        """Each reviewer's latest decisive review (a later COMMENTED one does not undo
        it), by user id."""
        latest: dict[int, Review] = {}
        for review in self.reviews_by_pull.get(pull.id, []):
            if review.state in DECISIVE_REVIEWS:
                latest[review.user_id] = review
        return latest

    def review_decision(self, pull: PullRequest) -> str | None:
        """GraphQL's ``reviewDecision``: None unless the base branch's protection
        requires approvals; then CHANGES_REQUESTED, APPROVED (enough approvals, on the
        head commit when stale ones are dismissed) or REVIEW_REQUIRED."""
        rule = self.protection(self.repos[pull.repo_id], pull.base_ref)
        if rule is None or not rule.required_reviews:
            return None
        latest = self.latest_reviews(pull).values()
        if any(r.state == "CHANGES_REQUESTED" for r in latest):
            return "CHANGES_REQUESTED"
        approvals = [
            r
            for r in latest
            if r.state == "APPROVED"
            and (not rule.dismiss_stale_reviews or r.commit_id == pull.head_sha)
        ]
        return "APPROVED" if len(approvals) >= rule.required_reviews else "REVIEW_REQUIRED"
