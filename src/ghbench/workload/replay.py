"""A recorded trace as calls to re-issue: the replay plan, its targets and its policies.

Pure: rows in, a ``ReplayPlan`` out. A row (or, for ``record``'s and the agents' rows,
the rows of one gh invocation, by ``invocationId``) becomes one ``ReplayCall``:

- ``gh api …`` (AO's own calls, any script's): the request gh makes for that argv
  (``ghbench.workload.ghmap``), once per recorded row;
- a gh command the agents' fixtures know (``gh pr checks``, ``pr view --json …``,
  ``pr create``, ``issue view``, ``run list``, their ``--watch`` polls): the captured
  requests, one per recorded row, each at its own recorded time, from the gh build
  whose requests the recorded rows are (their GraphQL operations; today's gh when they
  do not tell), with gh's cached feature detection when the recording sent it;
- ``pr list``/``pr view``/``issue view`` with ``--repo`` (AO's calls): gh's query;
- a row with no argv but a REST endpoint (the network front's, AO 0.10's model's): the
  GET it made, conditional when the recording's was (``ifNoneMatch``);
- a GraphQL row with no argv but its body (``requestBody``: the front's, the model's):
  that body, POSTed again.

A row that cannot be re-issued is counted under its reason and named by operation,
never dropped unseen: no request recorded (no argv, no endpoint), a GraphQL row without
its query, a write whose body was not recorded, a redacted argument, a gh command no
fixture knows, and the harness's own control calls.

Targets: each recorded session (``sessionId``, else one unattributed session) keeps its
repository, branch, PR and issue numbers; scaled to N sessions, copy ``c`` of the
recording runs against repositories renamed ``NAME-c`` (copy 0 keeps the names), so
every copy meets the same numbers in a repository of its own.

Counterfactuals, as AO's ``cache-replay.mjs`` asked them: ``drop`` an operation, a
per-operation cache ``ttl`` (the cache policy, ``policies.cache``, with a TTL per
operation: ``ReplayPolicy.policies``), and a poll ``interval`` per operation (a session
re-issues that operation at most once per interval). The fleet's policies
(``--policies``) run in front of the replay's calls (``simulation.replay_policies``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import msgspec

from ghbench.errors import UsageError
from ghbench.policies.spec import CacheSpec, Policies
from ghbench.timefmt import parse_iso
from ghbench.trace.frame import invocation_groups
from ghbench.trace.schema import CONTROL_COMPONENT, TraceRow, from_agent
from ghbench.workload.agents.fixtures import (
    GH_CAPTURES,
    CommandFixture,
    GhCapture,
    RequestTemplate,
    graphql_operation,
    load_fixtures,
)
from ghbench.workload.ghmap import plan_call

__all__ = [
    "PolicyGate",
    "ReplayCall",
    "ReplayPlan",
    "ReplayPolicy",
    "SessionTarget",
    "copy_repo",
    "graphql_query",
    "plan_replay",
    "recorded_session_count",
    "recorded_sessions",
]

UNATTRIBUTED = ""
NO_REQUEST = "no request recorded (no argv, no endpoint)"
NO_QUERY = "GraphQL row without its query (no argv, no requestBody)"
NO_BODY = "write without its recorded body"
REDACTED = "redacted argument"
UNKNOWN_COMMAND = "gh command with no captured requests"
CONTROL = "the harness's own control call"

_REPO_PATH = re.compile(r"^/?repos/([^/?]+)/([^/?]+)")
_PULL_PATH = re.compile(r"^/?repos/[^/]+/[^/]+/pulls/(\d+)")
_BRANCH_QUERY = re.compile(r"[?&]branch=([^&]+)")
_HIGH_LEVEL = {("pr", "list"), ("pr", "view"), ("issue", "view")}
_SHOWN = 12  # operations named in a refusal
SHIM_PREFIX = "shim."  # the captured REST shims (``shim.pr.checks``, ``shim.pr.view``, …)


@dataclass(frozen=True)
class ReplayPolicy:
    """Counterfactuals: operations dropped, cached (TTL s), or polled less often (s)."""

    drop: frozenset[str] = frozenset()
    ttl: Mapping[str, float] = field(default_factory=dict)
    interval: Mapping[str, float] = field(default_factory=dict)

    def check(self, plan: ReplayPlan) -> None:
        """UsageError naming a policy's operation the recording never made, and the
        operations it did make (a typo would silently change nothing)."""
        known = plan.operations
        for flag, operations in (
            ("--drop", self.drop),
            ("--ttl", self.ttl),
            ("--interval", self.interval),
        ):
            for operation in sorted(operations):
                if operation not in known:
                    shown = sorted(known)
                    more = f" and {len(shown) - _SHOWN} more" if len(shown) > _SHOWN else ""
                    raise UsageError(
                        f"{flag} {operation}: the recording has no such operation; it has"
                        f" {', '.join(shown[:_SHOWN])}{more}"
                    )

    def policies(self, chosen: Policies) -> Policies:
        """``chosen`` with ``ttl`` folded in as the cache policy: a TTL per operation,
        only those operations cached, as an identical call re-issued within the TTL
        (neither coalescing nor invalidation on writes, as ``--ttl`` always was)."""
        if not self.ttl:
            return chosen
        if chosen.cache is not None:
            raise UsageError("--ttl: the cache policy is on (--policies cache); use one of them")
        cache = CacheSpec(
            ttl=max(self.ttl.values()),
            coalesce=False,
            invalidate=False,
            per_operation=dict(self.ttl),
        )
        return msgspec.structs.replace(chosen, cache=cache)


@dataclass
class SessionTarget:
    """What one recorded session works on."""

    key: str
    repo: str | None = None
    branch: str | None = None
    pr: int | None = None
    issue: int | None = None


@dataclass(frozen=True)
class ReplayCall:
    """One invocation to re-issue at ``at`` (recorded start, epoch s)."""

    at: float
    session: str
    operation: str
    argv: tuple[str, ...] = ()
    # "api": plan_call(argv) once; "fixture": the fixture's requests; "rest": GET endpoint
    kind: str = "api"
    fixture: str | None = None
    # per recorded row of a fixture call: its start and the template it re-issues; the
    # first ``cached`` are gh's cached requests (sent before the command's own)
    requests: tuple[tuple[float, RequestTemplate], ...] = ()
    values: Mapping[str, object] = field(default_factory=dict)
    endpoint: str | None = None
    # what the recording got: a conditional request answered 200 saw its resource change
    recorded_status: int | None = None
    agent: bool = False  # a coding agent's call (``from_agent``), not the orchestrator's
    cached: int = 0
    # "rest": the recording's GET sent an ETag back (``ifNoneMatch``); "graphql": its body
    conditional: bool = False
    body: str | None = None

    @property
    def query(self) -> str:
        """A GraphQL call's document ("" for any other call)."""
        return graphql_query(self.body) if self.body else ""


