"""Labels over REST (httpx over the in-process core): a repository's labels created,
renamed, recoloured and deleted (carried to what carries them), and an issue's or pull
request's labels added, replaced and removed, with GitHub's 422s and 404s."""

from __future__ import annotations

import httpx

from ghbench.emulator.core import Emulator

from .helpers import REPO


def names(response: httpx.Response) -> list[str]:
    return [label["name"] for label in response.json()]


def test_create_get_rename_recolour_and_delete(emulator: Emulator, api: httpx.Client) -> None:
    made = api.post(f"{REPO}/labels", json={"name": "Crash", "color": "#FF0000"})
    assert made.status_code == 201
    assert (made.json()["color"].lower(), made.json()["description"]) == ("ff0000", None)
    assert api.post(f"{REPO}/labels", json={"name": "plain"}).json()["color"] == "ededed"
    assert api.get(f"{REPO}/labels/crash").json()["name"] == "Crash"  # case-insensitive
    number = emulator.create_issue("acme/todo", "T", labels=["Crash"])
    renamed = api.patch(f"{REPO}/labels/Crash", json={"new_name": "defect", "color": "00ff00"})
    assert (renamed.json()["name"], renamed.json()["color"]) == ("defect", "00ff00")
    assert names(api.get(f"{REPO}/issues/{number}/labels")) == ["defect"]  # carried over
    assert api.delete(f"{REPO}/labels/defect").status_code == 204
    assert names(api.get(f"{REPO}/issues/{number}/labels")) == []
    assert api.get(f"{REPO}/labels/defect").status_code == 404


def test_bad_labels_are_githubs_422s(api: httpx.Client) -> None:
    for body in ({"name": "x", "color": "red"}, {"name": "x", "color": "#12345"}, {"name": " "}):
        refused = api.post(f"{REPO}/labels", json=body)
        assert refused.status_code == 422, body
        assert refused.json()["message"] == "Validation Failed"
    assert api.post(f"{REPO}/labels", json={"color": "ffffff"}).status_code == 422
    taken = api.post(f"{REPO}/labels", json={"name": "BUG"})  # GitHub's default label
    assert taken.status_code == 422
    assert taken.json()["errors"][0]["code"] == "already_exists"


def test_an_items_labels_in_the_three_body_shapes(emulator: Emulator, api: httpx.Client) -> None:
    number = emulator.create_issue("acme/todo", "T")
    path = f"{REPO}/issues/{number}/labels"
    assert names(api.post(path, json={"labels": ["a"]})) == ["a"]  # created when missing
    assert names(api.post(path, json=["b"])) == ["a", "b"]  # a bare array adds
    assert names(api.put(path, json=[{"name": "c"}])) == ["c"]  # objects; PUT replaces
    assert api.get(f"{REPO}/labels/c").status_code == 200
    assert names(api.delete(f"{path}/C")) == []
    gone = api.delete(f"{path}/c")
    assert gone.status_code == 404 and gone.json()["message"] == "Label does not exist"
    api.post(path, json=["x", "y"])
    assert api.delete(path).status_code == 204
    assert names(api.get(path)) == []
    assert api.post(path, json={"labels": "x"}).status_code == 422
    assert api.post(path, json={"labels": [""]}).status_code == 422


def test_a_pull_requests_labels_are_its_issues(emulator: Emulator, api: httpx.Client) -> None:
    number = emulator.create_pull("acme/todo", "feat/x")
    assert names(api.post(f"{REPO}/issues/{number}/labels", json=["ui"])) == ["ui"]
    assert [x["name"] for x in api.get(f"{REPO}/pulls/{number}").json()["labels"]] == ["ui"]
    assert api.get(f"{REPO}/issues/999/labels").status_code == 404
