"""AO 0.10's SCM observer (profile ao-0.10.3) against the real in-process emulator, in
virtual time: what each tick asks, named as the GitHub front names the daemon's rows."""

from __future__ import annotations

import json
import random
from collections import Counter

import msgspec
import pytest

from ghbench.simulation.cell import SIM_START, run_cell
from ghbench.simulation.world import SimWorld
from ghbench.trace.schema import TraceRow
from ghbench.workload.config import SessionSpec
from ghbench.workload.ghmap import HttpRequest
from ghbench.workload.observer import Observer
from ghbench.workload.pollers import make_poller
from ghbench.workload.profiles import PROFILES, PolicyParams
from ghbench.workload.rows import RowSettings
from ghbench.workload.runner import CallRunner, LaneClock
from ghbench.workload.transport.inprocess import InProcessTransport
from specs import model_spec

POLICY = PROFILES["ao-0.10.3"]
REPO = "acme/todo"
GUARD, LIST, CHECKS = "gh.api.guard-pr-list", "rest.repos.pulls", "gh.api.guard-commit-status"
BATCH, ONE_PR = "gh.api.graphql-batch", "graphql.repository"  # a batch of one PR is the latter
REVIEWER_TOKEN = "ghp_reviewer000000000000000000000000000000"


class Daemon:
    """One emulator, the observer over it, and the rows it wrote."""

    def __init__(
        self, sessions: int, *, open_prs: bool = True, policy: PolicyParams = POLICY
    ) -> None:
        self.policy = policy
        self.clock = LaneClock(SIM_START)
        self.world = SimWorld(self.clock, seed=0, latency=(5.0, 0.1))
        self.specs = self.world.seed([REPO], sessions, open_prs=open_prs)
        self.rows: list[TraceRow] = []
        transport = InProcessTransport(
            self.world.handle, token=self.world.token, rng=random.Random(0)
        )
        options = RowSettings(secrets=(self.world.token,))
        self.runner = CallRunner(transport, self.clock, self.rows.append, options)
        self.observer = make_poller(policy, self.runner, repos=(REPO,), sessions=tuple(self.specs))
        assert isinstance(self.observer, Observer)
        self.at = SIM_START

    def tick(self) -> Counter[tuple[str | None, int | None]]:
        """One poll, 30 s after the last: the (operation, status) of its rows."""
        mark = len(self.rows)
        self.runner.start_at(self.at)
        self.observer.tick()
        self.at += self.policy.tick
        return Counter((r.operation, r.httpStatus) for r in self.rows[mark:])

    def rest(self, method: str, path: str, body: object, token: str | None = None) -> int:
        """A change through the API, a few seconds before the next poll."""
        self.clock.jump(self.at - 5.0)
        headers = {"Authorization": f"token {token or self.world.token}"}
        data = json.dumps(body).encode()
        return self.world.handle(HttpRequest(method, path, headers, data)).status


def test_a_cold_start_refreshes_everything_then_only_guards_answer() -> None:
    daemon = Daemon(30)
    first = daemon.tick()
    assert first == {
        (GUARD, 200): 1,  # no ETag in memory
        (LIST, 200): 1,  # the guard changed: every open PR, 100 a page
        (CHECKS, 200): 30,  # every PR's head, known from the list
        (BATCH, 200): 2,  # 25 + 5
        (ONE_PR, 200): 30,  # review threads: the store holds no review state yet
    }
    assert daemon.tick() == {(GUARD, 304): 1, (CHECKS, 304): 30}
    assert daemon.tick() == {(GUARD, 304): 1, (CHECKS, 304): 30}


def test_its_rows_are_the_fronts_rows_of_the_daemons_exchanges() -> None:
    daemon = Daemon(3)
    daemon.tick()
    rows = daemon.rows
    assert {r.component for r in rows} == {"scm-github"}  # its User-Agent, as the front reads it
    assert {r.origin for r in rows} == {"workload"}
    assert (
        rows[0].endpoint == f"repos/{REPO}/pulls?direction=desc&per_page=1&sort=updated&state=open"
    )
    assert rows[1].endpoint.endswith("page=1&per_page=100&sort=updated&state=open")
    assert all(r.args is None and r.ok for r in rows)  # HTTP exchanges, not gh processes
    graphql = [r for r in rows if r.endpoint == "graphql"]
    assert [r.operation for r in graphql] == [BATCH, ONE_PR, ONE_PR, ONE_PR]
    # the first GraphQL exchange is priced by GitHub's formula, the rest by x-ratelimit-used
    assert [r.graphqlCostEstimated for r in graphql] == [True, None, None, None]
    assert all(r.graphqlCost == 1 for r in graphql)
    assert not any(daemon.world.token.encode() in msgspec.json.encode(r) for r in rows)