def graphql_query(body: str) -> str:
    """The ``query`` of a GraphQL request body ("" when it has none)."""
    try:
        doc = json.loads(body)
    except ValueError:
        return ""
    query = doc.get("query") if isinstance(doc, dict) else None
    return query if isinstance(query, str) else ""


@dataclass
class ReplayPlan:
    calls: list[ReplayCall]
    sessions: dict[str, SessionTarget]
    # reason -> operation -> rows
    skipped: dict[str, Counter[str]]
    rows: int
    start: float
    end: float

    @property
    def skipped_rows(self) -> int:
        return sum(sum(c.values()) for c in self.skipped.values())

    @property
    def operations(self) -> frozenset[str]:
        """Every operation the recording made, re-issued or not."""
        skipped = (op for ops in self.skipped.values() for op in ops)
        return frozenset({c.operation for c in self.calls} | set(skipped))


def copy_repo(repo: str, copy: int) -> str:
    return repo if copy == 0 else f"{repo}-{copy}"


def _start(row: TraceRow) -> float:
    return parse_iso(row.timestamp) - (row.durationMs or 0.0) / 1000.0


def _flag(argv: Sequence[str], *names: str) -> str | None:
    for i, a in enumerate(argv):
        if a in names and i + 1 < len(argv):
            return argv[i + 1]
    return None


def _match(template: Sequence[str], argv: Sequence[str]) -> dict[str, object] | None:
    """``argv`` against a fixture's argv template: the placeholders' values, or None."""
    if len(template) != len(argv):
        return None
    bound: dict[str, object] = {}
    for want, got in zip(template, argv, strict=True):
        whole = re.fullmatch(r"\{(\w+)\}", want)
        if whole:
            bound[whole.group(1)] = int(got) if got.isdigit() else got
            continue
        if "{" in want:
            pattern = re.escape(want).replace(r"\{", "{").replace(r"\}", "}")
            pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/&?=]+)", pattern)
            found = re.fullmatch(pattern, got)
            if found is None:
                return None
            bound |= {k: int(v) if v.isdigit() else v for k, v in found.groupdict().items()}
        elif want != got:
            return None
    return bound


def _operations(templates: Iterable[RequestTemplate]) -> list[str | None]:
    return [graphql_operation(t) for t in templates]


