"""Search: the one query parser and matcher behind REST ``GET /search/issues`` and
GraphQL ``search(query:, type:)``, so a query means the same on both.

The syntax is GitHub's (docs: "Searching issues and pull requests", "Understanding the
search syntax", "Sorting search results"):

- space-separated terms must all match; ``OR`` joins alternatives and binds loosest,
  so ``repo:a/b author:x OR author:y`` keeps the repository on the left side only
  (which is how github.com reads it, cli/cli#11774); ``AND`` is optional, ``NOT x``
  and ``-x`` negate one term, parentheses group;
- ``key:value`` is a qualifier, ``key:"two words"`` and ``"a phrase"`` quote, and a
  value ``a,b`` means either (``label:bug,ui``); repeating a single-valued qualifier
  (``repo``/``user``/``org``, ``author``, ``involves``, ``head``, ``base``,
  ``language``) means either, repeating ``label`` means both (docs examples);
- a ``key:`` GitHub does not have (``foo:bar``) is plain text, like any word. Words
  match at a word start (``fix`` finds "fixes", not "prefix") in the title, body and
  comments (``in:`` narrows that); a 7-40 digit hex word also finds pull requests
  whose head or merge commit starts with it.

What each qualifier matches is in ``_ISSUE_QUALIFIERS``. Metadata the emulator does
not model (assignees, milestones, projects, teams, review requests, closing links,
repository languages, reactions, locks, archiving) is empty on every REST and GraphQL
object, so a qualifier that asks for it matches nothing and its ``no:``/``-`` forms
match everything: the same answer the objects themselves give.

Problems GitHub's REST API answers with 422 raise :class:`SearchProblem` with GitHub's
message: invalid syntax, more than 256 characters of text, more than five operators,
and ``repo:``/``user:``/``org:`` or user qualifiers of which none exists (one that
exists is enough: the others are ignored, as measured on github.com). The callers
decide what to do with it (REST: 422; GraphQL: an empty result, see
``graphql/resolvers/search.py``). Everything here reads the store and never writes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar

from ghbench.emulator.state.models import Issue, PullRequest, Repo, User

if TYPE_CHECKING:
    from ghbench.emulator.state import Store

__all__ = [
    "MAX_RESULTS",
    "Item",
    "SearchProblem",
    "Term",
    "ci_state",
    "has_any_label",
    "involves",
    "mentions",
    "parse_query",
    "review_decision",
    "search_issues",
    "search_repositories",
    "search_users",
]

Item = Issue | PullRequest
T = TypeVar("T")

MAX_RESULTS = 1000  # "a maximum of 1,000 results will be available" (REST docs, GraphQL schema)
MAX_TEXT = 256  # characters of free text, qualifiers and operators excluded (REST docs)
MAX_OPERATORS = 5  # AND / OR / NOT (REST docs)

# GitHub's messages (REST 422 bodies reported from github.com).
UNSEARCHABLE_REPOS = (
    "The listed users and repositories cannot be searched either because the resources do "
    "not exist or you do not have permission to view them."
)
UNSEARCHABLE_USERS = (
    "The listed users cannot be searched either because the users do not exist or you do "
    "not have permission to view the users."
)
INVALID_SYNTAX = "The search query contains invalid syntax."
TOO_LONG = "The search is longer than 256 characters."
TOO_MANY_OPERATORS = "More than five AND / OR / NOT operators were used."


class SearchProblem(Exception):
    """A query GitHub's REST search refuses with 422 ``Validation Failed``."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# -- the query language ---------------------------------------------------------------
@dataclass(frozen=True)
class Term:
    """One word, phrase or qualifier. ``key`` is None for text; ``values`` are the
    comma-separated alternatives with quotes removed."""

    key: str | None
    values: tuple[str, ...]
    raw: str
    negated: bool = False

    @property
    def value(self) -> str:
        return ",".join(self.values)


@dataclass(frozen=True)
class Negation:
    node: Node


@dataclass(frozen=True)
class AllOf:
    nodes: tuple[Node, ...]


