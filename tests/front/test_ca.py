"""ghbench.front.ca: the run's CA, its leaf for GitHub's hosts, and its files."""

from __future__ import annotations

import datetime as dt
import ssl
import stat
import subprocess
from pathlib import Path

from cryptography import x509

from ghbench.front.ca import mint_ca, mint_leaf, prepare_ca
from tools import require_tool

NOW = dt.datetime(2026, 12, 4, 12, 0, tzinfo=dt.UTC)
HOSTS = ["api.github.com", "github.com"]
DAY = dt.timedelta(days=1)


def test_the_leaf_verifies_against_the_ca_for_every_github_host() -> None:
    ca = mint_ca(NOW, "test", HOSTS, DAY)
    leaf = mint_leaf(ca, HOSTS, NOW)
    leaf.cert.verify_directly_issued_by(ca.cert)
    names = leaf.cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert names.get_values_for_type(x509.DNSName) == HOSTS
    assert leaf.cert.not_valid_after_utc == ca.cert.not_valid_after_utc
    # valid for the run and a margin, not for weeks
    assert ca.cert.not_valid_after_utc == NOW + DAY + dt.timedelta(hours=1)
    constraints = ca.cert.extensions.get_extension_for_class(x509.NameConstraints)
    assert constraints.critical
    assert constraints.value.permitted_subtrees == [x509.DNSName(h) for h in HOSTS]


def _openssl_verify(
    tmp_path: Path, ca_pem: bytes, leaf_pem: bytes
) -> subprocess.CompletedProcess[str]:
    (tmp_path / "ca.pem").write_bytes(ca_pem)
    (tmp_path / "leaf.pem").write_bytes(leaf_pem)
    at = str(int((NOW + dt.timedelta(minutes=5)).timestamp()))
    argv = ["openssl", "verify", "-attime", at, "-CAfile", "ca.pem", "leaf.pem"]
    return subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, check=False)


def test_the_ca_cannot_vouch_for_another_host(tmp_path: Path) -> None:
    """OpenSSL itself refuses a certificate the CA would sign for any other name."""
    require_tool("openssl")
    ca = mint_ca(NOW, "test", HOSTS, DAY)
    ok = _openssl_verify(tmp_path, ca.cert_pem(), mint_leaf(ca, ["api.github.com"], NOW).cert_pem())
    assert ok.returncode == 0, ok.stdout + ok.stderr
    other = _openssl_verify(tmp_path, ca.cert_pem(), mint_leaf(ca, ["example.com"], NOW).cert_pem())
    assert other.returncode != 0 and "permitted subtree violation" in other.stdout + other.stderr


def test_prepare_ca_files(tmp_path: Path) -> None:
    base = tmp_path / "system.pem"
    base.write_text("-----BEGIN CERTIFICATE-----\nsystem\n-----END CERTIFICATE-----")
    first = prepare_ca(tmp_path / "s", ["api.github.com"], NOW, base_bundle=base)
    assert not first.key.exists()  # not kept: never written
    assert stat.S_IMODE(first.leaf_key.stat().st_mode) == 0o600
    bundle = first.bundle.read_bytes()
    assert bundle.startswith(base.read_bytes() + b"\n") and bundle.endswith(first.cert.read_bytes())
    ssl.create_default_context(cafile=str(first.cert))  # a CA OpenSSL loads
    first.forget(keep=False)
    assert not first.leaf_key.exists()
    hosts = ["api.github.com"]
    alone = prepare_ca(tmp_path / "s", hosts, NOW, base_bundle=None)
    assert alone.bundle.read_bytes() == alone.cert.read_bytes()  # emulate: the CA alone
    kept = prepare_ca(tmp_path / "s", hosts, NOW, base_bundle=None, keep=True)
    assert stat.S_IMODE(kept.key.stat().st_mode) == 0o600
    key = kept.key.read_bytes()
    kept.forget(keep=True)
    assert kept.key.exists() and not kept.leaf_key.exists()
    assert (
        prepare_ca(tmp_path / "s", hosts, NOW, base_bundle=None, keep=True).key.read_bytes() == key
    )
    later = NOW + dt.timedelta(hours=20)  # not valid for another day: minted afresh
    assert (
        prepare_ca(tmp_path / "s", hosts, later, base_bundle=None, keep=True).key.read_bytes()
        != key
    )
    prepare_ca(tmp_path / "s", hosts, NOW, base_bundle=None)  # not kept: a kept key goes
    assert not kept.key.exists()
