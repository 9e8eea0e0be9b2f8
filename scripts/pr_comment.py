"""One pull-request comment kept up to date: the Action's step after ``ghbench compare``.

    GITHUB_TOKEN=... python scripts/pr_comment.py --pr N --key CELL --body compare.md

The comment starts with a hidden marker, ``<!-- ghbench-compare: KEY -->``; the script
pages through the pull request's comments (GitHub's REST API, 100 a page, following the
``Link`` header) for the oldest one that starts with it and edits it, or posts a new
one: a re-run, or the next push, updates the comment instead of adding another.

The API is ``$GITHUB_API_URL`` (the runner sets it; GitHub Enterprise's too), the
repository ``$GITHUB_REPOSITORY``, the token ``$GITHUB_TOKEN`` (never printed). A
comment that cannot be written (a fork's read-only token, an API error) is a workflow
warning and exit 0: the budget gate's verdict is the job's, not the comment's.
Uses httpx, which the Action installed with ghbench.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import httpx

MAX_BODY = 65_536  # GitHub refuses a longer comment body
PER_PAGE = 100


def marker(key: str) -> str:
    return f"<!-- ghbench-compare: {key} -->"


def comment_body(key: str, text: str) -> str:
    head = marker(key) + "\n"
    if len(head) + len(text) <= MAX_BODY:
        return head + text
    cut = "\n\n… (cut to GitHub's comment size; the job summary has it all)\n"
    return head + text[: MAX_BODY - len(head) - len(cut)] + cut


def find_comment(client: httpx.Client, repo: str, pr: int, key: str) -> int | None:
    """The id of the oldest comment on ``pr`` that starts with ``key``'s marker."""
    url: str | None = f"/repos/{repo}/issues/{pr}/comments?per_page={PER_PAGE}"
    while url is not None:
        reply = client.get(url)
        reply.raise_for_status()
        for comment in reply.json():
            if str(comment.get("body") or "").startswith(marker(key)):
                return int(comment["id"])
        url = reply.links.get("next", {}).get("url")
    return None


def upsert(client: httpx.Client, repo: str, pr: int, key: str, text: str) -> tuple[str, str]:
    """Edit ``key``'s comment on ``pr`` or post it: (what was done, the comment's URL)."""
    body = {"body": comment_body(key, text)}
    found = find_comment(client, repo, pr, key)
    if found is None:
        reply = client.post(f"/repos/{repo}/issues/{pr}/comments", json=body)
        done = "posted"
    else:
        reply = client.patch(f"/repos/{repo}/issues/comments/{found}", json=body)
        done = "updated"
    reply.raise_for_status()
    return done, str(reply.json().get("html_url", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pr", type=int, required=True, help="the pull request's number")
    parser.add_argument("--key", required=True, help="which comment: one per key (the cell)")
    parser.add_argument("--body", type=Path, required=True, help="the Markdown to post")
    parser.add_argument("--repo", default=os.environ.get("GITHUB_REPOSITORY", ""))
    args = parser.parse_args(argv)
    token = os.environ.get("GITHUB_TOKEN", "")
    api = os.environ.get("GITHUB_API_URL", "https://api.github.com")
    if not token or not args.repo:
        print("::warning::no pull-request comment: GITHUB_TOKEN and GITHUB_REPOSITORY are needed")
        return 0
    try:
        text = args.body.read_text(encoding="utf-8")
    except OSError as exc:
        print(f"::warning::no pull-request comment: cannot read {args.body}: {exc.strerror}")
        return 0
    headers = {
        "Authorization": f"Bearer {token}",
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "User-Agent": "ghbench-action",
    }
    try:
        with httpx.Client(base_url=api, headers=headers, timeout=30.0) as client:
            done, url = upsert(client, args.repo, args.pr, args.key, text)
    except httpx.HTTPStatusError as exc:
        reply = exc.response
        try:
            why = str(reply.json().get("message", ""))
        except ValueError:
            why = reply.reason_phrase
        print(
            f"::warning::no pull-request comment: {reply.request.method}"
            f" {reply.request.url.path} answered {reply.status_code} {why}"
        )
        return 0
    except httpx.HTTPError as exc:
        print(f"::warning::no pull-request comment: {type(exc).__name__}: {exc}")
        return 0
    print(f"pull-request comment {done}: {url}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