@dataclass(frozen=True)
class AnyOf:
    nodes: tuple[Node, ...]


Node = Term | Negation | AllOf | AnyOf


@dataclass(frozen=True)
class ParsedQuery:
    root: Node | None
    terms: tuple[Term, ...]
    operators: int

    def qualifiers(self, *keys: str) -> list[Term]:
        return [t for t in self.terms if t.key in keys]

    @property
    def text_length(self) -> int:
        """Free text as GitHub counts it for the 256 limit (qualifiers excluded)."""
        return len(" ".join(t.raw for t in self.terms if t.key is None))


# Every qualifier GitHub documents for issue, pull request, repository and user search;
# any other ``key:`` is text.
QUALIFIER_KEYS = frozenset(
    {
        "archived", "assignee", "author", "base", "closed", "comments", "commenter",
        "created", "draft", "followers", "fork", "forks", "good-first-issues",
        "head", "help-wanted-issues", "in", "interactions", "involves", "is", "label",
        "language", "license", "linked", "location", "merged", "mentions", "milestone",
        "mirror", "no", "org", "project", "pushed", "reactions", "reason", "repo",
        "repos", "review", "review-requested", "reviewed-by", "size", "sort", "stars",
        "state", "status", "team", "team-review-requested", "template", "topic",
        "topics", "type", "updated", "user", "user-review-requested",
    }
)  # fmt: skip
_OPERATORS = frozenset({"AND", "OR", "NOT"})
# Repeating one of these means either (their value is one per item); repo/user/org
# together form one scope.
_EITHER_WHEN_REPEATED = {
    "repo": "scope",
    "user": "scope",
    "org": "scope",
    "author": "author",
    "involves": "involves",
    "head": "head",
    "base": "base",
    "language": "language",
}
# Qualifiers that set how the search runs rather than what matches.
_GLOBAL_KEYS = frozenset({"sort", "in"})
_USER_KEYS = (
    "author",
    "assignee",
    "mentions",
    "commenter",
    "involves",
    "reviewed-by",
    "review-requested",
    "user-review-requested",
)


def _split_values(text: str) -> tuple[str, ...]:
    """``bug,"help wanted"`` -> ("bug", "help wanted"): commas outside quotes."""
    values: list[str] = []
    current: list[str] = []
    quoted = False
    for char in text:
        if char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            values.append("".join(current))
            current = []
        else:
            current.append(char)
    values.append("".join(current))
    return tuple(v.strip() for v in values if v.strip())


def _term(word: str) -> Term:
    negated = word.startswith("-") and len(word) > 1
    body = word[1:] if negated else word
    key, sep, rest = body.partition(":")
    if sep and rest and key.lower() in QUALIFIER_KEYS:
        values = _split_values(rest)
        if values:
            return Term(key.lower(), values, body, negated)
    return Term(None, (body.replace('"', "").strip(),), body, negated)


def _tokens(query: str) -> list[str | Term]:
    """Parentheses, operators (upper case only, as on GitHub) and terms."""
    out: list[str | Term] = []
    i, n = 0, len(query)
    while i < n:
        char = query[i]
        if char.isspace():
            i += 1
            continue
        if char in "()":
            out.append(char)
            i += 1
            continue
        start, quoted = i, False
        while i < n:
            char = query[i]
            if char == '"':
                quoted = not quoted
            elif not quoted and (char.isspace() or char in "()"):
                break
            i += 1
        word = query[start:i]
        out.append(word if word in _OPERATORS else _term(word))
    return out


