"""Where a replay's calls land: the recorded repositories, per copy, seeded with their PRs
and issues at the recorded numbers, and each call's arguments re-targeted to its copy.

Pure helpers over a ``ReplayPlan`` plus ``seed``, which writes through the emulator's
control surface (``SimWorld``), never the traced path: seeding costs no point.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ghbench.budgets import Budget
from ghbench.emulator.errors import ApiError
from ghbench.errors import UsageError
from ghbench.simulation.world import SimWorld
from ghbench.trace.schema import TraceRow
from ghbench.workload.replay import UNATTRIBUTED, ReplayCall, ReplayPlan, copy_repo

__all__ = [
    "RECORDED_LIMIT",
    "default_repo",
    "entities",
    "recorded_limits",
    "retarget_argv",
    "retarget_body",
    "seed_copies",
    "with_etag",
]

DEFAULT_REPO = "replay/repo"
MAX_NUMBER = 5000  # entities seeded up to this number per repository
RECORDED_LIMIT = 5000  # a token's hourly points (GitHub's, for a user)
# GitHub's secondary limits on one user's calls (the emulator's SecondaryConfig fields)
_SECONDARY_PER_USER = (
    "max_concurrent",
    "rest_points_per_minute",
    "graphql_points_per_minute",
    "content_per_minute",
    "content_per_hour",
)
# a PR a GraphQL query names, with GraphQL's optional whitespace (AO's TypeScript builds
# write ``owner: "o", name: "r"``, AO 0.10's daemon ``owner:"o",name:"r"``)
_BATCH_PR = re.compile(
    r'repository\(\s*owner:\s*"([^"]+)"\s*,\s*name:\s*"([^"]+)"\s*\)\s*\{\s*'
    r"pullRequest\(\s*number:\s*(\d+)\s*\)"
)
_PATH_REPO = re.compile(r"repos/([^/?]+/[^/?]+)")
_PATH_PULL = re.compile(r"repos/([^/?]+/[^/?]+)/pulls/(\d+)")


@dataclass
class _Entities:
    prs: dict[int, str] = field(default_factory=dict)  # number -> head branch
    issues: set[int] = field(default_factory=set)

    def add_pr(self, number: int, branch: str | None) -> None:
        """PR ``number`` on ``branch``; a branch has one open PR (GitHub refuses a second),
        so a branch already taken, or none, becomes ``feat/pr-N``."""
        if number in self.prs:
            return
        if branch is None or branch in self.prs.values():
            branch = f"feat/pr-{number}"
        self.prs[number] = branch


def entities(plan: ReplayPlan) -> dict[str, _Entities]:
    """Per recorded repository, the PRs (with their branches) and issues calls name. A
    session's own PR comes first (an unattributed one's guesses last)."""
    found: dict[str, _Entities] = {}
    default = default_repo(plan)
    targets = sorted(plan.sessions.values(), key=lambda t: t.key == UNATTRIBUTED)
    for target in targets:
        ent = found.setdefault(target.repo or default, _Entities())
        if target.branch is None and target.issue is not None:
            target.branch = f"feat/issue-{target.issue}"  # AO's branch (reference §3)
        if target.pr is not None:
            ent.add_pr(target.pr, target.branch)
        if target.issue is not None:
            ent.issues.add(target.issue)
    for call in plan.calls:
        text = " ".join(call.argv) + " " + (call.endpoint or "") + " " + call.query
        repo = _argv_repo(call) or default
        ent = found.setdefault(repo, _Entities())
        for owner, name, number in _BATCH_PR.findall(text):
            found.setdefault(f"{owner}/{name}", _Entities()).add_pr(int(number), None)
        for repo_ref, number in _PATH_PULL.findall(text):
            found.setdefault(repo_ref, _Entities()).add_pr(int(number), None)
        for repo_ref in _PATH_REPO.findall(text):
            found.setdefault(repo_ref, _Entities())
        viewed = call.argv[:2] in (("pr", "view"), ("issue", "view")) and len(call.argv) > 2
        if viewed and call.argv[2].isdigit():
            number = int(call.argv[2])
            if call.argv[0] == "pr":
                ent.add_pr(number, None)
            else:
                ent.issues.add(number)
    # a session whose gh found its PR by branch (an agent's) gets a PR on that branch
    for target in targets:
        ent = found[target.repo or default]
        if target.pr is None and target.branch is not None:
            if target.branch in ent.prs.values():
                continue  # another call named that PR
            target.pr = max([*ent.prs, *ent.issues, 0]) + 1
            ent.add_pr(target.pr, target.branch)
    return found


def _argv_repo(call: ReplayCall) -> str | None:
    argv = call.argv
    for i, a in enumerate(argv):
        if a in ("--repo", "-R") and i + 1 < len(argv):
            return argv[i + 1]
    return None


def default_repo(plan: ReplayPlan) -> str:
    repos = Counter(t.repo for t in plan.sessions.values() if t.repo)
    return repos.most_common(1)[0][0] if repos else DEFAULT_REPO


def recorded_limits(rows: Sequence[TraceRow], budget: Budget | None = None) -> dict[str, int]:
    """Each bucket's hourly limit as the recording's rows show it (GitHub's 5,000 when
    they do not, or show less); ``budget``'s instead when the replay is given one
    (``--budget``: the recording's calls on another kind of token)."""
    if budget is not None:
        hourly = budget.limits()
        return {"core": hourly.core, "graphql": hourly.graphql}
    limits = dict.fromkeys(("core", "graphql"), RECORDED_LIMIT)
    for row in rows:
        resource, limit = row.rateLimitResource, row.rateLimitLimit
        if resource in limits and limit is not None and limit > limits[resource]:
            limits[resource] = limit
    return limits


def seed_copies(
    world: SimWorld,
    entities: dict[str, _Entities],
    copies: Sequence[int],
    limits: Mapping[str, int],
) -> None:
    """Each copy's repositories and entities; each copy has the recording's budget
    (``limits``) and GitHub's secondary limits, so a scaled replay measures what N
    sessions ask for, not where one token stops them."""
    api = world.emulator
    scale = max(1, len(copies))
    for resource, limit in limits.items():
        api.set_limit(resource, limit * scale)
    secondary = api.config.secondary
    api.config.secondary.update(
        {name: getattr(secondary, name) * scale for name in _SECONDARY_PER_USER}
    )
    for c in copies:
        for repo, ent in entities.items():
            try:
                _seed_repo(world, copy_repo(repo, c), repo, ent)
            except ApiError as exc:  # a name or number the emulator cannot hold
                raise UsageError(f"--trace: cannot seed {repo} as recorded ({exc})") from None


def _seed_repo(world: SimWorld, target: str, repo: str, ent: _Entities) -> None:
    """``target``: recorded ``repo`` with its PRs and issues at their recorded numbers;
    each PR's mergeability already computed, as GitHub has it for a PR that was open
    while the recording ran (only a PR just opened answers UNKNOWN first)."""
    api = world.emulator
    api.create_repo(target)
    wanted = max([*ent.prs, *ent.issues, 0])
    if wanted > MAX_NUMBER:
        raise UsageError(
            f"--trace: the recording names #{wanted} in {repo}; replay seeds numbers up "
            f"to {MAX_NUMBER} per repository"
        )
    for number in range(1, wanted + 1):
        if number in ent.prs:
            api.create_pull(target, ent.prs[number], title=f"Replayed #{number}")
            api.set_ci(target, "success", pr=number)
            world.settle_pull(target, number)
        else:
            api.create_issue(target, f"Replayed #{number}")


# -- re-targeting ---------------------------------------------------------------------


def retarget_argv(argv: tuple[str, ...], repos: Sequence[str], copy: int) -> tuple[str, ...]:
    if copy == 0:
        return argv
    return tuple(_retarget_arg(arg, repos, copy) for arg in argv)


def _retarget_arg(arg: str, repos: Sequence[str], copy: int) -> str:
    """One argument with each recorded repository renamed for ``copy``: ``owner/name``
    in paths and ``--repo``, a GraphQL ``repository(owner:, name:)``, ``-f name=``."""
    for repo in repos:
        owner, _, name = repo.partition("/")
        # the name in a GraphQL ``repository(owner:, name:)``, whatever its whitespace
        named = rf'(?<=name:)(\s*")({re.escape(name)})(?=")'
        if re.search(rf'owner:\s*"{re.escape(owner)}"', arg):
            arg = re.sub(named, rf"\g<1>\g<2>-{copy}", arg)
        arg = re.sub(rf"(?<![\w.-]){re.escape(repo)}(?=$|[/?\s])", copy_repo(repo, copy), arg)
        if arg == f"name={name}":
            arg = f"name={name}-{copy}"
    return arg


def retarget_body(body: str, repos: Sequence[str], copy: int) -> str:
    """A GraphQL request body with each recorded repository renamed for ``copy`` (its
    query and its string variables, as an argv's are)."""
    if copy == 0:
        return body
    try:
        doc = json.loads(body)
    except ValueError:
        return body
    if not isinstance(doc, dict):
        return body
    if isinstance(doc.get("query"), str):
        doc["query"] = _retarget_arg(doc["query"], repos, copy)
    variables = doc.get("variables")
    if isinstance(variables, dict):
        doc["variables"] = {
            k: _retarget_arg(v, repos, copy) if isinstance(v, str) else v
            for k, v in variables.items()
        }
    return json.dumps(doc)


def with_etag(argv: tuple[str, ...], etag: str | None) -> tuple[str, ...]:
    """``argv`` with its ``If-None-Match`` header carrying ``etag`` (or none)."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        header = argv[i + 1] if argv[i] in ("-H", "--header") and i + 1 < len(argv) else ""
        if header.lower().startswith("if-none-match:"):
            if etag:
                out += [argv[i], f"If-None-Match: {etag}"]
            i += 2
            continue
        out.append(argv[i])
        i += 1
    return tuple(out)
