"""The front's certificates: a CA minted per run, and one leaf for GitHub's hosts.

The CA can vouch for nothing else: it is name-constrained to the hosts the front
serves (critical ``NameConstraints``: those DNS names, no IP address), valid from a few
minutes before the run for its expected length plus an hour, and its key stays in the
front's memory: it is written (0600) only when the caller asks to keep the CA for
later runs. The leaf's key is on disk only while the TLS context loads it.

Keys are ECDSA P-256: minting one takes about 0.06 ms against about 120 ms for RSA
2048 (measured here with ``cryptography``), and every client the front serves (Go,
OpenSSL, GnuTLS, Node, Python) accepts them. The leaf names every host the front
terminates TLS for (``hosts.GITHUB_HOSTS``) in its subjectAltName, which is all Go and
the others check; it is minted afresh at every start, even when the CA is reused.

Files, under the run's state directory (written atomically, mode 0600):

- ``front-ca.pem``: the CA; ``front-ca.key`` its key, only when kept;
- ``front-bundle.pem``: for variables that replace a client's trust store
  (``SSL_CERT_FILE``, ``GIT_SSL_CAINFO``, ...): the CA alone when clients need trust
  nothing else (emulate: every other host is refused; curl parses a 220 KB system
  bundle in about 40 ms), else the system's bundle followed by the CA;
- ``front-leaf.pem`` / ``front-leaf.key``: what the TLS server loads (``forget``
  removes the key once it is loaded).

``mint_ca`` and ``mint_leaf`` are pure (the time is passed in); ``prepare_ca`` writes.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import ssl
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from ghbench.artifacts.io import replace_atomic
from ghbench.errors import GhbenchError

__all__ = ["CA_MARGIN", "Minted", "RunCA", "mint_ca", "mint_leaf", "prepare_ca", "system_bundle"]

CA_MARGIN = dt.timedelta(hours=1)  # past the run's expected length
_BACKDATE = dt.timedelta(minutes=10)  # tolerate a client clock slightly behind ours
# where distributions keep the system bundle, when OpenSSL's default names none
_KNOWN_BUNDLES = (
    "/etc/ssl/certs/ca-certificates.crt",  # Debian, Ubuntu, Alpine
    "/etc/pki/tls/certs/ca-bundle.crt",  # Fedora, RHEL
    "/etc/ssl/cert.pem",  # macOS, Arch
)


@dataclass(frozen=True)
class Minted:
    """A certificate and its private key, in memory."""

    cert: x509.Certificate
    key: ec.EllipticCurvePrivateKey

    def cert_pem(self) -> bytes:
        return self.cert.public_bytes(serialization.Encoding.PEM)

    def key_pem(self) -> bytes:
        return self.key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )


@dataclass(frozen=True)
class RunCA:
    """The files of one run's CA (see the module docstring)."""

    cert: Path
    key: Path
    bundle: Path
    leaf_cert: Path
    leaf_key: Path

    def forget(self, *, keep: bool) -> None:
        """Remove the keys from disk: the leaf's (once loaded), the CA's unless ``keep``."""
        for path in (self.leaf_key,) if keep else (self.leaf_key, self.key):
            path.unlink(missing_ok=True)


def _name(common_name: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "ghbench"),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )


