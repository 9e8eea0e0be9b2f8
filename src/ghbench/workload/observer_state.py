"""What AO 0.10's observer knows of a PR: its store's row, and one batch's observation.

``TrackedPr`` is the daemon's stored PR (SQLite: it survives a restart): its head
commit, the semantic hashes that say whether a refresh saw a change, its review
decision and whether reviews were ever read, the failed jobs' log tails. An
``Observation`` is what one GraphQL batch answer says of a PR (0.10.3's
``scmObservationFromGraphQL``): the hashes are AO's in spirit (a stable hash of the
same facts), which is all the model needs of them: when they are missing, the PR is
refreshed; when the failed checks' fingerprint is new, their logs are read.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from ghbench.timefmt import parse_iso

__all__ = [
    "CHANGES_REQUESTED",
    "Check",
    "Observation",
    "TrackedPr",
    "decision_of",
    "observation_of",
]

CHANGES_REQUESTED = "changes_requested"  # AO's word for it
_DECISIONS = {
    "APPROVED": "approved",
    "CHANGES_REQUESTED": CHANGES_REQUESTED,
    "REVIEW_REQUIRED": "review_required",
}
# a check run's (conclusion, then status) in AO's words (checkStatusFromGraphQL)
_CONCLUSIONS = {
    "SUCCESS": "passed",
    "NEUTRAL": "passed",
    "FAILURE": "failed",
    "TIMED_OUT": "failed",
    "ACTION_REQUIRED": "failed",
    "STARTUP_FAILURE": "failed",
    "CANCELLED": "cancelled",
    "SKIPPED": "skipped",
    "STALE": "skipped",
}
_STATUSES = {
    "QUEUED": "queued",
    "PENDING": "queued",
    "REQUESTED": "queued",
    "WAITING": "queued",
    "IN_PROGRESS": "in_progress",
}
_CONTEXT_STATES = {
    "SUCCESS": "passed",
    "FAILURE": "failed",
    "ERROR": "failed",
    "PENDING": "in_progress",
    "EXPECTED": "in_progress",
}
_FAILED = frozenset({"failed", "cancelled"})
_FAILING_ROLLUPS = frozenset({"FAILURE", "ERROR"})  # mapRollupState: CI failing


def decision_of(value: Any) -> str:
    """``reviewDecisionFromGraphQL``: GitHub's enum in AO's words."""
    return _DECISIONS.get(str(value or "").strip().upper(), "none")


def _digest(value: Any) -> str:
    """A stable hash of a JSON value (AO's ``stableHash``)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


@dataclass(frozen=True)
class Check:
    """One rollup context: a check run (``job_id``: its ``databaseId``) or a status."""

    name: str
    status: str
    conclusion: str
    url: str
    job_id: int | None

    @property
    def failed(self) -> bool:
        return self.status in _FAILED


def _check(node: dict[str, Any]) -> Check | None:
    kind = node.get("__typename")
    if kind == "CheckRun":
        conclusion = _text(node.get("conclusion")).upper()
        status = _CONCLUSIONS.get(conclusion) or _STATUSES.get(
            _text(node.get("status")).upper(), "unknown"
        )
        job = node.get("databaseId")
        url = _text(node.get("detailsUrl")) or _text(node.get("url"))
        name = _text(node.get("name"))
        job_id = job if isinstance(job, int) and job > 0 else None
        return Check(name, status, conclusion.lower(), url, job_id) if name else None
    if kind == "StatusContext":
        state = _text(node.get("state")).upper()
        name = _text(node.get("context"))
        status = _CONTEXT_STATES.get(state, "unknown")
        return (
            Check(name, status, state.lower(), _text(node.get("targetUrl")), None) if name else None
        )
    return None


@dataclass
class Observation:
    """A batch's view of one PR; ``log_tails`` are filled in by the failed-log step."""

    repo: str
    number: int
    head: str | None
    merged: bool
    closed: bool
    decision: str
    failing: bool
    checks: tuple[Check, ...]
    metadata_hash: str
    updated_at: float | None = None  # GitHub's updatedAt
    log_tails: tuple[tuple[str, str], ...] = ()

    @property
    def key(self) -> tuple[str, int]:
        return (self.repo, self.number)

    @property
    def failed_checks(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if c.failed)

    @property
    def fingerprint(self) -> str:
        """``githubFailedFingerprint``: the head and its failed checks, or "" without."""
        failed = sorted(
            f"{self.head}\0{c.name}\0{c.status}\0{c.conclusion}\0{c.url}\0{c.job_id or ''}"
            for c in self.failed_checks
        )
        return _digest(failed) if failed else ""

    @property
    def ci_hash(self) -> str:
        """``ciSemanticHash``: the fingerprint first, so a stored hash tells whether the
        same failures were seen (and their logs read) before."""
        base = _digest([self.failing, self.head, [c.__dict__ for c in self.checks], self.log_tails])
        return f"{self.fingerprint}:{base}" if self.fingerprint else base


def observation_of(repo: str, number: int, node: dict[str, Any]) -> Observation:
    """``scmObservationFromGraphQL`` of one ``pullRequest`` node of a batch answer."""
    head = _text(node.get("headRefOid")) or None
    rollup: dict[str, Any] = {}
    commits = (node.get("commits") or {}).get("nodes") or []
    for commit in commits:
        found = (commit.get("commit") or {}) if isinstance(commit, dict) else {}
        head = head or _text(found.get("oid")) or None
        if isinstance(found.get("statusCheckRollup"), dict):
            rollup = found["statusCheckRollup"]
            break
    contexts = (rollup.get("contexts") or {}).get("nodes") or []
    checks = tuple(c for c in (_check(n) for n in contexts if isinstance(n, dict)) if c)
    merged = bool(node.get("merged"))
    metadata = {k: v for k, v in node.items() if k != "commits"}
    try:
        updated_at: float | None = parse_iso(_text(node.get("updatedAt")))
    except ValueError:
        updated_at = None
    return Observation(
        repo=repo,
        number=number,
        head=head,
        merged=merged,
        closed=bool(node.get("closed")) and not merged,
        decision=decision_of(node.get("reviewDecision")),
        failing=_text(rollup.get("state")).upper() in _FAILING_ROLLUPS,
        checks=checks,
        metadata_hash=_digest(metadata),
        updated_at=updated_at,
    )


@dataclass
class TrackedPr:
    """The daemon's stored PR: known by number (and head) from its discovery; its
    hashes from its first observation on."""

    session_id: str
    repo: str
    number: int
    head_sha: str | None = None
    metadata_hash: str | None = None
    ci_hash: str | None = None
    review_hash: str | None = None
    review: str = ""
    terminal: bool = False
    tails: dict[str, str] = field(default_factory=dict)  # failed check -> its log's tail
    tails_head: str | None = None
    # when its reviews were last written (0.12's ReviewObservedAt): a write that read
    # them, or the first write
    review_observed_at: float | None = None

    @property
    def key(self) -> tuple[str, int]:
        return (self.repo, self.number)

    @property
    def missing_state(self) -> bool:
        """``missingLocalState``: never observed (or its head unknown)."""
        return self.head_sha is None or self.metadata_hash is None or self.ci_hash is None

    def stored_tails(self, obs: Observation) -> tuple[tuple[str, str], ...] | None:
        """``applyStoredFailedLogTails``: the tails of ``obs``'s failed checks, when the
        store holds every one of them for its head and saw the same failures."""
        if self.ci_hash is None or not self.ci_hash.startswith(obs.fingerprint + ":"):
            return None
        if self.tails_head != obs.head:
            return None
        tails = tuple((c.name, self.tails.get(c.name, "")) for c in obs.failed_checks)
        return tails if all(tail for _, tail in tails) else None

    def observe(
        self, obs: Observation, reviewed: str | None, *, keep_review: bool, now: float
    ) -> bool:
        """Store a refresh and the review decision read with the threads, if any (or
        the batch's); ``keep_review``: the threads failed, the stored review stays.
        True when it changed what the store held (AO writes only then)."""
        before = (self.metadata_hash, self.ci_hash, self.review_hash)
        self.head_sha = obs.head or self.head_sha
        self.metadata_hash = obs.metadata_hash
        self.ci_hash = obs.ci_hash
        self.terminal = obs.merged or obs.closed
        if obs.log_tails:
            self.tails, self.tails_head = dict(obs.log_tails), obs.head
        if not keep_review:
            self.review_only(reviewed or obs.decision)
        changed = before != (self.metadata_hash, self.ci_hash, self.review_hash)
        if changed and (reviewed is not None or self.review_observed_at is None):
            self.review_observed_at = now
        return changed

    def review_only(self, decision: str) -> None:
        self.review = decision
        self.review_hash = _digest(decision)
