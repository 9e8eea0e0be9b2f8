"""A repository's metadata beyond its issues and pull requests: what a new repository on
GitHub answers for what is not modelled, and what is derived."""

from __future__ import annotations

from emu_helpers import graphql

from ghbench.emulator.core import Emulator

_INFO = """query($name: String!) { repository(owner: "acme", name: $name) {
  visibility autoMergeAllowed isUserConfigurationRepository sshUrl resourcePath
  viewerDefaultCommitEmail viewerPossibleCommitEmails stargazerCount isEmpty
  openGraphImageUrl mentionableUsers(first: 5, query: "oct") { nodes { login } }
  languages(first: 5) { totalCount totalSize } latestRelease { name } } }"""


def test_a_repositorys_metadata(emulator: Emulator) -> None:
    store = emulator.store
    store.create_repo("acme", "acme", private=True).allow_auto_merge = True
    octo = store.user("octo")
    assert octo is not None
    todo = graphql(emulator, _INFO, name="todo")["data"]["repository"]
    assert todo["visibility"] == "PUBLIC" and not todo["isUserConfigurationRepository"]
    assert todo["sshUrl"] == "git@github.com:acme/todo.git"
    assert todo["resourcePath"] == "/acme/todo"
    email = f"{octo.id}+octo@users.noreply.github.com"
    assert todo["viewerDefaultCommitEmail"] == email
    assert todo["viewerPossibleCommitEmails"] == [email]
    assert (todo["stargazerCount"], todo["isEmpty"], todo["latestRelease"]) == (0, False, None)
    assert todo["openGraphImageUrl"].endswith("/acme/todo")
    assert todo["mentionableUsers"]["nodes"] == [{"login": "octo"}]
    assert todo["languages"] == {"totalCount": 0, "totalSize": 0}
    profile = graphql(emulator, _INFO, name="acme")["data"]["repository"]
    assert profile["visibility"] == "PRIVATE" and profile["isUserConfigurationRepository"]
    assert profile["autoMergeAllowed"] and not todo["autoMergeAllowed"]
