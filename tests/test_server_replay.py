"""``POST /api/replay`` on a real server: a record is replayed in a worker process, so the
tables go on while it runs; its size, its deals, its answer and its time are bounded, and
each bound is answered with a clear JSON error; names are cleaned as player names are."""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from rummy500.bots.registry import make_bot
from rummy500.game import Game
from rummy500.net.client import TableConnection
from rummy500.record import game_record
from rummy500.rules import rules_from_record
from rummy500.server.children import Busy, ChildPool, DeadlineExceeded, OutOfMemory
from serverkit import ServerProcess, Servers, metrics_url, seat_body

RECORDS = Path(__file__).parent / "records"
SMALL = json.loads((RECORDS / "classic-2.json").read_text())


def random_record(players: int, deals: int, seed: int = 1) -> dict[str, Any]:
    """A game of ``deals`` deals between random players: long deals, many moves."""
    rules = rules_from_record({"preset": "classic", "max_deals": deals, "target_score": None})
    game = Game(rules, players, seed=seed)
    bots = [make_bot("random", seed + seat) for seat in range(players)]
    while not game.finished:
        game.play(bots[game.turn].choose(game.view(game.turn)))
    return game_record(game)


def post(server: ServerProcess, body: bytes, *, headers: dict[str, str] | None = None,
         ) -> tuple[int, dict[str, str], bytes]:
    """The status, headers (in lower case) and body of the answer to ``body``."""
    status, answer_headers, data, _ = timed_post(server, body, headers=headers)
    return status, answer_headers, data


