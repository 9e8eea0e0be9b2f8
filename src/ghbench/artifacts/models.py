"""The versioned artifacts ghbench writes: the scorecard and the setup artifact.

Both keep the spec's JSON keys and nesting (AO's ``experiments/benchmark-spec.md``,
"Artifacts": docs/architecture.md says where it comes from; docs/scorecard.md defines
every field);
Python attributes are the snake_case of those camelCase keys. The scorecard
carries ghbench's additions (``insights``, ``incomplete``, the run's ``warnings``, what
the trace reader skipped) beside the spec's objects, never inside them.

Readers check ``schemaVersion`` before anything else, reject versions they do not
know with an ``ArtifactError`` that says what to do, and ignore unknown fields so
that a newer ghbench's additions do not break an older reader. Writers go through
``ghbench.artifacts.io.write_new``: atomic, and never over an existing file.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

import msgspec

from ghbench import BENCHMARK_VERSION
from ghbench.artifacts.io import write_new
from ghbench.errors import ArtifactError
from ghbench.timefmt import parse_iso

__all__ = [
    "SCHEMA_VERSION",
    "SETUP_SCHEMA_VERSION",
    "Attribution",
    "AttributionByResource",
    "BracketDelta",
    "BudgetPacing",
    "Consumption",
    "ConsumptionByResource",
    "ExactFigures",
    "Insights",
    "Pacing",
    "RateLimitSnapshots",
    "ReadWarningEntry",
    "ResetWindowPacing",
    "ResourceWindow",
    "ResourceWindows",
    "RowBreakdown",
    "RowsExcluded",
    "RunWarning",
    "Scorecard",
    "ScorecardArtifact",
    "SecondaryLimits",
    "SecondaryPeak",
    "Session",
    "SetupArtifact",
    "SnapshotBucket",
    "SnapshotEntry",
    "SpendSplit",
    "Supplemental",
    "Warmup",
    "Window",
    "encode_artifact",
    "load_scorecard",
    "load_setup",
    "write_scorecard_file",
    "write_setup",
]

# Format history (bump the version, add a line, keep the old reader path working):
#   1  ghbench 0.1.0: the spec's scorecard and setup keys and nesting. The scorecard adds
#      `insights`, `incomplete`, `incompleteReason`, `skippedLines` and `readWarnings`
#      at the top level, beside the spec's objects. (The setup artifact is still 1.)
#   2  scorecard only: the spec's scorecard fields carry AO's values (benchmark.mjs): its rounding
#      (calls/min to 0.1, per-hour figures and percentiles to integers, the 304 rate to
#      0.001, the opaque share to 0.01) and its defaults (0 where it has no data), and
#      resourceWindows names the first reset window seen, as AO does. ghbench's exact
#      figures move to ``insights.exact``. Version 1 files still read (their fields are
#      the same keys; their rates unrounded).
#   3  scorecard only: ``warnings``, at the top level: what skewed or cut short the run
#      (rows its tracers lost, calls that hung, gaps in the trace, late snapshots, a full
#      disk), each typed (kind, figures) with what to do. No other field changed;
#      versions 1 and 2 still read (no warnings).
#   4  scorecard only: a rate limit that answered in the window is a warning of its own
#      per budget (``rate-limited``: a budget spent or a secondary limit refusing calls,
#      with ``budget`` and ``limit`` naming which), in every mode (report and simulate
#      included), as is a window under 10 minutes whose hourly figures are extrapolated
#      (``short-window``); calls a rate limit refused, and ``/rate_limit``, are charged 0
#      in ``insights`` (attribution, breakdowns) and ``unattributedPerHr`` is never
#      negative. No spec field changed; versions 1 to 3 still read.
#   5  scorecard only: ``insights.pacing``, how each budget's spend is spread over its reset
#      windows (the share spent in a window's first 10 minutes, when it ran out, the
#      minutes refused), and a ``front-loaded`` warning when half a budget or more went
#      in those minutes. No other field changed; versions 1 to 4 still read (no pacing).
SCHEMA_VERSION = 5  # the scorecard's
SETUP_SCHEMA_VERSION = 1
_SUPPORTED: dict[str, frozenset[int]] = {
    "scorecard": frozenset({1, 2, 3, 4, 5}),
    "setup": frozenset({1}),
}
_CURRENT: dict[str, int] = {"scorecard": SCHEMA_VERSION, "setup": SETUP_SCHEMA_VERSION}


class _Model(msgspec.Struct, rename="camel", kw_only=True):
    """camelCase on disk, snake_case in Python; unknown keys are ignored on read."""


# --- scorecard ----------------------------------------------------------------------


class Warmup(_Model):
    requested: str | None = None
    actual_end: str | None = None


class Window(_Model):
    start: str | None = None
    end: str | None = None
    duration_requested: str | None = None
    duration_actual: str | None = None


class ResourceWindow(_Model):
    reset_at: str | None = None
    straddled: bool = False


class ResourceWindows(_Model):
    graphql: ResourceWindow | None = None
    core: ResourceWindow | None = None


class SnapshotBucket(_Model):
    """One resource in a ``/rate_limit`` snapshot. ``reset`` (epoch s) is ghbench's addition."""

    limit: int
    remaining: int
    used: int
    reset: int | None = None


