"""ghbench.analysis.shapes: endpoint shapes and how well an operation names a call site."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ghbench.analysis.shapes import bucket_kind, endpoint_shape

segment = st.text("abcdefgh0123456789-_.", min_size=1, max_size=8)


def test_owner_repo_numbers_shas_and_query_values_are_named() -> None:
    sha = "0123456789abcdef0123456789ABCDEF01234567"
    assert (
        endpoint_shape(f"repos/acme/todo/commits/{sha}/status?per_page=100&page=2")
        == "repos/{owner}/{repo}/commits/{sha}/status?page&per_page"
    )
    assert endpoint_shape("/repos/acme/todo/pulls/12/comments") == (
        "repos/{owner}/{repo}/pulls/{n}/comments"
    )
    assert endpoint_shape("graphql") == "graphql"
    assert endpoint_shape(None) == endpoint_shape("") == "(no endpoint)"


@settings(deadline=None)  # no timing asserts: a loaded machine is slow
@given(st.lists(segment, min_size=1, max_size=6), st.dictionaries(segment, segment, max_size=3))
def test_a_shape_is_a_fixed_point_and_ignores_query_values(
    parts: list[str], query: dict[str, str]
) -> None:
    endpoint = "/".join(parts) + (
        "?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else ""
    )
    shape = endpoint_shape(endpoint)
    assert endpoint_shape(shape) == shape
    other = "/".join(parts) + ("?" + "&".join(f"{k}=x" for k in query) if query else "")
    assert endpoint_shape(other) == shape


def test_bucket_kinds() -> None:
    assert bucket_kind("gh.api.guard-pr-list") == "explicit"
    assert bucket_kind("gh.pr.list") == "derived"
    assert bucket_kind("gh.api.repos") == bucket_kind("gh.api.-X") == "generic"
    assert bucket_kind(None) == bucket_kind("") == "missing"
