"""AO 0.12.6's SCM observer (profile ao-0.12.6) against the real in-process emulator, in
virtual time: what changed since 0.10.3 (docs/calibration.md, "AO 0.12.6")."""

from __future__ import annotations

import itertools
from collections import Counter

import msgspec

from ghbench.workload.profiles import PROFILES

from .test_observer import BATCH, CHECKS, GUARD, LIST, ONE_PR, REPO, Daemon

POLICY = PROFILES["ao-0.12.6"]
LATER_PAGE = "rest.repos.commits"  # a check-runs page after the first
USER = "rest.user"


def test_a_quiet_window_is_0_10_3s_plus_the_users_identity_once() -> None:
    daemon = Daemon(3, policy=POLICY)
    assert daemon.tick() == {
        (GUARD, 200): 1,
        (USER, 200): 1,  # the token's user, once per process
        (LIST, 200): 1,
        (CHECKS, 200): 3,
        (BATCH, 200): 1,
        (ONE_PR, 200): 3,
    }
    checks = [r.endpoint for r in daemon.rows if r.operation == CHECKS]
    assert all(e.endswith("/check-runs?per_page=100") for e in checks)
    # no refetch at 5 minutes: once the repo has synced, only what its list holds is
    for _ in range(22):
        assert daemon.tick() == {(GUARD, 304): 1, (CHECKS, 304): 3}


def test_a_restart_reads_the_user_again() -> None:
    daemon = Daemon(1, policy=POLICY)
    daemon.tick()
    daemon.observer.restart()
    assert daemon.tick()[(USER, 200)] == 1


def test_more_than_100_check_runs_cost_a_page_more_and_the_first_never_answers_304() -> None:
    daemon = Daemon(1, policy=POLICY)
    daemon.tick()
    head = daemon.world.emulator.store.pull(
        daemon.world.emulator.store.repo(*REPO.split("/")),  # type: ignore[arg-type]
        daemon.specs[0].pr,  # type: ignore[arg-type]
    ).head_sha
    for n in range(101):
        body = {"name": f"job-{n}", "head_sha": head, "conclusion": "success"}
        assert daemon.rest("POST", f"/repos/{REPO}/check-runs", body) == 201
    # the fingerprint of 102 runs stands in for the ETag: changed, so the PR is refreshed
    # (a batch of one PR, then its rollup's other 82 contexts, 20 a page); the second page
    # of runs is no guard (the front names only a first page so)
    assert daemon.tick() == {
        (GUARD, 304): 1,
        (CHECKS, 200): 1,
        (LATER_PAGE, 200): 1,
        (ONE_PR, 200): 6,
    }
    [page] = [r.endpoint for r in daemon.rows if r.operation == LATER_PAGE]
    assert page.endswith("/check-runs?page=2&per_page=100")
    # the first page is sent with the fingerprint, which GitHub never matches (a core
    # request every poll); the second page revalidates through the client's cache
    after = daemon.tick()
    assert after == {(GUARD, 304): 1, (CHECKS, 200): 1, (LATER_PAGE, 304): 1}


def test_a_closed_pr_is_refreshed_with_the_listed_ones_and_the_list_asks_since() -> None:
    daemon = Daemon(3, policy=POLICY)
    daemon.tick()
    closed = daemon.specs[1]
    assert daemon.rest("PATCH", f"/repos/{REPO}/pulls/{closed.pr}", {"state": "closed"}) == 200
    calls = daemon.tick()
    listing = [r.endpoint for r in daemon.rows if r.operation == LIST][-1]
    assert "&since=2026-04-17T09%3A00%3A00Z&" in listing  # the first poll's start less 5 min
    # the two listed PRs are refreshed (the repo synced: only what it lists); the closed
    # one too, since its head's check runs no longer name it as an open PR (else the
    # terminal reconciliation would fetch it), and its threads, updated after they were read
    assert calls == {(GUARD, 200): 1, (LIST, 200): 1, (CHECKS, 304): 2, (CHECKS, 200): 1,
                     (BATCH, 200): 1, (ONE_PR, 200): 1}  # fmt: skip
    assert daemon.observer.sessions[closed.id].terminal
    assert daemon.tick() == {(GUARD, 304): 1, (CHECKS, 304): 2}  # its ETag advanced


def test_without_a_sync_cursor_a_pr_is_refetched_once_five_minutes_old() -> None:
    policy = msgspec.structs.replace(POLICY, incremental_listing=False)
    daemon = Daemon(2, policy=policy)
    daemon.tick()
    batches = [daemon.tick()[(BATCH, 200)] for _ in range(22)]
    # fetched at 0 s; at 300 s it is not older than 5 minutes, at 330 s it is
    assert [n for n, b in enumerate(batches, 1) if b] == [11, 22]


def _batches_while_the_graphql_budget_is_empty(rate_limit_cooldown: bool) -> list[int]:
    policy = msgspec.structs.replace(POLICY, rate_limit_cooldown=rate_limit_cooldown)
    daemon = Daemon(2, policy=policy)
    daemon.world.emulator.set_limit("graphql", 0)
    # GitHub answers an empty bucket's query 200, with a rate-limit error
    return [daemon.tick()[(BATCH, 200)] for _ in range(10)]


def test_0_12_6_retries_a_rate_limited_batch_every_poll_its_cooldown_would_not() -> None:
    # AO 0.12.6: GitHub's rate-limit error carries no hint its observer can read, so no
    # cooldown starts: the PRs it could not read are asked for again at every poll
    assert _batches_while_the_graphql_budget_is_empty(False) == [1] * 10
    # with the cooldown (the policy's what-if): a GraphQL error carries no hint, so 60 s
    # less 7 to plus 8 s of the clock's jitter: the next batch one or two polls later
    cooled = _batches_while_the_graphql_budget_is_empty(True)
    assert cooled[0] == 1 and 4 <= sum(cooled) <= 5
    assert all(not (a and b) for a, b in itertools.pairwise(cooled))


def test_an_auto_review_is_posted_once_per_head_after_a_minute() -> None:
    policy = msgspec.structs.replace(POLICY, auto_review=True)
    daemon = Daemon(1, policy=policy)
    ticks, posted = [], []
    for n in range(6):
        mark = len(daemon.rows)
        ticks.append(daemon.tick())
        posted += [(n, r) for r in daemon.rows[mark:] if r.component == "agent"]
    assert [n for n, _ in posted] == [2]  # first seen at 0 s, idle a minute at 60 s
    review = posted[0][1]
    assert review.ok and review.args is not None
    assert f"repos/{REPO}/pulls/{daemon.specs[0].pr}/reviews" in review.args
    # the review updates the PR: its guard, list and batch see it, and its threads
    # are read again (updated after its reviews were)
    assert ticks[3][(GUARD, 200)] == 1 and ticks[3][(ONE_PR, 200)] == 2
    assert Counter(ticks[5]) == {(GUARD, 304): 1, (CHECKS, 304): 1}
