"""A ``serve`` open to the internet, as an attacker tries it, against real processes: ids
that name no table hold no memory; half-sent requests, silent WebSockets and crowds of
connections are cut off; pages of other sites and names that rebind to the server are
refused; bad text and bad requests get JSON (with the security headers), never a
traceback; and every setting is in ``rummy500 serve --help``."""

from __future__ import annotations

import asyncio
import dataclasses
import http.client
import json
import os
import secrets
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import websockets

from rawhttp import (
    Answer,
    acall,
    address,
    closed_by_server,
    raw_socket,
    upgrade_status,
)
from rummy500.net.client import TableConnection, socket_url
from rummy500.server.settings import ServerSettings, env_name
from serverkit import ServerProcess, Servers, seat_body

pytestmark = pytest.mark.asyncio

OTHER_ADDRESS = "127.0.0.2"
"""Another client address on loopback: the limits per address count it apart."""
REBIND = "rebind.example"
"""A name an attacker points at the server (DNS rebinding)."""


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


def table_count(database: str) -> int:
    with sqlite3.connect(database.removeprefix("sqlite:///")) as db:
        count: int = db.execute("SELECT count(*) FROM tables").fetchone()[0]
    return count


def no_traceback(server: ServerProcess) -> None:
    log = server.errors()
    assert "Traceback" not in log, log[-4000:]


async def spectate(server: ServerProcess, table: str, **options: Any) -> Any:
    """A WebSocket that has said hello as a spectator (its welcome read)."""
    socket_ = await websockets.connect(socket_url(server.base, table), **options)
    await socket_.send(json.dumps({"type": "hello", "token": None}))
    assert json.loads(await asyncio.wait_for(socket_.recv(), 10))["type"] == "welcome"
    return socket_


async def refused_upgrade(server: ServerProcess, table: str, **options: Any) -> int:
    """The HTTP status a WebSocket that is not let in gets."""
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(socket_url(server.base, table), open_timeout=10, **options)
    return refused.value.response.status_code


# -- finding 6: unknown ids ----------------------------------------------------------------


def hammer(base: str, requests: list[tuple[str, str, bytes | None]]) -> list[Answer]:
    """The requests one after another on one kept-alive connection."""
    host, port = address(base)
    connection = http.client.HTTPConnection(host, port, timeout=30)
    answers = []
    try:
        for method, path, body in requests:
            connection.request(method, path, body=body,
                               headers={"Content-Type": "application/json"})
            answer = connection.getresponse()
            answers.append(Answer(answer.status, dict(answer.getheaders()), answer.read()))
    finally:
        connection.close()
    return answers


def unknown_id_requests(count: int) -> list[tuple[str, str, bytes | None]]:
    token = json.dumps({"token": secrets.token_urlsafe(32)}).encode()
    requests: list[tuple[str, str, bytes | None]] = []
    for _ in range(count):
        huge = secrets.token_urlsafe(45_000)  # 60 KB
        requests.append(("POST", f"/api/tables/{huge}/hint", token))
        requests.append(("POST", f"/api/tables/{huge}/again", token))
        requests.append(("POST", f"/api/tables/{secrets.token_urlsafe(18)}/hint", token))
        requests.append(("GET", f"/api/tables/{secrets.token_urlsafe(18)}", None))
    return requests


async def test_ids_that_name_no_table_hold_no_memory(servers: Servers, sqlite_url: str) -> None:
    """The old server kept a lock per id asked for: 400 hints with 60 KB ids grew it by
    some 24 MiB, for ever."""
    server = servers.start(sqlite_url)
    await asyncio.to_thread(hammer, server.base, unknown_id_requests(50))  # warm up
    before = rss_bytes(server.pid)
    answers = await asyncio.to_thread(hammer, server.base, unknown_id_requests(400))
    grown = rss_bytes(server.pid) - before
    assert all((answer.status, answer.code) == (404, "not_found") for answer in answers), {
        (answer.status, answer.body[:80]) for answer in answers}
    assert grown < 10 * 2**20, f"the server grew {grown / 2**20:.1f} MiB"
    no_traceback(server)


# -- finding 7: connections ----------------------------------------------------------------


