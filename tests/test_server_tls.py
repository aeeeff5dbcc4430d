"""``rummy500 serve --certfile --keyfile``: HTTPS and WSS served directly, as docs/deploy.md
tells a host to start it, with a certificate of our own for 127.0.0.1 and localhost."""

from __future__ import annotations

import asyncio
import datetime
import http.client
import ipaddress
import json
import random
import re
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from websockets.exceptions import InvalidMessage

from rummy500.net.client import Api, TableConnection
from serverkit import Servers, metrics_url, play_out, seat_body


@dataclass(frozen=True)
class Certificate:
    """A certificate for 127.0.0.1 and localhost (``certfile``, ``keyfile``) and the
    authority that signed it (``cafile``), all PEM files."""

    certfile: Path
    keyfile: Path
    cafile: Path

    def client_context(self) -> ssl.SSLContext:
        """A client's TLS context that trusts this authority and nothing else."""
        return ssl.create_default_context(cafile=str(self.cafile))

    def flags(self) -> tuple[str, ...]:
        return ("--certfile", str(self.certfile), "--keyfile", str(self.keyfile))


def _name(common_name: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def make_certificate(folder: Path) -> Certificate:
    """A private authority and a server certificate it signed (what ``mkcert`` makes): a
    client that trusts the authority trusts the server."""
    now = datetime.datetime.now(datetime.UTC)
    start, end = now - datetime.timedelta(minutes=5), now + datetime.timedelta(days=2)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca_name = _name("rummy500 test authority")
    ca = (x509.CertificateBuilder(subject_name=ca_name, issuer_name=ca_name,
                                  public_key=ca_key.public_key(),
                                  serial_number=x509.random_serial_number(),
                                  not_valid_before=start, not_valid_after=end)
          .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
          .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True,
                                       crl_sign=True, content_commitment=False,
                                       key_encipherment=False, data_encipherment=False,
                                       key_agreement=False, encipher_only=False,
                                       decipher_only=False), critical=True)
          .add_extension(x509.SubjectKeyIdentifier.from_public_key(ca_key.public_key()),
                         critical=False)
          .sign(ca_key, hashes.SHA256()))
    key = ec.generate_private_key(ec.SECP256R1())
    leaf = (x509.CertificateBuilder(subject_name=_name("localhost"), issuer_name=ca_name,
                                    public_key=key.public_key(),
                                    serial_number=x509.random_serial_number(),
                                    not_valid_before=start, not_valid_after=end)
            .add_extension(x509.SubjectAlternativeName([
                x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]),
                           critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(
                ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))
    folder.mkdir(parents=True, exist_ok=True)
    certificate = Certificate(folder / "cert.pem", folder / "key.pem", folder / "ca.pem")
    certificate.cafile.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    certificate.certfile.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    certificate.keyfile.write_bytes(key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption()))
    certificate.keyfile.chmod(0o600)
    return certificate


def get(url: str, context: ssl.SSLContext | None = None) -> tuple[int, Message, bytes]:
    """GET ``url``: its status, headers and body."""
    try:
        with urllib.request.urlopen(url, timeout=10, context=context) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


@pytest.mark.asyncio
async def test_a_game_is_played_over_https_and_wss(servers: Servers, sqlite_url: str,
                                                   tmp_path: Path) -> None:
    certificate = make_certificate(tmp_path / "tls")
    server = servers.start(sqlite_url, extra=certificate.flags())  # seeds: serverkit allows them
    assert server.base.startswith("https://127.0.0.1:")
    context = certificate.client_context()
    api = Api(server.base, ssl_context=context)

    made = await api.create_table(seat_body("person", "random", seed=11))
    summary = await api.summary(made["table"])
    assert summary["status"] == "playing"
    async with await TableConnection.open(server.base, made["table"], made["token"],
                                          ssl_context=context) as seat:
        assert seat.seat == 0
        made_moves = await play_out(seat, random.Random(3), until_seq=seat.seq + 16,
                                    timeout=30)
        assert made_moves >= 3
        reached = seat.seq
    assert (await api.summary(made["table"]))["seq"] >= reached

    status, headers, body = await asyncio.to_thread(get, f"{server.base}/healthz", context)
    assert (status, json.loads(body)) == (200, {"ok": True})
    # Over HTTPS the browser is told never to try plain HTTP for this host.
    assert headers["Strict-Transport-Security"].startswith("max-age=")
    # The metrics are on a port of their own, on loopback (plain HTTP): never the tables'.
    assert (await asyncio.to_thread(get, f"{server.base}/metrics", context))[0] == 404
    status, headers, body = await asyncio.to_thread(get, metrics_url(server))
    assert status == 200 and headers["Content-Type"].startswith("text/plain")
    person_moves = re.search(rb'^rummy500_moves_total\{by="person"\} ([0-9.]+)$', body,
                             re.MULTILINE)
    assert person_moves is not None and float(person_moves.group(1)) >= made_moves


@pytest.mark.asyncio
async def test_plain_http_to_the_tls_port_gets_no_table(servers: Servers, sqlite_url: str,
                                                        tmp_path: Path) -> None:
    certificate = make_certificate(tmp_path / "tls")
    server = servers.start(sqlite_url, extra=certificate.flags())
    plain = server.base.replace("https://", "http://")
    request = urllib.request.Request(f"{plain}/api/tables", data=b'{"players": 2}',
                                     method="POST",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises((OSError, http.client.HTTPException)) as refused:
        urllib.request.urlopen(request, timeout=10).read()
    assert not isinstance(refused.value, urllib.error.HTTPError)  # no answer at all
    with pytest.raises((OSError, InvalidMessage)):  # no HTTP answer to the upgrade either
        await TableConnection.open(plain, "whatever", None, open_timeout=10)

    # A client that does not trust the certificate is turned away before it says anything.
    with pytest.raises(urllib.error.URLError) as untrusted:
        await Api(server.base, ssl_context=ssl.create_default_context()).create_table({})
    assert isinstance(untrusted.value.reason, ssl.SSLCertVerificationError)
    assert server.running()


def run_serve(*flags: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "rummy500", "serve", "--port", "0", "--database",
               f"sqlite:///{tmp_path / 'tables.db'}", *flags]
    return subprocess.run(command, capture_output=True, text=True, timeout=60)


def test_a_certificate_without_its_key_is_one_clear_line(tmp_path: Path) -> None:
    certificate = make_certificate(tmp_path / "tls")
    alone = run_serve("--certfile", str(certificate.certfile), tmp_path=tmp_path)
    assert alone.returncode == 2
    assert alone.stderr.strip() == "rummy500 serve: --certfile and --keyfile go together"
    assert alone.stdout == ""


def test_a_missing_certificate_file_is_one_clear_line(tmp_path: Path) -> None:
    certificate = make_certificate(tmp_path / "tls")
    missing = tmp_path / "nowhere.pem"
    result = run_serve("--certfile", str(missing), "--keyfile", str(certificate.keyfile),
                       tmp_path=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == f"rummy500 serve: {missing}: no such file"
    assert result.stdout == ""
