"""Every REST route the emulator serves, answered as GitHub's OpenAPI description says.

Each route of the route table (``ghbench.emulator.rest.ROUTES``) has an example call
(``rest_examples.py``); its answer's status, media type and body are validated
against GitHub's response schema for that operation (``@octokit/openapi``, with
openapi-schema-validator), and any property GitHub's schema does not declare is an
invented field. Routes GitHub's description lacks are listed, with a reason, in
``rest_examples.UNDOCUMENTED``.
"""

from __future__ import annotations

import json

import httpx
from emu_helpers import API, TOKEN
from github_descriptions import openapi
from openapi_check import operation_for, problems
from rest_examples import EXAMPLES, MEDIA_IN_PROSE, UNDOCUMENTED, placeholders, seeded

from ghbench.emulator.rest import ROUTES
from ghbench.emulator.transport import EmulatorTransport


def test_every_route_has_an_example_and_every_example_a_route() -> None:
    names = {route.name for route in ROUTES}
    examples = {example.route for example in EXAMPLES}
    assert sorted(names - examples) == [], "add an example to rest_examples.py"
    assert sorted(examples - names) == []


def test_every_route_is_githubs_or_listed_as_undocumented() -> None:
    document = openapi()
    missing = [
        route.name
        for route in ROUTES
        if operation_for(document, route.method, route.pattern) is None
        and route.name not in UNDOCUMENTED
    ]
    assert missing == []
    documented = [
        name
        for name in UNDOCUMENTED
        if (found := name.split(" ", 1)) and operation_for(document, found[0], found[1])
    ]
    assert documented == [], "GitHub documents these now: remove them from UNDOCUMENTED"


def _fill(value: object, values: dict[str, str]) -> object:
    if isinstance(value, str):
        for name, replacement in values.items():
            value = value.replace("{" + name + "}", replacement)
        if value.isdigit() and value != "0":
            return value
        return value
    if isinstance(value, dict):
        return {k: _fill(v, values) for k, v in value.items()}
    return value


def test_every_answer_matches_githubs_schema() -> None:
    document = openapi()
    emulator = seeded()
    values = placeholders(emulator)
    by_name = {route.name: route for route in ROUTES}
    client = httpx.Client(
        transport=EmulatorTransport(emulator),
        base_url=API,
        headers={"Authorization": f"token {TOKEN}"},
    )
    failures: list[str] = []
    for example in EXAMPLES:
        route = by_name[example.route]
        body = _fill(example.body, values)
        if isinstance(body, dict) and "in_reply_to" in body:
            body["in_reply_to"] = int(str(body["in_reply_to"]))
        for asked in route.media_types:
            response = client.request(
                route.method,
                str(_fill(example.path, values)),
                json=body,
                headers={**example.headers, "Accept": _accept(asked)},
            )
            where = f"{example.route} ({asked})"
            if response.status_code != example.status:
                failures.append(f"{where}: status {response.status_code}: {response.text[:300]}")
                continue
            found = operation_for(document, route.method, route.pattern)
            if found is None:
                continue  # UNDOCUMENTED (checked above)
            answered = response.headers.get("content-type", "").split(";")[0]
            # GitHub's errors are JSON whatever was asked for
            media_type = "application/json" if response.status_code >= 400 else asked
            if response.content and answered != media_type:
                failures.append(f"{where}: answered {answered}")
                continue
            if (example.route, media_type) in MEDIA_IN_PROSE:
                continue  # GitHub's prose documents it; its OpenAPI description does not
            if media_type != "application/json":
                parsed: object = response.text
            else:
                parsed = json.loads(response.content) if response.content else None
            for problem in problems(document, found[1], response.status_code, media_type, parsed):
                failures.append(f"{where}: {problem}")
    assert not failures, "\n".join(failures)


def _accept(media_type: str) -> str:
    return "application/vnd.github+json" if media_type == "application/json" else media_type
