"""Resolvers: one table per GraphQL type, mapping field names to functions.

Sources are the store's records (``Repo``, ``PullRequest``, ``Issue``, ``CheckRun``,
``CommitStatus``, ``Review``, ``ReviewThread``, ``ReviewComment``, ``IssueComment``,
``User``) or the small views in :mod:`.views` for objects the store derives. Fields
not in a table fall back to graphql-core's default resolver (attribute or key of the
same name), which is what connection pages and payload dicts rely on.
"""

from __future__ import annotations

from typing import Any

from ghbench.emulator.graphql.resolvers.checks import (
    CHECK_RUN_FIELDS,
    CHECK_SUITE_FIELDS,
    COMMIT_FIELDS,
    CONTEXT_CONNECTION_FIELDS,
    ROLLUP_FIELDS,
    STATUS_CONTEXT_FIELDS,
    WORKFLOW_FIELDS,
    WORKFLOW_RUN_FIELDS,
)
from ghbench.emulator.graphql.resolvers.context import ResolveContext
from ghbench.emulator.graphql.resolvers.conversation import CONVERSATION_MUTATIONS
from ghbench.emulator.graphql.resolvers.issues import ISSUE_COMMENT_FIELDS, ISSUE_FIELDS
from ghbench.emulator.graphql.resolvers.labels import LABEL_FIELDS
from ghbench.emulator.graphql.resolvers.mutations import MUTATION_FIELDS
from ghbench.emulator.graphql.resolvers.nodes import typename_of
from ghbench.emulator.graphql.resolvers.people import (
    ORGANIZATION_FIELDS,
    REVIEW_REQUEST_FIELDS,
    USER_FIELDS,
)
from ghbench.emulator.graphql.resolvers.pulls import (
    CHANGED_FILE_FIELDS,
    PULL_COMMIT_FIELDS,
    PULL_FIELDS,
    REVIEW_COMMENT_FIELDS,
    REVIEW_FIELDS,
    THREAD_FIELDS,
)
from ghbench.emulator.graphql.resolvers.reactions import (
    REACTION_CONNECTION_FIELDS,
    REACTION_FIELDS,
    REACTION_GROUP_FIELDS,
    REACTION_MUTATIONS,
)
from ghbench.emulator.graphql.resolvers.repo_info import (
    CONNECTION_EXTRA_FIELDS,
    REPOSITORY_INFO_FIELDS,
)
from ghbench.emulator.graphql.resolvers.repository import (
    ACTOR_FIELDS,
    BRANCH_PROTECTION_FIELDS,
    QUERY_FIELDS,
    REF_FIELDS,
    REPOSITORY_FIELDS,
)
from ghbench.emulator.graphql.resolvers.search import SEARCH_CONNECTION_FIELDS, search
from ghbench.emulator.graphql.resolvers.timeline import EVENT_FIELDS, TIMELINE_CONNECTION_FIELDS

__all__ = ["FIELD_RESOLVERS", "ResolveContext", "typename_of"]

# Bots have no name, e-mail or repositories on GitHub.
_NOT_ON_BOTS = frozenset({"name", "email", "repository"})

FIELD_RESOLVERS: dict[str, dict[str, Any]] = {
    "Query": {**QUERY_FIELDS, "search": search},
    "Mutation": {**MUTATION_FIELDS, **CONVERSATION_MUTATIONS, **REACTION_MUTATIONS},
    "Repository": {**REPOSITORY_FIELDS, **REPOSITORY_INFO_FIELDS},
    "Ref": REF_FIELDS,
    "User": {**ACTOR_FIELDS, **USER_FIELDS},
    "Bot": {k: v for k, v in ACTOR_FIELDS.items() if k not in _NOT_ON_BOTS},
    "Organization": {
        **{k: v for k, v in ACTOR_FIELDS.items() if k != "email"},
        **ORGANIZATION_FIELDS,
    },
    "ReviewRequest": REVIEW_REQUEST_FIELDS,
    "PullRequest": PULL_FIELDS,
    "PullRequestCommit": PULL_COMMIT_FIELDS,
    "PullRequestChangedFile": CHANGED_FILE_FIELDS,
    "PullRequestReview": REVIEW_FIELDS,
    "PullRequestReviewThread": THREAD_FIELDS,
    "PullRequestReviewComment": REVIEW_COMMENT_FIELDS,
    "Commit": COMMIT_FIELDS,
    "StatusCheckRollup": ROLLUP_FIELDS,
    "StatusCheckRollupContextConnection": CONTEXT_CONNECTION_FIELDS,
    "CheckRun": CHECK_RUN_FIELDS,
    "CheckSuite": CHECK_SUITE_FIELDS,
    "WorkflowRun": WORKFLOW_RUN_FIELDS,
    "Workflow": WORKFLOW_FIELDS,
    "BranchProtectionRule": BRANCH_PROTECTION_FIELDS,
    "PullRequestTimelineItemsConnection": TIMELINE_CONNECTION_FIELDS,
    "IssueTimelineItemsConnection": TIMELINE_CONNECTION_FIELDS,
    **EVENT_FIELDS,
    "StatusContext": STATUS_CONTEXT_FIELDS,
    "Issue": ISSUE_FIELDS,
    "IssueComment": ISSUE_COMMENT_FIELDS,
    "Label": LABEL_FIELDS,
    "ReactionGroup": REACTION_GROUP_FIELDS,
    "Reaction": REACTION_FIELDS,
    "ReactionConnection": REACTION_CONNECTION_FIELDS,
    "SearchResultItemConnection": SEARCH_CONNECTION_FIELDS,
    **CONNECTION_EXTRA_FIELDS,
}
