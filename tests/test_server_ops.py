"""What an operator watches, against a real ``serve`` process: ``/healthz``, ``/readyz`` (and
its 503 once the database is gone), the Prometheus metrics at ``/metrics`` as people play,
JSON logs that name the table, and SIGTERM closing sockets with 1001 without losing an
acknowledged move."""

from __future__ import annotations

import asyncio
import json
import random
import time
import urllib.error
import urllib.request
from typing import Any

import psycopg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from rummy500.net.client import Closed, TableConnection
from serverkit import POSTGRES_ADMIN, ServerProcess, Servers, metrics_url, seat_body

pytestmark = pytest.mark.asyncio

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def get(server: ServerProcess, path: str,
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names) and body of ``GET path``, errors included: the
    metrics from their own port, anything else from the tables'."""
    url = metrics_url(server) if path == "/metrics" else server.base + path
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


async def scrape(server: ServerProcess) -> Samples:
    status, headers, body = await asyncio.to_thread(get, server, "/metrics")
    assert status == 200 and headers["content-type"].startswith("text/plain")
    return {(sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(body.decode("utf-8"))
            for sample in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, frozenset(labels.items()))]


def assert_secured(headers: dict[str, str]) -> None:
    assert "default-src 'none'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


async def two_people(server: ServerProcess) -> tuple[str, TableConnection, TableConnection]:
    """A two-person table with both seats taken and connected: the game has begun."""
    made = await server.api.create_table({"players": 2})
    other = await server.api.take_seat(made["table"], 1, "Bo")
    first = await TableConnection.open(server.base, made["table"], made["token"])
    second = await TableConnection.open(server.base, made["table"], other["token"])
    for seat in (first, second):
        await seat.until(1, 30)
    return made["table"], first, second


async def play(seats: tuple[TableConnection, ...], moves: int, rng: random.Random) -> int:
    """``moves`` legal moves by whoever's turn it is; the last acknowledged seq."""
    last = -1
    for _ in range(moves):
        mover = next(s for s in seats if s.state.get("legal"))
        answer = await mover.move(rng.choice(mover.state["legal"]), timeout=30)
        assert answer["type"] == "ack", answer
        last = answer["seq"]
        for seat in seats:
            await seat.until(last, 30)
    return last


async def test_health_readiness_and_metrics_answer(server: ServerProcess) -> None:
    for path in ("/healthz", "/readyz"):
        status, headers, body = await asyncio.to_thread(get, server, path)
        assert (status, json.loads(body)) == (200, {"ok": True}), path
        assert headers["content-type"] == "application/json"
        assert_secured(headers)
    status, headers, body = await asyncio.to_thread(get, server, "/metrics")
    assert status == 200 and headers["cache-control"] == "no-store"
    names = {family.name for family in text_string_to_metric_families(body.decode())}
    assert {"rummy500_moves", "rummy500_refusals", "rummy500_move_ack_seconds",
            "rummy500_connections", "rummy500_tables", "rummy500_bot_queue",
            "rummy500_bot_think_seconds", "rummy500_limits_hit", "rummy500_replays",
            "rummy500_replay_seconds"} <= names


