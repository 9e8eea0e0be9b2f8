"""Shared by the GraphQL tests (no tests here): AO's batch and review-thread queries.

Written from agent-orchestrator's ``graphql-batch.ts`` shape (reference §5, §9):
aliases ``pr0…prN`` of ``repository { ... on Repository { pullRequest(number:) } }``.
"""

from __future__ import annotations

from typing import Any

_PR_FIELDS = """
  title state additions deletions isDraft mergeable mergeStateStatus reviewDecision
  headRefName headRefOid
  reviews(last: 5) { nodes { author { login } state submittedAt } }
  commits(last: 1) {
    nodes { commit { statusCheckRollup { state
      contexts(first: CONTEXTS) {
        nodes {
          ... on CheckRun { name status conclusion detailsUrl }
          ... on StatusContext { context state targetUrl }
        }
        pageInfo { hasNextPage }
      }
    } } }
  }
"""

REVIEW_THREADS_QUERY = """
query($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100) {
        nodes { isResolved comments(first: 1) { nodes { id author { login } body path line url
          createdAt } } }
      }
      reviews(last: 20) { nodes { author { login } state body submittedAt } }
    }
  }
}
"""


def batch_query(prs: list[tuple[str, str, int]], contexts: int = 20) -> tuple[str, dict[str, Any]]:
    """AO's ``BatchPRs`` query and variables for ``(owner, repo, number)`` triples."""
    selections = []
    variables: dict[str, Any] = {}
    fields = _PR_FIELDS.replace("CONTEXTS", str(contexts))
    for i, (owner, repo, number) in enumerate(prs):
        alias = f"pr{i}"
        selections.append(
            f"{alias}: repository(owner: ${alias}Owner, name: ${alias}Name) {{\n"
            f"  ... on Repository {{ pullRequest(number: ${alias}Number) {{ {fields} }} }}\n}}"
        )
        variables[f"{alias}Owner"] = owner
        variables[f"{alias}Name"] = repo
        variables[f"{alias}Number"] = number
    definitions = ", ".join(
        f"${k}: {'Int!' if isinstance(v, int) else 'String!'}" for k, v in variables.items()
    )
    return f"query BatchPRs({definitions}) {{\n" + "\n".join(selections) + "\n}", variables


# gh 2.23's search queries, verbatim as GH_DEBUG=api shows them (pr list / issue list with
# --author, --label, --search or --draft; the fragments are gh's default fields).
GH_PR_SEARCH = """fragment pr on PullRequest{number,title,state,url,headRefName,headRepositoryOwner{id,login,...on User{name}},isCrossRepository,isDraft,createdAt}
    query PullRequestSearch(
      $q: String!,
      $limit: Int!,
      $endCursor: String,
    ) {
      search(query: $q, type: ISSUE, first: $limit, after: $endCursor) {
        issueCount
        nodes {
          ...pr
        }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }"""  # noqa: E501
GH_ISSUE_SEARCH = """fragment issue on Issue {number,title,url,state,updatedAt,labels(first:100){nodes{id,name,description,color},totalCount},stateReason}query IssueSearch($repo: String!, $owner: String!, $type: SearchType!, $limit: Int, $after: String, $query: String!) {
      repository(name: $repo, owner: $owner) {
        hasIssuesEnabled
      }
      search(type: $type, last: $limit, after: $after, query: $query) {
        issueCount
        nodes { ...issue }
        pageInfo {
          hasNextPage
          endCursor
        }
      }
    }"""  # noqa: E501


# gh 2.102's ``issue view N`` query, verbatim as GH_DEBUG=api shows it: the fields 2.23
# asked for plus the issue's type, parent, sub-issues and dependencies (six connections
# with a page size under an object lookup).
GH_2_102_ISSUE_BY_NUMBER = """query IssueByNumber($owner: String!, $repo: String!, $number: Int!) {
        repository(owner: $owner, name: $repo) {
            hasIssuesEnabled
            issue: issueOrPullRequest(number: $number) {
                __typename
                ...on Issue{number,url,state,createdAt,title,body,author{login,...on User{id,name}},milestone{number,title,description,dueOn},assignees(first:100){nodes{id,login,name,databaseId},totalCount},labels(first:100){nodes{id,name,description,color},totalCount},reactionGroups{content,users{totalCount}},comments(last: 1) {nodes {author{login,...on User{id,name}},authorAssociation,body,createdAt,includesCreatedEdit,isMinimized,minimizedReason,reactionGroups{content,users{totalCount}}},totalCount},stateReason,issueType{id,name,description,color},parent{id,number,title,url,state,repository{nameWithOwner}},subIssues(first:100){nodes{id,number,title,url,state,repository{nameWithOwner}},totalCount},subIssuesSummary{total,completed,percentCompleted},blockedBy(first:50){nodes{id,number,title,url,state,repository{nameWithOwner}},totalCount},blocking(first:50){nodes{id,number,title,url,state,repository{nameWithOwner}},totalCount},id}
                ...on PullRequest{number,url,state,createdAt,title,body,author{login,...on User{id,name}},milestone{number,title,description,dueOn},assignees(first:100){nodes{id,login,name,databaseId},totalCount},labels(first:100){nodes{id,name,description,color},totalCount},reactionGroups{content,users{totalCount}},comments(last: 1) {nodes {author{login,...on User{id,name}},authorAssociation,body,createdAt,includesCreatedEdit,isMinimized,minimizedReason,reactionGroups{content,users{totalCount}}},totalCount},id}
            }
        }
    }"""  # noqa: E501


# Both item types with two connections each: the search's 100 possible nodes each ask
# for labels and comments.
HEAVY_SEARCH = """query Heavy($q: String!) {
  search(query: $q, type: ISSUE, first: 100) {
    issueCount
    nodes {
      ... on PullRequest { number labels(first: 100) { nodes { name } }
                           comments(first: 100) { nodes { body } } }
      ... on Issue { number }
    }
  }
  rateLimit { cost nodeCount }
}"""