class _Parser:
    """``or := and ("OR" and)*``, ``and := unary ("AND"? unary)*``,
    ``unary := "NOT" unary | "(" or ")" | term``."""

    _STOP = (None, ")", "OR", "AND")

    def __init__(self, tokens: list[str | Term]) -> None:
        self.tokens = tokens
        self.i = 0

    def peek(self) -> str | Term | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> str | Term | None:
        token = self.peek()
        self.i += 1
        return token

    def parse(self) -> Node | None:
        if not self.tokens:
            return None
        node = self.any_of()
        if self.i != len(self.tokens):  # a stray ")"
            raise SearchProblem(INVALID_SYNTAX)
        return node

    def any_of(self) -> Node:
        parts = [self.all_of()]
        while self.peek() == "OR":
            self.i += 1
            parts.append(self.all_of())
        return parts[0] if len(parts) == 1 else AnyOf(tuple(parts))

    def all_of(self) -> Node:
        parts: list[Node] = []
        while self.peek() not in (None, ")", "OR"):
            if self.peek() == "AND":
                self.i += 1
                if not parts or self.peek() in self._STOP:
                    raise SearchProblem(INVALID_SYNTAX)
                continue
            parts.append(self.unary())
        if not parts:
            raise SearchProblem(INVALID_SYNTAX)
        grouped = _group_repeats(parts)
        return grouped[0] if len(grouped) == 1 else AllOf(tuple(grouped))

    def unary(self) -> Node:
        token = self.take()
        if token == "NOT":
            if self.peek() in self._STOP:
                raise SearchProblem(INVALID_SYNTAX)
            return Negation(self.unary())
        if token == "(":
            node = self.any_of()
            if self.take() != ")":
                raise SearchProblem(INVALID_SYNTAX)
            return node
        if not isinstance(token, Term):
            raise SearchProblem(INVALID_SYNTAX)
        return token


def _group_repeats(parts: list[Node]) -> list[Node]:
    """Repeated single-valued qualifiers in one AND group become one OR."""
    groups: dict[str, list[Term]] = {}
    out: list[Node] = []
    for part in parts:
        group = _EITHER_WHEN_REPEATED.get(part.key or "") if isinstance(part, Term) else None
        if isinstance(part, Term) and group is not None and not part.negated:
            if group not in groups:
                groups[group] = []
                out.append(part)  # placeholder, replaced below
            groups[group].append(part)
        else:
            out.append(part)
    for members in groups.values():
        if len(members) > 1:
            out[out.index(members[0])] = AnyOf(tuple(members))
    return out


def _walk_terms(node: Node | None) -> Iterable[Term]:
    if node is None:
        return
    if isinstance(node, Term):
        yield node
    elif isinstance(node, Negation):
        yield from _walk_terms(node.node)
    else:
        for child in node.nodes:
            yield from _walk_terms(child)


def parse_query(query: str) -> ParsedQuery:
    """Parse ``query``; :class:`SearchProblem` for syntax GitHub refuses."""
    tokens = _tokens(query)
    root = _Parser(tokens).parse()
    operators = sum(1 for t in tokens if t in _OPERATORS)
    return ParsedQuery(root, tuple(_walk_terms(root)), operators)


def _evaluate(node: Node, item: T, match: Callable[[Term, T], bool]) -> bool:
    if isinstance(node, Term):
        if node.key in _GLOBAL_KEYS:
            return True
        return match(node, item) != node.negated
    if isinstance(node, Negation):
        return not _evaluate(node.node, item, match)
    if isinstance(node, AllOf):
        return all(_evaluate(child, item, match) for child in node.nodes)
    return any(_evaluate(child, item, match) for child in node.nodes)


def _check_limits(parsed: ParsedQuery) -> None:
    if parsed.text_length > MAX_TEXT:
        raise SearchProblem(TOO_LONG)
    if parsed.operators > MAX_OPERATORS:
        raise SearchProblem(TOO_MANY_OPERATORS)


# -- ranges: dates and numbers -----------------------------------------------------
Span = tuple[float, float]  # [start, end)
_INF = float("inf")


