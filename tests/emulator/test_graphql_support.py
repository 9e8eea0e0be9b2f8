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
