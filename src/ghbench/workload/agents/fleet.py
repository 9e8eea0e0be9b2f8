"""Runs agents' sessions against a transport, in virtual or real time; one row per request.

Every lane (a session, a background watch, a badge poller) is an event on one
time-ordered queue. A gh command is its captured requests sent one after another, each
request an event of its own: in virtual time a request starts at its lane's time and
lasts the latency the transport's answer carries, and the shared clock is moved to each
request's start, so the emulator sees (and charges) every agent's requests in time
order. In real time a lane waits on the clock and the stop event, and lanes take turns
(a background watch never runs while the foreground lane is inside a request: the model
is then slower, never cheaper). A transport with ``exchange`` (httpx, in-process) gets
the captured requests of the fleet's gh (``gh``: a capture, ``fixtures.GH_CAPTURES``);
one without (the real gh) runs the agent's argv, one row per invocation, as AO's trace
has it.

The fleet's agents share one gh disk cache, as agents of one user on one machine do:
a command's ``cached`` requests (gh 2.102's feature detection) are sent by the first
agent that runs it, again once their time in the cache is up, and never in between.

The world around the agent (its pushes, CI, reviewers) is the caller's ``WorldHooks``.
"""

from __future__ import annotations

import heapq
import itertools
import random
import threading
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ghbench.clock import Clock, VirtualClock
from ghbench.policies.ledger import TOKEN_LIMITS
from ghbench.policies.spec import Policies
from ghbench.trace.schema import AGENT
from ghbench.workload.agents.fixtures import (
    DEFAULT_CAPTURE,
    CommandFixture,
    GhCapture,
    RequestTemplate,
    ScriptOutcome,
    cache_ttl_s,
    command_fixture,
    render_argv,
    script,
)
from ghbench.workload.agents.policed import Before, FleetPolicy
from ghbench.workload.agents.rows import exchange_row
from ghbench.workload.agents.session import (
    AgentLane,
    AskReview,
    Gh,
    Learn,
    Push,
    Spawn,
    Step,
    Wait,
)
from ghbench.workload.calls import GhCall
from ghbench.workload.ghmap import HttpRequest, HttpResponse
from ghbench.workload.rows import RowSettings, row_for
from ghbench.workload.runner import LaneClock, RowSink, Transport

__all__ = ["AgentSpec", "Exchanger", "Fleet", "FleetSummary", "WorldHooks"]


@dataclass(frozen=True)
class AgentSpec:
    """One agent: its session id and the values its commands are filled with."""

    id: str
    repo: str
    branch: str
    issue: int
    title: str = "Fix the issue"

    def values(self) -> dict[str, object]:
        owner, _, name = self.repo.partition("/")
        return {
            "owner": owner,
            "name": name,
            "repo": self.repo,
            "branch": self.branch,
            "issue": self.issue,
            "title": self.title,
            "body": f"Closes #{self.issue}",
            "comment": "Addressed the review comments.",
            "reply": "Done: fixed in the latest push.",
        }


class WorldHooks(Protocol):
    """What happens outside gh when an agent pushes or asks for review."""

    def push(self, agent: AgentSpec) -> None: ...

    def review(self, agent: AgentSpec, comments: int) -> int: ...


@runtime_checkable
class Exchanger(Protocol):
    """A transport that sends one HTTP request as gh would and answers it."""

    def exchange(self, request: HttpRequest) -> HttpResponse: ...


@dataclass
class FleetSummary:
    commands: int = 0
    requests: int = 0
    # commands whose captured requests stopped early (a bind found nothing), by name
    stopped: dict[str, int] = field(default_factory=dict)


@dataclass
class _Task:
    """A lane, and the command it is inside (its request generator and what it sent)."""

    agent: AgentSpec
    lane: AgentLane
    invocation: str = ""
    argv: tuple[str, ...] = ()
    command: str = ""
    requests: Generator[HttpRequest, HttpResponse, ScriptOutcome] | None = None
    pending: HttpRequest | None = None
    index: int = 0
    # the fleet's policies: the command's admission, and a command the gate holds back
    before: Before | None = None
    deferred: Gh | None = None


