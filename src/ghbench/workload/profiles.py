"""The policy parameters of AO's pollers, and the four named profiles.

Every number the model uses lives in ``PolicyParams``; a profile is just a set of
defaults, and a config file's ``policy:`` block overrides any of them. Durations are
seconds. The sources are the AO reference (§5 "Poll-loop workload model", "Caches") for
the TypeScript builds, and 0.10.3's source for the daemon (named at its profile).

Profiles are named after the AO build each reproduces (docs/calibration.md holds each
one's error against its build, measured with ``bench/bench_calibration_ao.py``):

``ao-0.12.6`` (the default)
    AO 0.12.6, the desktop line's daemon its users run today: 0.10.3's observer with
    0.12.6's changes (docs/calibration.md names each and its source): the check-runs
    guard reads ``per_page=100`` and pages past 100 runs, the open-PR list carries a
    ``since`` cursor and refreshes only the PRs it lists (a listed PR not seen for
    5 minutes is refetched; a tracked one it no longer lists is reconciled), the
    token's user is read once and only its PRs are attributed, review threads are
    read again when a PR was updated after its reviews were, and the batch and review
    queries ask 0.12.6's fields. Its rate-limit cooldown never starts for GitHub
    (``rate_limit_cooldown``); its auto-review agents are off, as they are per session
    by default (``auto_review``).
``ao-0.10.3``
    AO 0.10.3, the Go daemon npm shipped last: its SCM observer (``poller: scm-observer``),
    one call at a time on a Go ticker: an ETag guard per repo on its open PRs and per PR
    on its head's check runs, the open-PR list and GraphQL batches only for what
    changed, review threads when the review state calls for them, failed jobs' log
    tails; its ETags in memory, what it knows of each PR in a store.
``ao-main-60e8c881`` (alias ``head``)
    AO ``main`` at 60e8c881: Guard 1 (``pulls?…per_page=1``) per repo with an ETag,
    Guard 2 (``commits/{sha}/check-runs?per_page=1``) per PR only when every repo answered 304,
    GraphQL batch only on change, review comments behind an ETag at most every 2 min
    and the thread query only after they changed.
``ao-bench-1e73a505`` (alias ``pre-b1``)
    AO at 1e73a505 (``feat/gh-rate-limiting``, the commit that added
    ``experiments/benchmark.mjs``), before the B1 fix: a guard's 304 made gh exit 1,
    which AO counted as "changed", so Guard 2 never ran and the batch refreshed every
    PR on every tick; Guard 2 on ``commits/{sha}/status``; every 2 min per PR two
    opaque calls (REST review comments without
    ``-i``, GraphQL review threads); the batch query with ``contexts(first:20)``.
``bench-era``
    The same branch after B1, when AO's own DISCUSSION-NOTES figures were taken (a 304
    is "unchanged"). No build we have is this code: it is kept for those figures and
    for comparisons, and its error is stated against both builds.
"""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import msgspec

from ghbench.workload.schedule import Ticker

__all__ = [
    "DEFAULT_PROFILE",
    "DURATION_FIELDS",
    "PROFILES",
    "PROFILE_ALIASES",
    "PROFILE_BUILDS",
    "PROFILE_CHOICES",
    "PROFILE_NAMES",
    "GuardCommit",
    "ObserverQueries",
    "PolicyParams",
    "PollerKind",
    "ProfileName",
    "ReviewThreads",
    "canonical_profile",
    "unalias_profile",
]

# The one list of profile names: flags' choices and config validation come from it.
# A profile's name is the AO build it reproduces; bench-era reproduces none we have.
ProfileName = Literal[
    "ao-0.12.6", "ao-0.10.3", "ao-main-60e8c881", "ao-bench-1e73a505", "bench-era"
]  # fmt: skip
# The old names, accepted wherever a profile is (flags, configs, matrix plans) and read
# as the profile they stand for: HEAD was main when main was 60e8c881, and pre-B1 is
# what the 1e73a505 build does (docs/calibration.md).
PROFILE_NAMES: tuple[ProfileName, ...] = get_args(ProfileName)
PROFILE_ALIASES: dict[str, ProfileName] = {
    "head": "ao-main-60e8c881",
    "pre-b1": "ao-bench-1e73a505",
}
PROFILE_CHOICES: tuple[str, ...] = (*PROFILE_NAMES, *PROFILE_ALIASES)
DEFAULT_PROFILE: ProfileName = "ao-0.12.6"
# The AO build (as ../shared/ao's build-ao names it) and commit each profile reproduces.
PROFILE_BUILDS: dict[ProfileName, tuple[str, str] | None] = {
    "ao-0.12.6": ("0.12.6", "075de7a0"),
    "ao-0.10.3": ("0.10.3", "c89414dd"),
    "ao-main-60e8c881": ("main", "60e8c881"),
    "ao-bench-1e73a505": ("bench", "1e73a505"),
    "bench-era": None,
}
GuardCommit = Literal["check-runs", "status", "none"]
# the GraphQL the scm-observer sends (ghbench.workload.observer_calls): its build's fields
ObserverQueries = Literal["0.10.3", "0.12.6"]
ReviewThreads = Literal["on-change", "always", "never"]
# How a tick runs (``ghbench.workload.pollers``): AO's TypeScript lifecycle manager, or
# AO 0.10's SCM observer
PollerKind = Literal["lifecycle", "scm-observer"]