def _sends(fixture: CommandFixture, rows: Sequence[TraceRow]) -> bool:
    """The recorded rows are this fixture's requests (with its cached ones, or not),
    as far as their GraphQL operations tell."""
    recorded = [r.graphqlOperation for r in rows]
    cached = set(_operations(fixture.cached))
    own = [op for op in recorded if op not in cached or op is None]
    expected = _operations(fixture.requests)
    return own[: len(expected)] == expected


def _fixture_for(
    argv: Sequence[str], rows: Sequence[TraceRow]
) -> tuple[GhCapture, str, dict[str, object]] | None:
    """The captured command ``argv`` is, told apart (``gh pr checks`` through the REST
    shim or not) by where its first recorded request went, from the gh build whose
    requests the rows are (today's first when they do not tell)."""
    first_graphql = rows[0].endpoint == "graphql" if rows and rows[0].endpoint else None
    found = []
    for rank, gh in enumerate(GH_CAPTURES):
        for name, fixture in load_fixtures(gh).commands.items():
            bound = _match(fixture.argv, argv)
            if bound is None:
                continue
            first = fixture.requests[0] if fixture.requests else None
            is_graphql = first.path.startswith("/graphql") if first else None
            route = first_graphql is None or is_graphql == first_graphql
            if name.startswith(SHIM_PREFIX) and not route:
                continue  # a shim's REST is never a recorded GraphQL command's stand-in
            found.append(((not route, not _sends(fixture, rows), rank), gh, name, bound))
    found.sort(key=lambda f: f[0])
    return (found[0][1], found[0][2], found[0][3]) if found else None


def _cached_first(
    fixture: CommandFixture, rows: Sequence[TraceRow]
) -> tuple[list[RequestTemplate], list[TraceRow]]:
    """The fixture's cached requests the recording sent, and the rows in the order they
    are re-issued: those requests' rows first (gh's cache lacked them then)."""
    cached = set(_operations(fixture.cached)) - {None}
    sent = [r for r in rows if r.graphqlOperation in cached]
    if not cached or len(sent) != len(fixture.cached):
        return [], list(rows)
    return list(fixture.cached), sent + [r for r in rows if r.graphqlOperation not in cached]


def _templates(fixture: CommandFixture, count: int) -> list[RequestTemplate]:
    """The template each of ``count`` recorded requests re-issues (watch polls repeat)."""
    out = list(fixture.requests[:count])
    polls = fixture.watch or fixture.requests
    while len(out) < count:
        out.append(polls[(len(out) - len(fixture.requests)) % len(polls)])
    return out


def _learn(target: SessionTarget, row: TraceRow) -> None:
    """What a row says of its session's repository, branch, PR and issue."""
    argv = row.args or []
    endpoint = row.endpoint or ""
    repo = _flag(argv, "--repo", "-R")
    found = _REPO_PATH.match(endpoint)
    if repo is None and found:
        repo = f"{found.group(1)}/{found.group(2)}"
    if target.repo is None and repo and "/" in repo:
        target.repo = repo
    branch = _flag(argv, "--head", "--branch")
    query = _BRANCH_QUERY.search(endpoint)
    if target.branch is None and (branch or query):
        target.branch = branch or (query.group(1).replace("%2F", "/") if query else None)
    pull = _PULL_PATH.match(endpoint)
    named = argv[2] if argv[:2] in (["pr", "view"], ["pr", "checks"]) and len(argv) > 2 else ""
    if target.pr is None and pull:
        target.pr = int(pull.group(1))
    elif target.pr is None and named.isdigit():
        target.pr = int(named)
    if target.issue is None and argv[:2] == ["issue", "view"] and len(argv) > 2:
        target.issue = int(argv[2]) if argv[2].isdigit() else None


def _invocations(rows: Iterable[TraceRow]) -> list[list[TraceRow]]:
    listed = list(rows)
    ids = [row.invocationId for row in listed]
    out = [[listed[i] for i in group] for group in invocation_groups(ids)]
    for group in out:
        group.sort(key=lambda r: r.requestIndex or 0)
    return out


