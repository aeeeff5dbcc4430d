"""What a ``serve`` open to the internet lets one address do with tables, against real
processes: no table of computer players only, a limit on tables made an hour and on
unfinished tables from one address, no chosen shuffle unless the operator allows seeds,
Play again seats kept for the people who held them, and old tables deleted after the
retention the operator sets."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from rawhttp import Answer, acall, call
from rummy500.net.client import ServerError, TableConnection
from rummy500.server.process import start_server as start_server_process
from serverkit import ServerProcess, Servers, play_out, seat_body

pytestmark = pytest.mark.asyncio

SHORT = {"preset": "classic", "max_deals": 1}
"""A game of one deal."""
OTHER_ADDRESS = "127.0.0.2"
"""Another client address on loopback: the limits per address count it apart."""


async def create(server: ServerProcess, body: dict[str, Any], *,
                 source: str | None = None) -> Answer:
    return await acall(server.base, "POST", "/api/tables", body, source=source)


async def finish_alone(server: ServerProcess, seed: int) -> str:
    """A one-deal table of a person and the ``random`` computer player, played to its end."""
    made = await server.api.create_table(seat_body("person", "random", seed=seed, rules=SHORT,
                                                   takeover_s=0))
    async with await TableConnection.open(server.base, made["table"], made["token"]) as seat:
        await asyncio.wait_for(play_out(seat, random.Random(seed)), 120)
    table: str = made["table"]
    assert (await server.api.summary(table))["status"] == "over"
    return table


async def finish_pair(server: ServerProcess, seed: int = 5) -> tuple[str, str, str]:
    """Ann (seat 0) and Bob (seat 1) play a one-deal table to its end: its id, Ann's token
    and Bob's token there."""
    made = await server.api.create_table({
        "rules": SHORT, "players": 2, "takeover_s": 0, "seed": seed,
        "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person"}]})
    table = made["table"]
    bob = await server.api.take_seat(table, 1, "Bob")
    ann_seat = await TableConnection.open(server.base, table, made["token"])
    bob_seat = await TableConnection.open(server.base, table, bob["token"])
    rng = random.Random(seed)
    await asyncio.wait_for(asyncio.gather(play_out(ann_seat, random.Random(rng.random())),
                                          play_out(bob_seat, random.Random(rng.random()))), 150)
    for seat in (ann_seat, bob_seat):
        await seat.close()
    return table, made["token"], bob["token"]


# -- computer players play only with people ------------------------------------------------