class SnapshotEntry(_Model):
    """A ``/rate_limit`` snapshot as the artifact keeps it (``ghbench.ratelimit`` is the
    snapshot itself; ``ghbench.scorecard.inputs`` converts one to the other)."""

    captured_at: str
    core: SnapshotBucket | None = None
    graphql: SnapshotBucket | None = None


class RateLimitSnapshots(_Model):
    before: SnapshotEntry | None = None
    after: SnapshotEntry | None = None


class BracketDelta(_Model):
    core: int | None = None
    graphql: int | None = None


class Scorecard(_Model):
    """The spec's ``scorecard`` object, field for field, with AO's values; see
    docs/scorecard.md. (Version 1 files carried unrounded floats and nulls here.)"""

    # a rate or share is AO's 0 (an int, so written ``0``) where there is no data
    total_calls: int = 0
    calls_per_min: int | float | None = None
    graphql_points_per_hr: int | float | None = None
    graphql_points_per_hr_estimated: bool = False
    rest_core_requests_per_hr: int | float | None = None
    rest_core_requests_per_hr_estimated: bool = False
    graphql_batch_count: int = 0
    guard_pr_list_304_count: int = 0
    guard_pr_list_error_count: int = 0
    guard_pr_list_304_rate: int | float | None = None
    opaque_call_count: int = 0
    opaque_call_pct: int | float | None = None
    bracket_delta: BracketDelta = msgspec.field(default_factory=BracketDelta)
    p50_duration_ms: int | float | None = None
    p95_duration_ms: int | float | None = None
    p99_duration_ms: int | float | None = None
    benchmark_control_calls: int | None = None


class ExactFigures(_Model):
    """The spec's rates, ratios and percentiles unrounded, None where there is no data,
    and the reset windows as ghbench infers them (rows, else snapshots; newest reset)."""

    calls_per_min: float | None = None
    graphql_points_per_hr: float | None = None
    graphql_points_per_hr_source: str | None = None  # "rows" | "bracket" | None
    rest_core_requests_per_hr: float | None = None
    rest_core_requests_per_hr_source: str | None = None
    guard_pr_list_304_rate: float | None = None
    opaque_call_pct: float | None = None
    p50_duration_ms: float | None = None
    p95_duration_ms: float | None = None
    p99_duration_ms: float | None = None
    resource_windows: ResourceWindows = msgspec.field(default_factory=ResourceWindows)


class Supplemental(_Model):
    summarizer_output: str | None = None
    analyzer_output: str | None = None


class Consumption(_Model):
    """Points a resource's budget lost in the window, counting each reset window's first call."""

    source: str | None = None  # "rows" | "bracket" | None (no data)
    points: int | None = None
    per_hr: float | None = None
    reset_windows: int = 0
    first_call_points: int = 0


