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
    "CheckSuite",
    "Commit",
    "CommitStatus",
    "Issue",
    "IssueComment",
    "IssueEvent",
    "Label",
    "Protection",
    "PullRequest",
    "Reaction",
    "Record",
    "Ref",
    "Repo",
    "Review",
    "ReviewComment",
    "ReviewThread",
    "Token",
    "User",
    "Workflow",
    "WorkflowRun",
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
    # the kind of token (``ghbench.budgets``): ``pat`` draws on its user's buckets; an
    # App installation's on ``bucket`` (the installation's); Actions' GITHUB_TOKEN on
    # the bucket of the repository each call names (``repository`` when it names none)
    kind: str = "pat"
    bucket: str | None = None
    repository: str | None = None
    core_limit: int | None = None  # per hour; None: GitHub's for a user (5,000)
    graphql_limit: int | None = None


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
    allow_auto_merge: bool = False  # GitHub's default for a new repository
    delete_branch_on_merge: bool = False

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
    locked: bool = False
    lock_reason: str | None = None  # off-topic | too heated | resolved | spam
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
    # git's answer to "does head merge cleanly into base", for the pair of commits in
    # ``mergeable_for`` ("BASE..HEAD"); recomputed when either moves (state/merging.py)
    mergeable: bool | None = True
    mergeable_for: str = ""
    mergeable_state: str = "clean"  # a closed pull request's (merged: unknown)
    labels: list[str] = msgspec.field(default_factory=list)
    assignees: list[int] = msgspec.field(default_factory=list)  # user ids
    requested_reviewers: list[int] = msgspec.field(default_factory=list)  # user ids
    locked: bool = False
    lock_reason: str | None = None
    # enablePullRequestAutoMerge: the method, who enabled it and when (None: off)
    auto_merge_method: str | None = None
    auto_merge_by_id: int | None = None
    auto_merge_at: float | None = None
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
    suite_id: int | None = None  # its check suite (None: a record from before suites)
    run_id: int | None = None  # an Actions job: its workflow run (the job id is ``id``)
    log: str | None = None  # an Actions job's log (its steps' output, no timestamps)


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


class Protection(Record, kw_only=True):
    """A branch's protection (``PUT branches/{branch}/protection``): what the merge
    state, ``reviewDecision`` and merges follow. ``required_reviews`` None or 0: no
    approval is required; ``required_contexts`` None: no status check is."""

    KIND: ClassVar[str] = "protection"
    node_id: str
    repo_id: int
    branch: str
    required_reviews: int | None = None
    dismiss_stale_reviews: bool = False
    require_code_owner_reviews: bool = False
    required_contexts: list[str] | None = None
    strict: bool = False  # the head must contain the base's tip
    enforce_admins: bool = False
    required_linear_history: bool = False
    allow_force_pushes: bool = False
    allow_deletions: bool = False
    required_conversation_resolution: bool = False
    created_at: float = 0.0


class IssueEvent(Record, kw_only=True):
    """One event in an issue's or pull request's history (REST ``issues/{n}/events``,
    GraphQL ``timelineItems``): ``event`` is GitHub's name (closed, reopened, merged,
    labeled, unlabeled, assigned, unassigned, locked, unlocked, renamed,
    head_ref_deleted, head_ref_restored, ready_for_review, convert_to_draft,
    review_requested, review_request_removed)."""

    KIND: ClassVar[str] = "issue_event"
    node_id: str
    repo_id: int
    number: int
    event: str
    actor_id: int
    created_at: float = 0.0
    commit_id: str | None = None  # closed/merged/referenced: the commit
    label: str | None = None  # labeled / unlabeled
    subject_id: int | None = None  # assigned, review_requested: the user
    closer_number: int | None = None  # closed by a pull request (same repository)
    state_reason: str | None = None
    lock_reason: str | None = None
    rename_from: str | None = None
    rename_to: str | None = None


class Reaction(Record, kw_only=True):
    """An emoji reaction (REST ``content``: +1, -1, laugh, confused, heart, hooray,
    rocket, eyes) on an issue, pull request or comment, named by its node id."""

    KIND: ClassVar[str] = "reaction"
    node_id: str
    repo_id: int
    subject_id: str
    user_id: int
    content: str
    created_at: float = 0.0


class Workflow(Record, kw_only=True):
    """An Actions workflow (``.github/workflows/<file>``); made with its first run."""

    KIND: ClassVar[str] = "workflow"
    node_id: str
    repo_id: int
    name: str
    path: str
    created_at: float = 0.0


class CheckSuite(Record, kw_only=True):
    """The check runs one app made for one commit: an Actions workflow run's jobs, or
    the runs made through ``POST check-runs`` (app ``ghbench``)."""

    KIND: ClassVar[str] = "check_suite"
    node_id: str
    repo_id: int
    head_sha: str
    head_branch: str | None = None
    app: str = "github-actions"  # an app slug (apps.py)
    created_at: float = 0.0
    updated_at: float = 0.0


class WorkflowRun(Record, kw_only=True):
    """One run of a workflow for a pushed head; its jobs are check runs whose
    ``run_id`` is this run's id (an Actions job id is its check run id, as on GitHub).
    Status and conclusion follow its jobs."""

    KIND: ClassVar[str] = "workflow_run"
    node_id: str
    repo_id: int
    workflow_id: int
    suite_id: int
    run_number: int
    head_branch: str | None
    head_sha: str
    actor_id: int
    event: str = "push"
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
    Protection,
    IssueEvent,
    Reaction,
    Workflow,
    CheckSuite,
    WorkflowRun,
)
