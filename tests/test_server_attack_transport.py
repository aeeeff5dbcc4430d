"""The second attack on the server (issue 30), what reaches it below the tables, against
real ``serve`` processes on loopback: WebSocket upgrades its parser refuses (finding 1),
the limit per address behind a proxy and beside one (finding 10), the metrics kept off
the tables' port (finding 12), and a full disk or a damaged database file (finding 13)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import sqlite3
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from rawhttp import (
    acall,
    address,
    answer_status,
    call,
    closed_by_server,
    raw_socket,
    upgrade_request,
)
from rummy500.net.client import Closed, TableConnection, socket_url
from rummy500.server.process import start_command
from serverkit import TEST_FLAGS, ServerProcess, Servers, metrics_url, seat_body

pytestmark = pytest.mark.asyncio

OTHER_ADDRESS = "127.0.0.2"
PROXY = "127.0.0.1"
"""The proxy, in the tests of a server behind one: its clients are whom it says."""


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as page:
            return page.status, page.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


async def spectate(server: ServerProcess, table: str, **options: Any) -> Any:
    """A WebSocket that has said hello as a spectator (its welcome read)."""
    socket_ = await websockets.connect(socket_url(server.base, table), **options)
    await socket_.send(json.dumps({"type": "hello", "token": None}))
    assert json.loads(await asyncio.wait_for(socket_.recv(), 10))["type"] == "welcome"
    return socket_


async def newcomers_served(server: ServerProcess, table: str, *,
                           source: str | None = None) -> None:
    """GET, POST and a WebSocket from a new client are all served."""
    assert (await acall(server.base, "GET", "/healthz", source=source, timeout=10)).status == 200
    made = await acall(server.base, "POST", "/api/tables", {"players": 2}, source=source,
                       timeout=10)
    assert made.status == 201, made
    options = {} if source is None else {"local_addr": (source, 0)}
    watcher = await spectate(server, table, open_timeout=10, **options)
    await watcher.close()


# -- finding 1: upgrades the parser refuses ------------------------------------------------

LONG_LINE = "/ws/" + "a" * 9000
"""A request line over websockets' 8,192 bytes."""
MANY_HEADERS = "".join(f"X-Pad-{n}: {n}\r\n" for n in range(200))
"""Over websockets' 128 headers."""
LONG_HEADER = f"X-Pad: {'b' * 9000}\r\n"


async def test_an_upgrade_the_parser_refuses_is_answered_closed_and_never_locks_anyone_out(
        servers: Servers, sqlite_url: str, tmp_path: Path) -> None:
    # Few open files, as on a small server (1,024 by default): sockets left open run out.
    command = ["prlimit", "--nofile=200:200", sys.executable, "-m", "rummy500", "serve",
               "--port", "0", "--database", sqlite_url, "--pace", "0", *TEST_FLAGS,
               "--connections-per-address", "10", "--max-connections", "60",
               "--header-timeout-s", "2"]
    server = start_command(command, sqlite_url, tmp_path / "logs")
    servers.started.append(server)
    table = (await server.api.create_table({"players": 2}))["table"]
    before = open_files(server.pid)
    for target, extra, status in ((LONG_LINE, "", 414), ("/ws/" + table, MANY_HEADERS, 431),
                                  ("/ws/" + table, LONG_HEADER, 431)):
        sock = raw_socket(server.base)
        sock.sendall(upgrade_request(target, extra=extra))
        assert answer_status(sock, 3.0) == status, (target[:20], extra[:20])
        assert closed_by_server(sock, 3.0), "an upgrade answered with an error stays open"
        sock.close()

    # 300 of them from one address in a few seconds, none closed by the client: each is
    # answered and closed (or, over the limit per address, closed at once).
    held: list[socket.socket] = []
    started = time.monotonic()
    for n in range(300):
        try:
            sock = raw_socket(server.base, timeout=5)
            sock.sendall(upgrade_request("/ws/" + table, extra=MANY_HEADERS if n % 2 else "")
                         if n % 2 else upgrade_request(LONG_LINE))
        except OSError:
            await asyncio.sleep(0.01)
            continue
        held.append(sock)
    assert time.monotonic() - started < 30
    still_open = [sock for sock in held if not closed_by_server(sock, 0.01)]
    deadline = time.monotonic() + 5
    while still_open and time.monotonic() < deadline:
        still_open = [sock for sock in still_open if not closed_by_server(sock, 0.2)]
    assert not still_open, f"{len(still_open)} refused upgrades were never closed"
    await newcomers_served(server, table)
    await newcomers_served(server, table, source=OTHER_ADDRESS)
    await asyncio.sleep(0.5)
    assert open_files(server.pid) <= before + 5, "the server holds the refused sockets"
    for sock in held:
        sock.close()
    assert "Traceback" not in server.errors()
    # uvicorn's shutdown used to fail on such a socket (AssertionError in websockets).
    assert server.stop() == 0
    assert "Traceback" not in server.errors()


