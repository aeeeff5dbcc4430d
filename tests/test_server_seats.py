"""Seats and presence: a person away for ``takeover_s`` during their turn is played for
by ``expert`` until they return; ``takeover_s: 0`` waits for them for ever."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from rummy500.net.client import TableConnection
from serverkit import ServerProcess, moves_of, seat_body

pytestmark = pytest.mark.asyncio


@pytest.fixture
def lone(shared_sqlite: ServerProcess) -> ServerProcess:
    return shared_sqlite


async def play_until_turn_of(seat: TableConnection, other: int, rng: random.Random) -> None:
    """Play this seat's moves until the other seat is to move."""
    while seat.state.get("turn") != other:
        if seat.state.get("legal"):
            assert (await seat.move(rng.choice(seat.state["legal"])))["type"] == "ack"
        else:
            await seat.next(30)


async def test_an_absent_person_is_played_for_until_they_return(lone: ServerProcess) -> None:
    made = await lone.api.create_table(seat_body("person", "person", seed=3, takeover_s=1))
    away = await lone.api.take_seat(made["table"], 1, "Away")
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    assert ann.state["seats"][1]["connected"] is False
    rng = random.Random(8)
    await play_until_turn_of(ann, 1, rng)
    waiting_since, seq = time.monotonic(), ann.seq
    seen_standin = False
    while ann.seq == seq:
        frame = await ann.next(30)
        if frame["type"] == "seats":
            seen_standin = seen_standin or frame["seats"][1].get("standin") == "expert"
    assert time.monotonic() - waiting_since >= 0.9
    assert moves_of(ann.state)[-1] == "draw" or moves_of(ann.state)[-1].startswith("take")
    # The stand-in plays the rest of that turn and the next turns without waiting so long.
    await play_until_turn_of(ann, 1, rng)
    await play_until_turn_of(ann, 0, rng)
    assert seen_standin or ann.state["seats"][1].get("standin") == "expert"
    assert ann.state["seats"][1]["connected"] is False
    # The person returns: the stand-in stops, and their turn waits for them.
    await play_until_turn_of(ann, 1, rng)
    back = await TableConnection.open(lone.base, made["table"], away["token"])
    assert back.state["seats"][1]["connected"] is True
    assert back.state["seats"][1]["standin"] is None
    if back.state["turn"] == 1:
        seq = back.seq
        await asyncio.sleep(2.0)
        assert (await lone.api.summary(made["table"]))["seq"] == seq
        assert back.state.get("legal")
    await back.close()
    await ann.close()


async def test_takeover_0_waits_for_ever(lone: ServerProcess) -> None:
    made = await lone.api.create_table(seat_body("person", "person", seed=3, takeover_s=0))
    await lone.api.take_seat(made["table"], 1, "Away")
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    await play_until_turn_of(ann, 1, random.Random(8))
    seq = ann.seq
    await asyncio.sleep(2.0)
    assert (await lone.api.summary(made["table"]))["seq"] == seq
    await ann.close()


async def test_presence_is_told_to_everyone(lone: ServerProcess) -> None:
    made = await lone.api.create_table(seat_body("person", "person", "expert", seed=5))
    second = await lone.api.take_seat(made["table"], 1, "Bo")
    watcher = await TableConnection.open(lone.base, made["table"], None)
    assert [s["connected"] for s in watcher.state["seats"]] == [False, False, True]
    bo = await TableConnection.open(lone.base, made["table"], second["token"])
    frame = await watcher.next(10)
    while frame["type"] != "seats":
        frame = await watcher.next(10)
    assert [s["connected"] for s in frame["seats"]] == [False, True, True]
    assert frame["seats"][1]["name"] == "Bo" and frame["seats"][2]["bot"] == "expert"
    await bo.close()
    frame = await watcher.next(10)
    while frame["type"] != "seats":
        frame = await watcher.next(10)
    assert [s["connected"] for s in frame["seats"]] == [False, False, True]
    await watcher.close()


async def test_seats_are_named_apart(lone: ServerProcess) -> None:
    """Two computer players of one kind are numbered as in the local game; an unnamed
    person is ``Seat N``; a name given is kept."""
    body = seat_body("person", "expert", "simple", "expert", "person")
    body["seats"][4]["name"] = "Dee"
    made = await lone.api.create_table(body)
    summary = await lone.api.summary(made["table"])
    assert [seat["name"] for seat in summary["seats"]] == [
        "Seat 1", "Expert 1", "Simple", "Expert 2", "Dee"]
    async with await TableConnection.open(lone.base, made["table"], made["token"]) as ann:
        assert [seat["name"] for seat in ann.state["seats"]] == [
            "Seat 1", "Expert 1", "Simple", "Expert 2", "Dee"]