def _date_atom(text: str) -> Span | None:
    """``YYYY-MM-DD`` is the whole day (UTC); with a time, that second (or minute)."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    start = moment.timestamp()
    if len(text) == 10:
        return start, start + 86_400
    return start, start + (60 if len(text) == 16 else 1)


def _number_atom(text: str) -> Span | None:
    return (float(text), float(text) + 1) if text.isdigit() else None


def _range(text: str, atom: Callable[[str], Span | None]) -> Span | None:
    """GitHub's ``>x``, ``>=x``, ``<x``, ``<=x``, ``a..b`` (``*`` open), or ``x``."""
    if ".." in text:
        low_text, _, high_text = text.partition("..")
        low = (-_INF, -_INF) if low_text == "*" else atom(low_text)
        high = (_INF, _INF) if high_text == "*" else atom(high_text)
        return None if low is None or high is None else (low[0], high[1])
    for prefix in (">=", "<=", ">", "<"):
        if text.startswith(prefix):
            span = atom(text[len(prefix) :])
            if span is None:
                return None
            return {
                ">=": (span[0], _INF),
                "<=": (-_INF, span[1]),
                ">": (span[1], _INF),
                "<": (-_INF, span[0]),
            }[prefix]
    return atom(text)


def _in_range(value: float | None, text: str, atom: Callable[[str], Span | None]) -> bool:
    span = _range(text, atom)
    return value is not None and span is not None and span[0] <= value < span[1]


# -- what an issue or pull request is -----------------------------------------------
def _pull(item: Item) -> PullRequest | None:
    return item if isinstance(item, PullRequest) else None


def _login(store: Store, user_id: int) -> str:
    user = store.users.get(user_id)
    return user.login.lower() if user else ""


def _comments(store: Store, item: Item) -> list[tuple[int, str]]:
    """(author id, body) of every comment: issue comments, and a PR's review comments
    and review bodies."""
    out = [(c.user_id, c.body) for c in store.issue_comments_by_number.get(_key(item), [])]
    pull = _pull(item)
    if pull is not None:
        out += [(c.user_id, c.body) for c in store.review_comments(pull)]
        out += [(r.user_id, r.body) for r in store.reviews(pull) if r.body]
    return out


def _key(item: Item) -> tuple[int, int]:
    return (item.repo_id, item.number)


def comment_count(store: Store, item: Item) -> int:
    """GitHub's ``comments`` count: issue comments (review comments are separate)."""
    return len(store.issue_comments_by_number.get(_key(item), []))


def has_any_label(item: Item, names: Iterable[str]) -> bool:
    """Label names compare case-insensitively on GitHub."""
    wanted = {n.casefold() for n in names}
    return any(label.casefold() in wanted for label in item.labels)


@functools.lru_cache(maxsize=256)
def _mention_pattern(login: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w@])@{re.escape(login)}(?![\w-])", re.IGNORECASE)


def mentions(store: Store, item: Item, login: str) -> bool:
    """``@login`` in the body or a comment."""
    pattern = _mention_pattern(login)
    texts = [item.body or "", *(body for _, body in _comments(store, item))]
    return any(pattern.search(text) for text in texts)


def involves(store: Store, item: Item, login: str) -> bool:
    """Author, assignee (none are modelled), mentioned or commenter (docs: involves)."""
    wanted = login.lower()
    return (
        _login(store, item.user_id) == wanted
        or mentions(store, item, login)
        or any(_login(store, uid) == wanted for uid, _ in _comments(store, item))
    )


def review_decision(store: Store, pull: PullRequest) -> str | None:
    """APPROVED / CHANGES_REQUESTED from each reviewer's latest decisive review (a later
    COMMENTED review does not undo one)."""
    latest: dict[int, str] = {}
    for review in store.reviews(pull):
        if review.state in ("APPROVED", "CHANGES_REQUESTED", "DISMISSED"):
            latest[review.user_id] = review.state
    decisions = set(latest.values())
    if "CHANGES_REQUESTED" in decisions:
        return "CHANGES_REQUESTED"
    if "APPROVED" in decisions:
        return "APPROVED"
    return None


_RUN_STATE = {
    "success": "success",
    "neutral": "success",
    "skipped": "success",
    "failure": "failure",
    "cancelled": "failure",
    "timed_out": "failure",
    "action_required": "failure",
    "startup_failure": "failure",
    "stale": "pending",
}


