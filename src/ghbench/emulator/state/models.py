"""The emulator's records: plain mutable structs, one per GitHub object kind.

Times are epoch seconds (float); renderers turn them into ISO strings. ``id`` is a
database id from one store-wide sequence (so ``node_id`` is unique across kinds);
``node_id`` is the GraphQL global id (``PR_…``, ``I_…``, ``R_…``), resolvable with
``Store.node(node_id)``. Every struct has a ``KIND`` used as its persistence key.

Issues and pull requests share one number sequence per repository, as on GitHub;
a pull request is *not* also stored as an Issue, but issue comments on it are keyed
by ``(repo_id, number)`` like any issue's.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

__all__ = [
    "CheckRun",
    "Commit",
    "CommitStatus",
    "Issue",
    "IssueComment",
    "Label",
    "PullRequest",
    "Record",
    "Ref",
    "Repo",
    "Review",
    "ReviewComment",
    "ReviewThread",
    "Token",
    "User",
]


class Record(msgspec.Struct, kw_only=True):
    """Base of every stored record."""

    KIND: ClassVar[str] = ""
    id: int


class User(Record, kw_only=True):
    KIND: ClassVar[str] = "user"
    login: str
    node_id: str
    name: str | None = None
    email: str | None = None
    type: str = "User"  # "User" | "Bot" | "Organization"
    created_at: float = 0.0


class Token(Record, kw_only=True):
    """A credential; only its SHA-256 is kept, never the token itself."""

    KIND: ClassVar[str] = "token"
    user_id: int
    token_sha256: str
    label: str  # stable id shown in the ledger, e.g. "token-3"
    scopes: str = "repo, read:org, workflow"


class Repo(Record, kw_only=True):
    KIND: ClassVar[str] = "repo"
    node_id: str
    owner_id: int
    owner_login: str
    name: str
    default_branch: str = "main"
    private: bool = False
    description: str | None = None
    created_at: float = 0.0
    updated_at: float = 0.0
    pushed_at: float = 0.0
    next_number: int = 1  # shared by issues and pull requests

    @property
    def full_name(self) -> str:
        return f"{self.owner_login}/{self.name}"


class Commit(Record, kw_only=True):
    """A commit: what the API lists about it. Its content is a real git commit object
    with this ``sha`` in the repository's bare git repository (``emulator/git``), whose
    tree is ``tree_sha``. ``author_login`` is the GitHub user it is attributed to (None
    when no user has the author's email)."""

    KIND: ClassVar[str] = "commit"
    repo_id: int
    sha: str
    message: str
    parents: list[str] = msgspec.field(default_factory=list)
    author_login: str | None = None
    created_at: float = 0.0  # the author's date
    tree_sha: str = ""
    author_name: str = ""
    author_email: str = ""
    committer_name: str = ""
    committer_email: str = ""
    committed_at: float = 0.0


class Ref(Record, kw_only=True):
    """A git ref; ``name`` is without ``refs/``, e.g. ``heads/main``."""

    KIND: ClassVar[str] = "ref"
    repo_id: int
    name: str
    sha: str


class Issue(Record, kw_only=True):
    KIND: ClassVar[str] = "issue"
    node_id: str
    repo_id: int
    number: int
    title: str
    user_id: int
    body: str | None = None
    state: str = "open"  # "open" | "closed"
    state_reason: str | None = None
    labels: list[str] = msgspec.field(default_factory=list)
    assignees: list[int] = msgspec.field(default_factory=list)  # user ids
    pinned: bool = False
    created_at: float = 0.0
    updated_at: float = 0.0
    closed_at: float | None = None


class PullRequest(Record, kw_only=True):
    KIND: ClassVar[str] = "pull"
    node_id: str
    repo_id: int
    number: int
    title: str
    user_id: int
    head_ref: str  # branch name, without refs/heads/
    head_sha: str
    base_ref: str
    base_sha: str
    body: str | None = None
    state: str = "open"  # "open" | "closed"; merged PRs are closed with merged=True
    draft: bool = False
    merged: bool = False
    merged_at: float | None = None
    merged_by_id: int | None = None
    merge_commit_sha: str | None = None
    mergeable: bool | None = True
    mergeable_state: str = "clean"  # clean | dirty | blocked | unstable | behind | unknown
    labels: list[str] = msgspec.field(default_factory=list)
    assignees: list[int] = msgspec.field(default_factory=list)  # user ids
    requested_reviewers: list[int] = msgspec.field(default_factory=list)  # user ids
    created_at: float = 0.0
    updated_at: float = 0.0
    closed_at: float | None = None


class CommitStatus(Record, kw_only=True):
    KIND: ClassVar[str] = "status"
    node_id: str
    repo_id: int
    sha: str
    state: str  # error | failure | pending | success
    context: str = "default"
    description: str | None = None
    target_url: str | None = None
    creator_id: int = 0
    created_at: float = 0.0
    updated_at: float = 0.0


class CheckRun(Record, kw_only=True):
    KIND: ClassVar[str] = "check_run"
    node_id: str
    repo_id: int
    head_sha: str
    name: str
    status: str = "queued"  # queued | in_progress | completed
    conclusion: str | None = None  # success | failure | neutral | cancelled | skipped | ...
    details_url: str | None = None
    external_id: str | None = None
    output_title: str | None = None
    output_summary: str | None = None
    started_at: float = 0.0
    completed_at: float | None = None


class Review(Record, kw_only=True):
    KIND: ClassVar[str] = "review"
    node_id: str
    repo_id: int
    pull_id: int
    user_id: int
    state: str  # APPROVED | CHANGES_REQUESTED | COMMENTED | PENDING | DISMISSED
    commit_id: str
    body: str = ""
    submitted_at: float | None = None


class ReviewThread(Record, kw_only=True):
    KIND: ClassVar[str] = "thread"
    node_id: str
    repo_id: int
    pull_id: int
    path: str
    line: int | None = None
    is_resolved: bool = False
    is_outdated: bool = False
    resolved_by_id: int | None = None


class ReviewComment(Record, kw_only=True):
    """A pull request review comment (one line of a diff); belongs to a thread."""

    KIND: ClassVar[str] = "review_comment"
    node_id: str
    repo_id: int
    pull_id: int
    thread_id: int
    user_id: int
    body: str
    path: str
    commit_id: str
    line: int | None = None
    side: str = "RIGHT"
    review_id: int | None = None
    in_reply_to_id: int | None = None
    diff_hunk: str = "@@ -1 +1 @@"
    created_at: float = 0.0
    updated_at: float = 0.0


class IssueComment(Record, kw_only=True):
    KIND: ClassVar[str] = "issue_comment"
    node_id: str
    repo_id: int
    number: int  # the issue's or pull request's number
    user_id: int
    body: str
    created_at: float = 0.0
    updated_at: float = 0.0


class Label(Record, kw_only=True):
    """A repository's label. Issues and pull requests carry label *names* (GitHub's
    case, as the label spells it); renaming or deleting a label updates them."""

    KIND: ClassVar[str] = "label"
    node_id: str
    repo_id: int
    name: str
    color: str = "ededed"
    description: str | None = None
    default: bool = False
    created_at: float = 0.0
    updated_at: float = 0.0


RECORD_TYPES: tuple[type[Record], ...] = (
    User,
    Token,
    Repo,
    Commit,
    Ref,
    Issue,
    PullRequest,
    CommitStatus,
    CheckRun,
    Review,
    ReviewThread,
    ReviewComment,
    IssueComment,
    Label,
)