def _classify(group: list[TraceRow], session: str) -> ReplayCall | tuple[str, int]:
    """The call for one invocation, or (reason, rows) when it cannot be re-issued."""
    first = group[0]
    operation = first.operation or "unknown"
    argv = tuple(first.args or ())
    at = _start(first)
    agent = from_agent(first)
    if first.component == CONTROL_COMPONENT:
        return CONTROL, len(group)
    if argv and any("[REDACTED]" in a for a in argv):
        return REDACTED, len(group)
    if argv and argv[0] == "api":
        try:
            plan_call(argv, None)
        except ValueError:
            return UNKNOWN_COMMAND, len(group)
        return ReplayCall(
            at,
            session,
            operation,
            argv,
            kind="api",
            recorded_status=first.httpStatus,
            agent=agent,
        )
    if argv:
        matched = _fixture_for(argv, group)
        if matched is not None:
            gh, name, bound = matched
            fixture = load_fixtures(gh).commands[name]
            cached, ordered = _cached_first(fixture, group) if first.invocationId else ([], [])
            count = len(ordered) - len(cached) if first.invocationId else len(fixture.requests)
            times = [_start(r) for r in ordered] if first.invocationId else [at] * count
            templates = cached + _templates(fixture, count)
            requests = tuple(zip(times, templates, strict=True))
            return ReplayCall(
                at,
                session,
                operation,
                argv,
                "fixture",
                name,
                requests,
                bound,
                agent=agent,
                cached=len(cached),
            )
        if tuple(argv[:2]) in _HIGH_LEVEL and _flag(argv, "--repo", "-R"):
            return ReplayCall(at, session, operation, argv, kind="api", agent=agent)
        return UNKNOWN_COMMAND, len(group)
    if not first.endpoint:
        return NO_REQUEST, len(group)
    if first.endpoint == "graphql":
        if not first.requestBody:
            return NO_QUERY, len(group)
        return ReplayCall(
            at,
            session,
            operation,
            kind="graphql",
            endpoint="graphql",
            recorded_status=first.httpStatus,
            agent=agent,
            body=first.requestBody,
        )
    if (first.method or "GET").upper() != "GET":
        return NO_BODY, len(group)
    return ReplayCall(
        at,
        session,
        operation,
        kind="rest",
        endpoint=first.endpoint,
        recorded_status=first.httpStatus,
        agent=agent,
        conditional=first.ifNoneMatch is not None,
    )


def plan_replay(rows: Sequence[TraceRow]) -> ReplayPlan:
    """The calls of a recorded trace, its sessions' targets, and what was left out."""
    sessions: dict[str, SessionTarget] = {}
    skipped: dict[str, Counter[str]] = {}
    calls: list[ReplayCall] = []
    for row in rows:
        key = row.sessionId or UNATTRIBUTED
        _learn(sessions.setdefault(key, SessionTarget(key)), row)
    for group in _invocations(rows):
        key = group[0].sessionId or UNATTRIBUTED
        made = _classify(group, key)
        if isinstance(made, tuple):
            reason, count = made
            skipped.setdefault(reason, Counter())[group[0].operation or "unknown"] += count
        else:
            calls.append(made)
    calls.sort(key=lambda c: c.at)
    starts = [_start(r) for r in rows]
    return ReplayPlan(
        calls,
        sessions,
        skipped,
        len(rows),
        min(starts, default=0.0),
        max((parse_iso(r.timestamp) for r in rows), default=0.0),
    )


class PolicyGate:
    """Applies a ``ReplayPolicy``'s drops and poll intervals to calls in time order
    (its ``ttl`` is the cache policy's): None lets a call through, else the reason it is
    not re-issued (``dropped``, ``slower poll``)."""

    def __init__(self, policy: ReplayPolicy) -> None:
        self.policy = policy
        self._polled: dict[tuple[object, ...], float] = {}

    def verdict(self, call: ReplayCall, copy: int) -> str | None:
        op = call.operation
        if op in self.policy.drop:
            return "dropped"
        interval = self.policy.interval.get(op)
        if interval is not None:
            loop = (copy, call.session, op)
            last = self._polled.get(loop)
            if last is not None and call.at - last < interval:
                return "slower poll"
            self._polled[loop] = call.at
        return None


_PR_REFS = (
    re.compile(r"pulls/(\d+)"),
    re.compile(r"pullRequest\(\s*number:\s*(\d+)\s*\)"),
)


def recorded_session_count(plan: ReplayPlan) -> int:
    """Sessions the recording had: its attributed sessions, else the PRs it touched."""
    attributed = [k for k in plan.sessions if k != UNATTRIBUTED]
    if attributed:
        return len(attributed)
    prs: set[str] = set()
    for call in plan.calls:
        text = " ".join(call.argv) + " " + (call.endpoint or "") + " " + call.query
        for pattern in _PR_REFS:
            prs.update(pattern.findall(text))
        if call.argv[:2] == ("pr", "view") and len(call.argv) > 2:
            prs.add(call.argv[2])
    return max(1, len(prs))


def recorded_sessions(plan: ReplayPlan) -> list[str]:
    """The recorded sessions that own calls, attributed ones first."""
    keys = {c.session for c in plan.calls}
    return sorted(keys, key=lambda k: (k == UNATTRIBUTED, k))
