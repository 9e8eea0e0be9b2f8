"""A push into the records: commits attributed by email, refs made to match."""

from __future__ import annotations

from emu_helpers import new_store

from ghbench.emulator.git.objects import ParsedCommit, Signature


def _commit(parents: list[str], email: str, message: str = "work\n") -> ParsedCommit:
    who = Signature("Someone", email, 1_700_000_000)
    return ParsedCommit(tree="4b825dc642cb6eb9a060e54bf8d69288fbee4904", parents=parents,
                        author=who, committer=who, message=message)  # fmt: skip


def test_the_author_is_found_by_noreply_address_or_own_email() -> None:
    store = new_store()
    octo = store.ensure_user("octo")
    bob = store.ensure_user("bob")
    bob.email = "Bob@Example.com"
    assert store.user_for_email("octo@users.noreply.github.com") is octo
    assert store.user_for_email(f"{octo.id}+OCTO@users.noreply.github.com") is octo
    assert store.user_for_email("bob@example.com") is bob
    assert store.user_for_email("nobody@example.com") is None
    assert store.user_for_email("ghost@users.noreply.github.com") is None


def test_pushed_commits_are_recorded_once_with_githubs_message() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    octo = store.ensure_user("octo")
    base = store.branch_sha(repo, "main")
    assert base is not None
    pushed = [("a" * 40, _commit([base], "octo@users.noreply.github.com", "msg\n\n"))]
    assert store.import_commits(repo, pushed) == 1
    assert store.import_commits(repo, pushed) == 0
    commit = store.commits[(repo.id, "a" * 40)]
    assert (commit.message, commit.author_login, commit.parents) == ("msg", octo.login, [base])


def test_refs_are_made_to_match_the_pushed_repository() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo")
    base = store.branch_sha(repo, "main")
    assert base is not None
    store.commit_to_branch(repo, "old", "gone soon")
    store.import_commits(repo, [("b" * 40, _commit([base], "x@example.com"))])
    disk = {"heads/main": "b" * 40, "heads/new": base, "heads/unknown": "c" * 40}
    changed = store.sync_refs(repo, disk)
    assert changed == ["heads/old", "heads/main", "heads/new"]
    assert store.branch_sha(repo, "main") == "b" * 40 and store.branch_sha(repo, "old") is None
    assert store.branch_sha(repo, "unknown") is None  # its commit never arrived
    assert store.sync_refs(repo, disk) == []