def ci_state(store: Store, pull: PullRequest) -> str | None:
    """The head commit's combined CI state (statuses and check runs, latest each), or
    None when it has neither: success, failure or pending."""
    repo = store.repos[pull.repo_id]
    states = [
        "failure" if s.state == "error" else s.state
        for s in store.latest_statuses(repo, pull.head_sha)
    ]
    seen: set[str] = set()
    for run in store.check_runs(repo, pull.head_sha):  # newest first
        if run.name in seen:
            continue
        seen.add(run.name)
        done = run.status == "completed"
        states.append(_RUN_STATE.get(run.conclusion or "", "pending") if done else "pending")
    if not states:
        return None
    for worst in ("failure", "pending"):
        if worst in states:
            return worst
    return "success"


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
    pull = _pull(item)
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
        "unlocked": lambda: True,
    }
    test = tests.get(value.lower())
    return test() if test else False  # is:locked, is:queued, is:internal: never


def _state(c: _IssueContext, item: Item, value: str) -> bool:
    pull = _pull(item)
    if value.lower() == "merged":  # not documented; kept for older emulator clients
        return pull is not None and pull.merged
    return item.state == value.lower()


def _type(c: _IssueContext, item: Item, value: str) -> bool:
    return value.lower() in ({"pr", "pull-request"} if _pull(item) else {"issue"})


def _reason(c: _IssueContext, item: Item, value: str) -> bool:
    if not isinstance(item, Issue):
        return False
    return (item.state_reason or "") == value.lower().replace(" ", "_")


def _repo(c: _IssueContext, item: Item, value: str) -> bool:
    return c.store.repos[item.repo_id].full_name.lower() == value.lower()


def _owner(c: _IssueContext, item: Item, value: str) -> bool:
    return c.store.repos[item.repo_id].owner_login.lower() == value.lower()


def _author(c: _IssueContext, item: Item, value: str) -> bool:
    return _login(c.store, item.user_id) in c.logins(value)


def _mentions(c: _IssueContext, item: Item, value: str) -> bool:
    return any(mentions(c.store, item, login) for login in c.logins(value))


def _commenter(c: _IssueContext, item: Item, value: str) -> bool:
    logins = c.logins(value)
    return any(_login(c.store, uid) in logins for uid, _ in _comments(c.store, item))


def _involves(c: _IssueContext, item: Item, value: str) -> bool:
    return any(involves(c.store, item, login) for login in c.logins(value))


def _label(c: _IssueContext, item: Item, value: str) -> bool:
    return has_any_label(item, [value])


def _status(c: _IssueContext, item: Item, value: str) -> bool:
    pull = _pull(item)
    return pull is not None and ci_state(c.store, pull) == value.lower()


def _branch(attribute: str) -> IssueMatcher:
    def match(c: _IssueContext, item: Item, value: str) -> bool:
        pull = _pull(item)
        return pull is not None and str(getattr(pull, attribute)).lower() == value.lower()

    return match


def _draft(c: _IssueContext, item: Item, value: str) -> bool:
    pull = _pull(item)
    return (
        pull is not None
        and value.lower() in ("true", "false")
        and (pull.draft == (value.lower() == "true"))
    )


def _review(c: _IssueContext, item: Item, value: str) -> bool:
    pull = _pull(item)
    if pull is None:
        return False
    wanted = value.lower()
    if wanted == "none":
        return not [r for r in c.store.reviews(pull) if r.state != "PENDING"]
    decision = review_decision(c.store, pull)
    return decision is not None and decision.lower() == wanted  # review:required: never


def _reviewed_by(c: _IssueContext, item: Item, value: str) -> bool:
    pull = _pull(item)
    logins = c.logins(value)
    return pull is not None and any(
        r.state != "PENDING" and _login(c.store, r.user_id) in logins for r in c.store.reviews(pull)
    )


def _when(attribute: str) -> IssueMatcher:
    def match(c: _IssueContext, item: Item, value: str) -> bool:
        return _in_range(getattr(item, attribute, None), value, _date_atom)

    return match