class Attribution(_Model):
    """Known cost of the traced calls against what the budget lost."""

    priced_calls: int = 0
    attributed_points: int = 0
    attributed_per_hr: float | None = None
    consumed_per_hr: float | None = None
    unattributed_per_hr: float | None = None


class ConsumptionByResource(_Model):
    graphql: Consumption = msgspec.field(default_factory=Consumption)
    core: Consumption = msgspec.field(default_factory=Consumption)


class AttributionByResource(_Model):
    graphql: Attribution = msgspec.field(default_factory=Attribution)
    core: Attribution = msgspec.field(default_factory=Attribution)


class SecondaryPeak(_Model):
    peak: int = 0
    at: str | None = None
    limit: int = 0


class SecondaryLimits(_Model):
    concurrency: SecondaryPeak = msgspec.field(default_factory=SecondaryPeak)
    rest_points_per_minute: SecondaryPeak = msgspec.field(default_factory=SecondaryPeak)
    graphql_points_per_minute: SecondaryPeak = msgspec.field(default_factory=SecondaryPeak)


class RowBreakdown(_Model):
    """Calls and known cost for one operation or one session."""

    key: str | None
    calls: int = 0
    opaque_calls: int = 0
    graphql_points: int = 0
    core_points: int = 0


class SpendSplit(_Model):
    """Who spent: the orchestrator's traced calls and, from their own trace, the agents'
    (per session). Costs are what the rows prove (``RowBreakdown``); an agent's GraphQL
    call priced by GitHub's published formula counts (``graphqlCostEstimated``)."""

    orchestrator: RowBreakdown
    agents: RowBreakdown
    agent_sessions: list[RowBreakdown] = msgspec.field(default_factory=list)
    agent_trace: str | None = None
    # the agent model's profile that made the agents' calls; None: real agents
    agent_model: str | None = None
    # both traces' rows together (None in files before these): what each budget lost
    # by their headers (one user's calls drain one bucket), and the secondary limits,
    # which count a user's calls whichever process sent them
    consumption: ConsumptionByResource | None = None
    secondary_limits: SecondaryLimits | None = None


class RowsExcluded(_Model):
    before_window: int = 0
    after_window: int = 0
    benchmark_control: int = 0


class ResetWindowPacing(_Model):
    """How one reset window of a bucket was spent (``ghbench.scorecard.pacing``)."""

    start: str  # ISO seconds: the reset minus the bucket's window (GitHub's hour)
    reset: str
    limit: int | None = None  # the bucket's size, from the rows' headers
    # what the bucket had lost by its last row in the window's first 10 minutes (limit
    # minus the least remaining seen then), and that as a share of the limit; None
    # when no row of those minutes is in the measured window
    spent_first_10_min: int | None = None
    share_first_10_min: float | None = None
    # seconds from the window's start to the first row that saw it at 0 or was refused
    # by it; None: it never ran out
    exhausted_after_seconds: float | None = None
    refused_minutes: float = 0.0  # minutes it spent refusing calls (the refusal rule)


class BudgetPacing(_Model):
    """One bucket's reset windows seen in the measured window, and their worst figures."""

    share_first_10_min: float | None = None  # the highest of its reset windows'
    exhausted_after_seconds: float | None = None  # the first that ran out
    refused_minutes: float = 0.0  # summed over its reset windows
    windows: list[ResetWindowPacing] = msgspec.field(default_factory=list)


class Pacing(_Model):
    graphql: BudgetPacing = msgspec.field(default_factory=BudgetPacing)
    core: BudgetPacing = msgspec.field(default_factory=BudgetPacing)


class Insights(_Model):
    """ghbench's additions; never changes a field of the spec's scorecard."""

    consumption: ConsumptionByResource = msgspec.field(default_factory=ConsumptionByResource)
    attributed_spend: AttributionByResource = msgspec.field(default_factory=AttributionByResource)
    secondary_limits: SecondaryLimits = msgspec.field(default_factory=SecondaryLimits)
    operations: list[RowBreakdown] = msgspec.field(default_factory=list)
    sessions: list[RowBreakdown] | None = None
    rows_excluded: RowsExcluded = msgspec.field(default_factory=RowsExcluded)
    exact: ExactFigures | None = None  # absent in version 1 files
    spend_split: SpendSplit | None = None  # when the run traced its agents
    pacing: Pacing | None = None  # absent before version 5


