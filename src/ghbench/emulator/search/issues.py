"""Issue and pull request search: the qualifier table, text matching, sorting, and the
searches (issues, repositories, users) the REST and GraphQL routes call."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ghbench.emulator.state.models import Issue, Repo, User

if TYPE_CHECKING:
    from ghbench.emulator.state import Store
from ghbench.emulator.search.facts import (
    Item,
    ci_state,
    comment_count,
    comments_of,
    has_any_label,
    involves,
    login_of,
    mentions,
    pull_of,
    reviews_state,
)
from ghbench.emulator.search.query import (
    UNSEARCHABLE_REPOS,
    UNSEARCHABLE_USERS,
    USER_KEYS,
    ParsedQuery,
    SearchProblem,
    Term,
    date_atom,
    in_range,
    matching,
    number_atom,
    parse_query,
    word_pattern,
)


# -- issue and pull request qualifiers ----------------------------------------------
@dataclass
class _IssueContext:
    store: Store
    viewer: User | None
    fields: frozenset[str]  # where words are looked for: title, body, comments

    def logins(self, value: str) -> set[str]:
        """``@me`` is the viewer; ``app/NAME`` is the integration's bot account."""
        if value == "@me":
            return {self.viewer.login.lower()} if self.viewer else set()
        if value.lower().startswith("app/"):
            name = value[4:].lower()
            return {name, f"{name}[bot]"}
        return {value.lower()}


IssueMatcher = Callable[[_IssueContext, Item, str], bool]
_NOTHING: IssueMatcher = lambda c, i, v: False  # noqa: E731 - not modelled: always empty


def _is(c: _IssueContext, item: Item, value: str) -> bool:
    pull = pull_of(item)
    repo = c.store.repos[item.repo_id]
    tests: dict[str, Callable[[], bool]] = {
        "pr": lambda: pull is not None,
        "issue": lambda: pull is None,
        "open": lambda: item.state == "open",
        "closed": lambda: item.state == "closed",
        "merged": lambda: pull is not None and pull.merged,
        "unmerged": lambda: pull is not None and not pull.merged,
        "draft": lambda: pull is not None and pull.draft,
        "public": lambda: not repo.private,
        "private": lambda: repo.private,
        "locked": lambda: item.locked,
        "unlocked": lambda: not item.locked,
    }
    test = tests.get(value.lower())
    return test() if test else False  # is:queued, is:internal: never


def _state(c: _IssueContext, item: Item, value: str) -> bool:
    pull = pull_of(item)
    if value.lower() == "merged":  # not documented; kept for older emulator clients
        return pull is not None and pull.merged
    return item.state == value.lower()


def _type(c: _IssueContext, item: Item, value: str) -> bool:
    return value.lower() in ({"pr", "pull-request"} if pull_of(item) else {"issue"})


def _reason(c: _IssueContext, item: Item, value: str) -> bool:
    if not isinstance(item, Issue):
        return False
    return (item.state_reason or "") == value.lower().replace(" ", "_")


def _repo(c: _IssueContext, item: Item, value: str) -> bool:
    return c.store.repos[item.repo_id].full_name.lower() == value.lower()


def _owner(c: _IssueContext, item: Item, value: str) -> bool:
    return c.store.repos[item.repo_id].owner_login.lower() == value.lower()


def _author(c: _IssueContext, item: Item, value: str) -> bool:
    return login_of(c.store, item.user_id) in c.logins(value)


def _mentions(c: _IssueContext, item: Item, value: str) -> bool:
    return any(mentions(c.store, item, login) for login in c.logins(value))


def _commenter(c: _IssueContext, item: Item, value: str) -> bool:
    logins = c.logins(value)
    return any(login_of(c.store, uid) in logins for uid, _ in comments_of(c.store, item))


def _involves(c: _IssueContext, item: Item, value: str) -> bool:
    return any(involves(c.store, item, login) for login in c.logins(value))


