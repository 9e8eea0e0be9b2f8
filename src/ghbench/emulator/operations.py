"""The control operations as Python methods (the control API calls the same ones).

The workload model drives the in-process emulator through these: create users and
tokens, seed repositories/issues/PRs in bulk, move CI, add bursts of review
comments, move the virtual clock, read and export the ledger, tune faults and
limits, reset. All of them take the emulator's lock and commit before returning.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import msgspec

from ghbench.artifacts.io import write_new
from ghbench.budgets import Budget
from ghbench.clock import VirtualClock
from ghbench.emulator.control_bodies import SeedRepo, SeedSpec
from ghbench.emulator.errors import NotFound, invalid_field
from ghbench.emulator.parts import EmulatorParts
from ghbench.emulator.ratelimit import LedgerEntry
from ghbench.emulator.state import CI_STATES, PullRequest, Repo, TokenKind, User
from ghbench.emulator.state.db import LedgerFilter
from ghbench.errors import UsageError
from ghbench.validation import convert

__all__ = ["ControlOperations"]


class ControlOperations(EmulatorParts):
    """What the control API does, as methods; :class:`~ghbench.emulator.core.Emulator`
    adds answering requests."""

    # -- users, tokens, repos ----------------------------------------------------
    def create_user(
        self, login: str, tokens: list[str] | tuple[str, ...] = (), *, scopes: str | None = None
    ) -> list[str]:
        """Create ``login`` (if new) and register ``tokens`` (with ``scopes``, comma-
        separated, if given); returns their ledger ids."""
        with self.lock, self.db.transaction():
            user = self.store.ensure_user(login)
            return [self.store.add_token(user, t, scopes=scopes).label for t in tokens]

    def issue_token(
        self,
        login: str,
        secret: str,
        budget: Budget,
        *,
        installation: str | None = None,
        repository: str | None = None,
        scopes: str | None = None,
    ) -> str:
        """A token of ``budget``'s kind for ``login`` (created if new), limited as GitHub
        limits that kind (``ghbench.budgets``); returns its ledger id. A personal access
        token (or a custom budget) draws on its user's buckets, an App installation's
        on the installation's (``installation``, default the login), shared by every
        token of it; an Actions token on the bucket of each repository it calls
        (``repository`` for a call that names none)."""
        limits = budget.limits()
        app = budget.kind in ("app", "app-enterprise")
        kind = TokenKind(
            kind=budget.kind,
            bucket=f"installation:{installation or login}" if app else None,
            repository=repository,
            core_limit=None if budget.kind == "pat" else limits.core,
            graphql_limit=None if budget.kind == "pat" else limits.graphql,
        )
        with self.lock, self.db.transaction():
            user = self.store.ensure_user(login)
            return self.store.add_token(user, secret, scopes=scopes, kind=kind).label

    def create_repo(self, full_name: str, *, default_branch: str = "main") -> Repo:
        owner, _, name = full_name.partition("/")
        if not owner or not name:
            raise invalid_field("Repository", "name", "use owner/name")
        with self.lock, self.db.transaction():
            existing = self.store.repo(owner, name)
            if existing is not None:
                return existing
            repo = self.store.create_repo(owner, name, default_branch=default_branch)
            self.store.add_default_labels(repo)
            return repo

    def _repo(self, full_name: str) -> Repo:
        owner, _, name = full_name.partition("/")
        return self.store.get_repo(owner, name)

    def _user(self, login: str | None, fallback: Repo) -> User:
        if login is None:
            return self.store.user_by_id(fallback.owner_id)
        return self.store.ensure_user(login)

    def create_issue(
        self,
        full_name: str,
        title: str,
        *,
        body: str | None = None,
        author: str | None = None,
        labels: list[str] | tuple[str, ...] = (),
    ) -> int:
        """Open an issue; ``labels`` are names (missing labels are created)."""
        with self.lock, self.db.transaction():
            repo = self._repo(full_name)
            user = self._user(author, repo)
            return self.store.create_issue(repo, user, title, body=body, labels=list(labels)).number

    def create_pull(
        self,
        full_name: str,
        head: str,
        *,
        base: str | None = None,
        title: str | None = None,
        author: str | None = None,
        draft: bool = False,
        body: str | None = None,
        labels: list[str] | tuple[str, ...] = (),
    ) -> int:
        """Open a PR from ``head`` (pushed first if missing); returns its number."""
        with self.lock, self.db.transaction():
            repo = self._repo(full_name)
            pull = self.store.create_pull(
                repo,
                self._user(author, repo),
                title or f"Changes from {head}",
                head,
                base or repo.default_branch,
                body=body,
                draft=draft,
                create_head=True,
            )
            if labels:
                self.store.set_labels(pull, list(labels))
            return pull.number

    def set_labels(self, full_name: str, number: int, labels: list[str] | tuple[str, ...]) -> None:
        """Replace the labels of issue or pull request ``number``."""
        with self.lock, self.db.transaction():
            repo = self._repo(full_name)
            item = self.store.issue(repo, number) or self._pull(repo, number)
            self.store.set_labels(item, list(labels))

    def seed(self, spec: Mapping[str, Any], *, source: str = "seed") -> dict[str, Any]:
        """Bulk seeding in one transaction. ``spec`` (``control_bodies.SeedSpec``; a
        ConfigError names a bad key)::

            {"users": {"octo": ["ghp_..."]},
             "repos": [{"name": "acme/todo", "issues": 5, "pulls": 3, "ci": "success"}]}

        Each repo gets ``issues`` issues and ``pulls`` PRs from branches
        ``feat/issue-N``; ``ci`` (optional) sets CI on every PR head.
        """
        valid = convert(spec, SeedSpec, source=source)
        summary: dict[str, Any] = {"users": [], "repos": []}
        with self.lock, self.db.transaction():
            for login, tokens in valid.users.items():
                summary["users"].append({"login": login, "tokens": self.create_user(login, tokens)})
            for raw in valid.repos:
                entry = SeedRepo(name=raw) if isinstance(raw, str) else raw
                repo = self.create_repo(entry.name, default_branch=entry.default_branch)
                issues = [
                    self.create_issue(repo.full_name, f"Task {i + 1}") for i in range(entry.issues)
                ]
                pulls = []
                for i in range(entry.pulls):
                    issue_no = issues[i] if i < len(issues) else i + 1
                    number = self.create_pull(
                        repo.full_name, f"feat/issue-{issue_no}", title=f"Fix #{issue_no}"
                    )
                    pulls.append(number)
                    if entry.ci:
                        self.set_ci(repo.full_name, entry.ci, pr=number)
                summary["repos"].append({"name": repo.full_name, "issues": issues, "pulls": pulls})
        return summary

    # -- CI, pushes, review comments ----------------------------------------------
    def _pull(self, repo: Repo, number: int) -> PullRequest:
        pull = self.store.pull(repo, number)
        if pull is None:
            raise NotFound(f"no pull request #{number} in {repo.full_name}")
        return pull

    def set_ci(
        self,
        full_name: str,
        state: str,
        *,
        sha: str | None = None,
        pr: int | None = None,
        name: str = "ci",
        log: str | None = None,
    ) -> str:
        """Set CI (a status and the Actions job called ``name``, with ``log`` as its
        output) on ``sha`` or PR ``pr``'s head. ``state``: pending, queued, success,
        failure, error, cancelled."""
        if state not in CI_STATES:
            raise invalid_field("CI", "state", f"use one of {', '.join(CI_STATES)}")
        with self.lock, self.db.transaction():
            repo = self._repo(full_name)
            if sha is None:
                if pr is None:
                    raise invalid_field("CI", "sha", "give a sha or a pr number")
                sha = self._pull(repo, pr).head_sha
            owner = self.store.user_by_id(repo.owner_id)
            self.store.set_ci(repo, sha, state, owner, name=name, log=log)
            return sha

    def push(
        self,
        full_name: str,
        branch: str,
        message: str = "Update",
        *,
        files: Mapping[str, str] | None = None,
    ) -> str:
        """A new commit on ``branch``; open PRs from it move their head. Returns the sha.
        ``files`` (path -> text) are written; without them the commit rewrites README.md."""
        data = None if files is None else {p: t.encode() for p, t in files.items()}
        with self.lock, self.db.transaction():
            repo = self._repo(full_name)
            return self.store.commit_to_branch(repo, branch, message, files=data).sha

    def add_review_comments(
        self,
        full_name: str,
        *,
        count: int = 1,
        prs: list[int] | None = None,
        author: str = "reviewer",
    ) -> int:
        """A burst: ``count`` review comments on each PR in ``prs`` (default: all open)."""
        with self.lock, self.db.transaction():
            repo = self._repo(full_name)
            user = self.store.ensure_user(author)
            targets = (
                [self._pull(repo, n) for n in prs] if prs is not None else self.store.pulls(repo)
            )
            for pull in targets:
                for i in range(count):
                    self.store.add_review_comment(pull, user, f"Review note {i + 1}", line=i + 1)
            return count * len(targets)

    # -- clock -------------------------------------------------------------------
    def _virtual(self) -> VirtualClock:
        if not isinstance(self.clock, VirtualClock):
            raise UsageError("the emulator runs on the real clock; only a virtual clock moves")
        return self.clock

    def advance_clock(self, seconds: float) -> float:
        clock = self._virtual()
        try:
            return clock.advance(seconds)
        except ValueError as exc:  # going back: refused as moving a real clock is
            raise UsageError(str(exc)) from None

    def set_clock(self, when: float) -> float:
        clock = self._virtual()
        try:
            clock.set(when)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        return when

    # -- ledger ------------------------------------------------------------------
    def ledger_entries(
        self,
        *,
        since: float | None = None,
        until: float | None = None,
        token: str | None = None,
        resource: str | None = None,
    ) -> list[LedgerEntry]:
        """Charges with ``since <= ts < until``; ``token`` matches the owner or the token
        id; ``resource`` the bucket. Queried in the database (SQL with ``--state``)."""
        which = LedgerFilter(since=since, until=until, token=token, resource=resource)
        with self.lock:
            return self.limiter.entries(which)

    def ledger_totals(self, **filters: Any) -> dict[str, int]:
        """Points per resource for the filtered entries (filters as ``ledger_entries``)."""
        with self.lock:
            return self.limiter.totals(LedgerFilter(**filters))

    def ledger_count(self, **filters: Any) -> int:
        """How many entries match (filters as ``ledger_entries``)."""
        with self.lock:
            return self.limiter.count(LedgerFilter(**filters))

    def export_ledger(self, path: Path, **filters: Any) -> Path:
        """Write the (filtered) ledger as JSONL; never overwrites."""
        return write_new(Path(path), self.limiter.export_jsonl(self.ledger_entries(**filters)))

    # -- tuning ------------------------------------------------------------------
    def set_faults(
        self, changes: Mapping[str, Any] | None = None, /, *, source: str = "faults", **more: Any
    ) -> dict[str, Any]:
        """Change fault settings (all or none; a ConfigError names a bad one, prefixed with
        ``source``); returns them all."""
        with self.lock:
            self.config.faults.update({**(changes or {}), **more}, source=source)
            return msgspec.structs.asdict(self.config.faults)

    def set_secondary(
        self,
        changes: Mapping[str, Any] | None = None,
        /,
        *,
        source: str = "secondary",
        **more: Any,
    ) -> dict[str, Any]:
        """Change secondary-limit settings (all or none), as ``set_faults``."""
        with self.lock:
            self.config.secondary.update({**(changes or {}), **more}, source=source)
            return msgspec.structs.asdict(self.config.secondary)

    def set_limit(
        self, resource: str, limit: int, window_s: int = 3600, *, owner: str | None = None
    ) -> None:
        """Change a primary limit for everyone, or for one owner (login or ip:addr)."""
        if limit < 0 or window_s <= 0:
            raise invalid_field("RateLimit", "limit", "limit >= 0 and window_s > 0")
        with self.lock:
            if owner is None:
                self.limiter.limits[resource] = (limit, window_s)
            else:
                self.limiter.owner_limits[owner][resource] = (limit, window_s)

    def reset(self) -> None:
        """Forget all state, buckets, ledger and caches; re-apply the config seed."""
        with self.lock:
            self.store.reset()
            self.limiter.reset()
            self.secondary.reset()
            self._etags.clear()
            self.apply_config_seed()

    def apply_config_seed(self) -> None:
        """Create the config's users, tokens and repos (idempotent)."""
        with self.lock, self.db.transaction():
            for login, tokens in self.config.users.items():
                self.create_user(login, tokens)
            for full_name in self.config.repos:
                self.create_repo(full_name)