def mint_ca(now: dt.datetime, label: str, hosts: Sequence[str], lifetime: dt.timedelta) -> Minted:
    """A self-signed CA for ``hosts`` alone, valid from shortly before ``now`` for
    ``lifetime`` and ``CA_MARGIN``."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = _name(f"ghbench front CA {label}")
    public = key.public_key()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(public)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - _BACKDATE)
        .not_valid_after(now + lifetime + CA_MARGIN)
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.NameConstraints(
                permitted_subtrees=[x509.DNSName(h) for h in hosts],
                excluded_subtrees=[
                    x509.IPAddress(ipaddress.ip_network("0.0.0.0/0")),
                    x509.IPAddress(ipaddress.ip_network("::/0")),
                ],
            ),
            critical=True,
        )
        .add_extension(_key_usage(signs_certificates=True), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public), critical=False)
        .sign(key, hashes.SHA256())
    )
    return Minted(cert, key)


def _key_usage(*, signs_certificates: bool) -> x509.KeyUsage:
    """Signatures, and for a CA certificates and revocation lists: nothing else."""
    return x509.KeyUsage(
        digital_signature=True,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=signs_certificates,
        crl_sign=signs_certificates,
        encipher_only=False,
        decipher_only=False,
    )


def mint_leaf(ca: Minted, hosts: Sequence[str], now: dt.datetime) -> Minted:
    """A server certificate for ``hosts``, signed by ``ca``, expiring with it."""
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(hosts[0]))
        .issuer_name(ca.cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - _BACKDATE)
        .not_valid_after(ca.cert.not_valid_after_utc)
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(h) for h in hosts]), False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(signs_certificates=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
        .add_extension(
            x509.AuthorityKeyIdentifier.from_issuer_public_key(ca.key.public_key()), False
        )
        .sign(ca.key, hashes.SHA256())
    )
    return Minted(cert, key)


def system_bundle(env: Mapping[str, str]) -> Path | None:
    """The bundle clients trust today: ``SSL_CERT_FILE`` when it names a file, else
    OpenSSL's default file, else a distribution's usual path; None if none exists."""
    candidates = [env.get("SSL_CERT_FILE") or "", ssl.get_default_verify_paths().cafile or ""]
    for candidate in (*candidates, *_KNOWN_BUNDLES):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def _load_ca(
    cert_path: Path, key_path: Path, now: dt.datetime, lifetime: dt.timedelta
) -> Minted | None:
    """The CA in these files if both are readable, it is name-constrained (a CA kept by
    an older ghbench is not) and it is still valid for ``lifetime``."""
    try:
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (OSError, ValueError):
        return None
    if not isinstance(key, ec.EllipticCurvePrivateKey):
        return None
    try:
        cert.extensions.get_extension_for_class(x509.NameConstraints)
    except x509.ExtensionNotFound:
        return None
    if cert.not_valid_after_utc < now + lifetime:
        return None
    return Minted(cert, key)


def prepare_ca(
    state_dir: Path,
    hosts: Sequence[str],
    now: dt.datetime,
    *,
    base_bundle: Path | None,
    keep: bool = False,
    lifetime: dt.timedelta = dt.timedelta(days=1),
) -> RunCA:
    """Mint (or, with ``keep``, reuse a kept and still valid) CA and a fresh leaf under
    ``state_dir``; write the bundle as ``base_bundle`` (None: none) followed by the CA.
    Without ``keep`` no CA key is written, and one an earlier run kept is removed."""
    files = RunCA(
        cert=state_dir / "front-ca.pem",
        key=state_dir / "front-ca.key",
        bundle=state_dir / "front-bundle.pem",
        leaf_cert=state_dir / "front-leaf.pem",
        leaf_key=state_dir / "front-leaf.key",
    )
    try:
        state_dir.mkdir(parents=True, exist_ok=True)
        base = base_bundle.read_bytes() if base_bundle is not None else b""
    except OSError as exc:
        where = state_dir if base_bundle is None else base_bundle
        raise GhbenchError(f"cannot prepare the front's CA: {where}: {exc.strerror}") from exc
    ca = _load_ca(files.cert, files.key, now, lifetime) if keep else None
    if ca is None:
        ca = mint_ca(now, now.strftime("%Y-%m-%dT%H:%M:%SZ"), hosts, lifetime)
        if keep:
            replace_atomic(files.key, ca.key_pem())  # 0600: mkstemp's mode
        else:
            files.key.unlink(missing_ok=True)
        replace_atomic(files.cert, ca.cert_pem())
    leaf = mint_leaf(ca, hosts, now)
    replace_atomic(files.leaf_key, leaf.key_pem())
    replace_atomic(files.leaf_cert, leaf.cert_pem())
    separator = b"" if not base or base.endswith(b"\n") else b"\n"
    replace_atomic(files.bundle, base + separator + ca.cert_pem())
    return files