def _label(c: _IssueContext, item: Item, value: str) -> bool:
    return has_any_label(item, [value])


def _status(c: _IssueContext, item: Item, value: str) -> bool:
    pull = pull_of(item)
    return pull is not None and ci_state(c.store, pull) == value.lower()


def _branch(attribute: str) -> IssueMatcher:
    def match(c: _IssueContext, item: Item, value: str) -> bool:
        pull = pull_of(item)
        return pull is not None and str(getattr(pull, attribute)).lower() == value.lower()

    return match


def _draft(c: _IssueContext, item: Item, value: str) -> bool:
    pull = pull_of(item)
    return (
        pull is not None
        and value.lower() in ("true", "false")
        and (pull.draft == (value.lower() == "true"))
    )


def _review(c: _IssueContext, item: Item, value: str) -> bool:
    pull = pull_of(item)
    if pull is None:
        return False
    wanted = value.lower()
    if wanted == "none":
        return not [r for r in c.store.reviews(pull) if r.state != "PENDING"]
    if wanted == "required":  # the base branch requires approvals it does not have yet
        return c.store.review_decision(pull) == "REVIEW_REQUIRED"
    decision = reviews_state(c.store, pull)
    return decision is not None and decision.lower() == wanted


def _reviewed_by(c: _IssueContext, item: Item, value: str) -> bool:
    pull = pull_of(item)
    logins = c.logins(value)
    return pull is not None and any(
        r.state != "PENDING" and login_of(c.store, r.user_id) in logins
        for r in c.store.reviews(pull)
    )


def _when(attribute: str) -> IssueMatcher:
    def match(c: _IssueContext, item: Item, value: str) -> bool:
        return in_range(getattr(item, attribute, None), value, date_atom)

    return match


def _comments_count(c: _IssueContext, item: Item, value: str) -> bool:
    return in_range(float(comment_count(c.store, item)), value, number_atom)


def _reactions(store: Store, item: Item) -> int:
    return len(store.reactions(item.node_id))


def _reactions_count(c: _IssueContext, item: Item, value: str) -> bool:
    return in_range(float(_reactions(c.store, item)), value, number_atom)


def _interactions(c: _IssueContext, item: Item, value: str) -> bool:
    count = comment_count(c.store, item) + _reactions(c.store, item)
    return in_range(float(count), value, number_atom)


def _linked(c: _IssueContext, item: Item, value: str) -> bool:
    """``linked:pr``: issues an open or merged pull request's body closes; ``linked:issue``:
    pull requests whose body closes an issue."""
    pull = pull_of(item)
    if value.lower() == "issue":
        return pull is not None and bool(c.store.closing_issues(pull))
    if value.lower() == "pr" and pull is None:
        return any(
            item in c.store.closing_issues(p)
            for p in c.store.pulls(c.store.repos[item.repo_id], "all")
            if p.state == "open" or p.merged
        )
    return False


def _assignee(c: _IssueContext, item: Item, value: str) -> bool:
    logins = c.logins(value)
    return any(login_of(c.store, uid) in logins for uid in item.assignees)


def _review_requested(c: _IssueContext, item: Item, value: str) -> bool:
    """``review-requested:`` / ``user-review-requested:``: a pending request to the user
    (teams are not modelled, so a user is only ever asked directly)."""
    pull = pull_of(item)
    logins = c.logins(value)
    return pull is not None and any(
        login_of(c.store, uid) in logins for uid in pull.requested_reviewers
    )


def _no(c: _IssueContext, item: Item, value: str) -> bool:
    wanted = value.lower()
    if wanted == "label":
        return not item.labels
    if wanted == "assignee":
        return not item.assignees
    return wanted in ("milestone", "project")


