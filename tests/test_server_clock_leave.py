"""Issue 32 feature 5 and issue 34 item 1 at the server (docs/protocol.md, "Pacing and
help", "Leaving a table"): the stand-in's moves are told as the stand-in's in every
process and after a restart (who played a move is stored with it); the time bank is
spent once a turn's clock has run out, before the stand-in plays, and kept across a
restart; a person who leaves gives the seat to a computer player for good; the players
are told how many watch. Real serve processes on loopback, SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from rummy500.net.client import Closed, ServerError, TableConnection
from rummy500.net.protocol import V2
from serverkit import ServerProcess, Servers, seat_body
from talkkit import answer_to, frame_of, processes, send

pytestmark = pytest.mark.asyncio


def named(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` with Ann in its first seat."""
    body["seats"][0]["name"] = "Ann"
    return body


def seat_lines(state: dict[str, Any], seat: int) -> list[str]:
    """The history's words of ``seat``'s moves in the deal in play."""
    return [entry["text"] for entry in state["history"]
            if entry.get("seat") == seat and "move" in entry]


async def my_turn(connection: TableConnection) -> None:
    while not connection.state.get("legal"):
        await connection.next(60)


async def turn_passes(connection: TableConnection, seat: int) -> float:
    """Seconds until the turn of ``seat`` (in play now) is over, nobody moving for it."""
    started = time.monotonic()
    while connection.state["turn"] == seat:
        await connection.next(60)
    return time.monotonic() - started


async def test_the_stand_in_is_named_in_every_process_and_after_a_restart(
        servers: Servers, database_url: str) -> None:
    a, b = processes(servers, database_url)
    made = await a.api.create_table(named(seat_body("person", "simple", seed=6, turn_s=5)))
    ann = await TableConnection.open(a.base, made["table"], made["token"])
    far = await TableConnection.open(b.base, made["table"], None)
    await my_turn(ann)
    await turn_passes(ann, 0)  # the clock runs out: the stand-in plays Ann's turn
    played = seat_lines(ann.state, 0)
    assert played and all(line.startswith("Your stand-in ") for line in played), played
    await far.until(ann.seq, 30)
    seen = seat_lines(far.state, 0)
    assert len(seen) == len(played)
    assert all(line.startswith("Ann's stand-in ") for line in seen), seen
    # A newcomer to the other process reads the table from there: the same words.
    late = await TableConnection.open(b.base, made["table"], None)
    assert seat_lines(late.state, 0)[:len(seen)] == seen
    for connection in (ann, far, late):
        await connection.close()

    a.stop()
    if b is not a:
        b.stop()
    again = servers.start(database_url)
    back = await TableConnection.open(again.base, made["table"], made["token"])
    assert seat_lines(back.state, 0)[:len(played)] == played
    watcher = await TableConnection.open(again.base, made["table"], None)
    assert seat_lines(watcher.state, 0)[:len(seen)] == seen
    await back.close()
    await watcher.close()


async def test_the_time_bank_is_spent_before_the_stand_in_plays(servers: Servers,
                                                                sqlite_url: str) -> None:
    first = servers.start(sqlite_url)
    made = await first.api.create_table(seat_body("person", "simple", seed=6, turn_s=5,
                                                  bank_s=4))
    assert (await first.api.summary(made["table"]))["bank_s"] == 4
    ann = await TableConnection.open(first.base, made["table"], made["token"])
    assert ann.state["bank"] == [4, 4]
    await my_turn(ann)
    # Past the clock, into the bank: the move that ends the turn spends what it outlasted.
    await asyncio.sleep(6.0)
    assert (await ann.move(ann.state["legal"][0]))["type"] == "ack"
    assert ann.state["clock"] == 0 and 0 < ann.state["bank"][0] < 4
    while ann.state["turn"] == 0:
        assert (await ann.move(ann.state["legal"][-1]))["type"] == "ack"
    left = ann.state["bank"][0]
    assert 0 < left <= 3.2 and ann.state["bank"][1] == 4, ann.state["bank"]
    # Nobody moves now: the clock, then the rest of the bank, then the stand-in plays.
    await my_turn(ann)
    assert ann.state["bank"][0] == left
    waited = await turn_passes(ann, 0)
    assert waited > 5 + left - 1.0, (waited, left)
    assert ann.state["bank"] == [0, 4]
    assert all(line.startswith("Your stand-in ") for line in seat_lines(ann.state, 0)[-2:])
    await ann.close()
    first.stop()

    second = servers.start(sqlite_url)
    back = await TableConnection.open(second.base, made["table"], made["token"])
    assert back.state["bank"] == [0, 4]
    await back.close()


