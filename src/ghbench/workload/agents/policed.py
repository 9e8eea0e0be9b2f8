"""The agents' gh behind a fleet's policies, GitHub being whatever answers the requests.

``FleetPolicy`` runs the one policy stack (``ghbench.policies.stack``) in front of each
gh command an agent runs (every ``--watch`` poll included), as the lab runs it over a
recording, so the lab's prediction and the model's run differ only in what answers:

- the shim: a command ``policies.shim.SHIMMED`` names runs its REST fixture
  (``SHIM_FIXTURE``) instead of its GraphQL;
- the cache, the probes' 304s: the command's last answer is the agent's answer, nothing
  is sent; the probes themselves are two conditional GETs (the PR by its head branch,
  the branch's check runs) sent with the ETags of their last answers, traced and
  charged like any request;
- the reserve: the command fails (exit 1) as a wrapper that refuses it would;
- the gate: the command starts when the gate lets it (the fleet queues it till then).

What the policies read of GitHub is what a wrapper reads: each budget's
``x-ratelimit-remaining`` in the last answer, and what each command cost last time
(before its first run: one point per GraphQL request, one per REST request).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ghbench.policies.calls import BUDGETS, Admission, Call, Verdict
from ghbench.policies.shim import SHIM_FIXTURE, shimmed
from ghbench.policies.spec import Policies
from ghbench.policies.stack import PolicyStack
from ghbench.trace.operation import extract_operation
from ghbench.workload.agents.fixtures import CommandFixture, ScriptOutcome
from ghbench.workload.ghmap import HttpRequest, HttpResponse

__all__ = ["Before", "FleetPolicy", "request_writes", "writes"]

# a probe sent: (request, answer) -> traced by the fleet
Probed = Callable[[HttpRequest, HttpResponse], None]


@dataclass(frozen=True)
class Before:
    """What to do with a command: run ``fixture`` (None: its own), answer it with
    ``outcome`` (nothing sent), or start it at ``wait_until``."""

    call: Call
    admission: Admission
    fixture: str | None = None
    outcome: ScriptOutcome | None = None
    wait_until: float | None = None


def _estimate(fixture: CommandFixture) -> tuple[float, float]:
    graphql = sum(1 for t in fixture.requests if t.path.startswith("/graphql"))
    return float(graphql), float(len(fixture.requests) - graphql)


class FleetPolicy:
    def __init__(
        self,
        policies: Policies,
        limits: Mapping[str, float],
        *,
        exchange: Callable[[HttpRequest], HttpResponse],
        probed: Probed,
        token: str | None,
    ) -> None:
        self.stack = PolicyStack(policies, limits, oracle=self._probe)
        self.exchange = exchange
        self.probed = probed
        self.token = token
        self.left: dict[str, float] = dict(limits)
        self._answers: dict[str, ScriptOutcome] = {}
        self._costs: dict[str, tuple[float, float]] = {}
        self._etags: dict[str, str] = {}
        self._probing: tuple[str, str] = ("", "")  # the repo and branch being probed

    def before(
        self,
        now: float,
        *,
        session: str,
        repo: str,
        branch: str,
        command: str,
        argv: tuple[str, ...],
        fixture: CommandFixture,
    ) -> Before:
        operation = extract_operation(list(argv)) or command
        own = "" if argv[:1] == ("api",) else session
        graphql, core = self._costs.get(command) or _estimate(fixture)
        call = Call(
            at=now,
            session=session,
            key="\x1f".join((own, *argv)),
            repo=repo,
            command=operation,
            graphql=graphql,
            core=core,
            write=writes(fixture),
            argv=argv,
        )
        self._probing = (repo, branch)
        admission = self.stack.admit(call, self.left)
        verdict = admission.verdict
        if verdict.absorbed:
            last = self._answers.get(call.key)
            if last is not None:
                if verdict is Verdict.UNCHANGED:
                    self.stack.sent(call, admission)
                return Before(call, admission, outcome=last)
            admission = Admission(Verdict.SENT, now, graphql, core)  # nothing kept: it goes
        elif verdict.refused:
            return Before(call, admission, outcome=ScriptOutcome((), 1))
        if admission.at > now:
            return Before(call, admission, wait_until=admission.at)
        shim = SHIM_FIXTURE.get(operation) if self.stack.policies.shim and shimmed(call) else None
        return Before(call, admission, fixture=shim)

    def after(self, before: Before, *, command: str, ended: float, outcome: ScriptOutcome) -> None:
        """The command ran (sent at ``before.admission.at``, done at ``ended``)."""
        call = before.call
        call.duration = max(0.0, ended - before.admission.at)
        graphql = core = 0.0
        for response in outcome.responses:
            headers = {k.lower(): v for k, v in response.headers}
            resource = headers.get("x-ratelimit-resource")
            remaining = headers.get("x-ratelimit-remaining")
            if resource in BUDGETS and remaining is not None and remaining.isdigit():
                self.left[resource] = float(remaining)
            if resource == "graphql":
                graphql += 1.0
            elif resource == "core" and response.status != 304:
                core += 1.0
        if outcome.responses and not before.fixture:
            self._costs[command] = (graphql, core)
        if outcome.exit_code == 0:
            self._answers[call.key] = outcome
        self.stack.sent(call, before.admission)

    def _probe(self, call: Call) -> bool:
        """The two conditional GETs: True when both come back 304."""
        repo, branch = self._probing
        owner = repo.partition("/")[0]
        paths = (
            f"/repos/{repo}/pulls?head={owner}:{branch}&state=open",
            f"/repos/{repo}/commits/{branch}/check-runs",
        )
        unchanged = True
        for path in paths:
            headers = {"Accept": "application/vnd.github+json"}
            if self.token:
                headers["Authorization"] = f"token {self.token}"
            etag = self._etags.get(path)
            if etag is not None:
                headers["If-None-Match"] = etag
            response = self.exchange(HttpRequest("GET", path, headers))
            self.probed(HttpRequest("GET", path, {}), response)
            got = {k.lower(): v for k, v in response.headers}.get("etag")
            if got is not None:
                self._etags[path] = got
            unchanged = unchanged and response.status == 304
        return unchanged


_WRITE_METHODS = frozenset({"POST", "PATCH", "PUT", "DELETE"})


def request_writes(method: str, path: str, query: str) -> bool:
    """A request writes: a REST write, or a GraphQL mutation (``query`` its document)."""
    if path.lstrip("/").startswith("graphql"):
        return query.lstrip().startswith("mutation")
    return method.upper() in _WRITE_METHODS


def writes(fixture: CommandFixture) -> bool:
    """The command writes: one of its requests does."""
    for template in fixture.requests:
        query = template.body.get("query", "") if isinstance(template.body, dict) else ""
        if request_writes(template.method, template.path, query if isinstance(query, str) else ""):
            return True
    return False
