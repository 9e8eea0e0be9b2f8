"""Global ids to records, and the GraphQL type of what a resolver returns."""

from __future__ import annotations

from typing import Any

from emu_helpers import graphql

from ghbench.emulator.core import Emulator
from ghbench.emulator.graphql.resolvers.nodes import EVENT_TYPENAMES, payload, typename_of
from ghbench.emulator.state import IssueEvent, User


def test_typename_of_records_users_and_events() -> None:
    user = User(id=1, node_id="U_1", login="a", type="Bot")
    assert typename_of(user) == "Bot"
    event = IssueEvent(id=1, node_id="IE_1", repo_id=1, number=1, event="closed", actor_id=1)
    assert typename_of(event) == "ClosedEvent" == EVENT_TYPENAMES["closed"]
    event.event = "subscribed"  # no GraphQL type: kept off timelines
    assert typename_of(event) is None
    assert typename_of(object()) is None


def test_a_payload_echoes_the_client_mutation_id() -> None:
    assert payload({"clientMutationId": "x"}, issue=1) == {"clientMutationId": "x", "issue": 1}
    assert payload({}) == {"clientMutationId": None}


def _node(emulator: Emulator, node_id: str) -> Any:
    query = "query($id: ID!) { node(id: $id) { __typename id } }"
    return graphql(emulator, query, id=node_id)


def test_node_ids_resolve_across_kinds_and_an_id_of_the_wrong_kind_is_not_found(
    emulator: Emulator,
) -> None:
    number = emulator.create_issue("acme/todo", "bug", author="octo")
    store = emulator.store
    issue = store.issue(store.get_repo("acme", "todo"), number)
    assert issue is not None
    assert _node(emulator, issue.node_id)["data"]["node"] == {
        "__typename": "Issue",
        "id": issue.node_id,
    }
    close = """mutation($id: ID!) { closePullRequest(input: {pullRequestId: $id}) {
      pullRequest { id } } }"""
    wrong = graphql(emulator, close, id=issue.node_id)
    assert wrong["errors"][0]["type"] == "NOT_FOUND"
    assert wrong["errors"][0]["message"] == (
        f"Could not resolve to a node with the global id of '{issue.node_id}'"
    )
    assert issue.state == "open"
