"""ghbench.front.settings: the upstream's address, a warning's line, whether any client
reached the front, and the control messages' JSON."""

from __future__ import annotations

import msgspec
import pytest

from ghbench.errors import UsageError
from ghbench.front.settings import (
    Cause,
    Command,
    FrontCounts,
    Reply,
    Upstream,
    parse_upstream,
)


def test_parse_upstream() -> None:
    assert parse_upstream("http://127.0.0.1:8080") == Upstream("http", "127.0.0.1", 8080)
    assert parse_upstream("https://ghe.example.com/") == Upstream("https", "ghe.example.com", 443)
    assert parse_upstream("unix:/tmp/gh.sock").socket == "/tmp/gh.sock"
    for bad in ("unix:gh.sock", "ftp://x", "http://h:99999", "http://h/api", "http://u@h"):
        with pytest.raises(UsageError, match="--upstream"):
            parse_upstream(bad)


@pytest.mark.parametrize(
    "text",
    ["http://", "https://:443", "http://[::1", "unix:", "", "127.0.0.1:8080", "http://h?x=1"],
)
def test_what_is_no_address_is_refused_naming_the_flag(text: str) -> None:
    with pytest.raises(UsageError, match=r"^--github-url "):
        parse_upstream(text, flag="--github-url")


def test_an_upstream_describes_itself_as_it_is_given() -> None:
    assert parse_upstream("http://127.0.0.1:8080").describe() == "http://127.0.0.1:8080"
    assert parse_upstream("https://ghe.example.com").describe() == "https://ghe.example.com:443"
    assert parse_upstream("unix:/run/gh.sock").describe() == "unix:/run/gh.sock"


def test_a_warning_seen_once_names_its_client_and_often_counts_them() -> None:
    cause = Cause(key="k", message="curl does not trust the CA")
    cause.add(1, ["curl/8.0"])
    assert cause.line() == "curl does not trust the CA (curl/8.0)"
    cause.add(1_499, ["curl/7.8", "curl/8.0", "curl/6.0", "curl/5.0"])
    assert cause.examples == ["curl/8.0", "curl/7.8", "curl/6.0"]  # a few, none twice
    assert cause.line() == (
        "curl does not trust the CA (seen 1,500 times; e.g. curl/8.0, curl/7.8, curl/6.0)"
    )
    anonymous = Cause(key="j", message="a tunnel was abandoned")
    anonymous.add(1, [])
    assert anonymous.line() == "a tunnel was abandoned"
    anonymous.add(1, [])
    assert anonymous.line() == "a tunnel was abandoned (seen 2 times)"


@pytest.mark.parametrize(
    "field", ["exchanges", "refused", "tunnelled", "failed_handshakes", "abandoned"]
)
def test_any_contact_is_a_front_reached(field: str) -> None:
    assert not FrontCounts().reached
    assert FrontCounts(**{field: 1}).reached


def test_unauthorized_requests_and_rows_alone_are_no_contact() -> None:
    """A stranger refused 407 is not a client of the run; rows follow contacts."""
    assert not FrontCounts(unauthorized=3, rows_written=2, upstream_errors=1).reached


def test_control_messages_round_trip_and_a_bad_command_is_refused() -> None:
    command = Command(op="trace", path="/t/trace.jsonl", agent_path=None)
    assert msgspec.json.decode(msgspec.json.encode(command), type=Command) == command
    reply = Reply(counts=FrontCounts(exchanges=2, warnings=["w"]), error=None)
    assert msgspec.json.decode(msgspec.json.encode(reply), type=Reply) == reply
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"op": "shutdown"}', type=Command)