class Fleet:
    """Agents' lanes on one queue, against one transport, writing rows to ``sink``."""

    def __init__(
        self,
        transport: Transport,
        clock: Clock,
        sink: RowSink,
        *,
        token: str | None,
        hooks: WorldHooks,
        rng: random.Random,
        options: RowSettings | None = None,
        stop: threading.Event | None = None,
        gh: GhCapture = DEFAULT_CAPTURE,
        policies: Policies | None = None,
        limits: Mapping[str, float] | None = None,
    ) -> None:
        """``policies``: a fleet's policies in front of every gh command
        (``policed.FleetPolicy``; a transport with ``exchange`` only), on budgets of
        ``limits`` an hour."""
        self.transport = transport
        self.gh = gh
        self.clock = clock
        self.sink = sink
        self.token = token
        self.hooks = hooks
        self.rng = rng
        self.options = options or RowSettings(session_ids=True, origin=AGENT)
        self.stop = stop or threading.Event()
        self.virtual = isinstance(clock, VirtualClock)
        # a protocol check costs more than a request: once, here
        self.exchanger = transport if isinstance(transport, Exchanger) else None
        self.summary = FleetSummary()
        self._queue: list[tuple[float, int, _Task, Any]] = []
        self._seq = itertools.count()
        self._invocations = itertools.count(1)
        self._learned: dict[str, dict[str, object]] = {}
        # gh's disk cache: a cached request (by its template) -> until when it is kept
        self._gh_cache: dict[int, float] = {}
        self.policy: FleetPolicy | None = None
        self._current: _Task | None = None  # the task whose command the policies weigh
        if policies and self.exchanger is not None:
            self.policy = FleetPolicy(
                policies,
                limits or TOKEN_LIMITS,
                exchange=self.exchanger.exchange,
                probed=self._probed,
                token=token,
            )

    def add(self, agent: AgentSpec, lane: AgentLane, at: float) -> None:
        """Start ``lane`` for ``agent`` at ``at``."""
        self._push(at, _Task(agent, lane), None)

    def _push(self, when: float, task: _Task, send: Any) -> None:
        heapq.heappush(self._queue, (when, next(self._seq), task, send))

    # -- the loop ------------------------------------------------------------------------

    def run(self, until: float) -> FleetSummary:
        """Run every lane until ``until`` (or the stop event); lanes past it are dropped."""
        while self._queue and not self.stop.is_set():
            when, _, task, send = self._queue[0]
            if when > until:
                break
            if not self.virtual and self.clock.now() < when:
                self.stop.wait(when - self.clock.now())
                continue
            heapq.heappop(self._queue)
            self._move_clock(when)
            if task.pending is not None:
                self._exchange(when, task)
            else:
                self._advance(when, task, send)
        return self.summary

    def _move_clock(self, when: float) -> None:
        if isinstance(self.clock, LaneClock):
            self.clock.jump(when)
        elif isinstance(self.clock, VirtualClock) and when > self.clock.now():
            self.clock.set(when)

    def _advance(self, now: float, task: _Task, send: Any) -> None:
        """Run ``task``'s lane until it waits or sends a request."""
        if task.deferred is not None:  # the gate let it go now
            held, task.deferred = task.deferred, None
            send = self._start(now, task, held)
            if send is None:
                return
        while True:
            try:
                step: Step = task.lane.send(send)
            except StopIteration:
                return
            if isinstance(step, Wait):
                self._push(now + step.seconds, task, None)
                return
            if isinstance(step, Spawn):
                self._push(now, _Task(task.agent, step.lane), None)
                send = None
            elif isinstance(step, Push):
                self.hooks.push(task.agent)
                send = None
            elif isinstance(step, AskReview):
                send = self.hooks.review(task.agent, step.comments)
            elif isinstance(step, Learn):
                self._learned.setdefault(task.agent.id, {}).update(step.values)
                send = None
            else:
                outcome = self._start(now, task, step)
                if outcome is None:
                    return  # its first request is queued
                send = outcome

    def _uncached(self, templates: list[RequestTemplate], now: float) -> list[RequestTemplate]:
        """The cached requests gh's disk cache lacks at ``now``: sent, and kept."""
        due = [t for t in templates if self._gh_cache.get(id(t), -1.0) <= now]
        for template in due:
            self._gh_cache[id(template)] = now + cache_ttl_s(template)
        return due

    def _start(self, now: float, task: _Task, step: Gh) -> ScriptOutcome | None:
        fixture = command_fixture(step.command, self.gh)
        values = {**task.agent.values(), **self._learned.get(task.agent.id, {}), **step.values}
        argv = render_argv(fixture, values)
        if self.policy is not None:
            if task.before is None:
                self._current = task
                before = self.policy.before(
                    now, session=task.agent.id, repo=task.agent.repo, branch=task.agent.branch,
                    command=step.command, argv=argv, fixture=fixture,
                )  # fmt: skip
                if before.outcome is not None:
                    return before.outcome  # answered with nothing sent, or refused
                task.before = before
                if before.wait_until is not None:
                    task.deferred = step
                    self._push(before.wait_until, task, None)
                    return None
            if task.before.fixture is not None:
                fixture = command_fixture(task.before.fixture, self.gh)
        self.summary.commands += 1
        task.command = step.command
        task.argv = argv
        task.invocation = f"{task.agent.id}-{next(self._invocations)}"
        task.index = 0
        if self.exchanger is None:
            return self._run_gh(task, fixture, step)
        templates = fixture.watch if step.poll and fixture.watch else fixture.requests
        answers = step.first.responses if step.poll and step.first else ()
        uncached = [] if step.poll else self._uncached(fixture.cached, now)
        task.requests = script(templates, values, self.token, answers=answers, uncached=uncached)
        return self._next_request(now, task, None)

    def _next_request(
        self, when: float, task: _Task, response: HttpResponse | None
    ) -> ScriptOutcome | None:
        assert task.requests is not None
        try:
            request = next(task.requests) if response is None else task.requests.send(response)
        except StopIteration as done:
            task.requests = task.pending = None
            outcome: ScriptOutcome = done.value
            if self.policy is not None and task.before is not None:
                self.policy.after(task.before, command=task.command, ended=when, outcome=outcome)
                task.before = None
            if outcome.stopped:
                count = self.summary.stopped.get(task.command, 0)
                self.summary.stopped[task.command] = count + 1
            return outcome
        task.pending = request
        self._push(when, task, None)
        return None

    def _exchange(self, start: float, task: _Task) -> None:
        assert task.pending is not None and self.exchanger is not None
        request = task.pending
        response = self.exchanger.exchange(request)
        end = start + (response.latency_s or 0.0) if self.virtual else self.clock.now()
        self.summary.requests += 1
        self.sink(
            exchange_row(
                request,
                response,
                started_at=start,
                finished_at=end,
                argv=task.argv,
                session_id=task.agent.id if self.options.session_ids else None,
                invocation_id=task.invocation,
                request_index=task.index,
                secrets=self.options.secrets,
            )
        )
        task.index += 1
        outcome = self._next_request(end, task, response)
        if outcome is not None:
            self._push(end, task, outcome)

    def _probed(self, request: HttpRequest, response: HttpResponse) -> None:
        """A policy's probe, sent for the command of ``self._current``: traced."""
        task = self._current
        assert task is not None
        now = self.clock.now()
        self.summary.requests += 1
        self.sink(
            exchange_row(
                request,
                response,
                started_at=now,
                finished_at=now + (response.latency_s or 0.0),
                argv=("api", request.path.lstrip("/")),
                session_id=task.agent.id if self.options.session_ids else None,
                invocation_id=f"{task.agent.id}-{next(self._invocations)}",
                request_index=0,
                secrets=self.options.secrets,
            )
        )

    def _run_gh(self, task: _Task, fixture: CommandFixture, step: Gh) -> ScriptOutcome:
        """The real gh, with the agent's argv: a ``--watch`` poll is part of the one
        ``gh … --watch`` run already made, so it sends nothing."""
        if step.poll:
            return ScriptOutcome((), 0, watched=True)
        call = GhCall(task.argv, AGENT, session_id=task.agent.id)
        start = self.clock.now()
        result = self.transport.call(call)
        self.summary.requests += 1
        self.sink(
            row_for(call, result, completed_at=start + result.duration_s, options=self.options)
        )
        return ScriptOutcome(
            (), result.exit_code, stdout=result.stdout, watched=bool(fixture.watch)
        )
