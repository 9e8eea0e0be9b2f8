"""The emulator's state: one :class:`Store` over durable records.

Construct with ``Store(db, clock, rng, git)`` where ``db`` is ``MemoryDatabase()``
(simulation) or ``SqliteDatabase(dir)`` (durable, resumes on restart) and ``git`` the
``GitStorage`` holding each repository's git objects (default: in memory). Records
are the structs in :mod:`.models` (``User``, ``Repo``, ``PullRequest``, ``Issue``,
``CommitStatus``, ``CheckRun``, ``Review``, ``ReviewThread``, ``ReviewComment``,
``IssueComment``, ``Ref``, ``Commit``, ``Token``, ``Label``, ``Protection``,
``IssueEvent``, ``Reaction``, ``Workflow``, ``CheckSuite``, ``WorkflowRun``); read
their attributes freely, but change them only through the methods below so every
change is persisted and invalidates ETags. ``begin_request(user)``/``end_request()``
frame an API request (its user is the actor of the events it causes).

Reads (never raise unless noted; ``None`` when absent):
    user(login) / user_by_id(id) / node(node_id)
    repo(owner, name) / get_repo(owner, name)   # get_repo raises NotFound (404)
    commit(repo, sha) / ref(repo, "heads/main") / branch_sha(repo, branch)
    resolve(repo, ref)                          # sha, short sha, branch, tag -> sha
    tree(repo, sha) / branch_file(repo, branch, path) / blob(repo, blob_id)
    merge_base(repo, sha1, sha2) / commits_between(repo, base, head) / git_dir(repo)
    pull_files(pull)                            # what a PR changes (trees.FileChange)
    commit_files(repo, commit)                  # what a commit changes (vs its 1st parent)
    changes(repo, base_sha, head_sha)           # the diff behind both (cached)
    refs_with_prefix(repo, "heads/")
    issue(repo, n) / issues(repo, state="open"|"closed"|"all") / issue_comments(repo, n)
    pull(repo, n) / pulls_by_id[id] / pulls(repo, state, head=branch, base=branch)
    reviews(pull) / review_threads(pull) / thread_comments(thread) / review_comments(pull)
    statuses(repo, sha) / latest_statuses(repo, sha) / combined_state(repo, sha)
    check_runs(repo, sha) / check_run(repo, id) / check_states(repo, sha)
    mergeability(pull) / merge_state(pull) / merge_refusal(pull)   # merging.py
    protection(repo, branch) / review_decision(pull) / closing_issues(pull)
    events(issue or pull) / reactions(node_id, content=) / issue_comment(repo, id)
    runs(repo) / workflow_run(repo, id) / jobs(run) / job(repo, id) / steps(job) / job_log(job)
    check_suites(repo, sha) / suite_of(run) / workflows(repo)      # actions.py
    version(repo_id) -> opaque tuple that changes whenever the repository changes
Writes (raise emulator.errors.ApiError subclasses with GitHub's status and message):
    ensure_user(login) / add_token(user, secret) / token_for(secret)
    create_repo(owner, name, default_branch="main")
    commit_to_branch(repo, branch, message, files=) / create_commit(repo, msg, parents, tree=)
    create_ref / update_ref / delete_ref / move_branch(repo, branch, sha)
    import_commits(repo, parsed) / sync_refs(repo, disk_refs)   # a git push (pushes.py)
    create_issue(repo, author, title, body=, labels=) / set_issue_state(issue, state)
    set_issue_labels(issue, labels) / set_labels(issue or pull, names)
    labels(repo) / label(repo, name) / create_label / update_label / delete_label
    add_default_labels(repo) / label_names(repo, names)  # creates missing labels
    assignable_users(repo) / set_assignees / add_assignees / remove_assignees
    request_reviews(pull, users) / remove_review_requests(pull, users)
    add_issue_comment(repo, number, author, body)
    create_pull(repo, author, title, head, base, body=, draft=, create_head=)
    update_pull(pull, **fields) / close_pull(pull) / reopen_pull(pull)
    merge_pull(pull, actor, method="merge", commit_title=, expected_head_sha=) -> sha
    update_branch(pull, actor) / enable_auto_merge(pull, actor, method) / disable_auto_merge
    protect(repo, branch, **rules) / unprotect(repo, branch) / set_locked(item, locked, reason)
    react(repo_id, node_id, user, content) / unreact(reaction)
    edit_comment(issue or review comment, body) / delete_issue_comment / delete_review_comment
    add_review(pull, author, state, body=) / add_review_comment(pull, author, body, ...)
    resolve_thread(thread, by, resolved=True)
    add_status(repo, sha, state, creator, context=) / create_check_run(repo, sha, name, ...)
    update_check_run(run, status=, conclusion=) / set_ci(repo, sha, state, creator, log=)
Wrap several writes in ``store.db.transaction()`` to commit them once (the core does
this per request).
"""

from __future__ import annotations

from ghbench.emulator.state import models
from ghbench.emulator.state.actions import ActionsOps
from ghbench.emulator.state.checks import CI_STATES
from ghbench.emulator.state.db import Database, MemoryDatabase, SqliteDatabase
from ghbench.emulator.state.labels import DEFAULT_LABELS
from ghbench.emulator.state.merging import MergeOps

# the records, as the models module lists them (its __all__): the package exports them too
from ghbench.emulator.state.models import *  # noqa: F403
from ghbench.emulator.state.reactions import ReactionOps
from ghbench.emulator.state.repos import TokenKind, token_digest

__all__ = [
    "CI_STATES",
    "DEFAULT_LABELS",
    "Database",
    "MemoryDatabase",
    "SqliteDatabase",
    "Store",
    "TokenKind",
    "token_digest",
]
__all__ += models.__all__  # the records


class Store(MergeOps, ActionsOps, ReactionOps):
    """Every record of the emulated GitHub, indexed in memory, persisted through ``db``."""
