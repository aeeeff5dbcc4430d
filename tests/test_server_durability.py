"""kill -9 at any moment loses nothing acknowledged: a server restarted on the same
database has every table where its last acknowledged change left it, and computer
players' pending turns go on by themselves."""

from __future__ import annotations

import asyncio
import random

import pytest

from rummy500.net.client import Closed, TableConnection
from rummy500.record import replay
from serverkit import Servers, play_out, seat_body

pytestmark = pytest.mark.asyncio


async def test_kill_9_mid_deal_and_restart_loses_nothing(servers: Servers,
                                                         database_url: str) -> None:
    first = servers.start(database_url, pace=0.2)
    made = await first.api.create_table(seat_body("person", "random", "random", seed=31,
                                                       rules={"preset": "classic",
                                                              "max_deals": 2}))
    table, token = made["table"], made["token"]
    seat = await TableConnection.open(first.base, table, token, keep_frames=True)
    rng = random.Random(5)
    # Play until it is a computer player's turn right after our acknowledged move.
    while True:
        legal = seat.state.get("legal")
        if not legal:
            await seat.next(60)
            continue
        answer = await seat.move(rng.choice(legal))
        assert answer["type"] == "ack"
        if seat.seq > 8 and seat.state["turn"] != 0 and not seat.state["over"]:
            break
    acked = answer["seq"]
    state = {key: value for key, value in seat.state.items() if key != "chat"}
    assert seat.seq == acked
    first.kill()
    with pytest.raises(Closed):
        await seat.next(10)

    second = servers.start(database_url, pace=2.0)
    again = await TableConnection.open(second.base, table, token)
    assert again.seq == acked, "the computer player moved before we could look"
    assert {key: value for key, value in again.state.items() if key != "chat"} == state
    # The pending computer turn is taken up by the restarted server on its own.
    await again.until(acked + 1, 30)
    assert again.state["history"][: len(state["history"])] == state["history"]
    # Kill it again while the computer players think, restart, and finish the game.
    second.kill()
    third = servers.start(database_url, pace=0.0)
    last = await TableConnection.open(third.base, table, token)
    assert last.seq >= acked + 1
    await play_out(last, rng)
    record = await third.api.record(table)
    game = replay(record)
    assert game.finished and list(game.totals) == last.state["totals"]
    await last.close()


async def test_a_table_nobody_sits_at_waits_and_goes_on_after_a_restart(
        servers: Servers, sqlite_url: str) -> None:
    """Computer players do not play at a table where no person is connected (the table
    costs nothing); it goes on, after a restart too, once its person is back."""
    first = servers.start(sqlite_url, pace=0.05)
    made = await first.api.create_table(seat_body(
        "person", "random", "simple", seed=2, rules={"preset": "classic", "max_deals": 2}))
    table, token = made["table"], made["token"]
    seat = await TableConnection.open(first.base, table, token)
    rng = random.Random(3)
    await play_out(seat, rng, until_seq=6)
    await seat.close()
    await asyncio.sleep(0.5)  # a computer player's move already under way may still land
    seq = (await first.api.summary(table))["seq"]
    await asyncio.sleep(1.5)
    assert (await first.api.summary(table))["seq"] == seq, "computer players played alone"
    first.kill()
    restarted = servers.start(sqlite_url, pace=0.0)
    await asyncio.sleep(1.5)
    assert (await restarted.api.summary(table))["seq"] == seq
    back = await TableConnection.open(restarted.base, table, token)
    await play_out(back, rng)
    summary = await restarted.api.summary(table)
    assert summary["status"] == "over" and summary["seq"] > seq
    game = replay(await restarted.api.record(table))
    assert game.finished and list(game.totals) == summary["totals"]
    await back.close()
