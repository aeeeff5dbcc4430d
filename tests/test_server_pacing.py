"""Pacing (docs/protocol.md): after a deal the computer players wait until every
connected person has said ``continue`` or ``deal_pause_s`` has passed
(``state.waiting_for``), across processes too; with ``turn_s`` a person's turn is
played by the stand-in when its clock (``state.clock``) runs out."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import pytest

from rummy500.net.client import ServerError, TableConnection
from serverkit import ServerProcess, Servers, moves_of, seat_body
from talkkit import frame_of, processes

pytestmark = pytest.mark.asyncio


@pytest.fixture
def lone(shared_sqlite: ServerProcess) -> ServerProcess:
    return shared_sqlite


async def play_until_deal(seat: TableConnection, deal: int, rng: random.Random) -> None:
    """Random legal moves for this seat until deal ``deal`` is dealt."""
    while seat.state.get("deal", 0) < deal:
        if seat.state.get("legal"):
            answer = await seat.move(rng.choice(seat.state["legal"]))
            assert answer["type"] == "ack" or answer.get("code") == "stale", answer
        else:
            await seat.next(60)


async def table_where_a_bot_starts_deal_2(server: ServerProcess, kinds: tuple[str, ...],
                                          *, bot: bool = True, **options: Any,
                                          ) -> dict[str, Any]:
    """A new table (seeded) whose second deal a computer player starts (``bot``; else a
    person). The dealer goes round, and the seat left of the dealer starts: deal 2's first
    player sits two to the left of deal 1's dealer. Deal 1's dealer of a seed is read from
    a probe table (whose people but the first are computer players, so that it is dealt at
    once)."""
    probe_kinds = ("person", *("simple" if kind == "person" else kind for kind in kinds[1:]))
    for seed in range(40):
        probe = await server.api.create_table(seat_body(*probe_kinds, seed=seed))
        watcher = await TableConnection.open(server.base, probe["table"], None)
        dealer = watcher.state["dealer"]
        await watcher.close()
        if (kinds[(dealer + 2) % len(kinds)] != "person") == bot:
            return await server.api.create_table(seat_body(*kinds, seed=seed, **options))
    raise AssertionError("no seed gives deal 2's first turn to the kind of seat wanted")


async def test_options_are_checked_and_shown(lone: ServerProcess) -> None:
    for body, code in (({"deal_pause_s": -1}, "bad_deal_pause"),
                       ({"deal_pause_s": 601}, "bad_deal_pause"),
                       ({"deal_pause_s": "5"}, "bad_deal_pause"),
                       ({"turn_s": 2}, "bad_turn_s"), ({"turn_s": 3601}, "bad_turn_s"),
                       ({"turn_s": True}, "bad_turn_s")):
        with pytest.raises(ServerError) as refused:
            await lone.api.create_table(seat_body("person", "expert", **body))
        assert (refused.value.status, refused.value.code) == (400, code), body
    made = await lone.api.create_table(seat_body("person", "expert", deal_pause_s=20,
                                                 turn_s=45))
    summary = await lone.api.summary(made["table"])
    assert (summary["deal_pause_s"], summary["turn_s"]) == (20, 45)
    plain = await lone.api.summary((await lone.api.create_table(
        seat_body("person", "expert")))["table"])
    assert (plain["deal_pause_s"], plain["turn_s"]) == (0, 0)
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    assert ann.state["waiting_for"] == [] and ann.state["pause_left"] is None
    assert ann.state["clock"] is None or 0 < ann.state["clock"] <= 45
    await ann.close()


async def test_computer_players_wait_for_continue(lone: ServerProcess) -> None:
    made = await table_where_a_bot_starts_deal_2(lone, ("person", "simple"), deal_pause_s=60)
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    watcher = await TableConnection.open(lone.base, made["table"], None)
    await play_until_deal(ann, 2, random.Random(1))
    assert ann.state["turn"] == 1 and ann.state["waiting_for"] == [0]
    assert 50 < ann.state["pause_left"] <= 60
    seq = ann.seq
    await asyncio.sleep(2.0)
    assert (await lone.api.summary(made["table"]))["seq"] == seq  # held
    await watcher.until(seq, 10)
    assert watcher.state["waiting_for"] == [0]

    await ann.send({"type": "continue", "deal": 1})
    told = await frame_of(ann, "waiting")
    assert (told["waiting_for"], told["deal"], told["pause_left"]) == ([], 1, None)
    assert (await frame_of(watcher, "waiting"))["waiting_for"] == []
    started = time.monotonic()
    await ann.until(seq + 1, 30)
    assert time.monotonic() - started < 10
    await ann.close()
    await watcher.close()


async def test_the_pause_passes_by_itself(lone: ServerProcess) -> None:
    made = await table_where_a_bot_starts_deal_2(lone, ("person", "simple"), deal_pause_s=3)
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    await play_until_deal(ann, 2, random.Random(2))
    assert ann.state["turn"] == 1 and ann.state["waiting_for"] == [0]
    dealt, seq = time.monotonic(), ann.seq
    await ann.until(seq + 1, 30)  # told by a waiting frame, or the computer player's move
    assert time.monotonic() - dealt >= 2.0
    assert ann.state["waiting_for"] == [] and ann.state["pause_left"] is None
    # A late continue is no error: nothing happens.
    await ann.send({"type": "continue", "deal": 1})
    await ann.send({"type": "ping"})
    assert (await frame_of(ann, "pong", 10))["type"] == "pong"
    await ann.close()


async def ann_and_bo_at_deal_2(ann_server: ServerProcess, bo_server: ServerProcess,
                               made: dict[str, Any], seed: int,
                               ) -> tuple[TableConnection, TableConnection, str]:
    """Bo takes seat 1 through ``bo_server``, Ann sits through ``ann_server``, and both play
    until deal 2 is dealt and both have heard all of it; Ann, Bo and Bo's token."""
    taken = await bo_server.api.take_seat(made["table"], 1, "Bo")
    ann = await TableConnection.open(ann_server.base, made["table"], made["token"])
    bo = await TableConnection.open(bo_server.base, made["table"], taken["token"])
    rng = random.Random(seed)
    await asyncio.gather(play_until_deal(ann, 2, random.Random(rng.random())),
                         play_until_deal(bo, 2, random.Random(rng.random())))
    await bo.until(ann.seq, 30)
    await ann.until(bo.seq, 30)
    return ann, bo, taken["token"]


