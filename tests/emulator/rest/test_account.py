"""What belongs to an account over REST (httpx over the in-process core): the viewer's
repositories, a user's and an organization's, sorted and filtered as GitHub does; the
feeds that are not modelled answer empty lists, or 404 for an unknown account."""

from __future__ import annotations

import httpx
from emu_helpers import ClientFactory

from ghbench.emulator.core import Emulator


def full_names(response: httpx.Response) -> list[str]:
    assert response.status_code == 200, response.text
    return [r["full_name"] for r in response.json()]


def test_the_viewers_repositories_sorted(emulator: Emulator, api: httpx.Client) -> None:
    emulator.advance_clock(60)
    emulator.create_repo("Zeta/app")
    emulator.advance_clock(60)
    emulator.create_repo("acme/Api")
    assert full_names(api.get("/user/repos")) == ["acme/Api", "acme/todo", "Zeta/app"]
    assert full_names(api.get("/user/repos", params={"sort": "created"})) == [
        "acme/Api",
        "Zeta/app",
        "acme/todo",
    ]  # dates: newest first
    created_asc = api.get("/user/repos", params={"sort": "created", "direction": "asc"})
    assert full_names(created_asc)[0] == "acme/todo"
    assert full_names(api.get("/user/repos", params={"per_page": 1, "page": 2})) == ["acme/todo"]
    assert full_names(api.get("/user/repos", params={"visibility": "private"})) == []
    bad = api.get("/user/repos", params={"sort": "stars"})
    assert bad.status_code == 422 and bad.json()["errors"][0]["field"] == "sort"


def test_an_owners_repositories(emulator: Emulator, api: httpx.Client) -> None:
    emulator.create_repo("octo/dots")
    assert full_names(api.get("/users/octo/repos")) == ["octo/dots"]
    assert full_names(api.get("/users/acme/repos")) == ["acme/todo"]
    assert api.get("/users/nobody/repos").status_code == 404
    assert api.get("/orgs/octo/repos").status_code == 404  # a user is not an organization


def test_feeds_that_are_not_modelled_are_empty(
    api: httpx.Client, make_client: ClientFactory
) -> None:
    assert api.get("/notifications").json() == []
    assert api.get("/users/octo/events").json() == []
    assert api.get("/users/octo/received_events").json() == []
    assert api.get("/users/nobody/events").status_code == 404
    anonymous = make_client(None)
    assert anonymous.get("/notifications").status_code == 401
    assert anonymous.get("/user/repos").status_code == 401