def _comments_count(c: _IssueContext, item: Item, value: str) -> bool:
    return _in_range(float(comment_count(c.store, item)), value, _number_atom)


def _no(c: _IssueContext, item: Item, value: str) -> bool:
    if value.lower() == "label":
        return not item.labels
    return value.lower() in ("milestone", "assignee", "project")


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
    "interactions": _comments_count,  # comments + reactions; no reactions are modelled
    "reactions": lambda c, i, v: _in_range(0.0, v, _number_atom),
    "archived": lambda c, i, v: v.lower() == "false",
    "no": _no,
    # Not modelled, so empty on every object: nothing has them.
    "assignee": _NOTHING,
    "team": _NOTHING,
    "linked": _NOTHING,
    "milestone": _NOTHING,
    "project": _NOTHING,
    "language": _NOTHING,
    "review-requested": _NOTHING,
    "user-review-requested": _NOTHING,
    "team-review-requested": _NOTHING,
}
_HEX = re.compile(r"[0-9a-f]{7,40}")


@functools.lru_cache(maxsize=256)
def _word_pattern(phrase: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in phrase.split()]
    return re.compile(r"(?<!\w)" + r"\s+".join(words), re.IGNORECASE)


def _text(c: _IssueContext, item: Item, phrase: str) -> bool:
    if not phrase:
        return True
    pattern = _word_pattern(phrase)
    texts = []
    if "title" in c.fields:
        texts.append(item.title)
    if "body" in c.fields:
        texts.append(item.body or "")
    if "comments" in c.fields:
        texts += [body for _, body in _comments(c.store, item)]
    if any(pattern.search(text) for text in texts):
        return True
    pull = _pull(item)
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
        for t in parsed.qualifiers(*_USER_KEYS)
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
        "interactions": lambda i: (comment_count(store, i), i.id),
        "reactions": lambda i: (0, i.id),  # none are modelled: ties, by id
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
    _check_limits(parsed)
    _check_names(store, parsed)
    context = _IssueContext(store, viewer, _text_fields(parsed, ("title", "body", "comments")))
    match = _issue_match(context)
    candidates: list[Item] = [*store.issues_by_number.values(), *store.pulls_by_number.values()]
    root = parsed.root
    hits = [i for i in candidates if root is None or _evaluate(root, i, match)]
    key, descending = _ordering(store, parsed, sort, order)
    hits.sort(key=key, reverse=descending)
    return hits


def search_repositories(store: Store, query: str) -> list[Repo]:
    """Repositories: words in the name or description (``in:name``/``in:description``),
    ``repo:``, ``user:``/``org:``, ``is:public``/``is:private``, ``fork:``/``archived:``
    (none are forks or archived); any other qualifier matches nothing. Newest first."""
    parsed = parse_query(query)
    _check_limits(parsed)
    fields = _text_fields(parsed, ("name", "description"))

    def match(term: Term, repo: Repo) -> bool:
        if term.key is None:
            pattern = _word_pattern(term.values[0])
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

    root = parsed.root
    hits = [r for r in store.repos.values() if root is None or _evaluate(root, r, match)]
    return sorted(hits, key=lambda r: (r.created_at, r.id), reverse=True)


def search_users(store: Store, query: str) -> list[User]:
    """Users and organizations: words in the login or name, ``type:user|org``; any other
    qualifier matches nothing. Oldest first."""
    parsed = parse_query(query)
    _check_limits(parsed)

    def match(term: Term, user: User) -> bool:
        if term.key is None:
            pattern = _word_pattern(term.values[0])
            return any(pattern.search(t) for t in (user.login, user.name or ""))
        if term.key == "type":
            kind = "org" if user.type == "Organization" else user.type.lower()
            return any(v.lower() == kind for v in term.values)
        return False

    root = parsed.root
    people = [u for u in store.users.values() if u.type != "Bot"]
    return [u for u in people if root is None or _evaluate(root, u, match)]
