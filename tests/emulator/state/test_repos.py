"""Users, tokens and repositories in the store."""

from __future__ import annotations

import hashlib

import pytest
from emu_helpers import new_store

from ghbench.emulator.errors import ApiError
from ghbench.emulator.state import TokenKind, token_digest


def test_users_are_found_without_case_and_made_once() -> None:
    store = new_store()
    octo = store.ensure_user("Octo", name="The Octo")
    assert store.ensure_user("octo") is octo and store.user("OCTO") is octo
    assert octo.name == "The Octo" and store.user("nobody") is None


def test_tokens_are_kept_by_digest_and_readding_one_moves_it() -> None:
    store = new_store()
    octo, bob = store.ensure_user("octo"), store.ensure_user("bob")
    secret = "ghp_" + "1" * 36
    assert token_digest(secret) == hashlib.sha256(secret.encode()).hexdigest()
    token = store.add_token(octo, secret)
    assert token.token_sha256 == token_digest(secret) and secret not in repr(token)
    moved = store.add_token(bob, secret, scopes="repo", kind=TokenKind(kind="app", bucket="i1"))
    assert moved is token and store.token_for(secret) is token
    assert (token.user_id, token.scopes, token.kind, token.bucket) == (bob.id, "repo", "app", "i1")
    assert store.token_for("ghp_other") is None


def test_a_new_repository_has_one_commit_and_its_name_is_taken() -> None:
    store = new_store()
    repo = store.create_repo("acme", "todo", default_branch="trunk", private=True)
    sha = store.branch_sha(repo, "trunk")
    assert sha is not None and store.commits[(repo.id, sha)].message == "Initial commit"
    assert repo.full_name == "acme/todo" and store.repo("ACME", "Todo") is repo
    assert store.user("acme") is not None
    with pytest.raises(ApiError) as taken:
        store.create_repo("Acme", "TODO")
    assert taken.value.status == 422
    with pytest.raises(ApiError) as missing:
        store.get_repo("acme", "nope")
    assert missing.value.status == 404