async def test_a_bank_is_checked_and_needs_a_clock(shared_sqlite: ServerProcess) -> None:
    for body, words in (({"bank_s": 30}, "needs a turn clock"),
                        ({"turn_s": 30, "bank_s": 3601}, "from 0 to 3600"),
                        ({"turn_s": 30, "bank_s": -1}, "from 0 to 3600"),
                        ({"turn_s": 30, "bank_s": "60"}, "from 0 to 3600")):
        with pytest.raises(ServerError) as refused:
            await shared_sqlite.api.create_table(seat_body("person", "expert", **body))
        assert (refused.value.status, refused.value.code) == (400, "bad_bank_s"), body
        assert words in str(refused.value), (body, str(refused.value))
    plain = await shared_sqlite.api.create_table(seat_body("person", "expert", turn_s=30))
    ann = await TableConnection.open(shared_sqlite.base, plain["table"], plain["token"])
    assert ann.state["bank"] is None
    await ann.close()


async def test_leaving_gives_the_seat_to_a_computer_for_good(servers: Servers,
                                                             database_url: str) -> None:
    a, b = processes(servers, database_url)
    made = await a.api.create_table(named(seat_body("person", "person", "simple", seed=4)))
    waiting = await TableConnection.open(a.base, made["table"], made["token"])
    refused = await answer_to(waiting, await send(waiting, "leave"))
    assert (refused["type"], refused["code"]) == ("refused", "not_playing")
    assert "has not started" in refused["message"]
    await waiting.close()

    taken = await b.api.take_seat(made["table"], 1, "Bo")
    ann = await TableConnection.open(a.base, made["table"], made["token"])
    bo = await TableConnection.open(b.base, made["table"], taken["token"])
    watcher = await TableConnection.open(b.base, made["table"], None)
    old = await TableConnection.open(a.base, made["table"], None, version=V2)
    refused = await answer_to(watcher, await send(watcher, "leave"))
    assert (refused["type"], refused["code"]) == ("refused", "not_seated")

    answer = await answer_to(ann, await send(ann, "leave"))
    assert answer["type"] == "ack"
    seq = answer["seq"]
    welcome = await frame_of(ann, "welcome")  # Ann watches from now on
    assert welcome["seat"] is None and "hand" not in welcome["state"]
    await bo.until(seq, 30)
    told = bo.state["history"][-1]
    assert told == {"seat": 0, "left": True, "text": "Ann left the table: a computer player "
                    "plays the seat for the rest of the game."}
    assert bo.state["seats"][0]["kind"] == "bot" and bo.state["seats"][0]["left"]
    assert bo.state["seats"][0]["name"] == "Ann"
    assert bo.state["can_undo"] is False  # undo never goes back past a leave
    refused = await answer_to(bo, await send(bo, "undo"))
    assert (refused["type"], refused["code"]) == ("refused", "undo_blocked")
    # Ann's token acts no more.
    with pytest.raises(Closed):
        await TableConnection.open(a.base, made["table"], made["token"])
    # The computer player plays Ann's seat, said as the stand-in's moves.
    rng = random.Random(3)
    while not seat_lines(bo.state, 0) and bo.state["deal"] == 1:
        if bo.state.get("legal"):
            assert (await bo.move(rng.choice(bo.state["legal"])))["type"] == "ack"
        else:
            await bo.next(60)
    assert seat_lines(bo.state, 0)
    assert all(line.startswith("Ann's stand-in ") for line in seat_lines(bo.state, 0))
    await watcher.until(bo.seq, 30)
    assert seat_lines(watcher.state, 0) == seat_lines(bo.state, 0)
    # A client of version 2 (whole states) reads it all the same.
    await old.until(bo.seq, 30)
    assert told in old.state["history"] or old.state["deal"] > 1
    assert old.state["seats"][0]["left"] and seat_lines(old.state, 0) == seat_lines(bo.state, 0)
    for connection in (ann, bo, watcher, old):
        await connection.close()

    a.stop()
    if b is not a:
        b.stop()
    again = servers.start(database_url)
    back = await TableConnection.open(again.base, made["table"], taken["token"])
    assert back.state["seats"][0]["left"] and back.state["seats"][0]["kind"] == "bot"
    if back.state["deal"] == 1:
        assert told in back.state["history"]
        assert all(line.startswith("Ann's stand-in ") for line in seat_lines(back.state, 0))
    await back.close()


async def test_the_players_are_told_how_many_watch(servers: Servers,
                                                   database_url: str) -> None:
    a, b = processes(servers, database_url)
    made = await a.api.create_table(seat_body("person", "simple", seed=8, turn_s=0))
    ann = await TableConnection.open(a.base, made["table"], made["token"])
    assert ann.state["watchers"] == 0
    one = await TableConnection.open(a.base, made["table"], None)
    await frame_of(ann, "watchers", where=lambda frame: frame["watchers"] == 1)
    two = await TableConnection.open(b.base, made["table"], None)
    await frame_of(ann, "watchers", where=lambda frame: frame["watchers"] == 2)
    assert ann.state["watchers"] == 2
    await one.close()
    await frame_of(ann, "watchers", where=lambda frame: frame["watchers"] == 1)
    again = await TableConnection.open(a.base, made["table"], made["token"])
    assert again.state["watchers"] == 1
    await two.close()
    await frame_of(again, "watchers", where=lambda frame: frame["watchers"] == 0)
    await ann.close()
    await again.close()