class ReadWarningEntry(_Model):
    line: int
    message: str


class RunWarning(_Model):
    """Something that skewed or cut short what a run measured (``ghbench.scorecard.health``).

    ``kind``: ``rate-limited`` | ``front-loaded`` | ``short-window`` | ``rows-lost`` |
    ``hung-calls`` | ``trace-gap`` | ``late-snapshot`` | ``disk-full`` (a string, so a
    newer ghbench's kinds still read); ``message``: what happened, with its figures;
    ``action``: what to do. ``count``: calls refused, rows lost, calls that hung, gaps;
    ``seconds``: time spent refused, the window's length, the longest hang or gap, the
    snapshot's delay, how long the disk was seen full, when a front-loaded budget ran
    out; ``at``: when it began (ISO). ``rate-limited`` and ``front-loaded`` only:
    ``budget``, the one that ran out or refused (``graphql``, ``core``, another bucket,
    or a secondary limit: ``graphqlPointsPerMinute``, ``restPointsPerMinute``,
    ``concurrency``, ``contentCreation``, ``secondary`` when GitHub did not say which),
    and ``limit``, ``primary`` or ``secondary``.
    """

    kind: str
    message: str
    action: str
    count: int | None = None
    seconds: float | None = None
    at: str | None = None
    budget: str | None = None  # absent before version 4
    limit: str | None = None


class ScorecardArtifact(_Model, kw_only=True):
    """``scorecard-{scenarioId}-{timestamp}.json``: the spec's keys in the spec's order."""

    schema_version: int = SCHEMA_VERSION
    benchmark_version: str = BENCHMARK_VERSION
    scenario_id: str
    git_sha: str | None = None
    branch: str | None = None
    measured_at: str
    session_count: int | None = None
    warmup: Warmup = msgspec.field(default_factory=Warmup)
    window: Window = msgspec.field(default_factory=Window)
    resource_windows: ResourceWindows = msgspec.field(default_factory=ResourceWindows)
    rate_limit_snapshots: RateLimitSnapshots | None = None
    scorecard: Scorecard = msgspec.field(default_factory=Scorecard)
    insights: Insights = msgspec.field(default_factory=Insights)
    trace: str | None = None
    supplemental: Supplemental | None = None
    incomplete: bool = False
    incomplete_reason: str | None = None
    warnings: list[RunWarning] = msgspec.field(default_factory=list)  # absent before version 3
    skipped_lines: int = 0
    read_warnings: list[ReadWarningEntry] = msgspec.field(default_factory=list)


# --- setup --------------------------------------------------------------------------


class Session(_Model):
    """A session of the orchestrator: its id, issue, branch and worktree, and its PR once
    it opened one. A driver reports one right after a spawn (no PR yet); a setup keeps
    the ones with open PRs, which ``measure`` keeps alive and observes."""

    session_id: str
    issue: int | None = None
    branch: str | None = None
    worktree_path: str | None = None
    pr_number: int | None = None
    pr_url: str | None = None

    # What measuring a setup's session relies on: a setup keeps only sessions that have
    # all three, and its reader refuses one that lacks any (ghbench.harness.setup_artifact).

    @property
    def worktree(self) -> Path:
        if not self.worktree_path:
            raise ArtifactError(f"session {self.session_id} has no worktree; re-run setup")
        return Path(self.worktree_path)

    @property
    def head(self) -> str:
        """The branch its PR is opened from."""
        if not self.branch:
            raise ArtifactError(f"session {self.session_id} has no branch; re-run setup")
        return self.branch

    @property
    def pr(self) -> int:
        if self.pr_number is None:
            raise ArtifactError(f"session {self.session_id} has no PR; re-run setup")
        return self.pr_number


