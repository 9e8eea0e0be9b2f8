"""GitHub's REST shapes for git content (``rest/git_render.py``): a diff entry's
``patch`` only when there are hunks and a rename's old name, quoted URLs; a commit's
author only for a known login and ``web-flow`` as the API's committer, with stats and
files on request; a branch's protection; contents entries by mode, a file's base64
wrapped at 60 columns."""

from __future__ import annotations

import base64

from emu_helpers import repo_named

from ghbench.emulator.core import Emulator
from ghbench.emulator.git.diff import FileChange
from ghbench.emulator.rest import git_render
from ghbench.emulator.rest.render import RestRenderer

API = "http://api.test"
WEB = "https://ghe.test"
R = RestRenderer(API, WEB)
SHA = "a" * 40


def test_a_diff_entry(emulator: Emulator) -> None:
    hunk = "@@ -1 +1 @@\n-a\n+b\n"
    diff = "diff --git a/x b/x\nindex 1..2 100644\n--- a/docs/my file.md\n+++ b/docs/my file.md\n"
    changed = FileChange("docs/my file.md", "modified", SHA, 1, 1, diff=diff + hunk)
    entry = git_render.diff_entry(R, repo_named(emulator.store), "c0ffee", changed)
    assert entry["patch"] == "@@ -1 +1 @@\n-a\n+b"  # the hunks, without the headers
    assert entry["changes"] == 2 and "previous_filename" not in entry
    assert entry["blob_url"] == f"{WEB}/acme/todo/blob/c0ffee/docs/my%20file.md"
    assert entry["contents_url"] == f"{API}/repos/acme/todo/contents/docs/my%20file.md?ref=c0ffee"
    moved = FileChange("new.md", "renamed", SHA, 0, 0, previous_path="old.md")
    entry = git_render.diff_entry(R, repo_named(emulator.store), "c0ffee", moved)
    assert entry["previous_filename"] == "old.md" and "patch" not in entry  # no hunk


def test_a_commits_author_committer_stats_and_files(emulator: Emulator) -> None:
    store, repo = emulator.store, repo_named(emulator.store)
    sha = emulator.push("acme/todo", "main", "Two files", files={"a.txt": "1\n2\n", "b": "x\n"})
    commit = store.commit(repo, sha)
    assert commit is not None
    shown = git_render.commit(R, store, repo, commit)
    assert shown["author"] is None  # a push names no login
    assert shown["commit"]["author"]["name"] == commit.author_name
    assert shown["committer"]["login"] == "web-flow"  # GitHub's committer for the API's
    assert "stats" not in shown and "files" not in shown
    assert shown["url"] == f"{API}/repos/acme/todo/commits/{sha}"
    full = git_render.commit(R, store, repo, commit, files=True)
    assert full["stats"] == {"total": 3, "additions": 3, "deletions": 0}
    assert [f["filename"] for f in full["files"]] == ["a.txt", "b"]
    first = store.commit(repo, commit.parents[0])
    assert first is not None
    assert git_render.commit(R, store, repo, first)["author"]["login"] == "acme"


def test_branches_with_and_without_protection(emulator: Emulator) -> None:
    store, repo = emulator.store, repo_named(emulator.store)
    head = store.commit(repo, store.branch_sha(repo, "main") or "")
    assert head is not None
    short = git_render.short_branch(R, store, repo, "main", head.sha)
    assert short == {
        "name": "main",
        "commit": {"sha": head.sha, "url": f"{API}/repos/acme/todo/commits/{head.sha}"},
        "protected": False,
    }
    bare = git_render.branch(R, store, repo, "feat/a b", head)
    assert bare["protection"]["required_status_checks"]["enforcement_level"] == "off"
    assert bare["protection_url"] == f"{API}/repos/acme/todo/branches/feat/a%20b/protection"
    with emulator.db.transaction():
        store.protect(repo, "main", required_contexts=["ci"], enforce_admins=True)
    guarded = git_render.branch(R, store, repo, "main", head)
    checks = guarded["protection"]["required_status_checks"]
    assert guarded["protected"] and checks["enforcement_level"] == "everyone"
    assert checks["checks"] == [{"context": "ci", "app_id": None}]


def test_contents_entries_and_a_file(emulator: Emulator) -> None:
    contents = git_render.Contents(R, repo_named(emulator.store), "feat/x")
    kinds = {
        mode: contents.entry(f"src/{mode}", mode, SHA, 12)
        for mode in ("100644", "040000", "120000", "160000")
    }
    assert {m: (e["type"], e["size"]) for m, e in kinds.items()} == {
        "100644": ("file", 12),
        "040000": ("dir", 0),
        "120000": ("symlink", 0),
        "160000": ("submodule", 0),
    }
    assert kinds["040000"]["git_url"].endswith(f"/git/trees/{SHA}")
    assert kinds["040000"]["download_url"] is None
    assert kinds["100644"]["url"] == f"{API}/repos/acme/todo/contents/src/100644?ref=feat%2Fx"
    assert kinds["100644"]["download_url"] == (
        "https://raw.githubusercontent.com/acme/todo/feat/x/src/100644"
    )
    data = bytes(range(256))
    file = contents.file("bin/data", SHA, data)
    lines = file["content"].split("\n")
    assert lines[-1] == "" and {len(line) for line in lines[:-2]} == {60}
    assert base64.b64decode(file["content"]) == data
    assert (file["name"], file["size"]) == ("data", 256)
    assert contents.file("empty", SHA, b"")["content"] == ""