# The constraints a config's overrides are held to (ghbench.validation reports them).
# A Seconds field may be written as a duration (90s, 2m) in a config file.
Seconds = Annotated[float, msgspec.Meta(ge=0, extra={"duration": True})]
Count = Annotated[int, msgspec.Meta(ge=0)]


class PolicyParams(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Every tunable of the model. Field names are the config file's ``policy:`` keys."""

    # what a tick does (ghbench.workload.pollers). The scm-observer reads tick,
    # batch_max_prs, batch_contexts_first, review_interval, issue_cache_ttl, the cache
    # sizes but enrichment_cache_size, and the fields from list_per_page on; the
    # lifecycle poller every other field but etag_cache_requests. The flows that drive
    # either read tick, ticker, skip_overlapping_ticks and dashboard_reads_github.
    poller: PollerKind = "lifecycle"
    # tick
    tick: Annotated[float, msgspec.Meta(gt=0, extra={"duration": True})] = 30.0  # AO's setInterval
    ticker: Ticker = "set-interval"  # when ticks start (ghbench.workload.schedule)
    skip_overlapping_ticks: bool = True  # set-interval: a tick due while one runs is dropped
    # Guard 1: GET repos/{o}/{r}/pulls?state=open&sort=updated&direction=desc&per_page=1
    guard_pr_list: bool = True
    # Guard 2: per PR head commit, only when every repo's Guard 1 answered 304
    guard_commit: GuardCommit = "check-runs"
    # pre-B1: a 304 made gh exit 1 and AO counted it as an error, i.e. "changed"
    count_304_as_change: bool = False
    # GraphQL batch (aliases pr0…): at most this many PRs per call
    batch_max_prs: Annotated[int, msgspec.Meta(gt=0)] = 25
    batch_timeout: Seconds = 30.0
    batch_timeout_per_extra_pr: Seconds = 2.0
    batch_timeout_free_prs: Count = 10
    # statusCheckRollup contexts(first:N) in the batch query; 0 leaves them out
    batch_contexts_first: Count = 0
    # PR detection: gh pr list --head B --repo R --json number,url --limit 1
    detect_pr: bool = True
    detect_pr_only_on_repo_change: bool = True  # only when that repo's Guard 1 was not 304
    detect_pr_cache_ttl: Seconds = 30.0  # positive results only
    # gh pr view N --repo R --json state, when the batch has no data for a PR
    pr_view_on_batch_miss: bool = True
    pr_state_ttl: Seconds = 5.0
    resolve_pr_ttl: Seconds = 60.0
    reviews_ttl: Seconds = 10.0
    # Guard 3: GET repos/{o}/{r}/pulls/{n}/comments, at most once per review_interval per PR
    review_interval: Seconds = 120.0
    review_comments_etag: bool = True  # -i and If-None-Match (HEAD); bench-era: opaque
    review_threads: ReviewThreads = "on-change"  # the gh api graphql thread query
    review_threads_include: bool = True  # -i on the thread query (HEAD); opaque at bench-era
    # gh issue view: spawn, dashboard titles, cleanup; cached
    issue_cache_ttl: Seconds = 300.0
    issue_view_on_spawn: bool = True
    # LRU sizes of AO's in-memory caches (scm-observer: FIFO; etag_cache_prs bounds its
    # review times and failures per PR)
    etag_cache_repos: Count = 100
    etag_cache_commits: Count = 500
    etag_cache_prs: Count = 500
    enrichment_cache_size: Count = 200
    # scm-observer: its client's ETag cache of other GETs (the open-PR list's pages)
    etag_cache_requests: Count = 512
    # scm-observer: the open-PR list's page size, when the repo's guard saw a change
    list_per_page: Annotated[int, msgspec.Meta(gt=0, le=100)] = 100
    # scm-observer: the check-runs guard's page size, and how many pages it reads when a
    # commit has more runs than one page (1: the guard page alone; then the runs'
    # fingerprint stands in for the ETag)
    check_runs_per_page: Annotated[int, msgspec.Meta(gt=0, le=100)] = 1
    check_runs_pages: Annotated[int, msgspec.Meta(gt=0)] = 1
    # scm-observer: the open-PR list asked ``since`` the repo's last sync (less 5 min):
    # after the first listing only listed PRs are refreshed, and a tracked open PR the
    # list no longer holds is fetched to see whether it closed
    incremental_listing: bool = False
    # scm-observer: a PR not fetched for this long is fetched again (0: never); with an
    # incremental listing, only a listed PR or one of a repo with no sync yet
    pr_max_age: Seconds = 0.0
    # scm-observer: read the token's user once and attribute only its PRs
    identity_filter: bool = False
    # scm-observer: read review threads again when the PR was updated after its reviews
    # were observed (and when they never were)
    review_on_update: bool = False
    # scm-observer: a rate-limited batch stops batches for a cooldown (Retry-After, else
    # the reset, else 60 s with AO's clock jitter; within 30 s to 10 min)
    rate_limit_cooldown: bool = False
    # scm-observer: the fields its GraphQL asks (the batch, the review threads)
    observer_queries: ObserverQueries = "0.10.3"
    # scm-observer: AO 0.12's auto-review agents, opted in for every session: once a
    # session's PR head has waited a minute, a reviewer agent posts one review of it
    auto_review: bool = False
    # S6: a dashboard that reads GitHub (AO 0.10's desktop app reads the daemon's API)
    dashboard_reads_github: bool = True


# the fields a config may write as durations: those declared with extra={"duration": True}
DURATION_FIELDS: frozenset[str] = frozenset(
    f.name
    for f in msgspec.inspect.type_info(PolicyParams).fields  # type: ignore[attr-defined]
    if isinstance(f.type, msgspec.inspect.Metadata) and (f.type.extra or {}).get("duration")
)

_HEAD = PolicyParams()

# AO 0.10.3, backend/internal: observe/scm/observer.go (DefaultTickInterval 30 s,
# DefaultReviewInterval 2 min, BatchSize 25, DefaultCacheMax 512), observe/observer.go
# (StartPollLoop: a Go ticker), adapters/scm/github (scmBatchCheckContextLimit 20; the
# open-PR list's perPage 100; client.go's cacheMaxEntries 512). Its spawns read no
# issue (the agent does) and its desktop app reads the daemon, not GitHub.
_AO_0_10_3 = msgspec.structs.replace(
    _HEAD,
    poller="scm-observer",
    ticker="go-ticker",
    tick=30.0,
    review_interval=120.0,
    batch_max_prs=25,
    batch_contexts_first=20,
    etag_cache_repos=512,
    etag_cache_commits=512,
    etag_cache_prs=512,
    etag_cache_requests=512,
    list_per_page=100,
    issue_view_on_spawn=False,
    dashboard_reads_github=False,
)

PROFILES: dict[ProfileName, PolicyParams] = {
    # AO 0.12.6, backend/internal: adapters/scm/github/observer_provider.go
    # (githubCheckRunsPageSize 100, githubCheckRunsMaxPages 10, ListPRsByRepo's since,
    # the batch's id and the review summaries' body and commit), provider.go
    # (AuthenticatedIdentity: GET /user, kept for the process), observe/scm/observer.go
    # (DefaultPRMaxAge 5 min, incrementalDiscoveryOverlap 5 min, the terminal
    # reconciliation, needsReviewRefresh's ReviewObservedAt, the rate-limit cooldown:
    # a GitHub error has no retry hints the observer can read, so it never starts),
    # autoreview/coordinator.go (per session, off unless enabled)
    "ao-0.12.6": msgspec.structs.replace(
        _AO_0_10_3,
        check_runs_per_page=100,
        check_runs_pages=10,
        incremental_listing=True,
        pr_max_age=300.0,
        identity_filter=True,
        review_on_update=True,
        rate_limit_cooldown=False,
        observer_queries="0.12.6",
    ),
    "ao-0.10.3": _AO_0_10_3,
    "ao-main-60e8c881": _HEAD,
    "bench-era": msgspec.structs.replace(
        _HEAD,
        guard_commit="status",
        review_comments_etag=False,
        review_threads="always",
        review_threads_include=False,
        batch_contexts_first=20,
    ),
    "ao-bench-1e73a505": msgspec.structs.replace(
        _HEAD,
        guard_commit="status",
        count_304_as_change=True,
        review_comments_etag=False,
        review_threads="always",
        review_threads_include=False,
        batch_contexts_first=20,
    ),
}


def canonical_profile(name: str) -> ProfileName:
    """The profile ``name`` stands for (itself, or what an old name is an alias of)."""
    if name in PROFILE_ALIASES:
        return PROFILE_ALIASES[name]
    for known in PROFILE_NAMES:
        if name == known:
            return known
    raise ValueError(f"unknown profile {name!r}; use one of {', '.join(PROFILE_CHOICES)}")


def unalias_profile(value: object) -> object:
    """A file's ``profile`` value with an old name replaced by the profile's; any other
    value as it is, for validation to judge (the readers of configs and matrix plans)."""
    return PROFILE_ALIASES.get(value, value) if isinstance(value, str) else value