async def test_a_half_sent_request_is_cut_off_after_header_timeout_s(
        servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--header-timeout-s", "1"))
    silent = raw_socket(server.base)
    half = raw_socket(server.base)
    half.sendall(b"GET /api/rules HT")
    trickle = raw_socket(server.base)
    trickle.sendall(b"GET /api/rules HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    started = time.monotonic()
    for sock in (silent, half):
        assert closed_by_server(sock, 4.0 - (time.monotonic() - started))
    cut = False
    while not cut and time.monotonic() - started < 4.0:
        try:
            trickle.sendall(b"X-Slow: 1\r\n")  # a header line at a time, never the end
        except OSError:
            cut = True
        else:
            cut = closed_by_server(trickle, 0.3)
    assert cut, "a request trickled in a header at a time was never cut off"
    for sock in (silent, half, trickle):
        sock.close()
    # A body that does not come is answered 408, by every route that reads one.
    for path in (b"/api/tables", b"/api/replay", b"/api/rules/explain"):
        slow = raw_socket(server.base)
        slow.sendall(b"POST " + path + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     b"application/json\r\nContent-Length: 100\r\n\r\n{\"players\"")
        slow.settimeout(5)
        answer = b""
        while b'"too_slow"' not in answer and (data := slow.recv(4096)):
            answer += data
        slow.close()
        assert answer.startswith(b"HTTP/1.1 408") and b'"too_slow"' in answer, (path, answer)
    # Whoever sends a whole request in time is served.
    assert (await acall(server.base, "GET", "/api/rules")).status == 200


async def test_a_websocket_that_never_says_hello_is_closed_after_hello_timeout_s(
        servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--hello-timeout-s", "1"))
    table = (await server.api.create_table({"players": 2}))["table"]
    silent = await websockets.connect(socket_url(server.base, table))
    watcher = await spectate(server, table)
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(silent.recv(), 5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    # One that said hello stays as long as it likes.
    await asyncio.sleep(0.5)
    await watcher.send(json.dumps({"type": "ping"}))
    assert json.loads(await asyncio.wait_for(watcher.recv(), 5)) == {"type": "pong"}
    await watcher.close()


async def served(base: str, within: float = 10.0, *, source: str | None = None) -> bool:
    """Whether a new connection is served (GET /healthz answered) within ``within`` s: the
    server may not have seen a closed connection go yet."""
    deadline = time.monotonic() + within
    while True:
        try:
            if (await acall(base, "GET", "/healthz", source=source, timeout=5)).status == 200:
                return True
        except (OSError, http.client.HTTPException):
            pass
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.1)


def still_served(sock: socket.socket) -> bool:
    """Whether a held connection is still open: a request on it is answered."""
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    sock.settimeout(10)
    return sock.recv(4096).startswith(b"HTTP/1.1 200")


async def test_connections_per_address_are_capped(servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--connections-per-address", "5",
                                              "--header-timeout-s", "60"))
    table = (await server.api.create_table({"players": 2}))["table"]
    # WebSockets: five from one address, the sixth refused; another address is let in.
    sockets = [await spectate(server, table) for _ in range(5)]
    assert await refused_upgrade(server, table) == 403
    elsewhere = await spectate(server, table, local_addr=(OTHER_ADDRESS, 0))
    await sockets.pop().close()
    deadline = time.monotonic() + 10
    while True:
        try:
            sockets.append(await spectate(server, table))
            break
        except websockets.InvalidStatus:
            assert time.monotonic() < deadline, "a closed WebSocket was never let go"
            await asyncio.sleep(0.1)
    for sock_ in (*sockets, elsewhere):
        await sock_.close()
    assert await served(server.base)

    # Plain connections: five idle ones are held, the sixth is closed at once.
    held = [raw_socket(server.base) for _ in range(5)]
    await asyncio.sleep(0.3)
    sixth = raw_socket(server.base)
    assert closed_by_server(sixth, 3.0)
    assert still_served(held[0])
    assert await served(server.base, source=OTHER_ADDRESS)
    held.pop().close()
    assert await served(server.base)
    for sock in (*held, sixth):
        sock.close()


async def test_connections_in_all_are_capped(servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--max-connections", "5",
                                              "--header-timeout-s", "60"))
    table = (await server.api.create_table({"players": 2}))["table"]
    sockets = [await spectate(server, table) for _ in range(5)]
    # The sixth connection is closed before it can even ask for a WebSocket.
    with pytest.raises(websockets.InvalidMessage):
        await websockets.connect(socket_url(server.base, table), open_timeout=10,
                                 local_addr=(OTHER_ADDRESS, 0))
    for sock_ in sockets:
        await sock_.close()
    assert await served(server.base)

    held = [raw_socket(server.base) for _ in range(3)]
    held += [raw_socket(server.base, source=OTHER_ADDRESS) for _ in range(2)]
    await asyncio.sleep(0.3)
    sixth = raw_socket(server.base, source=OTHER_ADDRESS)
    assert closed_by_server(sixth, 3.0)
    assert still_served(held[-1])
    held.pop(0).close()
    assert await served(server.base)
    for sock in (*held, sixth):
        sock.close()
    await asyncio.sleep(0.3)

    # WebSockets and plain connections count together.
    sockets = [await spectate(server, table) for _ in range(3)]
    held = [raw_socket(server.base) for _ in range(2)]
    await asyncio.sleep(0.3)
    assert closed_by_server(raw_socket(server.base, source=OTHER_ADDRESS), 3.0)
    for sock in held:
        sock.close()
    for sock_ in sockets:
        await sock_.close()


# -- finding 8: other sites' pages and rebinding names -------------------------------------


async def test_changes_must_be_json_from_this_servers_own_pages(servers: Servers,
                                                                sqlite_url: str) -> None:
    server = servers.start(sqlite_url)
    base, port = server.base, address(server.base)[1]
    body = json.dumps({"players": 2}).encode()
    made_before = table_count(sqlite_url)
    refusals = [
        ({"Content-Type": "text/plain"}, 415, "bad_content_type"),  # a no-cors fetch
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415, "bad_content_type"),
        ({"Content-Type": ""}, 415, "bad_content_type"),
        ({"Content-Type": "application/json", "Origin": "http://evil.example"},
         403, "cross_origin"),
        ({"Content-Type": "application/json", "Origin": "null"}, 403, "cross_origin"),
        ({"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port + 1}"},
         403, "cross_origin"),
        ({"Content-Type": "application/json", "Sec-Fetch-Site": "cross-site"},
         403, "cross_origin"),
    ]
    for headers, status, code in refusals:
        answer = await acall(base, "POST", "/api/tables", body, headers=headers)
        assert (answer.status, answer.code) == (status, code), (headers, answer)
        assert answer.json()["message"]
    assert table_count(sqlite_url) == made_before
    made = await server.api.create_table({"players": 2})
    seat = await acall(base, "POST", f"/api/tables/{made['table']}/seats/1", b"{}",
                       headers={"Content-Type": "text/plain"})
    assert (seat.status, seat.code) == (415, "bad_content_type")
    # The server's own pages, and programs that are not browsers, are served.
    for headers in ({"Content-Type": "application/json; charset=utf-8"},
                    {"Content-Type": "application/json", "Origin": f"http://127.0.0.1:{port}"},
                    {"Content-Type": "application/json", "Sec-Fetch-Site": "same-origin"}):
        answer = await acall(base, "POST", "/api/tables", body, headers=headers)
        assert answer.status == 201, (headers, answer)


