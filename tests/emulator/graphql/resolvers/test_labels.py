"""Labels in GraphQL: a repository's (searched, ordered, found without case) and an
issue's, in the order they were added."""

from __future__ import annotations

from emu_helpers import graphql

from ghbench.emulator.core import Emulator


def test_repository_labels_search_name_and_description_and_order(emulator: Emulator) -> None:
    query = """query($q: String) { repository(owner: "acme", name: "todo") {
      labels(first: 20, query: $q, orderBy: {field: NAME, direction: DESC}) { nodes { name } }
      label(name: "BUG") { name color isDefault url } nope: label(name: "nope") { name } } }"""
    found = graphql(emulator, query, q="doc")["data"]["repository"]
    assert [n["name"] for n in found["labels"]["nodes"]] == ["documentation"]
    newcomers = graphql(emulator, query, q="NEWCOMERS")["data"]["repository"]["labels"]
    assert newcomers["nodes"] == [{"name": "good first issue"}]  # by its description
    assert found["label"] == {
        "name": "bug",
        "color": "d73a4a",
        "isDefault": True,
        "url": "https://github.com/acme/todo/labels/bug",
    }
    assert found["nope"] is None
    every = graphql(emulator, query)["data"]["repository"]["labels"]["nodes"]
    assert [n["name"] for n in every][:2] == ["wontfix", "question"]


def test_an_items_labels_keep_the_order_they_were_added(emulator: Emulator) -> None:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    assert octo is not None
    issue = store.create_issue(repo, octo, "i", labels=["wontfix", "good first issue"])
    query = """query($n: Int!) { repository(owner: "acme", name: "todo") { issue(number: $n) {
      labels(first: 5) { nodes { name url } } } } }"""
    nodes = graphql(emulator, query, n=issue.number)["data"]["repository"]["issue"]["labels"]
    assert nodes["nodes"] == [
        {"name": "wontfix", "url": "https://github.com/acme/todo/labels/wontfix"},
        {"name": "good first issue", "url": "https://github.com/acme/todo/labels/good%20first%20issue"},
    ]  # fmt: skip
