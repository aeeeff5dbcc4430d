"""HTTP as an attacker sends it, for the server's tests: any method, body, headers (a
Host or Origin of one's choosing included) and source address on loopback (127.0.0.2
is another address to the server's limits), and the answer whatever its status."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Answer:
    status: int
    headers: dict[str, str]
    """Lower-case names."""
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def code(self) -> str | None:
        """The ``error`` of a JSON error answer."""
        try:
            data = self.json()
        except ValueError:
            return None
        return data.get("error") if isinstance(data, dict) else None


def address(base: str) -> tuple[str, int]:
    parts = urlsplit(base)
    assert parts.hostname is not None and parts.port is not None
    return parts.hostname, parts.port


def call(base: str, method: str, path: str, body: bytes | dict[str, Any] | None = None, *,
         headers: dict[str, str] | None = None, source: str | None = None,
         timeout: float = 30.0) -> Answer:
    """One request on a new connection. A body (a dict is sent as JSON) goes as
    ``application/json`` unless ``headers`` name another Content-Type (an empty one: none);
    ``headers`` may name the Host."""
    host, port = address(base)
    sent = {name: value for name, value in (headers or {}).items()
            if name.lower() != "content-type" or value}
    if isinstance(body, dict):
        body = json.dumps(body).encode()
    if body is not None and not any(name.lower() == "content-type" for name in headers or {}):
        sent["Content-Type"] = "application/json"
    connection = http.client.HTTPConnection(
        host, port, timeout=timeout, source_address=None if source is None else (source, 0))
    try:
        connection.request(method, path, body=body, headers=sent)
        answer = connection.getresponse()
        return Answer(answer.status, {k.lower(): v for k, v in answer.getheaders()},
                      answer.read())
    finally:
        connection.close()


async def acall(base: str, method: str, path: str, body: bytes | dict[str, Any] | None = None,
                **options: Any) -> Answer:
    return await asyncio.to_thread(call, base, method, path, body, **options)


def raw_socket(base: str, *, source: str | None = None, timeout: float = 10.0) -> socket.socket:
    """A plain TCP connection to the server, nothing sent."""
    host, port = address(base)
    return socket.create_connection((host, port), timeout=timeout,
                                    source_address=None if source is None else (source, 0))


def closed_by_server(sock: socket.socket, within: float) -> bool:
    """Whether the server closes ``sock`` within ``within`` seconds (reads until then)."""
    sock.settimeout(within)
    try:
        while True:
            data = sock.recv(65536)
            if not data:
                return True
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


def upgrade_request(path: str, host: str = "127.0.0.1", extra: str = "") -> bytes:
    """A WebSocket upgrade request of ``path``, with ``extra`` header lines (each ending
    in CRLF) after the usual ones."""
    return (f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            f"Sec-WebSocket-Version: 13\r\n{extra}\r\n").encode()


def answer_status(sock: socket.socket, within: float) -> int | None:
    """The status of the answer the server sends on ``sock`` within ``within`` seconds;
    0 if it closes the connection without one, None if it does neither."""
    sock.settimeout(within)
    head = b""
    try:
        while b"\r\n" not in head:
            data = sock.recv(4096)
            if not data:
                break
            head += data
    except (ConnectionResetError, BrokenPipeError):
        return 0
    except TimeoutError:
        return None
    return int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0


def upgrade_status(base: str, path: str, host: str) -> int:
    """The status of a WebSocket upgrade of ``path`` with this Host header (101: accepted)."""
    sock = raw_socket(base)
    try:
        sock.sendall((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                      "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                      "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n" not in head:
            data = sock.recv(4096)
            if not data:
                break
            head += data
        return int(head.split(b" ", 2)[1]) if head.startswith(b"HTTP/1.1 ") else 0
    finally:
        sock.close()


__all__ = ["Answer", "acall", "address", "answer_status", "call", "closed_by_server",
           "raw_socket", "upgrade_request", "upgrade_status"]