async def test_only_the_names_the_operator_allows_are_served(servers: Servers,
                                                             sqlite_url: str) -> None:
    server = servers.start(sqlite_url)
    base, port = server.base, address(server.base)[1]
    table = (await server.api.create_table({"players": 2}))["table"]
    made_before = table_count(sqlite_url)
    for host in (REBIND, f"{REBIND}:{port}", f"www.{REBIND}", "localhost.example", ""):
        headers = {"Host": host, "Origin": f"http://{host}"}  # the rebinding page's own
        answer = await acall(base, "POST", "/api/tables", {"players": 2}, headers=headers)
        assert (answer.status, answer.code) == (421, "bad_host"), (host, answer)
        read = await acall(base, "GET", f"/api/tables/{table}", headers={"Host": host})
        assert (read.status, read.code) == (421, "bad_host"), (host, read)
        assert table not in read.body.decode()
        assert upgrade_status(base, f"/ws/{table}", host) == 403
    assert table_count(sqlite_url) == made_before
    # An address, or a loopback name, is the server's own.
    for host in (f"127.0.0.1:{port}", "127.0.0.1", f"localhost:{port}", "LOCALHOST",
                 f"[::1]:{port}", f"app.localhost:{port}"):
        answer = await acall(base, "POST", "/api/tables", {"players": 2},
                             headers={"Host": host})
        assert answer.status == 201, (host, answer)
        assert upgrade_status(base, f"/ws/{table}", host) == 101

    named = servers.start(sqlite_url, extra=("--allowed-host", REBIND))
    host = f"{REBIND}:{address(named.base)[1]}"
    answer = await acall(named.base, "POST", "/api/tables", {"players": 2},
                         headers={"Host": host, "Origin": f"http://{host}"})
    assert answer.status == 201, answer
    assert upgrade_status(named.base, f"/ws/{table}", host) == 101
    other = await acall(named.base, "GET", f"/api/tables/{table}",
                        headers={"Host": "other.example"})
    assert (other.status, other.code) == (421, "bad_host")


# -- low: bad text, headers, redirects, --help ---------------------------------------------