def test_a_restart_loses_the_etags_but_not_the_store() -> None:
    daemon = Daemon(4)
    daemon.tick()
    daemon.tick()
    daemon.observer.restart()
    # everything is revalidated and refreshed; reviews were read before the restart
    assert daemon.tick() == {(GUARD, 200): 1, (LIST, 200): 1, (CHECKS, 200): 4, (BATCH, 200): 1}
    assert daemon.tick() == {(GUARD, 304): 1, (CHECKS, 304): 4}


def test_a_new_pr_is_found_on_its_sessions_branch_and_read_once() -> None:
    daemon = Daemon(2, open_prs=False)
    assert daemon.tick() == {(GUARD, 200): 1, (LIST, 200): 1}  # no PR yet
    assert daemon.tick() == {(GUARD, 304): 1}
    opened = daemon.world.open_pr(daemon.specs[0])
    assert daemon.tick() == {
        (GUARD, 200): 1,
        (LIST, 200): 1,
        (CHECKS, 200): 1,
        (ONE_PR, 200): 2,  # a batch of one PR, then its review threads
    }
    assert daemon.observer.sessions[opened.id].pr == opened.pr
    assert daemon.tick() == {(GUARD, 304): 1, (CHECKS, 304): 1}


def test_a_failed_check_has_its_job_log_read_once() -> None:
    daemon = Daemon(2)
    daemon.tick()
    daemon.world.emulator.set_ci(REPO, "failure", pr=daemon.specs[1].pr, log="boom\nexit 1")
    failed = daemon.tick()
    assert failed[(CHECKS, 200)] == 1  # the failed head's check runs changed
    assert failed[(BATCH, 200)] == 0 and failed[(ONE_PR, 200)] == 1  # that PR alone
    assert failed[("rest.repos.actions", 302)] == 1  # the job's log: a redirect
    assert failed[("rest._blobs", 200)] == 1  # the log itself, free
    assert daemon.tick() == {(GUARD, 304): 1, (CHECKS, 304): 2}  # the store has its tail


def test_changes_requested_rereads_the_threads_every_two_minutes() -> None:
    daemon = Daemon(1)
    number = daemon.specs[0].pr
    daemon.world.emulator.create_user("reviewer", [REVIEWER_TOKEN])
    protection = {
        "required_status_checks": None,
        "enforce_admins": None,
        "required_pull_request_reviews": {"required_approving_review_count": 1},
        "restrictions": None,
    }
    assert daemon.rest("PUT", f"/repos/{REPO}/branches/main/protection", protection) == 200
    daemon.tick()
    review = {"event": "REQUEST_CHANGES", "body": "please fix"}
    path = f"/repos/{REPO}/pulls/{number}/reviews"
    assert daemon.rest("POST", path, review, REVIEWER_TOKEN) == 200
    reads = [daemon.tick()[(ONE_PR, 200)] for _ in range(10)]
    # at 30 s the review changed the PR: a batch of it, but its threads were read at 0 s;
    # while changes are requested they are read again every 2 minutes (120 s, 240 s)
    assert reads == [1, 0, 0, 1, 0, 0, 0, 1, 0, 0]


def test_a_merged_pr_ends_its_session_and_its_polling() -> None:
    daemon = Daemon(1)
    daemon.tick()
    spec = daemon.specs[0]
    assert daemon.rest("PUT", f"/repos/{REPO}/pulls/{spec.pr}/merge", {}) == 200
    merged = daemon.tick()
    assert merged[(GUARD, 200)] == 1 and merged[(ONE_PR, 200)] == 1
    assert daemon.observer.sessions[spec.id].terminal
    assert daemon.tick() == {}  # no live session: no repo is watched


def test_no_session_no_call() -> None:
    daemon = Daemon(0)
    assert daemon.tick() == {}


@pytest.mark.parametrize("scenario", ["S1", "S3", "S4", "S5", "S6"])
def test_every_scenario_runs_with_the_daemon(scenario: str) -> None:
    run = run_cell(
        model_spec(scenario, sessions=6, warmup_s=60.0, duration_s=300.0, profile="ao-0.10.3")
    )
    ops = {r.operation for r in run.rows}
    assert {GUARD, CHECKS} <= ops
    assert {r.component for r in run.rows} == {"scm-github"}  # S6's app reads the daemon
    # the Go ticker: 30 s after the first poll ended, then every 30 s
    gaps = {round(b - a, 6) for a, b in zip(run.tick_starts[1:], run.tick_starts[2:], strict=False)}
    assert gaps == {30.0} or scenario in ("S1", "S5")


def test_a_spawned_session_is_not_read_from_the_tracker() -> None:
    daemon = Daemon(0)
    daemon.observer.add_session(SessionSpec(id="s-1", repo=REPO, issue=1))
    assert daemon.rows == []  # AO 0.10's spawn leaves the issue to its agent
