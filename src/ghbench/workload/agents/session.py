"""One coding agent's session, as the steps it takes: pure policy, no clock, no I/O.

A session is a generator of ``Step`` values (``result = yield step``): a gh command
(answered with its ``ScriptOutcome``), a wait, a push, a request for review, or a second
lane to run beside it (a background ``gh pr checks --watch``, Claude Code's PR badge).
``ghbench.workload.agents.fleet`` runs it in virtual or real time; this module decides
only what the agent does next, from what gh answered.

The life (reference: issue 20, "an agent model"): read the task (issue and repo), work,
push and ``gh pr create``; wait for CI (a background watch at gh's interval and a
foreground status loop of ``gh pr view --json …`` with varying fields and ``gh pr
checks``); on a failed run read the checks, the run list and the failed job's log, fix
and push again; on review feedback read the comments (``gh pr view --comments``, the
review comments over REST), reply to each, fix and push; done.
"""

from __future__ import annotations

import random
import re
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

from ghbench.workload.agents.fixtures import ScriptOutcome
from ghbench.workload.agents.profiles import AgentParams

__all__ = [
    "AgentLane",
    "AskReview",
    "Gh",
    "Learn",
    "Push",
    "Spawn",
    "Step",
    "Verdict",
    "Wait",
    "agent_session",
    "ci_verdict",
    "pr_badge",
    "review_response",
]

Verdict = Literal["pending", "success", "failure", "none"]
_FAILED = frozenset(
    {"failure", "error", "cancelled", "timed_out", "action_required", "startup_failure"}
)
_PR_URL = re.compile(r"/pull/(\d+)")


@dataclass(frozen=True)
class Gh:
    """Run captured command ``command``; ``poll``: one poll of its ``--watch`` loop,
    whose binds read the first run's answers (``first``)."""

    command: str
    values: dict[str, object] = field(default_factory=dict)
    poll: bool = False
    first: ScriptOutcome | None = None


@dataclass(frozen=True)
class Wait:
    seconds: float


@dataclass(frozen=True)
class Push:
    """git push of a new commit on the session's branch (git over HTTP costs no points)."""


@dataclass(frozen=True)
class AskReview:
    """Someone reviews the PR with ``comments`` comments; answered with how many landed."""

    comments: int


@dataclass(frozen=True)
class Learn:
    """Values the agent now knows (its PR's number), for every later command."""

    values: dict[str, object]


@dataclass(frozen=True)
class Spawn:
    """Run ``lane`` beside this one (it ends on its own, or with the run)."""

    lane: AgentLane


Step = Gh | Wait | Push | AskReview | Learn | Spawn
AgentLane = Generator[Step, Any, None]


def _nodes(doc: Any) -> Iterator[dict[str, Any]]:
    if isinstance(doc, dict):
        yield doc
        for value in doc.values():
            yield from _nodes(value)
    elif isinstance(doc, list):
        for value in doc:
            yield from _nodes(value)


def _state_of(node: dict[str, Any]) -> Verdict | None:
    """A check run (GraphQL or REST) or a commit status context, as a verdict."""
    if "conclusion" in node and "status" in node:
        if str(node["status"]).lower() != "completed":
            return "pending"
        return "failure" if str(node["conclusion"] or "").lower() in _FAILED else "success"
    if "context" in node and "state" in node:
        state = str(node["state"]).lower()
        if state in ("pending", "expected"):
            return "pending"
        return "failure" if state in _FAILED else "success"
    return None


# ``gh pr checks`` printed for a script (not a terminal): ``name<TAB>bucket<TAB>…`` a line
_BUCKETS: dict[str, Verdict] = {
    "pending": "pending",
    "fail": "failure",
    "cancel": "failure",
    "pass": "success",
    "skipping": "success",
}


def _printed_states(stdout: bytes) -> set[Verdict]:
    """The checks' states as the real gh printed them (the gh transport)."""
    states: set[Verdict] = set()
    for line in stdout.decode("utf-8", "replace").splitlines():
        fields = line.split("\t")
        if len(fields) > 1 and fields[1] in _BUCKETS:
            states.add(_BUCKETS[fields[1]])
    return states


def ci_verdict(outcome: ScriptOutcome) -> Verdict:
    """What the answers say of CI: pending while anything runs, failure if anything
    failed, success when all passed, none when no check was reported. A command that
    failed (the rate limit, say) told the agent nothing: still pending, it asks again. A
    real ``gh … --watch`` run to its end (the gh transport) says it by its exit code; a
    real ``gh pr checks`` by the table it printed."""
    if outcome.watched:
        return "success" if outcome.exit_code == 0 else "failure"
    states = {s for doc in outcome.docs for n in _nodes(doc) if (s := _state_of(n)) is not None}
    if not outcome.responses:
        states |= _printed_states(outcome.stdout)
    if not states and outcome.exit_code != 0 and outcome.responses:
        return "pending"
    ranked: tuple[Verdict, ...] = ("pending", "failure", "success")
    return next((v for v in ranked if v in states), "none")


def pr_number(outcome: ScriptOutcome) -> int | None:
    """The PR ``gh pr create`` opened: its URL, in the answer or in gh's output."""
    for text in (*(r.body for r in outcome.responses), outcome.stdout):
        found = _PR_URL.search(text.decode("utf-8", "replace"))
        if found:
            return int(found.group(1))
    return None


