"""The REST handlers' shared helpers (``rest/common.py``) on plain calls: body fields
of the right type or GitHub's 422, ``page``/``per_page`` and the ``link`` header, the
counted listings, and the lookups that 404 (or 401 without a viewer)."""

from __future__ import annotations

from typing import Any

import pytest

from ghbench.emulator.core import Emulator
from ghbench.emulator.errors import ApiError, NotFound, RequiresAuthentication
from ghbench.emulator.rest.common import (
    body_field,
    counted_page,
    issue_or_pull,
    page_params,
    paginate,
    pull_of,
    repo_of,
    viewer,
)
from ghbench.emulator.rest.render import RestRenderer
from ghbench.emulator.rest.routing import Call

API = "http://api.test"


def _call(
    emulator: Emulator,
    *,
    query: dict[str, str] | None = None,
    body: Any = None,
    params: dict[str, str] | None = None,
    path: str = "/repos/acme/todo/issues",
    user: bool = True,
) -> Call:
    return Call(
        emulator=emulator,
        store=emulator.store,
        render=RestRenderer(API, "https://github.test"),
        path=path,
        params={"owner": "acme", "repo": "todo"} | (params or {}),
        query=query or {},
        user=emulator.store.user("octo") if user else None,
        owner="octo",
        body=body,
    )


def _codes(exc: ApiError) -> list[tuple[str, str]]:
    return [(e["field"], e["code"]) for e in exc.body()["errors"]]


def test_a_body_field_of_the_right_type(emulator: Emulator) -> None:
    call = _call(emulator, body={"title": "T", "count": 2, "flag": True, "none": None})
    assert body_field(call, "Issue", "title", str) == "T"
    assert body_field(call, "Issue", "count", int) == 2
    assert body_field(call, "Issue", "none", str, default="d") == "d"
    assert body_field(call, "Issue", "absent", int, default=7) == 7
    with pytest.raises(ApiError) as missing:
        body_field(call, "Issue", "absent", str)
    assert missing.value.status == 422 and _codes(missing.value) == [("absent", "missing_field")]
    for name, kind in [("title", int), ("count", str), ("flag", int)]:  # a bool is no int
        with pytest.raises(ApiError) as wrong:
            body_field(call, "Issue", name, kind)
        assert _codes(wrong.value) == [(name, "invalid")]
    for body in (None, ["title"], "title"):  # no object: every field is missing
        with pytest.raises(ApiError):
            body_field(_call(emulator, body=body), "Issue", "title", str)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ({}, (1, 30)),
        ({"page": "3", "per_page": "10"}, (3, 10)),
        ({"per_page": "500"}, (1, 100)),
        ({"page": "0", "per_page": "0"}, (1, 30)),
        ({"page": "-2", "per_page": "x"}, (1, 30)),
        ({"page": "", "per_page": "1.5"}, (1, 30)),
    ],
)
def test_page_params(emulator: Emulator, query: dict[str, str], expected: tuple[int, int]) -> None:
    assert page_params(_call(emulator, query=query)) == expected


def test_pages_and_their_links(emulator: Emulator) -> None:
    items = list(range(25))
    first, links = paginate(_call(emulator, query={"per_page": "10", "state": "all"}), items)
    assert first == list(range(10))
    base = f"{API}/repos/acme/todo/issues?per_page=10&state=all"
    assert links == {"link": f'<{base}&page=2>; rel="next", <{base}&page=3>; rel="last"'}
    last, links = paginate(_call(emulator, query={"per_page": "10", "page": "3"}), items)
    assert last == [20, 21, 22, 23, 24]
    assert links["link"].split(", ") == [
        f'<{API}/repos/acme/todo/issues?per_page=10&page=1>; rel="first"',
        f'<{API}/repos/acme/todo/issues?per_page=10&page=2>; rel="prev"',
    ]
    past, links = paginate(_call(emulator, query={"per_page": "10", "page": "9"}), items)
    assert past == [] and 'page=3>; rel="prev"' in links["link"]  # prev is the last page
    assert paginate(_call(emulator), items) == (items, {})  # one page: no link
    assert paginate(_call(emulator), []) == ([], {})


def test_a_counted_page_counts_every_item_and_renders_its_page(emulator: Emulator) -> None:
    items = list(range(25))
    last_page = _call(emulator, query={"per_page": "10", "page": "3"})
    reply = counted_page(last_page, "jobs", items, str)
    assert reply.body == {"total_count": 25, "jobs": ["20", "21", "22", "23", "24"]}
    assert reply.headers == paginate(last_page, items)[1]  # links to the first and prev
    empty = counted_page(_call(emulator), "workflows", [], str)
    assert (empty.body, empty.headers) == ({"total_count": 0, "workflows": []}, {})


def test_lookups_404_and_a_viewer_is_required(emulator: Emulator) -> None:
    issue = emulator.create_issue("acme/todo", "T")
    pull = emulator.create_pull("acme/todo", "feat/x")
    assert repo_of(_call(emulator)).full_name == "acme/todo"
    assert issue_or_pull(_call(emulator, params={"number": str(issue)}))[1].title == "T"
    assert issue_or_pull(_call(emulator, params={"number": str(pull)}))[1].number == pull
    assert pull_of(_call(emulator, params={"number": str(pull)}))[1].head_ref == "feat/x"
    for lookup, number in [(pull_of, issue), (pull_of, 99), (issue_or_pull, 99)]:
        with pytest.raises(NotFound):
            lookup(_call(emulator, params={"number": str(number)}))
    with pytest.raises(NotFound):
        repo_of(_call(emulator, params={"repo": "none"}))
    assert viewer(_call(emulator)).login == "octo"
    with pytest.raises(RequiresAuthentication):
        viewer(_call(emulator, user=False))