def timed_post(server: ServerProcess, body: bytes, *, headers: dict[str, str] | None = None,
               ) -> tuple[int, dict[str, str], bytes, float]:
    """:func:`post`, and the monotonic time its answer began to arrive."""
    request = urllib.request.Request(server.base + "/api/replay", data=body, method="POST",
                                     headers={"Content-Type": "application/json",
                                              **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            arrived = time.monotonic()
            return answer.status, lower_case(answer.headers), answer.read(), arrived
    except urllib.error.HTTPError as error:
        return error.code, lower_case(error.headers), error.read(), time.monotonic()


def lower_case(headers: Any) -> dict[str, str]:
    return {name.lower(): value for name, value in headers.items()}


def replay(server: ServerProcess, body: Any) -> tuple[int, Any]:
    status, _, data = post(server, json.dumps(body).encode())
    return status, json.loads(data)


def get_rules(server: ServerProcess) -> dict[str, Any]:
    with urllib.request.urlopen(server.base + "/api/rules", timeout=60) as answer:
        found: dict[str, Any] = json.loads(answer.read())
        return found


def refused(answer: Any, code: str) -> str:
    assert answer["error"] == code, answer
    message: str = answer["message"]
    assert message
    return message


# -- limits on the request ------------------------------------------------------------------


def test_a_record_over_the_byte_limit_is_413(servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--replay-max-bytes", "65536"))
    padded = json.dumps(SMALL).encode() + b" " * 70_000  # a valid record, only too long
    status, _, data = post(server, padded)
    assert status == 413
    assert "64 KiB" in refused(json.loads(data), "too_large")

    # Told by Content-Length, the server answers at once, without the body.
    connection = http.client.HTTPConnection(server.base.split("//")[1], timeout=30)
    connection.putrequest("POST", "/api/replay")
    connection.putheader("Content-Type", "application/json")
    connection.putheader("Content-Length", str(50 * 1024 * 1024))
    connection.endheaders()
    answer = connection.getresponse()
    assert answer.status == 413
    refused(json.loads(answer.read()), "too_large")
    connection.close()

    # Streamed without a length, it is cut off as it passes the limit.
    connection = http.client.HTTPConnection(server.base.split("//")[1], timeout=30)
    chunks = (b"[" if i == 0 else b" " * 4096 for i in range(20))
    connection.request("POST", "/api/replay", body=chunks, encode_chunked=True,
                       headers={"Content-Type": "application/json"})
    answer = connection.getresponse()
    assert answer.status == 413
    refused(json.loads(answer.read()), "too_large")
    connection.close()

    status, answer = replay(server, SMALL)  # within the limit, as before
    assert status == 200 and answer["ok"]


def test_too_many_deals_are_refused_before_any_replaying(servers: Servers,
                                                         sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--replay-max-deals", "3",
                                              "--replay-max-bytes", str(4 * 1024 * 1024)))
    legal = SMALL["rounds"][0]
    illegal = {"deck": legal["deck"], "moves": ["discard Zz"]}
    # Four deals, the second not legal: replayed, it would be refused at deal 2.
    status, answer = replay(server, {**SMALL, "rounds": [legal, illegal, illegal, illegal]})
    assert status == 422
    assert "4 deals" in refused(answer, "too_many_deals")
    assert "at most 3" in answer["message"]

    # Like the record: 2,650 deals in 2.3 MB (copies of one deal).
    started = time.monotonic()
    status, answer = replay(server, {**SMALL, "rounds": [legal] * 2650})
    print(f"2,650 deals refused in {time.monotonic() - started:.3f} s")
    assert status == 422
    assert "2,650 deals" in refused(answer, "too_many_deals")

    status, answer = replay(server, {**SMALL, "rounds": [legal, illegal]})
    assert status == 422 and "deal 2, move 1 is not legal" in refused(answer, "bad_record")


def test_names_are_cleaned_as_player_names_are(servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url)
    players = SMALL["players"]
    for bad in ("Ann\u202e", "Ann\u2066x", "Ann\x07", "\u200f", "", "A" * 25, 7):
        names = [bad, "Bob"][:players]
        status, answer = replay(server, {"record": SMALL, "names": names})
        assert status == 400, bad
        assert answer["error"] in ("bad_name",), (bad, answer)
        assert answer["message"].startswith("seat 0: name")
    status, answer = replay(server, {"record": SMALL, "names": ["Ann"]})
    assert status == 400
    assert f"{players} names" in refused(answer, "bad_request")
    status, answer = replay(server, {"record": SMALL, "names": ["  Ann   Lee ", "Bob"]})
    assert status == 200
    assert answer["names"] == ["Ann Lee", "Bob"]
    assert answer["deals"][0]["steps"][0]["text"].startswith("Deal 1: ")


def test_an_address_asking_too_often_is_told_to_wait(servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--replays-per-minute", "2"))
    assert [replay(server, SMALL)[0] for _ in range(2)] == [200, 200]
    status, answer = replay(server, SMALL)
    assert status == 429
    assert "at most 2 replays a minute" in refused(answer, "too_many_replays")


# -- the answer -----------------------------------------------------------------------------


def test_the_answer_is_bounded_and_compressed_for_those_who_take_it(servers: Servers,
                                                                     sqlite_url: str) -> None:
    server = servers.start(sqlite_url)
    status, headers, plain = post(server, json.dumps(SMALL).encode())
    assert status == 200 and "content-encoding" not in headers
    status, headers, packed = post(server, json.dumps(SMALL).encode(),
                                   headers={"Accept-Encoding": "gzip"})
    assert status == 200 and headers["content-encoding"] == "gzip"
    assert json.loads(gzip.decompress(packed)) == json.loads(plain)
    assert len(packed) * 5 < len(plain)
    answer = json.loads(plain)
    assert len(answer["deals"]) == len(SMALL["rounds"])
    assert [len(deal["steps"]) for deal in answer["deals"]] == [
        len(deal["moves"]) + 1 for deal in SMALL["rounds"]]

    # Eight random players, 50 deals (a game's most): some 12,000 moves, whose every
    # position would take 10 MB. Refused, not built.
    status, answer = replay(server, random_record(8, 50))
    assert status == 422
    assert "larger than 8 MiB" in refused(answer, "too_long")
    status, answer = replay(server, SMALL)
    assert status == 200


# -- off the event loop ---------------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_tables_go_on_while_a_long_replay_runs(servers: Servers,
                                                         sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--replay-max-deals", "100"))
    made = await server.api.create_table(seat_body("person", "person", seed=5))
    other = await server.api.take_seat(made["table"], 1)
    a = await TableConnection.open(server.base, made["table"], made["token"])
    b = await TableConnection.open(server.base, made["table"], other["token"])
    long_record = random_record(2, 50)  # some 6,000 moves: seconds of work
    assert (await asyncio.to_thread(replay, server, SMALL))[0] == 200  # the worker is up

    began = time.monotonic()
    pending = asyncio.create_task(asyncio.to_thread(timed_post, server,
                                                    json.dumps(long_record).encode()))
    await asyncio.sleep(0.05)  # the replay is being made by now
    rules = await asyncio.to_thread(get_rules, server)
    assert rules["presets"]
    rules_at = time.monotonic()
    mover = a if a.my_turn else b
    ack = await mover.move(mover.state["legal"][0], timeout=60)
    assert ack["type"] == "ack", ack
    ack_at = time.monotonic()
    status, _, data, replay_at = await pending
    print(f"rules at {rules_at - began:.2f} s, ack at {ack_at - began:.2f} s, "
          f"replay at {replay_at - began:.2f} s")
    assert status == 200 and len(json.loads(data)["deals"]) == 50
    assert rules_at < replay_at, "the rules waited for the replay"
    assert ack_at < replay_at, "the table's move waited for the replay"
    await a.close()
    await b.close()


def test_a_replay_past_its_time_is_stopped_and_the_next_works(servers: Servers,
                                                             sqlite_url: str) -> None:
    # 12,000 moves: some seconds of work, stopped long before its answer reaches 8 MiB.
    server = servers.start(sqlite_url, extra=("--replay-timeout-s", "0.2"))
    long_record = random_record(8, 50)
    timeouts = 0
    for _ in range(2):  # the worker is killed, and another takes its place
        started = time.monotonic()
        status, answer = replay(server, long_record)
        assert status == 503, answer
        assert "longer than 0.2 s" in refused(answer, "timeout")
        timeouts += 1
        assert time.monotonic() - started < 10
        timeouts += small_replay_works(server)
        assert get_rules(server)["presets"]
    with urllib.request.urlopen(metrics_url(server), timeout=30) as page:
        metrics = page.read().decode()
    assert f'rummy500_replays_total{{outcome="timeout"}} {timeouts:.1f}' in metrics
    assert 'rummy500_replays_total{outcome="ok"} 2.0' in metrics


def small_replay_works(server: ServerProcess) -> int:
    """A small record is replayed by the worker that took the killed one's place; the
    number of its tries that ran over the 0.2 s. The worker runs at a lower priority than
    the tables, so on a machine kept busy by other tests a try may get too little of the
    CPU in 0.2 s: it is tried again, for 20 s at most."""
    over = 0
    deadline = time.monotonic() + 20
    while True:
        status, answer = replay(server, SMALL)
        if status == 200:
            assert answer["ok"], answer
            return over
        assert "longer than 0.2 s" in refused(answer, "timeout"), answer
        assert time.monotonic() < deadline, "the new worker never answered in time"
        over += 1


def children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def test_a_killed_server_leaves_no_replay_worker_behind(servers: Servers,
                                                        sqlite_url: str) -> None:
    server = servers.start(sqlite_url)
    before = children(server.pid)
    assert replay(server, SMALL)[0] == 200
    workers = children(server.pid) - before
    assert workers
    server.kill()
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in workers):
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)


# -- the worker pool ------------------------------------------------------------------------


@pytest.mark.asyncio
async def test_a_child_pool_bounds_time_memory_and_waiting() -> None:
    pool = ChildPool(size=1, max_waiting=2, memory_limit=256 * 1024 * 1024)
    try:
        assert await pool.run(sum, [1, 2, 3], timeout=30, wait=30) == 6
        first = pool.pids()
        with pytest.raises(DeadlineExceeded):
            await pool.run(time.sleep, 5, timeout=0.2, wait=30)
        assert pool.pids() == []  # the child was killed, not left running
        assert await pool.run(sum, [4], timeout=30, wait=30) == 4
        assert pool.pids() != first
        alive = pool.pids()
        with pytest.raises(ValueError):  # raised in the child, which is fine and kept
            await pool.run(int, "not a number", timeout=30, wait=30)
        assert pool.pids() == alive
        with pytest.raises(OutOfMemory):
            await pool.run(bytearray, 1024 * 1024 * 1024, timeout=30, wait=30)
        assert pool.pids() == []  # replaced at the next call

        calls = [asyncio.create_task(pool.run(time.sleep, 1, timeout=30, wait=0.2))
                 for _ in range(3)]
        outcomes = await asyncio.gather(*calls, return_exceptions=True)
        assert outcomes.count(None) == 1
        assert sum(isinstance(outcome, Busy) for outcome in outcomes) == 2
    finally:
        pool.close()
    assert pool.pids() == []