async def test_an_upgrade_that_waits_is_counted_and_timed_out_like_any_request(
        servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--connections-per-address", "3",
                                              "--header-timeout-s", "1"))
    table = (await server.api.create_table({"players": 2}))["table"]
    # Upgrades whose headers never end hold their place in the count until cut off.
    slow = [raw_socket(server.base) for _ in range(3)]
    for sock in slow:
        sock.sendall(upgrade_request("/ws/" + table)[:-2])
    await asyncio.sleep(0.2)
    fourth = raw_socket(server.base)
    assert closed_by_server(fourth, 0.5), "a fourth connection from the address was let in"
    for sock in slow:
        assert closed_by_server(sock, 3.0), "a half-sent upgrade was never cut off"
        sock.close()
    fourth.close()
    await newcomers_served(server, table)


# -- finding 10: the limit per address beside and behind a proxy ----------------------------


async def test_a_client_that_is_not_the_proxy_is_limited_by_its_own_address(
        servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--forwarded-allow-ips", "127.0.0.9",
                                              "--connections-per-address", "5",
                                              "--header-timeout-s", "60"))
    held = [raw_socket(server.base) for _ in range(5)]
    await asyncio.sleep(0.3)
    sixth = raw_socket(server.base)
    assert closed_by_server(sixth, 3.0), "a proxy named elsewhere lifted everyone's limit"
    for sock in (*held, sixth):
        sock.close()
    await asyncio.sleep(0.3)
    # Saying it is someone else changes nothing: only the proxy is believed.
    made = call(server.base, "POST", "/api/tables", {"players": 2},
                headers={"X-Forwarded-For": "203.0.113.50"})
    assert made.status == 201, made
    table = made.json()["table"]
    sockets = [await spectate(server, table, additional_headers={
        "X-Forwarded-For": f"203.0.113.{n}"}) for n in range(5)]
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(socket_url(server.base, table), open_timeout=10,
                                 additional_headers={"X-Forwarded-For": "203.0.113.9"})
    assert refused.value.response.status_code == 403
    for socket_ in sockets:
        await socket_.close()


async def test_behind_the_proxy_each_forwarded_address_is_limited(
        servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--forwarded-allow-ips", PROXY,
                                              "--connections-per-address", "3",
                                              "--header-timeout-s", "60"))
    table = (await server.api.create_table({"players": 2}))["table"]
    # The proxy's own connections are many clients': not limited per address.
    idle = [raw_socket(server.base) for _ in range(6)]
    await asyncio.sleep(0.3)
    assert not any(closed_by_server(sock, 0.2) for sock in idle)
    for sock in idle:
        sock.close()
    # WebSockets: three for one forwarded address, the fourth refused, another let in.
    ann = {"X-Forwarded-For": "203.0.113.7"}
    sockets = [await spectate(server, table, additional_headers=ann) for _ in range(3)]
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(socket_url(server.base, table), open_timeout=10,
                                 additional_headers=ann)
    assert refused.value.response.status_code == 403
    sockets.append(await spectate(server, table,
                                  additional_headers={"X-Forwarded-For": "203.0.113.8"}))
    for socket_ in sockets:
        await socket_.close()
    await asyncio.sleep(0.3)
    # Requests: three under way for one forwarded address (bodies that take their time),
    # the fourth refused, another address served.
    slow = []
    for _ in range(3):
        sock = raw_socket(server.base)
        sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                     b"application/json\r\nX-Forwarded-For: 203.0.113.7\r\n"
                     b"Content-Length: 100\r\n\r\n{\"players\"")
        slow.append(sock)
    await asyncio.sleep(0.3)
    fourth = await acall(server.base, "GET", "/healthz", headers=ann)
    assert (fourth.status, fourth.code) == (429, "too_many_connections"), fourth
    other = await acall(server.base, "GET", "/healthz",
                        headers={"X-Forwarded-For": "203.0.113.8"})
    assert other.status == 200
    for sock in slow:
        sock.close()
    await asyncio.sleep(0.3)
    assert (await acall(server.base, "GET", "/healthz", headers=ann)).status == 200