async def test_everyone_continues_across_processes(servers: Servers, database_url: str) -> None:
    a, b = processes(servers, database_url)
    made = await table_where_a_bot_starts_deal_2(a, ("person", "person", "simple"),
                                                 deal_pause_s=60)
    ann, bo, _token = await ann_and_bo_at_deal_2(a, b, made, 3)
    assert ann.state["turn"] == 2
    assert ann.state["waiting_for"] == bo.state["waiting_for"] == [0, 1]
    seq = ann.seq

    await ann.send({"type": "continue", "deal": 1})
    assert (await frame_of(bo, "waiting"))["waiting_for"] == [1]
    assert (await frame_of(ann, "waiting"))["waiting_for"] == [1]
    await asyncio.sleep(1.5)
    assert (await b.api.summary(made["table"]))["seq"] == seq  # still held for Bo
    late = await TableConnection.open(b.base, made["table"], None)
    assert late.state["waiting_for"] == [1]
    await late.close()

    await bo.send({"type": "continue", "deal": 1})
    assert (await frame_of(ann, "waiting"))["waiting_for"] == []
    await ann.until(seq + 1, 30)
    for connection in (ann, bo):
        await connection.close()


async def test_the_turn_clock_plays_a_slow_turn(servers: Servers, database_url: str) -> None:
    a, b = processes(servers, database_url)
    made = await a.api.create_table(seat_body("person", "simple", seed=6, turn_s=5))
    ann = await TableConnection.open(a.base, made["table"], made["token"], keep_frames=True)
    # Another process holds the table too (a spectator there): its driver keeps the same
    # clock, and the turn is played once.
    far = await TableConnection.open(b.base, made["table"], None, keep_frames=True)
    while not ann.state.get("legal"):
        assert ann.state["clock"] is None  # no clock on a computer player's turn
        await ann.next(30)
    assert 3.5 < ann.state["clock"] <= 5
    started, hand, seq = time.monotonic(), list(ann.state["hand"]), ann.seq
    while ann.state["turn"] == 0:
        await ann.next(30)
    waited = time.monotonic() - started
    assert 4.0 <= waited < 12, waited
    assert ann.seq >= seq + 2 and ann.state["hand"] != hand  # drew and discarded for Ann
    assert ann.state["seats"][0]["connected"] and ann.state["seats"][0]["standin"] is None
    # The next turn of Ann's has its own whole clock.
    while not ann.state.get("legal"):
        await ann.next(30)
    assert ann.state["clock"] > 3.5
    assert (await ann.move(ann.state["legal"][0]))["type"] == "ack"
    await far.until(ann.seq, 30)
    seqs = [frame["seq"] for frame in far.frames if frame["type"] in ("welcome", "update")]
    assert seqs == list(range(seqs[0], ann.seq + 1))  # every change once, in order
    assert moves_of(far.state) == moves_of(ann.state)
    await ann.close()
    await far.close()


async def test_the_clock_of_a_deals_first_turn_starts_after_the_pause(
        lone: ServerProcess) -> None:
    made = await table_where_a_bot_starts_deal_2(lone, ("person", "person", "simple"),
                                                 bot=False, deal_pause_s=60, turn_s=5)
    ann, bo, token = await ann_and_bo_at_deal_2(lone, lone, made, 4)
    first = ann.state["turn"]
    assert first in (0, 1) and ann.state["waiting_for"] == [0, 1]
    # While the pause holds, the clock has not started: the pause's time and a whole turn.
    assert 60 < ann.state["clock"] <= 65
    seq = ann.seq

    # Someone who leaves is not waited for; back, they are waited for again.
    await bo.close()
    assert (await frame_of(ann, "waiting"))["waiting_for"] == [0]
    bo = await TableConnection.open(lone.base, made["table"], token)
    assert bo.state["waiting_for"] == [0, 1]
    assert (await frame_of(ann, "waiting"))["waiting_for"] == [0, 1]

    await ann.send({"type": "continue", "deal": 1})
    await frame_of(bo, "waiting", where=lambda frame: frame["waiting_for"] == [1])
    await bo.send({"type": "continue", "deal": 1})
    told = await frame_of(ann, "waiting", where=lambda frame: frame["waiting_for"] == [])
    assert 3.5 < told["clock"] <= 5  # the first turn's clock runs now
    started = time.monotonic()
    await ann.until(seq + 1, 30)  # nobody moves: the stand-in plays that first turn
    assert 3.5 < time.monotonic() - started < 12
    for connection in (ann, bo):
        await connection.close()
