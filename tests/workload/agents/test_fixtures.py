"""The captured gh requests: loading, rendering, binds read from earlier answers."""

import json

import pytest

from ghbench.clock import VirtualClock
from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest
from ghbench.errors import ConfigError
from ghbench.workload.agents.fixtures import (
    GH_CAPTURES,
    GhCapture,
    ScriptOutcome,
    cache_ttl_s,
    command_fixture,
    graphql_operation,
    load_fixtures,
    render_argv,
    render_request,
    script,
)
from ghbench.workload.agents.fleet import AgentSpec
from ghbench.workload.ghmap import HttpRequest, HttpResponse

TOKEN = "ghp_agentfixtures0000000000000000000000"
AGENT = AgentSpec("ta-1", "acme/todo", "feat/issue-1", 1)
VALUES = {**AGENT.values(), "pr": 2, "comment_id": 7, "run_id": 9}


def _handle(emulator: Emulator, request: HttpRequest) -> HttpResponse:
    path, _, query = request.path.partition("?")
    resp = emulator.handle(
        EmuRequest(request.method, path, query, request.headers, request.body or b"")
    )
    return HttpResponse(resp.status, list(resp.headers.items()), resp.body)


def _run(emulator: Emulator, name: str, values: dict[str, object]) -> ScriptOutcome:
    gen = script(command_fixture(name).requests, values, TOKEN)
    try:
        request = next(gen)
        while True:
            request = gen.send(_handle(emulator, request))
    except StopIteration as done:
        outcome: ScriptOutcome = done.value
        return outcome


@pytest.fixture
def world() -> Emulator:
    emulator = Emulator(clock=VirtualClock(), seed=3)
    emulator.create_user("agent", [TOKEN])
    emulator.create_repo("acme/todo")
    emulator.create_issue("acme/todo", "Task", author="agent")
    return emulator


@pytest.mark.parametrize("gh", GH_CAPTURES)
def test_each_capture_is_its_ghs_and_names_what_it_could_not_capture(gh: GhCapture) -> None:
    doc = load_fixtures(gh)
    assert f"gh version {gh}.0 " in doc.gh_version
    assert {"pr.checks", "pr.checks.watch", "pr.view.badge", "shim.pr.checks"} <= set(doc.commands)
    incomplete = {n for n, c in doc.commands.items() if not c.complete}
    assert incomplete == {line.split(":")[0] for line in doc.incomplete} == set()
    assert command_fixture("pr.checks.watch", gh).watch, "a --watch command keeps its poll"


def test_gh_2_102s_feature_detection_is_cached_and_2_23_has_none() -> None:
    # gh 2.102 asks which fields exist before `pr checks` and keeps the answer a day
    cached = command_fixture("pr.checks", "2.102").cached
    assert [graphql_operation(t) for t in cached] == ["PullRequest_fields2", "PullRequest_fields"]
    assert {cache_ttl_s(t) for t in cached} == {86400.0}
    assert [graphql_operation(t) for t in command_fixture("pr.checks", "2.102").requests] == [
        "PullRequestForBranch",
        "PullRequestStatusChecks",
    ]
    assert not any(c.cached for c in load_fixtures("2.23").commands.values())


@pytest.mark.parametrize("gh", GH_CAPTURES)
def test_every_command_renders_with_an_agents_values(gh: GhCapture) -> None:
    for name, fixture in load_fixtures(gh).commands.items():
        argv = render_argv(fixture, VALUES)
        assert not any("{" in a and "}" in a for a in argv), (name, argv)
        for template in fixture.requests:
            bound = {b.var for b in template.binds}
            request = render_request(template, {**VALUES, **dict.fromkeys(bound, "X")}, TOKEN)
            assert "{" not in request.path, (name, request.path)
            assert request.headers["authorization"] == f"token {TOKEN}"
            if request.path == "/graphql":
                assert "query" in json.loads(request.body or b"")


def test_unknown_command_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match=r"no captured gh 2\.102 command 'pr\.merge'"):
        command_fixture("pr.merge")


def test_a_bind_reads_the_pr_id_from_the_first_answer(world: Emulator) -> None:
    number = world.create_pull("acme/todo", "feat/issue-1", title="Fix")
    world.set_ci("acme/todo", "pending", pr=number)
    out = _run(world, "pr.checks", VALUES)
    assert out.exit_code == 0 and len(out.responses) == 2
    rollup = json.loads(out.responses[1].body)
    assert rollup["data"]["node"]["statusCheckRollup"]["nodes"], "the PR found by its node id"


def test_gh_stops_where_a_bind_finds_nothing(world: Emulator) -> None:
    out = _run(world, "pr.checks", VALUES)  # no PR for the branch yet
    assert out.exit_code == 1 and out.stopped == "no pr_id in the answer"
    assert len(out.responses) == 1


def test_gh_run_view_follows_the_log_redirect_to_where_the_answer_says(world: Emulator) -> None:
    """``gh run view --log-failed``: the run, its workflow, its jobs, the log's 302, then the
    signed, expiring URL the 302 named (a bind to its ``location``, not a fixed path)."""
    number = world.create_pull("acme/todo", "feat/issue-1", title="Fix")
    world.set_ci("acme/todo", "failure", pr=number, log="FAILED test_due_dates")
    run_id = world.store.runs(world.store.repo("acme", "todo"))[0].id
    out = _run(world, "run.view.log_failed", {**VALUES, "run_id": run_id})
    assert out.exit_code == 0 and [r.status for r in out.responses] == [200, 200, 200, 302, 200]
    assert out.responses[-1].body[:2] == b"PK"  # the run's logs, a zip
    charged = [e.endpoint for e in world.ledger_entries()]
    assert len(charged) == 4, charged  # the blob is storage, not the API: free, as on GitHub
