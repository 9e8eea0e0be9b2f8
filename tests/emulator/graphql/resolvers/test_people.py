"""People in GraphQL: assignable users and actors, review requests, organizations
(without teams) and the repositories an owner has."""

from __future__ import annotations

from emu_helpers import graphql

from ghbench.emulator.core import Emulator


def test_assignable_users_match_login_or_name_and_bots_are_never_among_them(
    emulator: Emulator,
) -> None:
    store = emulator.store
    store.ensure_user("bob", name="Robert Smith")
    store.ensure_user("ci-bot[bot]", type="Bot")
    query = """query($q: String) { repository(owner: "acme", name: "todo") {
      assignableUsers(first: 10, query: $q) { nodes { login } } } }"""

    def logins(q: str | None) -> list[str]:
        page = graphql(emulator, query, q=q)["data"]["repository"]["assignableUsers"]
        return [n["login"] for n in page["nodes"]]

    assert logins(None) == ["acme", "bob", "octo"]
    assert logins("SMITH") == ["bob"] and logins("bot") == []


def test_an_organization_has_no_teams_and_a_user_is_not_one(emulator: Emulator) -> None:
    emulator.store.ensure_user("github", type="Organization")
    query = """query($login: String!) { organization(login: $login) { login
      team(slug: "core") { name } teams(first: 5) { totalCount } } }"""
    org = graphql(emulator, query, login="github")["data"]["organization"]
    assert org == {"login": "github", "team": None, "teams": {"totalCount": 0}}
    user = graphql(emulator, query, login="octo")
    assert user["errors"][0]["message"] == (
        "Could not resolve to an Organization with the login of 'octo'."
    )


def test_an_owners_repositories_by_privacy_and_order(emulator: Emulator) -> None:
    store = emulator.store
    store.create_repo("acme", "alpha", private=True)
    store.create_repo("acme", "beta")
    query = """query($privacy: RepositoryPrivacy) { user(login: "acme") {
      repositories(first: 10, privacy: $privacy, orderBy: {field: NAME, direction: ASC}) {
        nodes { name } totalDiskUsage } forks: repositories(first: 5, isFork: true) {
        totalCount } } }"""
    found = graphql(emulator, query)["data"]["user"]
    assert [n["name"] for n in found["repositories"]["nodes"]] == ["alpha", "beta", "todo"]
    assert found["forks"]["totalCount"] == 0
    private = graphql(emulator, query, privacy="PRIVATE")["data"]["user"]["repositories"]
    assert [n["name"] for n in private["nodes"]] == ["alpha"]


def test_review_requests_and_actors_on_a_pull_request(emulator: Emulator) -> None:
    store = emulator.store
    repo, octo = store.get_repo("acme", "todo"), store.user("octo")
    bob = store.ensure_user("bob")
    assert octo is not None
    pull = store.create_pull(repo, octo, "p", "feat/x", "main", create_head=True)
    store.request_reviews(pull, [bob])
    store.set_assignees(pull, [octo])
    query = """query($n: Int!) { repository(owner: "acme", name: "todo") { pullRequest(number:
      $n) { reviewRequests(first: 5) { nodes { id asCodeOwner requestedReviewer {
        ... on User { login } } } } assignedActors(first: 5) { nodes { ... on User { login } } }
      suggestedActors(first: 5, query: "bo") { nodes { ... on User { login } } } } } }"""
    found = graphql(emulator, query, n=pull.number)["data"]["repository"]["pullRequest"]
    (request,) = found["reviewRequests"]["nodes"]
    assert request["requestedReviewer"] == {"login": "bob"} and not request["asCodeOwner"]
    assert request["id"].startswith("RR_")
    assert found["assignedActors"]["nodes"] == [{"login": "octo"}]
    assert found["suggestedActors"]["nodes"] == [{"login": "bob"}]
