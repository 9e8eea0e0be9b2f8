"""The store's skeleton: in-memory indexes, id and sha allocation, versions, load/reset.

Resource operations live in mixins (``repos.py``, ``issues.py``, ``pulls.py``,
``checks.py``) that all build on :class:`StoreBase`; ``Store`` combines them.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, TypeVar

from ghbench.clock import Clock
from ghbench.emulator.git.storage import GitStorage
from ghbench.emulator.state.db import Database
from ghbench.emulator.state.models import (
    CheckRun,
    Commit,
    CommitStatus,
    Issue,
    IssueComment,
    PullRequest,
    Record,
    Ref,
    Repo,
    Review,
    ReviewComment,
    ReviewThread,
    Token,
    User,
)
from ghbench.emulator.state.trees import FileChange

__all__ = ["StoreBase", "ref_dirs"]


def ref_dirs(name: str) -> list[str]:
    """The directories of a ref name: ``heads/a/b`` -> ``heads``, ``heads/a``."""
    parts = name.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]


R = TypeVar("R", bound=Record)
# a new record's own times: it was made (and last changed) now
CREATED = ("created_at", "updated_at")


class StoreBase:
    """Indexes over the records plus the plumbing every mixin uses."""

    def __init__(
        self, db: Database, clock: Clock, rng: random.Random, git: GitStorage | None = None
    ) -> None:
        self.db = db
        self.clock = clock
        self.rng = rng
        self.git = git or GitStorage(None)
        self._next_id = 1
        # every change of any record (a reset included), and every read of the time: an
        # answer computed when both stood where they stand now is the answer now
        # (graphql_bridge's memo)
        self.record_changes = 0
        self.clock_reads = 0
        self._reset_indexes()
        for record in db.load_records():
            self._index(record)
            self._next_id = max(self._next_id, record.id + 1)

    # -- indexes -----------------------------------------------------------------
    def _reset_indexes(self) -> None:
        self._next_id = 1
        self._global_version = 0
        self._repo_versions: dict[int, int] = defaultdict(int)
        self.by_node: dict[str, Record] = {}
        self.users: dict[int, User] = {}
        self.users_by_login: dict[str, User] = {}
        self.tokens: dict[str, Token] = {}  # by sha256
        self.repos: dict[int, Repo] = {}
        self.repos_by_name: dict[tuple[str, str], Repo] = {}
        self.commits: dict[tuple[int, str], Commit] = {}
        self.refs: dict[tuple[int, str], Ref] = {}
        # (repo id, "heads/feat") -> how many refs lie below it ("heads/feat/x", ...)
        self.ref_dirs: dict[tuple[int, str], int] = defaultdict(int)
        self.issues_by_number: dict[tuple[int, int], Issue] = {}
        self.pulls_by_number: dict[tuple[int, int], PullRequest] = {}
        self.pulls_by_id: dict[int, PullRequest] = {}
        self.statuses_by_sha: dict[tuple[int, str], list[CommitStatus]] = defaultdict(list)
        self.check_runs_by_id: dict[int, CheckRun] = {}
        self.check_runs_by_sha: dict[tuple[int, str], list[CheckRun]] = defaultdict(list)
        self.reviews_by_pull: dict[int, list[Review]] = defaultdict(list)
        self.threads_by_pull: dict[int, list[ReviewThread]] = defaultdict(list)
        self.threads_by_id: dict[int, ReviewThread] = {}
        self.review_comments_by_pull: dict[int, list[ReviewComment]] = defaultdict(list)
        self.review_comments_by_id: dict[int, ReviewComment] = {}
        self.issue_comments_by_number: dict[tuple[int, int], list[IssueComment]] = defaultdict(list)
        self.issue_comments_by_id: dict[int, IssueComment] = {}
        # (repo id, head sha, base sha or "") -> what head changes (RepoOps.changes)
        self.diff_cache: dict[tuple[int, str, str], list[FileChange]] = {}
        # (repo id, head sha, base sha or "") -> git's base..head (CommitOps.commits_between)
        self.between_cache: dict[tuple[int, str, str], list[Commit]] = {}

    def _index(self, record: Record) -> None:
        node_id = getattr(record, "node_id", None)
        if node_id:
            self.by_node[node_id] = record
        match record:
            case User():
                self.users[record.id] = record
                self.users_by_login[record.login.lower()] = record
            case Token():
                self.tokens[record.token_sha256] = record
            case Repo():
                self.repos[record.id] = record
                self.repos_by_name[(record.owner_login.lower(), record.name.lower())] = record
            case Commit():
                self.commits[(record.repo_id, record.sha)] = record
            case Ref():
                self.refs[(record.repo_id, record.name)] = record
                for directory in ref_dirs(record.name):
                    self.ref_dirs[(record.repo_id, directory)] += 1
            case Issue():
                self.issues_by_number[(record.repo_id, record.number)] = record
            case PullRequest():
                self.pulls_by_number[(record.repo_id, record.number)] = record
                self.pulls_by_id[record.id] = record
            case CommitStatus():
                self.statuses_by_sha[(record.repo_id, record.sha)].append(record)
            case CheckRun():
                self.check_runs_by_id[record.id] = record
                self.check_runs_by_sha[(record.repo_id, record.head_sha)].append(record)
            case Review():
                self.reviews_by_pull[record.pull_id].append(record)
            case ReviewThread():
                self.threads_by_pull[record.pull_id].append(record)
                self.threads_by_id[record.id] = record
            case ReviewComment():
                self.review_comments_by_pull[record.pull_id].append(record)
                self.review_comments_by_id[record.id] = record
            case IssueComment():
                self.issue_comments_by_number[(record.repo_id, record.number)].append(record)
                self.issue_comments_by_id[record.id] = record

    # -- plumbing ----------------------------------------------------------------
    def now(self) -> float:
        self.clock_reads += 1
        return self.clock.now()

    def new_id(self) -> int:
        value: int = self._next_id
        self._next_id += 1
        return value

    @staticmethod
    def make_node_id(prefix: str, record_id: int) -> str:
        """An opaque GraphQL global id such as ``PR_kwDOAAAAKg``."""
        return f"{prefix}_kwDO{record_id:06X}"

    def create(
        self, kind: type[R], prefix: str, *, now: Sequence[str] = CREATED, **fields: Any
    ) -> R:
        """A new ``kind`` record of ``fields``, indexed and persisted: a fresh id, its node
        id (``prefix``) and, set to one reading of the clock, each field ``now`` names."""
        rid = self.new_id()
        fields.update(id=rid, node_id=self.make_node_id(prefix, rid))
        if now:
            fields.update(dict.fromkeys(now, self.now()))
        record = kind(**fields)
        self.add(record)
        return record

    def add(self, record: Record) -> None:
        """Index and persist a new record."""
        self._index(record)
        self.save(record)

    def remove(self, record: Record) -> None:
        """Delete a record and forget its node id, bumping the version of what it belonged
        to; its kind's own indexes are the caller's to drop."""
        node_id = getattr(record, "node_id", None)
        if node_id:
            self.by_node.pop(node_id, None)
        self.db.delete(record)
        self.touch(getattr(record, "repo_id", None))

    def save(self, record: Record) -> None:
        """Persist a changed record and bump the version of what it belongs to."""
        self.db.put(record)
        self.touch(getattr(record, "repo_id", None))

    def touch(self, repo_id: int | None) -> None:
        """Invalidate cached representations (ETags) of a repository, or of everything."""
        self.record_changes += 1
        if repo_id is None:
            self._global_version += 1
        else:
            self._repo_versions[repo_id] += 1

    def version(self, repo_id: int | None) -> tuple[int, int]:
        """What a cached representation depends on: (global, repository) versions."""
        if repo_id is None:
            return (self._global_version, 0)
        return (self._global_version, self._repo_versions[repo_id])

    def node(self, node_id: str) -> Record | None:
        """The record with this GraphQL global id."""
        return self.by_node.get(node_id)

    def user_by_id(self, user_id: int) -> User:
        return self.users[user_id]

    def reset(self) -> None:
        """Forget every record and git repository (durably)."""
        self.db.clear()
        self.git.forget()
        self._reset_indexes()
        self.record_changes += 1