def _ids(outcome: ScriptOutcome, key: str | None = None) -> list[int]:
    """The ids of the items an answer lists: the last answer's REST list (``key`` None),
    or ``doc[key]`` of the last answer that has it."""
    items: Any = None
    for doc in reversed(outcome.docs):
        items = doc if key is None else (doc.get(key) if isinstance(doc, dict) else None)
        if items is not None:
            break
    if not isinstance(items, list):
        return []
    return [i["id"] for i in items if isinstance(i, dict) and isinstance(i.get("id"), int)]


def _span(rng: random.Random, span: tuple[float, float]) -> float:
    return rng.uniform(*span)


def _checks_command(p: AgentParams) -> str:
    return "shim.pr.checks" if p.rest_checks else "pr.checks"


def _watcher(p: AgentParams) -> AgentLane:
    """``gh pr checks --watch`` (or the shim's REST loop) until nothing is pending."""
    if p.rest_checks:
        while True:
            out = yield Gh("shim.pr.checks")
            if ci_verdict(out) != "pending":
                return
            yield Wait(p.watch_interval)
    first = yield Gh("pr.checks.watch")
    out = first
    while ci_verdict(out) == "pending":
        yield Wait(p.watch_interval)
        out = yield Gh("pr.checks.watch", poll=True, first=first)


def pr_badge(p: AgentParams) -> AgentLane:
    """Claude Code's PR status: ``gh pr view --json …`` every ``badge_interval``."""
    while True:
        yield Gh("pr.view.badge")
        yield Wait(p.badge_interval)


def _work(p: AgentParams, rng: random.Random, seconds: float, issue_read: str) -> AgentLane:
    """Work for ``seconds``, re-reading the issue every ``work_read_interval``."""
    left = seconds
    gap = p.work_read_interval
    while gap > 0 and left > gap:
        yield Wait(gap)
        left -= gap
        yield Gh(issue_read)
    yield Wait(left)


def _wait_ci(p: AgentParams) -> Generator[Step, Any, Verdict]:
    """A background watch now, another every ``rewatch`` seconds while CI runs (each
    lives until CI settles), and the foreground status loop until CI settles."""
    views = [_checks_command(p) if v == "pr.checks" else v for v in p.status_views]
    turn = 0
    since_watch = p.rewatch
    while True:
        if p.watch and (since_watch >= p.rewatch > 0 or turn == 0):
            yield Spawn(_watcher(p))
            since_watch = 0.0
        yield Wait(p.status_poll)
        since_watch += p.status_poll
        out = yield Gh(views[turn % len(views)])
        turn += 1
        verdict = ci_verdict(out)
        if verdict != "pending":
            return verdict


def _address_review(
    p: AgentParams, rng: random.Random, landed: int, issue_read: str
) -> Generator[Step, Any, None]:
    """Read the review (``gh pr view --comments``, the comments over REST), reply to each
    of the ``landed`` new comments, fix and push."""
    yield Gh("pr.view.comments")
    comments = yield Gh("api.review_comments")
    if p.replies:
        for comment in _ids(comments)[-landed:] if landed else []:
            yield Gh("api.review_reply", {"comment_id": comment})
    yield from _work(p, rng, _span(rng, p.fix), issue_read)
    yield Push()


def _until_done(
    p: AgentParams, rng: random.Random, issue_read: str, *, reviewed: bool
) -> AgentLane:
    """From a push to done: wait for CI, fix a failed run, answer a review (one at most)."""
    while True:
        verdict = yield from _wait_ci(p)
        if verdict == "failure":
            yield Gh(_checks_command(p))
            runs = yield Gh("run.list")
            run_ids = _ids(runs, "workflow_runs")
            yield Gh("run.view.log_failed", {"run_id": run_ids[0] if run_ids else 1})
            yield from _work(p, rng, _span(rng, p.fix), issue_read)
            yield Push()
            continue
        if reviewed or rng.random() >= p.review:
            break
        reviewed = True
        yield Wait(_span(rng, p.review_delay))
        landed = yield AskReview(rng.randint(*p.review_comments))
        yield from _address_review(p, rng, landed, issue_read)
    yield Gh("pr.view.status")


def agent_session(p: AgentParams, rng: random.Random) -> AgentLane:
    """One session's life, from the task to done (the caller's run may end it sooner)."""
    if p.badge_interval > 0:
        yield Spawn(pr_badge(p))
    for command in p.issue_reads:
        yield Gh(command)
    issue_read = p.issue_reads[0] if p.issue_reads else ""
    yield from _work(p, rng, _span(rng, p.work), issue_read)
    yield Push()
    created = yield Gh("pr.create")
    number = pr_number(created)
    if number is None:
        return  # gh pr create failed: the agent has nothing to wait for
    yield Learn({"pr": number})
    yield from _until_done(p, rng, issue_read, reviewed=False)


def review_response(p: AgentParams, rng: random.Random, pr: int, comments: int) -> AgentLane:
    """An agent whose open PR got ``comments`` review comments (the orchestrator passed
    them on): it addresses them, then waits for CI to done (no second review)."""
    yield Learn({"pr": pr})
    issue_read = p.issue_reads[0] if p.issue_reads else ""
    yield from _address_review(p, rng, comments, issue_read)
    yield from _until_done(p, rng, issue_read, reviewed=True)