async def test_a_proxy_of_star_is_warned_about(servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--forwarded-allow-ips", "*"))
    assert (await acall(server.base, "GET", "/healthz")).status == 200
    assert "--forwarded-allow-ips '*' believes the X-Forwarded-For of every client" in (
        server.errors())
    quiet = servers.start(sqlite_url, extra=("--forwarded-allow-ips", PROXY))
    assert (await acall(quiet.base, "GET", "/healthz")).status == 200
    assert "forwarded-allow-ips" not in quiet.errors()


# -- finding 12: metrics apart from the tables -----------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


async def test_metrics_are_served_on_their_own_port_never_the_tables(
        servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url)
    status, _body = await asyncio.to_thread(get, server.base + "/metrics")
    assert status == 404, "the metrics are public on the tables' port"
    url = metrics_url(server)
    assert url.startswith("http://127.0.0.1:") and url.endswith("/metrics")
    assert address(url)[1] != address(server.base)[1]
    status, body = await asyncio.to_thread(get, url)
    assert status == 200 and "rummy500_moves_total" in body
    status, _body = await asyncio.to_thread(get, url.removesuffix("metrics") + "api/rules")
    assert status == 404
    # A port the operator chooses.
    port = free_port()
    chosen = servers.start(sqlite_url, extra=("--metrics-port", str(port)))
    assert metrics_url(chosen) == f"http://127.0.0.1:{port}/metrics"
    status, body = await asyncio.to_thread(get, metrics_url(chosen))
    assert status == 200 and "rummy500_connections" in body
    # A scraper that sends nothing is let go, and does not stop the others.
    silent = raw_socket(metrics_url(chosen))
    assert (await asyncio.to_thread(get, metrics_url(chosen)))[0] == 200
    assert closed_by_server(silent, 8.0)
    silent.close()


# -- finding 13: a full disk, a damaged file ------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 4 MiB filesystem of its own (tmpfs; mounting one needs root)."""
    folder = tmp_path / "disk"
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs",
                           str(folder)], capture_output=True, text=True)
    if done.returncode != 0:
        if os.environ.get("RUMMY500_CI") == "1":
            pytest.fail(f"a small filesystem is needed in CI: {done.stderr.strip()}")
        pytest.skip(f"cannot mount a small filesystem here: {done.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def readiness(server: ServerProcess) -> tuple[int, str]:
    answer = call(server.base, "GET", "/readyz", timeout=10)
    return answer.status, answer.body.decode()


async def ready_becomes(server: ServerProcess, status: int, within: float) -> str:
    deadline = time.monotonic() + within
    while True:
        now, body = await asyncio.to_thread(readiness, server)
        if now == status:
            return body
        assert time.monotonic() < deadline, f"/readyz stayed {now}: {body}"
        await asyncio.sleep(0.25)


async def play(seat: TableConnection, rng: random.Random, moves: int) -> list[dict[str, Any]]:
    """``moves`` of this seat's moves, the answers."""
    answers: list[dict[str, Any]] = []
    while len(answers) < moves:
        if not seat.state.get("legal"):
            await seat.next(30)
            continue
        await asyncio.sleep(0.06)
        answers.append(await seat.move(rng.choice(seat.state["legal"]), timeout=30))
        if answers[-1]["type"] != "ack":
            return answers
    return answers


async def test_a_full_disk_makes_the_server_unready_once_and_ready_again(
        servers: Servers, small_disk: Path) -> None:
    server = servers.start(f"sqlite:///{small_disk / 'tables.db'}")
    rng = random.Random(30)
    tables = []
    for seed in range(2):
        made = await server.api.create_table(seat_body("person", "random", seed=seed,
                                                       takeover_s=0))
        tables.append(await TableConnection.open(server.base, made["table"], made["token"]))
    assert all(a["type"] == "ack" for a in await play(tables[0], rng, 2))
    assert (await asyncio.to_thread(readiness, server))[0] == 200

    filler = small_disk / "filler"
    out = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for chunk in (65536, 4096):
            with contextlib.suppress(OSError):
                while os.write(out, b"\0" * chunk):
                    pass
    finally:
        os.close(out)
    body = await ready_becomes(server, 503, 5)
    assert "full" in json.loads(body)["message"]
    # What is refused meanwhile says so, and nobody is told to try again in a moment.
    for seat in tables:
        if seat.state.get("legal"):
            answer = await seat.move(rng.choice(seat.state["legal"]), timeout=30)
            assert answer["type"] == "refused" and answer["code"] == "unavailable", answer
    for _ in range(3):
        refused = await acall(server.base, "POST", "/api/tables", {"players": 2})
        assert refused.status == 503 and "disk is full" in refused.json()["message"], refused
    await asyncio.sleep(5)  # the computer players try to store their moves again meanwhile
    log = server.errors()
    assert log.count("not ready: the disk that holds the database is full") == 1, log[-3000:]
    assert log.count("database or disk is full") <= 1, log[-3000:]  # said once at most

    filler.unlink()
    await ready_becomes(server, 200, 30)
    # The tables go on where they were, and new ones are made and played.
    assert all(a["type"] == "ack" for a in await play(tables[1], rng, 2))
    assert all(a["type"] == "ack" for a in await play(tables[0], rng, 2))
    for seat in tables:
        await seat.close()
    again = await server.api.create_table(seat_body("person", "random", seed=9, takeover_s=0))
    async with await TableConnection.open(server.base, again["table"], again["token"]) as seat:
        assert all(a["type"] == "ack" for a in await play(seat, rng, 3))
    assert "ready again" in server.errors()


def damage_page_of(database: Path, table_id: str) -> None:
    """Overwrite the header and cell pointers of the page that holds ``table_id``'s row."""
    with sqlite3.connect(database) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        leaves = [row[0] for row in conn.execute(
            "SELECT pageno FROM dbstat WHERE name = 'tables' AND pagetype = 'leaf'")]
    data = database.read_bytes()
    page = next(p for p in leaves if table_id.encode() in data[(p - 1) * size:p * size])
    with database.open("r+b") as out:
        out.seek((page - 1) * size + 8)
        out.write(random.Random(13).randbytes(200))


async def test_a_damaged_database_file_is_reported_and_the_other_tables_go_on(
        servers: Servers, tmp_path: Path) -> None:
    database = tmp_path / "tables.db"
    url = f"sqlite:///{database}"
    first = servers.start(url)
    made = [await first.api.create_table(seat_body("person", "random", seed=seed,
                                                   takeover_s=0)) for seed in range(40)]
    first.stop()
    damaged, sound = made[0], made[-1]
    damage_page_of(database, damaged["table"])

    server = servers.start(url)
    body = await ready_becomes(server, 503, 10)
    assert "damaged" in json.loads(body)["message"]
    for _ in range(3):
        answer = await acall(server.base, "GET", f"/api/tables/{damaged['table']}")
        assert answer.status == 500, answer
        assert "try again" not in answer.json()["message"]
        assert "damaged" in answer.json()["message"]
    with pytest.raises(Closed) as closed:
        await TableConnection.open(server.base, damaged["table"], damaged["token"])
    assert closed.value.code == 1011
    # Another table plays on.
    assert (await server.api.summary(sound["table"]))["status"] == "playing"
    rng = random.Random(31)
    async with await TableConnection.open(server.base, sound["table"], sound["token"]) as seat:
        assert all(a["type"] == "ack" for a in await play(seat, rng, 4))
    log = server.errors()
    assert log.count("not ready: the database file is damaged") == 1, log[-3000:]
    assert "Traceback" not in log and "Exception in ASGI application" not in log, log[-3000:]