_ISSUE_QUALIFIERS: dict[str, IssueMatcher] = {
    "is": _is,
    "type": _type,
    "state": _state,
    "reason": _reason,
    "repo": _repo,
    "user": _owner,
    "org": _owner,
    "author": _author,
    "mentions": _mentions,
    "commenter": _commenter,
    "involves": _involves,
    "label": _label,
    "status": _status,
    "head": _branch("head_ref"),
    "base": _branch("base_ref"),
    "draft": _draft,
    "review": _review,
    "reviewed-by": _reviewed_by,
    "created": _when("created_at"),
    "updated": _when("updated_at"),
    "closed": _when("closed_at"),
    "merged": _when("merged_at"),
    "comments": _comments_count,
    "interactions": _interactions,  # comments + reactions
    "reactions": _reactions_count,
    "linked": _linked,
    "archived": lambda c, i, v: v.lower() == "false",
    "no": _no,
    "assignee": _assignee,
    "review-requested": _review_requested,
    "user-review-requested": _review_requested,
    # Not modelled, so empty on every object: nothing has them.
    "team": _NOTHING,
    "milestone": _NOTHING,
    "project": _NOTHING,
    "language": _NOTHING,
    "team-review-requested": _NOTHING,
}
_HEX = re.compile(r"[0-9a-f]{7,40}")


def _text(c: _IssueContext, item: Item, phrase: str) -> bool:
    if not phrase:
        return True
    pattern = word_pattern(phrase)
    texts = []
    if "title" in c.fields:
        texts.append(item.title)
    if "body" in c.fields:
        texts.append(item.body or "")
    if "comments" in c.fields:
        texts += [body for _, body in comments_of(c.store, item)]
    if any(pattern.search(text) for text in texts):
        return True
    pull = pull_of(item)
    if pull is not None and _HEX.fullmatch(phrase.lower()):
        shas = (pull.head_sha, pull.merge_commit_sha or "")
        return any(sha.startswith(phrase.lower()) for sha in shas)
    return False


def _issue_match(c: _IssueContext) -> Callable[[Term, Item], bool]:
    def match(term: Term, item: Item) -> bool:
        if term.key is None:
            return _text(c, item, term.values[0])
        matcher = _ISSUE_QUALIFIERS.get(term.key)
        if matcher is None:  # a repository or user qualifier (stars:, size:…): text here
            return _text(c, item, term.raw.replace('"', ""))
        return any(matcher(c, item, value) for value in term.values)

    return match


def _text_fields(parsed: ParsedQuery, allowed: Sequence[str]) -> frozenset[str]:
    chosen = {v.lower() for t in parsed.qualifiers("in") for v in t.values} & set(allowed)
    return frozenset(chosen or allowed)


def _check_names(store: Store, parsed: ParsedQuery) -> None:
    """GitHub's 422s for ``repo:``/``user:``/``org:`` and user qualifiers of which none
    exists (at least one that exists is enough)."""
    scopes = parsed.qualifiers("repo", "user", "org")
    if scopes and not any(_scope_exists(store, t.key or "", v) for t in scopes for v in t.values):
        raise SearchProblem(UNSEARCHABLE_REPOS)
    named = [
        v
        for t in parsed.qualifiers(*USER_KEYS)
        for v in t.values
        if v not in {"@me", "*"} and not v.lower().startswith("app/")
    ]
    if named and not any(store.user(v) is not None for v in named):
        raise SearchProblem(UNSEARCHABLE_USERS)


def _scope_exists(store: Store, key: str, value: str) -> bool:
    if key == "repo":
        owner, _, name = value.partition("/")
        return bool(name) and store.repo(owner, name) is not None
    return store.user(value) is not None


# -- sorting --------------------------------------------------------------------------
def _sort_key(store: Store, field: str) -> Callable[[Item], tuple[float, int]] | None:
    keys: dict[str, Callable[[Item], tuple[float, int]]] = {
        "created": lambda i: (i.created_at, i.id),
        "updated": lambda i: (i.updated_at, i.id),
        "comments": lambda i: (comment_count(store, i), i.id),
        "interactions": lambda i: (comment_count(store, i) + _reactions(store, i), i.id),
        "reactions": lambda i: (_reactions(store, i), i.id),
    }
    return keys.get(field.split("-", 1)[0] if field.startswith("reactions") else field)


