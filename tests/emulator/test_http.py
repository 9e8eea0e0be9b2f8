"""The core's request and response: case-insensitive headers, repeated headers joined
as HTTP joins them, JSON bodies."""

from __future__ import annotations

from ghbench.emulator.http import EmuRequest, EmuResponse, encode_json, json_message


def test_method_and_header_names_are_normalised() -> None:
    request = EmuRequest("get", "/user", headers={"Authorization": "token t", "X-A": "1"})
    assert request.method == "GET"
    assert request.headers == {"authorization": "token t", "x-a": "1"}
    assert request.header("AUTHORIZATION") == "token t"
    assert request.header("missing") is None and request.header("missing", "d") == "d"


def test_build_joins_repeated_headers_in_order() -> None:
    request = EmuRequest.build(
        "post",
        "http://api.github.localhost/graphql",
        [("Accept", "a"), ("accept", "b"), ("X-One", "1")],
        body=b"{}",
        client="10.0.0.2",
    )
    assert request.headers == {"accept": "a, b", "x-one": "1"}
    assert (request.method, request.query, request.body, request.client) == (
        "POST",
        "",
        b"{}",
        "10.0.0.2",
    )
    assert EmuRequest.build("GET", "/", {"A": "x"}).headers == {"a": "x"}


def test_json_bodies() -> None:
    assert encode_json({"a": [1, None, "é"]}) == '{"a":[1,null,"é"]}'.encode()
    assert EmuResponse(204, {}).json() is None
    message = json_message(409, "no")
    assert (message.status, message.json()) == (409, {"message": "no"})
    assert message.headers == {"content-type": "application/json; charset=utf-8"}
    assert message.delay_s == 0.0