async def test_readyz_says_unavailable_once_the_database_is_gone(servers: Servers,
                                                                  postgres_url: str) -> None:
    server = servers.start(postgres_url)
    assert (await asyncio.to_thread(get, server, "/readyz"))[0] == 200
    name = postgres_url.rsplit("/", 1)[1]
    with psycopg.connect(POSTGRES_ADMIN, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    status, headers, body = await asyncio.to_thread(get, server, "/readyz")
    answer = json.loads(body)
    assert (status, answer["error"]) == (503, "unavailable") and answer["message"]
    assert_secured(headers)
    assert (await asyncio.to_thread(get, server, "/healthz"))[0] == 200, \
        "a process whose database is down is not dead: restarting it would not help"


async def test_metrics_count_moves_acks_refusals_and_sockets(own_server: ServerProcess) -> None:
    server = own_server  # what the whole server counts: no other test's tables or sockets
    _, first, second = await two_people(server)
    before = await scrape(server)
    assert value(before, "rummy500_connections", kind="websocket") == 2
    assert value(before, "rummy500_connections", kind="http") == 0  # scrapes come apart
    last = await play((first, second), 7, random.Random(8))
    waiting = second if first.state.get("legal") else first
    answer = await waiting.move("draw", seq=last)
    assert (answer["type"], answer["code"]) == ("refused", "not_your_turn")
    after = await scrape(server)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("rummy500_moves_total", by="person") == 7
    assert grew("rummy500_moves_total", by="bot") == 0
    assert grew("rummy500_move_ack_seconds_count") == 7
    assert 0 < grew("rummy500_move_ack_seconds_sum") < 7 * 5
    assert grew("rummy500_refusals_total", code="not_your_turn") == 1
    assert grew("rummy500_refusals_total", code="other") == 0
    assert value(after, "rummy500_tables", status="playing") == 1
    assert value(after, "rummy500_tables", status="waiting") == 0
    await first.close()
    await second.close()
    deadline = time.monotonic() + 10
    while value(await scrape(server), "rummy500_connections", kind="websocket") != 0:
        assert time.monotonic() < deadline, "closed sockets are still counted"
        await asyncio.sleep(0.1)


async def test_metrics_count_a_computer_players_moves_and_thinking(
        own_server: ServerProcess) -> None:
    server = own_server  # no other test's computer players think here
    made = await server.api.create_table(seat_body("person", "random"))
    person = await TableConnection.open(server.base, made["table"], made["token"],
                                        keep_frames=True)
    while not person.state.get("legal"):
        await person.next(30)
    before = await scrape(server)
    seen = len(person.frames)
    rng = random.Random(2)
    for _ in range(6):
        answer = await person.move(rng.choice(person.state["legal"]), timeout=30)
        assert answer["type"] == "ack", answer
        while not person.state.get("legal") and not person.state.get("over"):
            await person.next(30)  # the computer player's turn, until it is ours again
    after = await scrape(server)
    bot_moves = sum(1 for frame in person.frames[seen:]
                    if frame["type"] == "update" and frame["event"].get("seat") == 1)
    assert bot_moves > 0
    assert value(after, "rummy500_moves_total", by="bot") - \
        value(before, "rummy500_moves_total", by="bot") == bot_moves
    assert value(after, "rummy500_bot_think_seconds_count") - \
        value(before, "rummy500_bot_think_seconds_count") == bot_moves
    assert value(after, "rummy500_bot_queue") == 0
    await person.close()


async def test_json_logs_carry_the_table_and_request_ids(servers: Servers,
                                                         sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--log-format", "json", "--log-level", "info"))
    made = await server.api.create_table({"players": 2})
    table = made["table"]
    status, headers, _ = await asyncio.to_thread(
        get, server, f"/api/tables/{table}", {"X-Request-ID": "trace-42"})
    assert status == 200 and headers["x-request-id"] == "trace-42"
    _, headers, _ = await asyncio.to_thread(get, server, "/healthz",
                                            {"X-Request-ID": "no spaces\tor tabs"})
    assert headers["x-request-id"] != "no spaces\tor tabs" and headers["x-request-id"]

    def lines() -> list[dict[str, Any]]:
        text = server.errors()
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    deadline = time.monotonic() + 10
    while not any(entry.get("request_id") == "trace-42" for entry in lines()):
        assert time.monotonic() < deadline, server.errors()
        await asyncio.sleep(0.1)
    entries = lines()  # every line is one JSON object (json.loads above would fail)
    for entry in entries:
        assert {"time", "level", "logger", "message"} <= entry.keys(), entry
    ours = next(entry for entry in entries if entry.get("request_id") == "trace-42")
    assert ours["table_id"] == table and ours["level"] == "INFO"
    assert ours["status"] == 200 and ours["path"] == f"/api/tables/{table}"
    assert any(entry["logger"].startswith("uvicorn") for entry in entries), \
        "uvicorn's own lines are JSON too"


async def test_sigterm_closes_sockets_with_1001_and_keeps_every_acknowledged_move(
        servers: Servers, database_url: str) -> None:
    server = servers.start(database_url)
    table, first, second = await two_people(server)
    seats = (first, second)
    acked = await play(seats, 5, random.Random(4))
    # A move in flight as the server is told to stop: acknowledged (and then stored) or
    # refused as unavailable (and then not made); either way the socket closes with 1001.
    mover = next(s for s in seats if s.state.get("legal"))
    await mover.send({"type": "move", "id": "last", "seq": mover.seq,
                      "move": mover.state["legal"][0]})
    stopping = asyncio.ensure_future(asyncio.to_thread(server.stop))
    with pytest.raises(Closed) as closed:
        while True:
            frame = await mover.next(30)
            if frame.get("id") == "last" and frame["type"] == "ack":
                acked = frame["seq"]
            elif frame.get("id") == "last":
                assert (frame["type"], frame["code"]) == ("refused", "unavailable"), frame
    assert closed.value.code == 1001
    assert await stopping == 0
    other = second if mover is first else first
    with pytest.raises(Closed) as closed:
        while True:
            await other.next(30)
    assert closed.value.code == 1001

    again = servers.start(database_url)
    summary = await again.api.summary(table)
    assert summary["seq"] == acked, "an acknowledged move was lost, or an unacknowledged kept"
