"""The HTTP transport's GraphQL endpoint, as gh derives it from the REST base."""

from ghbench.workload.transport.http import HttpTransport, graphql_url


def test_graphql_url_for_github_com_and_an_enterprise_server() -> None:
    assert graphql_url("https://api.github.com/") == "https://api.github.com/graphql"
    assert graphql_url("https://api.github.com") == "https://api.github.com/graphql"
    assert graphql_url("https://ghe.example/api/v3/") == "https://ghe.example/api/graphql"
    assert graphql_url("https://ghe.example/api/v3") == "https://ghe.example/api/graphql"
    assert graphql_url("http://127.0.0.1:8080/api/v3x") == "http://127.0.0.1:8080/api/v3x/graphql"


def test_the_transport_keeps_its_base_with_one_slash() -> None:
    transport = HttpTransport("http://127.0.0.1:9/api/v3", token=None)
    try:
        assert transport.rest_base == "http://127.0.0.1:9/api/v3/"
        assert transport.graphql == "http://127.0.0.1:9/api/graphql"
    finally:
        transport.close()