def _ordering(
    store: Store, parsed: ParsedQuery, sort: str | None, order: str | None
) -> tuple[Callable[[Item], tuple[float, int]], bool]:
    """REST's ``sort``/``order`` win over a ``sort:`` qualifier; GitHub's default is
    best match, which the emulator ranks newest first."""
    if sort:
        key = _sort_key(store, sort.lower())
        if key is not None:
            return key, (order or "desc").lower() != "asc"
    for term in parsed.qualifiers("sort"):
        value = term.values[0].lower()
        field, direction = value, "desc"
        if value.endswith(("-asc", "-desc")):
            field, _, direction = value.rpartition("-")
        key = _sort_key(store, field)
        if key is not None:
            return key, direction == "desc"
    return (lambda i: (i.created_at, i.id)), True


# -- the searches -----------------------------------------------------------------------
def search_issues(
    store: Store,
    query: str,
    viewer: User | None,
    *,
    sort: str | None = None,
    order: str | None = None,
) -> list[Item]:
    """Every issue and pull request ``query`` matches, in result order (all of them:
    callers apply the 1,000-result cap and report the full count)."""
    parsed = parse_query(query)
    _check_names(store, parsed)
    context = _IssueContext(store, viewer, _text_fields(parsed, ("title", "body", "comments")))
    match = _issue_match(context)
    candidates: list[Item] = [*store.issues_by_number.values(), *store.pulls_by_number.values()]
    hits = matching(parsed, candidates, match)
    key, descending = _ordering(store, parsed, sort, order)
    hits.sort(key=key, reverse=descending)
    return hits


def search_repositories(store: Store, query: str) -> list[Repo]:
    """Repositories: words in the name or description (``in:name``/``in:description``),
    ``repo:``, ``user:``/``org:``, ``is:public``/``is:private``, ``fork:``/``archived:``
    (none are forks or archived); any other qualifier matches nothing. Newest first."""
    parsed = parse_query(query)
    fields = _text_fields(parsed, ("name", "description"))

    def match(term: Term, repo: Repo) -> bool:
        if term.key is None:
            pattern = word_pattern(term.values[0])
            texts = [repo.name, repo.full_name] if "name" in fields else []
            texts += [repo.description or ""] if "description" in fields else []
            return any(pattern.search(t) for t in texts)
        tests: dict[str, Callable[[str], bool]] = {
            "repo": lambda v: repo.full_name.lower() == v.lower(),
            "user": lambda v: repo.owner_login.lower() == v.lower(),
            "org": lambda v: repo.owner_login.lower() == v.lower(),
            "is": lambda v: v.lower() == ("private" if repo.private else "public"),
            "fork": lambda v: v.lower() in ("true", "false"),  # forks included or not: none
            "archived": lambda v: v.lower() == "false",
        }
        test = tests.get(term.key)
        return test is not None and any(test(v) for v in term.values)

    hits = matching(parsed, store.repos.values(), match)
    return sorted(hits, key=lambda r: (r.created_at, r.id), reverse=True)


def search_users(store: Store, query: str) -> list[User]:
    """Users and organizations: words in the login or name, ``type:user|org``; any other
    qualifier matches nothing. Oldest first."""
    parsed = parse_query(query)

    def match(term: Term, user: User) -> bool:
        if term.key is None:
            pattern = word_pattern(term.values[0])
            return any(pattern.search(t) for t in (user.login, user.name or ""))
        if term.key == "type":
            kind = "org" if user.type == "Organization" else user.type.lower()
            return any(v.lower() == kind for v in term.values)
        return False

    people = [u for u in store.users.values() if u.type != "Bot"]
    return matching(parsed, people, match)