async def test_a_lone_surrogate_is_a_bad_request_never_a_traceback(servers: Servers,
                                                                   sqlite_url: str) -> None:
    server = servers.start(sqlite_url)
    made = await server.api.create_table(seat_body("person", "person", seed=3))
    table = made["table"]
    bob = await server.api.take_seat(table, 1)
    lone = b'{"token": "\\ud800"}'
    for path in (f"/api/tables/{table}/again", f"/api/tables/{table}/hint"):
        answer = await acall(server.base, "POST", path, lone)
        assert (answer.status, answer.code) == (400, "bad_request"), (path, answer)
    for path, body in ((f"/api/tables/{table}/seats/1", b'{"name": "\\ud800"}'),
                       ("/api/tables", b'{"seats": [{"kind": "person", "name": "\\ud800"}, '
                                       b'{"kind": "person"}]}')):
        answer = await acall(server.base, "POST", path, body)
        assert (answer.status, answer.code) == (400, "bad_name"), (path, answer)
    answer = await acall(server.base, "POST", "/api/tables",
                         b'{"seats": [{"kind": "person"}, {"kind": "bot", "bot": "\\ud800"}]}')
    assert (answer.status, answer.code) == (400, "bad_seats"), answer
    for hello in ('{"type": "hello", "token": "\\ud800"}',
                  '{"type": "hello", "token": "a\\udfffb"}'):
        sock = await websockets.connect(socket_url(server.base, table))
        await sock.send(hello)
        try:
            frame = json.loads(await asyncio.wait_for(sock.recv(), 10))
        except websockets.ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4401
        else:
            assert frame["type"] == "error", frame
        await sock.close()
    async with await TableConnection.open(server.base, table, bob["token"]) as seat:
        await seat.socket.send(f'{{"type": "move", "id": "\\ud800", "seq": {seat.seq}, '
                               '"move": "\\ud800"}')
        answer_frame = await seat.next(10)
        assert answer_frame["type"] in ("refused", "error"), answer_frame
    no_traceback(server)


def assert_secured(answer: Answer) -> None:
    assert "default-src 'none'" in answer.headers["content-security-policy"], answer
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"


async def test_json_and_error_answers_carry_the_security_headers(servers: Servers,
                                                                 sqlite_url: str) -> None:
    server = servers.start(sqlite_url)
    base = server.base
    made = await acall(base, "POST", "/api/tables", {"players": 2})
    assert made.status == 201
    table = made.json()["table"]
    answers = {
        "created": made,
        "summary": await acall(base, "GET", f"/api/tables/{table}"),
        "rules": await acall(base, "GET", "/api/rules"),
        "no such table": await acall(base, "GET", f"/api/tables/{'x' * 22}"),
        "no such page": await acall(base, "GET", "/api/nothing"),
        "wrong method": await acall(base, "GET", "/api/tables"),
        "not json": await acall(base, "POST", "/api/tables", b"{nope",
                                headers={"Content-Type": "application/json"}),
        "not a json type": await acall(base, "POST", "/api/tables", b"{}",
                                       headers={"Content-Type": "text/plain"}),
        "another site": await acall(base, "POST", "/api/tables", {},
                                    headers={"Origin": "http://evil.example"}),
        "not our name": await acall(base, "GET", "/api/rules", headers={"Host": REBIND}),
    }
    statuses = {what: answer.status for what, answer in answers.items()}
    assert statuses == {"created": 201, "summary": 200, "rules": 200, "no such table": 404,
                        "no such page": 404, "wrong method": 405, "not json": 400,
                        "not a json type": 415, "another site": 403, "not our name": 421}
    for what, answer in answers.items():
        assert answer.headers["content-type"].startswith("application/json"), what
        assert_secured(answer)


async def test_no_redirect_is_built_from_the_host_header(servers: Servers,
                                                         sqlite_url: str) -> None:
    server = servers.start(sqlite_url)
    for path in ("/static", "/api/tables/", "/t"):
        answer = await acall(server.base, "GET", path, headers={"Host": "localhost"})
        assert answer.status == 404, (path, answer)
        assert "location" not in answer.headers
        assert_secured(answer)


async def test_serve_help_lists_every_setting_with_its_flag_and_variable() -> None:
    command = [sys.executable, "-m", "rummy500", "serve", "--help"]
    shown = (await asyncio.to_thread(subprocess.run, command, capture_output=True, text=True,
                                     timeout=60, check=True,
                                     env={**os.environ, "COLUMNS": "250"})).stdout
    fields = dataclasses.fields(ServerSettings)
    assert len(fields) >= 20
    for spec in fields:
        flag = spec.metadata.get("flag") or spec.name.replace("_", "-")
        assert f"--{flag}" in shown, flag
        assert env_name(flag) in shown, flag
    for limit in ("--tables-per-hour", "--max-connections", "--header-timeout-s",
                  "--hello-timeout-s", "--allowed-host", "--retention-days", "--allow-seeds"):
        assert limit in shown