async def test_a_table_of_computer_players_only_is_refused(servers: Servers,
                                                           sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--tables-per-hour", "1"))
    endless = seat_body(*["mcts"] * 8, rules={"preset": "classic", "target_score": 100000})
    for body in (endless, seat_body("random", "expert")):
        answer = await create(server, body)
        assert (answer.status, answer.code) == (400, "needs_person"), answer
        assert answer.json()["message"]
    # A refused table is not one of the address's tables this hour.
    made = await create(server, seat_body("person", "mcts"))
    assert made.status == 201, made


# -- limits per address --------------------------------------------------------------------


async def test_tables_made_in_an_hour_are_limited_per_address(servers: Servers,
                                                              sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--tables-per-hour", "3"))
    for _ in range(3):
        assert (await create(server, {"players": 2})).status == 201
    over = await create(server, {"players": 2})
    assert (over.status, over.code) == (429, "too_many_tables"), over
    assert "3" in over.json()["message"]
    # Another address has its own count.
    assert (await create(server, {"players": 2}, source=OTHER_ADDRESS)).status == 201
    assert (await create(server, {"players": 2})).code == "too_many_tables"


async def test_the_limit_holds_for_requests_sent_all_at_once(servers: Servers,
                                                           sqlite_url: str) -> None:
    """The limit is checked and the table made as one step: thirty requests at once make
    three tables, not one each for every request that was checked before any was made."""
    server = servers.start(sqlite_url, extra=("--tables-per-hour", "3"))
    loop = asyncio.get_running_loop()
    with ThreadPoolExecutor(30) as pool:
        answers = await asyncio.gather(*[
            loop.run_in_executor(pool, partial(call, server.base, "POST", "/api/tables",
                                               {"players": 2})) for _ in range(30)])
    statuses = Counter(answer.status for answer in answers)
    assert statuses == {201: 3, 429: 27}, statuses


async def test_unfinished_tables_are_limited_per_address(servers: Servers,
                                                         sqlite_url: str) -> None:
    server = servers.start(sqlite_url, extra=("--open-tables-per-address", "2"))
    first = await server.api.create_table(seat_body("person", "random", seed=8, rules=SHORT,
                                                    takeover_s=0))
    assert (await create(server, {"players": 2})).status == 201
    over = await create(server, {"players": 2})
    assert (over.status, over.code) == (429, "too_many_tables"), over
    assert (await create(server, {"players": 2}, source=OTHER_ADDRESS)).status == 201
    # Once one of them is over, the address may make another.
    async with await TableConnection.open(server.base, first["table"], first["token"]) as seat:
        await asyncio.wait_for(play_out(seat, random.Random(8)), 120)
    assert (await create(server, {"players": 2})).status == 201
    assert (await create(server, {"players": 2})).code == "too_many_tables"


# -- seeds ---------------------------------------------------------------------------------


async def test_a_seed_is_taken_only_when_the_operator_allows_seeds(
        servers: Servers, sqlite_url: str, tmp_path: Path) -> None:
    """Whoever chooses the shuffle knows every hand: by default the server shuffles."""
    plain = start_server_process(sqlite_url, tmp_path / "plain-logs", extra=(
        "--tables-per-hour", "1000", "--open-tables-per-address", "1000"))
    servers.started.append(plain)
    refused = await create(plain, {"players": 2, "seed": 7})
    assert (refused.status, refused.code) == (400, "seeds_disabled"), refused
    assert "--allow-seeds" in refused.json()["message"]
    assert (await plain.api.call("GET", "/api/rules"))["seeds"] is False
    made = await plain.api.create_table({"players": 2})
    assert "seeded" not in await plain.api.summary(made["table"])
    plain.stop()

    seeded = servers.start(sqlite_url)  # the tests' flags: --allow-seeds
    assert (await seeded.api.call("GET", "/api/rules"))["seeds"] is True
    made = await seeded.api.create_table({"players": 2, "seed": 7})
    assert (await seeded.api.summary(made["table"]))["seeded"] is True


# -- Play again ----------------------------------------------------------------------------


async def again(server: ServerProcess, table: str, token: str, **extra: Any) -> Answer:
    return await acall(server.base, "POST", f"/api/tables/{table}/again",
                       {"token": token, **extra})


async def sit(server: ServerProcess, table: str, seat: int) -> Answer:
    return await acall(server.base, "POST", f"/api/tables/{table}/seats/{seat}",
                       {"name": "Eve"})


async def test_play_again_keeps_each_seat_for_the_person_who_held_it(
        servers: Servers, database_url: str) -> None:
    server = servers.start(database_url)
    table, ann, bob = await finish_pair(server)
    made = await again(server, table, ann)
    assert made.status == 201, made
    following = made.json()["table"]
    # The next table's id is public (the old table's summary says it) ...
    assert (await server.api.summary(table))["next"] == following
    seats = (await server.api.summary(following))["seats"]
    assert seats[1]["open"] is True and seats[1]["kept"] is True
    assert seats[0]["open"] is False and not seats[0]["kept"]
    # ... but Bob's seat there is his: a stranger cannot take it.
    stranger = await sit(server, following, 1)
    assert (stranger.status, stranger.code) == (409, "seat_kept"), stranger
    joined = await again(server, table, bob)
    assert joined.status == 200, joined
    assert (joined.json()["table"], joined.json()["seat"]) == (following, 1)
    summary = await server.api.summary(following)
    assert summary["status"] == "playing"
    assert [(s["name"], s["open"], s["kept"]) for s in summary["seats"]] == [
        ("Ann", False, False), ("Bob", False, False)]
    async with await TableConnection.open(server.base, following,
                                          joined.json()["token"]) as seat:
        assert seat.seat == 1
    assert (await sit(server, following, 1)).code == "seat_taken"


async def test_a_declined_seat_is_open_to_anyone(servers: Servers, sqlite_url: str) -> None:
    server = servers.start(sqlite_url)
    table, ann, bob = await finish_pair(server)
    following = (await again(server, table, ann)).json()["table"]
    declined = await again(server, table, bob, decline=True)
    assert declined.status == 200, declined
    assert declined.json() == {"declined": True, "table": following}
    seat = (await server.api.summary(following))["seats"][1]
    assert seat["open"] is True and not seat["kept"]
    taken = await sit(server, following, 1)
    assert taken.status == 200 and taken.json()["seat"] == 1, taken
    late = await again(server, table, bob)
    assert (late.status, late.code) == (409, "seat_taken"), late


async def test_a_kept_seat_is_open_to_anyone_once_again_hold_s_has_passed(
        servers: Servers, sqlite_url: str) -> None:
    hold = 3.0
    server = servers.start(sqlite_url, extra=("--again-hold-s", str(hold)))
    table, ann, _bob = await finish_pair(server)
    asked = time.monotonic()
    following = (await again(server, table, ann)).json()["table"]
    early = await sit(server, following, 1)
    assert time.monotonic() - asked < hold, "the machine is too slow for this test"
    assert early.code == "seat_kept", early
    await asyncio.sleep(hold + 0.2 - (time.monotonic() - asked))
    deadline = time.monotonic() + 10
    taken = await sit(server, following, 1)
    while taken.code == "seat_kept" and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
        taken = await sit(server, following, 1)
    assert taken.status == 200 and taken.json()["seat"] == 1, taken
    assert not (await server.api.summary(following))["seats"][1]["kept"]


# -- retention -----------------------------------------------------------------------------


def rows(database: str, table: str) -> dict[str, int]:
    """How many rows the SQLite database holds of ``table``, in each of its tables."""
    path = database.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        return {name: db.execute(f"SELECT count(*) FROM {name} WHERE {key} = ?",
                                 (table,)).fetchone()[0]
                for name, key in (("tables", "id"), ("seats", "table_id"),
                                  ("changes", "table_id"))}


async def gone(server: ServerProcess, table: str, within: float = 20.0) -> bool:
    """Whether ``table`` is (or soon is) unknown to the server."""
    deadline = time.monotonic() + within
    while True:
        try:
            await server.api.summary(table)
        except ServerError as error:
            assert (error.status, error.code) == (404, "not_found"), error
            return True
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.2)


async def test_abandoned_then_finished_tables_are_deleted_after_their_retention(
        servers: Servers, sqlite_url: str) -> None:
    first = servers.start(sqlite_url)
    finished = await finish_alone(first, seed=11)
    unfinished = (await first.api.create_table(seat_body("person", "random")))["table"]
    first.stop()
    assert all(rows(sqlite_url, finished).values())
    assert all(rows(sqlite_url, unfinished).values())
    await asyncio.sleep(0.1)  # both are older than 0.000001 days (86 ms) now

    # Unfinished tables go after --abandoned-days without a change; finished ones stay.
    second = servers.start(sqlite_url, extra=("--abandoned-days", "0.000001"))
    assert await gone(second, unfinished)
    assert rows(sqlite_url, unfinished) == {"tables": 0, "seats": 0, "changes": 0}
    summary = await second.api.summary(finished)
    assert summary["status"] == "over"
    assert (await second.api.record(finished))["rounds"]
    second.stop()

    # Finished tables go after --retention-days.
    third = servers.start(sqlite_url, extra=("--retention-days", "0.00001"))
    assert await gone(third, finished)
    assert rows(sqlite_url, finished) == {"tables": 0, "seats": 0, "changes": 0}
    with pytest.raises(ServerError) as record:
        await third.api.record(finished)
    assert record.value.status == 404
