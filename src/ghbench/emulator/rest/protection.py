"""Branch protection: ``GET``/``PUT``/``DELETE .../branches/{branch}/protection``.

The rules kept are the ones the merge state, ``reviewDecision`` and merges follow
(``state/protection.py``): required approving reviews (with stale ones dismissed),
required status checks (``strict``), admins enforced, linear history, force pushes,
deletions and conversation resolution. Restrictions (who may push) and dismissal
restrictions are accepted and not modelled. ``PUT`` needs GitHub's four keys.
"""

from __future__ import annotations

from typing import Any

from ghbench.emulator.errors import NotFound, ValidationFailed
from ghbench.emulator.rest.common import repo_of, viewer
from ghbench.emulator.rest.routing import Call, Reply, Route
from ghbench.emulator.state import Protection, Repo

__all__ = ["ROUTES"]

_DOCS = "https://docs.github.com/rest/branches/branch-protection"
_REQUIRED_KEYS = (
    "required_status_checks",
    "enforce_admins",
    "required_pull_request_reviews",
    "restrictions",
)
# PUT's optional switches -> the Protection field they set
_SWITCHES = {
    "required_linear_history": "required_linear_history",
    "allow_force_pushes": "allow_force_pushes",
    "allow_deletions": "allow_deletions",
    "required_conversation_resolution": "required_conversation_resolution",
}


def _branch(call: Call) -> tuple[Repo, str]:
    repo = repo_of(call)
    name = call.params["branch"]
    if call.store.branch_sha(repo, name) is None:
        raise NotFound("Branch not found", documentation_url=_DOCS)
    return repo, name


def _invalid(detail: str) -> ValidationFailed:
    return ValidationFailed(f"Invalid request.\n\n{detail}", documentation_url=_DOCS)


def _rules(body: Any) -> dict[str, Any]:
    """The Protection fields a PUT body sets; GitHub's 422 for a missing key or a
    wrong type."""
    if not isinstance(body, dict):
        raise _invalid('"required_status_checks" wasn\'t supplied.')
    for key in _REQUIRED_KEYS:
        if key not in body:
            raise _invalid(f'"{key}" wasn\'t supplied.')
    rules: dict[str, Any] = {"enforce_admins": bool(body["enforce_admins"])}
    checks = body["required_status_checks"]
    if checks is not None:
        if not isinstance(checks, dict) or not isinstance(checks.get("strict"), bool):
            raise _invalid("For 'properties/strict', it is not a boolean.")
        contexts = checks.get("contexts")
        named = [c.get("context") for c in checks.get("checks") or () if isinstance(c, dict)]
        if not isinstance(contexts, list) and not named:
            raise _invalid('"contexts" wasn\'t supplied.')
        wanted = [*(contexts or []), *named]
        if not all(isinstance(c, str) for c in wanted):
            raise _invalid("For 'items', it is not a string.")
        rules["strict"] = checks["strict"]
        rules["required_contexts"] = list(dict.fromkeys(wanted))
    reviews = body["required_pull_request_reviews"]
    if reviews is not None:
        if not isinstance(reviews, dict):
            raise _invalid("For 'properties/required_pull_request_reviews', it is not an object.")
        count = reviews.get("required_approving_review_count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 6:
            raise _invalid("required_approving_review_count must be between 0 and 6")
        rules["required_reviews"] = count
        rules["dismiss_stale_reviews"] = bool(reviews.get("dismiss_stale_reviews"))
        rules["require_code_owner_reviews"] = bool(reviews.get("require_code_owner_reviews"))
    for key, field in _SWITCHES.items():
        if key in body and body[key] is not None:
            rules[field] = bool(body[key])
    return rules


def _render(call: Call, repo: Repo, rule: Protection, *, full: bool) -> dict[str, Any]:
    """GitHub's ``branch-protection`` (GET; ``full``) or ``protected-branch`` (PUT)."""
    url = f"{call.render.repo_url(repo)}/branches/{rule.branch}/protection"
    out: dict[str, Any] = {"url": url}
    if rule.required_contexts is not None:
        contexts = list(rule.required_contexts)
        out["required_status_checks"] = {
            "url": url + "/required_status_checks",
            "strict": rule.strict,
            "contexts": contexts,
            "checks": [{"context": c, "app_id": None} for c in contexts],
            "contexts_url": url + "/required_status_checks/contexts",
        }
        if full:
            level = "everyone" if rule.enforce_admins else "non_admins"
            out["required_status_checks"]["enforcement_level"] = level
    if rule.required_reviews is not None:
        out["required_pull_request_reviews"] = {
            "url": url + "/required_pull_request_reviews",
            "dismiss_stale_reviews": rule.dismiss_stale_reviews,
            "require_code_owner_reviews": rule.require_code_owner_reviews,
            "required_approving_review_count": rule.required_reviews,
            "require_last_push_approval": False,
        }
    out |= {
        "required_signatures": {"url": url + "/required_signatures", "enabled": False},
        "enforce_admins": {"url": url + "/enforce_admins", "enabled": rule.enforce_admins},
        "required_linear_history": {"enabled": rule.required_linear_history},
        "allow_force_pushes": {"enabled": rule.allow_force_pushes},
        "allow_deletions": {"enabled": rule.allow_deletions},
        "block_creations": {"enabled": False},
        "required_conversation_resolution": {"enabled": rule.required_conversation_resolution},
        "lock_branch": {"enabled": False},
        "allow_fork_syncing": {"enabled": False},
    }
    if full:
        out |= {"enabled": True, "name": rule.branch, "protection_url": url}
    return out


def get_protection(call: Call) -> Reply:
    """A branch's protection; an unprotected branch is 404 "Branch not protected", an
    unknown one "Branch not found"."""
    repo, name = _branch(call)
    rule = call.store.protection(repo, name)
    if rule is None:
        raise NotFound("Branch not protected", documentation_url=_DOCS)
    return Reply(_render(call, repo, rule, full=True))


def put_protection(call: Call) -> Reply:
    """Replaces the branch's protection: `required_status_checks` (`strict`,
    `contexts` or `checks`), `enforce_admins`, `required_pull_request_reviews`
    (`required_approving_review_count`, `dismiss_stale_reviews`), `restrictions`
    (accepted, not modelled), and the optional switches; each of the four is required
    (`null` turns it off)."""
    viewer(call)
    repo, name = _branch(call)
    rule = call.store.protect(repo, name, **_rules(call.body))
    return Reply(_render(call, repo, rule, full=False))


def delete_protection(call: Call) -> Reply:
    """Removes it: 204, or 404 "Branch not protected"."""
    viewer(call)
    repo, name = _branch(call)
    if not call.store.unprotect(repo, name):
        raise NotFound("Branch not protected", documentation_url=_DOCS)
    return Reply(None, status=204)


_B = "/repos/{owner}/{repo}/branches/{branch:path}/protection"
ROUTES = [
    Route("GET", _B, get_protection, etag=True),
    Route("PUT", _B, put_protection, anonymous=False),
    Route("DELETE", _B, delete_protection, anonymous=False),
]
