"""Version 3 of the protocol against a real ``rummy500 serve`` on loopback: the hello
chooses the version, a client that missed an update asks for the whole state again, and
the browser table speaks version 3 (Chromium)."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import pytest
import websockets

from browserkit import Seat, choose_move, create_in_lobby, new_page
from rummy500.net.client import TableConnection, socket_url
from serverkit import ServerProcess, play_out, seat_body


async def raw_hello(server: ServerProcess, table: str, hello: dict[str, Any]) -> Any:
    socket = await websockets.connect(socket_url(server.base, table))
    await socket.send(json.dumps(hello))
    return socket


async def next_of(socket: Any, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(socket.recv(), 30))
        if frame["type"] == kind:
            return frame


@pytest.mark.asyncio
async def test_the_hello_chooses_the_version(server: ServerProcess) -> None:
    made = await server.api.create_table(seat_body("person", "person", seed=3))
    bob = await server.api.take_seat(made["table"], 1, "Bob")
    table = made["table"]
    old = await raw_hello(server, table, {"type": "hello", "token": bob["token"]})
    new = await raw_hello(server, table, {"type": "hello", "token": bob["token"], "v": 3})
    welcome_old, welcome_new = await next_of(old, "welcome"), await next_of(new, "welcome")
    assert "v" not in welcome_old and welcome_new["v"] == 3
    assert "legal" not in welcome_old["state"] or welcome_old["state"]["legal"]
    assert "legal" in welcome_new["state"]  # null or a list: every key is written
    async with await TableConnection.open(server.base, table, made["token"]) as ann:
        mover = ann if ann.state["legal"] else None
        if mover is None:  # Bob is to move: he draws through a third connection
            async with await TableConnection.open(server.base, table, bob["token"]) as b:
                assert (await b.move("draw"))["type"] == "ack"
        else:
            assert (await ann.move("draw"))["type"] == "ack"
    update_old, update_new = await next_of(old, "update"), await next_of(new, "update")
    assert set(update_old) == {"type", "seq", "event", "state"}
    assert set(update_new) == {"type", "seq", "event", "set", "append"}
    assert update_new["append"] == {"history": [update_new["event"]]}
    assert "history" not in update_new["set"] and "deals" not in update_new["set"]
    assert not {"pile", "melds", "players", "totals"} & set(update_new["set"])
    bad = await raw_hello(server, table, {"type": "hello", "token": None, "v": 4})
    error = await next_of(bad, "error")
    assert error["code"] == "bad_frame" and "2 or 3" in error["message"]
    for socket in (old, new, bad):
        await socket.close()


@pytest.mark.asyncio
async def test_a_client_that_misses_an_update_resyncs(server: ServerProcess) -> None:
    made = await server.api.create_table(seat_body("person", "simple", seed=8))
    table = made["table"]
    watcher = await TableConnection.open(server.base, table, None)
    async with await TableConnection.open(server.base, table, made["token"]) as ann:
        await play_out(ann, random.Random(2), until_seq=6)
        await watcher.until(5, 30)
        # The watcher's next update is read past its fold: it has missed one.
        missed = json.loads(await asyncio.wait_for(watcher.socket.recv(), 30))
        assert missed["type"] == "update" and missed["seq"] == watcher.seq + 1
        await play_out(ann, random.Random(3), until_seq=ann.seq + 4)
        await watcher.until(ann.seq, 30)
        assert watcher.resyncs == 1
        fresh = await TableConnection.open(server.base, table, None)
        await fresh.until(ann.seq, 30)
        await watcher.until(fresh.seq, 30)
        # Both watch (``watchers`` is 2 for the newcomer; the watcher hears it in a
        # ``watchers`` frame of its own, which may still be on its way).
        assert fresh.state["watchers"] == 2
        assert {k: v for k, v in watcher.state.items() if k not in ("chat", "watchers")} == {
            k: v for k, v in fresh.state.items() if k not in ("chat", "watchers")}
        await fresh.close()
    await watcher.close()


def test_the_browser_table_speaks_version_3(web_server: Any, browser: Any) -> None:
    context, page = new_page(browser)
    sent: list[dict[str, Any]] = []
    received: list[dict[str, Any]] = []

    def watch(socket: Any) -> None:
        socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
        socket.on("framereceived", lambda payload: received.append(json.loads(payload)))

    page.on("websocket", watch)
    create_in_lobby(page, web_server, name="Ann", seats=["person", "simple"], seed=5)
    page.wait_for_selector("#game:not([hidden])")
    seat = Seat(page)
    moves = 0
    deadline = time.monotonic() + 120
    while moves < 6 and time.monotonic() < deadline:
        if seat.my_turn():
            seat.play(choose_move(seat, 0))
            moves += 1
        else:
            time.sleep(0.1)
    assert moves == 6
    page.wait_for_function(
        "n => Number(document.body.dataset.seq) >= n", arg=max(
            frame["seq"] for frame in received if frame["type"] == "update"))
    hello = next(frame for frame in sent if frame["type"] == "hello")
    assert hello["v"] == 3
    updates = [frame for frame in received if frame["type"] == "update"]
    assert updates and all("set" in frame and "state" not in frame for frame in updates)
    # What the page shows is the folded state, at the last update's seq.
    assert seat.seq() == max(frame["seq"] for frame in updates)
    assert seat.problems.real() == []
    context.close()
