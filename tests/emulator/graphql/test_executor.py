"""The compiled executor answers exactly like graphql-core on the queries clients send."""

from __future__ import annotations

import random
from typing import Any

import pytest
from graphql import FragmentDefinitionNode, OperationDefinitionNode, execute_sync, parse
from graphql_queries import GH_ISSUE_SEARCH, GH_PR_SEARCH, REVIEW_THREADS_QUERY, batch_query

from ghbench.clock import VirtualClock
from ghbench.emulator.graphql.cost import analyze_cost
from ghbench.emulator.graphql.errors import format_execution_error
from ghbench.emulator.graphql.executor import CompiledExecutor, can_compile
from ghbench.emulator.graphql.resolvers import ResolveContext, typename_of
from ghbench.emulator.graphql.schema import load_schema
from ghbench.emulator.graphql_contract import BucketView
from ghbench.emulator.state import MemoryDatabase, Store

_CHECKS = """query PullRequestByNumber($owner: String!, $repo: String!, $pr_number: Int!) {
  repository(owner: $owner, name: $repo) { pullRequest(number: $pr_number) {
    id number state isDraft title url headRefName baseRefName mergeStateStatus
    headRepositoryOwner { id login ...on User { name } } headRepository { id name }
    author { login ...on User { id name } } reviewDecision mergedAt closed
    labels(first: 100) { nodes { id name color description } totalCount }
    comments(first: 100) { nodes { id author { login } body url } totalCount pageInfo {
      hasNextPage endCursor } }
    reviews(first: 100) { nodes { author { login } state body submittedAt } totalCount }
    reviewRequests(first: 100) { nodes { requestedReviewer { __typename ...on User { login }
      ...on Team { name slug organization { login } } } } }
    statusCheckRollup: commits(last: 1) { nodes { commit { oid statusCheckRollup {
      contexts(first: 100) { nodes { __typename
        ...on StatusContext { context state targetUrl createdAt }
        ...on CheckRun { name checkSuite { workflowRun { workflow { name } } } status
          conclusion startedAt completedAt detailsUrl } }
        pageInfo { hasNextPage endCursor } checkRunCount statusContextCountsByState { state
          count } } } } } }
    missing: reviewThreads(first: 5) { edges { cursor node { path comments(first: 2) { nodes {
      body } } } } }
  }
  nope: pullRequest(number: 999) { id }
  issue: issueOrPullRequest(number: 4) { __typename ...on Issue { state title reactionGroups {
    content users { totalCount } } } ...on PullRequest { state } }
  } viewer { login } }"""

_VARIABLES = {"owner": "acme", "repo": "todo", "pr_number": 1}

# gh 2.23's ``pr view --json files,commits`` selections, plus the diff stats gh leaves out
_FILES = """query PullRequestByNumber($owner: String!, $repo: String!, $pr_number: Int!) {
  repository(owner: $owner, name: $repo) { pullRequest(number: $pr_number) {
    additions deletions changedFiles
    files(first: 100) { nodes { additions, deletions, path, changeType, viewerViewedState }
      totalCount pageInfo { hasNextPage endCursor } edges { cursor } }
    commits(first: 100) { nodes { commit { authors(first: 100) { nodes { name email
      user { id login } } } messageHeadline messageBody oid committedDate authoredDate
      additions deletions changedFilesIfAvailable } } }
  } } }"""


@pytest.fixture(scope="module")
def store() -> Store:
    store = Store(MemoryDatabase(), VirtualClock(), random.Random(3))
    octo = store.ensure_user("octo")
    repo = store.create_repo("acme", "todo")
    for n in range(3):
        pull = store.create_pull(repo, octo, f"PR {n}", f"feat/{n}", "main", create_head=True)
        store.set_ci(repo, pull.head_sha, ["success", "failure", "pending"][n], octo)
        store.add_review(pull, octo, "CHANGES_REQUESTED" if n else "APPROVED", body="r")
        store.add_review_comment(pull, octo, "please fix")
        store.add_issue_comment(repo, pull.number, octo, "hello")
    store.update_pull(store.pull(repo, 1), labels=["bug", "ci"])  # type: ignore[arg-type]
    store.create_issue(repo, octo, "Issue", body="text")
    return store


def _both(store: Store, query: str, variables: dict[str, Any]) -> tuple[Any, Any]:
    schema = load_schema()
    document = parse(query)
    operation = next(d for d in document.definitions if isinstance(d, OperationDefinitionNode))
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    assert can_compile(operation, fragments)
    context = ResolveContext(
        store=store,
        viewer=store.users_by_login["octo"],
        report=analyze_cost(schema, document, operation, variables),
        bucket=BucketView("graphql", 5000, 4999, 1, 1_776_403_600),
    )
    compiled_data, compiled_errors = CompiledExecutor(
        schema, operation, fragments, typename_of
    ).execute(context, variables)
    reference = execute_sync(schema, document, variable_values=variables, context_value=context)
    compiled = (compiled_data, [format_execution_error(e) for e in compiled_errors])
    expected = (reference.data, [format_execution_error(e) for e in reference.errors or ()])
    return compiled, expected


@pytest.mark.parametrize(
    ("query", "variables"),
    [
        pytest.param(*batch_query([("acme", "todo", n) for n in (1, 2, 3, 9)]), id="ao-batch"),
        pytest.param(
            REVIEW_THREADS_QUERY, {"owner": "acme", "name": "todo", "number": 2}, id="ao-threads"
        ),
        pytest.param(_CHECKS, _VARIABLES, id="gh-pr-view"),
        pytest.param(_FILES, _VARIABLES, id="gh-pr-view-files"),
        pytest.param(GH_PR_SEARCH, {"q": "repo:acme/todo type:pr", "limit": 2}, id="gh-pr-search"),
        pytest.param(
            GH_ISSUE_SEARCH,
            {"owner": "acme", "repo": "todo", "type": "ISSUE", "limit": 30, "query": "label:bug"},
            id="gh-issue-search",
        ),
        pytest.param(
            '{ repository(owner: "acme", name: "gone") { id } rateLimit { cost used } }',
            {},
            id="not-found",
        ),
    ],
)
def test_compiled_executor_matches_graphql_core(
    store: Store, query: str, variables: dict[str, Any]
) -> None:
    compiled, expected = _both(store, query, variables)
    assert compiled == expected
    assert compiled[0] is not None


def test_directives_and_introspection_go_to_graphql_core() -> None:
    for query in ("{ viewer { login @include(if: true) } }", '{ __type(name: "User") { name } }'):
        operation = parse(query).definitions[0]
        assert isinstance(operation, OperationDefinitionNode)
        assert not can_compile(operation, {})