class SetupArtifact(_Model, kw_only=True):
    """``setup-{project}-{scenarioId}.json``: the exact session ↔ PR mapping ``measure``
    uses; the one type a setup is, in memory and on disk."""

    schema_version: int = SETUP_SCHEMA_VERSION
    benchmark_version: str = BENCHMARK_VERSION
    scenario_id: str
    created_at: str
    git_sha: str | None = None
    branch: str | None = None
    project: str
    repo: str
    scenario: str
    topology: str
    session_count: int
    ready: bool
    sessions: list[Session] = msgspec.field(default_factory=list)


# --- reading and writing ------------------------------------------------------------


class _VersionProbe(msgspec.Struct, rename="camel"):
    schema_version: object = None


_T = TypeVar("_T", ScorecardArtifact, SetupArtifact)


def _load(path: Path, kind: type[_T], what: str) -> _T:
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise ArtifactError(f"{path}: no such {what} artifact") from exc
    except OSError as exc:
        raise ArtifactError(f"{path}: cannot read the {what} artifact: {exc.strerror}") from exc
    try:
        probe = msgspec.json.decode(data, type=_VersionProbe)
    except msgspec.DecodeError as exc:
        raise ArtifactError(f"{path}: not a ghbench {what} artifact ({exc})") from exc
    version = probe.schema_version
    if version is None:
        raise ArtifactError(f"{path}: no schemaVersion; not a ghbench {what} artifact")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ArtifactError(f"{path}: schemaVersion {version!r} is not a number")
    if version not in _SUPPORTED[what]:
        *earlier, last = (str(v) for v in sorted(_SUPPORTED[what]))
        known = f"{', '.join(earlier)} and {last}" if earlier else last
        raise ArtifactError(
            f"{path}: schemaVersion {version} is not supported"
            f" (this ghbench reads {known}); upgrade ghbench"
        )
    try:
        artifact = msgspec.json.decode(data, type=kind)
    except msgspec.DecodeError as exc:
        raise ArtifactError(f"{path}: invalid {what} artifact: {exc}") from exc
    for key, value in _timestamps(artifact):
        if value is not None:
            try:
                parse_iso(value)
            except ValueError as exc:
                raise ArtifactError(
                    f"{path}: {key} {value[:40]!r} is not a timestamp ({exc}); the {what}"
                    " artifact is damaged: re-create it"
                ) from None
    return artifact


def _timestamps(artifact: ScorecardArtifact | SetupArtifact) -> list[tuple[str, str | None]]:
    """The artifact's ISO timestamps by key: readers compute with them."""
    if isinstance(artifact, SetupArtifact):
        return [("createdAt", artifact.created_at)]
    snaps = artifact.rate_limit_snapshots or RateLimitSnapshots()
    return [
        ("measuredAt", artifact.measured_at),
        ("window.start", artifact.window.start),
        ("window.end", artifact.window.end),
        ("warmup.actualEnd", artifact.warmup.actual_end),
        (
            "rateLimitSnapshots.before.capturedAt",
            snaps.before.captured_at if snaps.before else None,
        ),
        ("rateLimitSnapshots.after.capturedAt", snaps.after.captured_at if snaps.after else None),
    ]


def load_scorecard(path: Path) -> ScorecardArtifact:
    """Read a scorecard artifact; ArtifactError names the file and what is wrong."""
    return _load(path, ScorecardArtifact, "scorecard")


def load_setup(path: Path) -> SetupArtifact:
    """Read a setup artifact; ArtifactError names the file and what is wrong."""
    return _load(path, SetupArtifact, "setup")


def encode_artifact(artifact: ScorecardArtifact | SetupArtifact) -> bytes:
    """Pretty JSON (2-space indent, the spec's key order) with a trailing newline."""
    return msgspec.json.format(msgspec.json.encode(artifact), indent=2) + b"\n"


def write_scorecard_file(artifact: ScorecardArtifact, path: Path) -> Path:
    """Write ``artifact`` to ``path`` atomically; ArtifactError if ``path`` exists."""
    return write_new(Path(path), encode_artifact(artifact))


def write_setup(artifact: SetupArtifact, path: Path) -> Path:
    """Write ``artifact`` to ``path`` atomically; ArtifactError if ``path`` exists."""
    return write_new(Path(path), encode_artifact(artifact))
