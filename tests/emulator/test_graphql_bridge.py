"""``POST /graphql`` around the GraphQL layer (``graphql_bridge.py``): a token is
required; an injected fault answers before anything is charged; and a GraphQL answer
that depends on nothing but the records is kept: the same request from the same viewer
is charged, counted and answered exactly as the first was, until a record changes."""

from __future__ import annotations

import json
from typing import Any

from emu_helpers import TOKEN

from ghbench.emulator.core import Emulator
from ghbench.emulator.http import EmuRequest

PR = "query($o:String!,$n:String!,$p:Int!){repository(owner:$o,name:$n){pullRequest(number:$p)"
PR_STATE = PR + "{state title}}}"


def _ask(
    emulator: Emulator, query: str, token: str = TOKEN, **variables: Any
) -> tuple[int, dict[str, Any], str]:
    body = json.dumps({"query": query, "variables": variables}).encode()
    headers = {"authorization": f"token {token}"}
    resp = emulator.handle(EmuRequest("POST", "/graphql", headers=headers, body=body))
    return resp.status, json.loads(resp.body), resp.headers["x-ratelimit-remaining"]


def _pr(emulator: Emulator) -> int:
    emulator.push("acme/todo", "main", "Initial commit")
    return emulator.create_pull("acme/todo", "feat/x", title="Fix")


def test_a_repeated_query_is_answered_and_charged_as_the_first(emulator: Emulator) -> None:
    number = _pr(emulator)
    before = emulator.request_count
    first = _ask(emulator, PR_STATE, o="acme", n="todo", p=number)
    again = _ask(emulator, PR_STATE, o="acme", n="todo", p=number)
    assert first[1] == again[1] and first[0] == again[0] == 200
    assert int(again[2]) == int(first[2]) - 1  # charged again, the same cost
    assert [e.cost for e in emulator.ledger_entries()] == [1, 1]
    assert emulator.request_count == before + 2


def test_a_changed_record_is_seen_by_the_next_request(emulator: Emulator) -> None:
    number = _pr(emulator)
    _ask(emulator, PR_STATE, o="acme", n="todo", p=number)
    pull = emulator.store.pull(emulator.store.repo("acme", "todo"), number)
    assert pull is not None
    emulator.store.update_pull(pull, title="Fix, renamed")
    _, doc, _ = _ask(emulator, PR_STATE, o="acme", n="todo", p=number)
    assert doc["data"]["repository"]["pullRequest"]["title"] == "Fix, renamed"


def test_what_the_bucket_or_the_clock_says_is_never_reused(emulator: Emulator) -> None:
    query = "query { rateLimit { remaining used } viewer { login } }"
    seen = [_ask(emulator, query)[1]["data"]["rateLimit"]["remaining"] for _ in range(3)]
    assert seen[0] > seen[1] > seen[2]  # each answer after its own charge
    mutation = "mutation($i:AddCommentInput!){addComment(input:$i){commentEdge{node{id}}}}"
    issue = emulator.create_issue("acme/todo", "Task", author="octo")
    node = _ask(
        emulator,
        "query($o:String!,$n:String!,$p:Int!){repository(owner:$o,name:$n){issue(number:$p){id}}}",
        o="acme",
        n="todo",
        p=issue,
    )[1]["data"]["repository"]["issue"]["id"]
    ids = {
        _ask(emulator, mutation, i={"subjectId": node, "body": "hi"})[1]["data"]["addComment"][
            "commentEdge"
        ]["node"]["id"]
        for _ in range(2)
    }
    assert len(ids) == 2  # a mutation runs every time


def test_a_mergeability_computed_answers_unknown_once(emulator: Emulator) -> None:
    """GitHub's "not computed yet": the request that starts the job gets UNKNOWN, the next
    one the answer, even though both are the same request and nothing else changed."""
    number = _pr(emulator)
    query = PR + "{mergeable}}}"
    states = [
        _ask(emulator, query, o="acme", n="todo", p=number)[1]["data"]["repository"]["pullRequest"][
            "mergeable"
        ]
        for _ in range(3)
    ]
    assert states == ["UNKNOWN", "MERGEABLE", "MERGEABLE"]


def test_a_known_answer_the_bucket_cannot_pay_for_is_refused_as_any_request(
    emulator: Emulator,
) -> None:
    number = _pr(emulator)
    emulator.set_limit("graphql", 2)
    answers = [_ask(emulator, PR_STATE, o="acme", n="todo", p=number) for _ in range(3)]
    assert [a[2] for a in answers] == ["1", "0", "0"]
    refused = answers[2][1]
    assert refused["data"] is None and refused["errors"][0]["type"] == "RATE_LIMITED"
    # the same as a request never answered before, which the bucket cannot pay for either
    other = _ask(emulator, PR + "{title}}}", o="acme", n="todo", p=number)[1]
    assert other == refused
    assert [e.cost for e in emulator.ledger_entries()] == [1, 1]


def test_without_a_token_it_is_a_401_on_the_graphql_bucket(emulator: Emulator) -> None:
    body = json.dumps({"query": "query { viewer { login } }"}).encode()
    resp = emulator.handle(EmuRequest("POST", "/graphql", body=body))
    assert resp.status == 401
    assert json.loads(resp.body)["message"] == "This endpoint requires you to be authenticated."
    assert resp.headers["x-ratelimit-resource"] == "graphql"
    assert emulator.ledger_count() == 0


def test_the_same_body_from_another_viewer_is_its_own_answer(emulator: Emulator) -> None:
    hubot = "ghp_hubot000000000000000000000000000000002"
    emulator.create_user("hubot", [hubot])
    query = "query { viewer { login } }"
    logins = [_ask(emulator, query, token=t)[1]["data"]["viewer"]["login"] for t in (TOKEN, hubot)]
    assert logins == ["octo", "hubot"]
    assert _ask(emulator, query)[1]["data"]["viewer"]["login"] == "octo"


def test_an_injected_server_error_is_answered_before_any_charge(emulator: Emulator) -> None:
    number = _pr(emulator)
    _ask(emulator, PR_STATE, o="acme", n="todo", p=number)  # known from now on
    emulator.set_faults(error_rate=1.0, error_status=503)
    status, doc, _ = _ask(emulator, PR_STATE, o="acme", n="todo", p=number)
    assert status == 503 and doc["message"] == "Server Error"
    assert emulator.ledger_count() == 1  # only the first, answered request
    emulator.set_faults(error_rate=0.0)
    assert _ask(emulator, PR_STATE, o="acme", n="todo", p=number)[0] == 200
