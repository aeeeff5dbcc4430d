"""Hostile clients: garbage, oversize frames, wrong tokens, other seats' moves, stale
``seq``, floods and foreign origins are answered as docs/protocol.md says, and the table
is unchanged by them."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
import websockets

from rummy500.net.client import Closed, TableConnection, socket_url
from serverkit import RATE_LIMITED, ServerProcess, Servers, moves_of, seat_body

pytestmark = pytest.mark.asyncio


@pytest.fixture
def lone(shared_sqlite: ServerProcess) -> ServerProcess:
    return shared_sqlite


async def two_seats(server: ServerProcess) -> tuple[str, TableConnection, TableConnection]:
    made = await server.api.create_table(seat_body("person", "person", seed=21))
    other = await server.api.take_seat(made["table"], 1)
    a = await TableConnection.open(server.base, made["table"], made["token"])
    b = await TableConnection.open(server.base, made["table"], other["token"])
    return made["table"], a, b


async def raw(server: ServerProcess, table: str, **options: Any) -> Any:
    return await websockets.connect(socket_url(server.base, table), **options)


async def test_garbage_frames_get_errors_and_change_nothing(lone: ServerProcess) -> None:
    table, a, b = await two_seats(lone)
    before = dict(a.state)
    socket = await raw(lone, table)
    garbage = [
        ("not json at all", "bad_json"),
        ("[1, 2, 3]", "bad_frame"),
        ('{"no": "type"}', "bad_frame"),
        ('{"type": "dance"}', "bad_frame"),
        ('{"type": "hello", "token": 5}', "bad_frame"),
        ("[" * 2000 + "]" * 2000, "bad_json"),
        ('{"type": "ping", "x": NaN}', "bad_json"),
        ('{"type": "move", "id": "x", "seq": 1, "move": "draw"}', "hello_first"),
    ]
    for text, code in garbage:
        await socket.send(text)
        answer = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert answer["type"] == "error" and answer["code"] == code, text
        assert answer["message"]
    await socket.send(b"\x00\x01binary")
    assert json.loads(await socket.recv())["code"] == "bad_frame"
    mover = a if a.state["turn"] == 0 else b
    bad_moves: list[dict[str, Any]] = [
        {"type": "move", "seq": mover.seq, "move": "draw"},
        {"type": "move", "id": "", "seq": mover.seq, "move": "draw"},
        {"type": "move", "id": "x" * 65, "seq": mover.seq, "move": "draw"},
        {"type": "move", "id": "y", "seq": "1", "move": "draw"},
        {"type": "move", "id": "y", "seq": True, "move": "draw"},
        {"type": "move", "id": "y", "seq": mover.seq, "move": 7},
    ]
    for frame in bad_moves:
        await mover.send(frame)
        answer = await mover.next(10)
        assert (answer["type"], answer["code"]) == ("error", "bad_frame"), frame
    await mover.socket.send('{"type": "move", "id": "z", "seq": 1' + "0" * 5000 + ', "move": 1}')
    with pytest.raises(Closed) as closed:
        await mover.next(10)
    assert closed.value.code == 1009
    for text in ("m" + "9" * 190, "layoff 7h m" + "9" * 150, "meld " + "7h " * 60):
        answer = await (a if mover is b else b).move(text)
        assert answer["code"] in ("not_your_turn",), answer
    await socket.close()
    summary = await lone.api.summary(table)
    assert summary["seq"] == 1
    watcher = await TableConnection.open(lone.base, table, None)
    assert moves_of(watcher.state) == [] and watcher.state["pile"] == before["pile"]
    for connection in (a, b, watcher):
        await connection.close()


async def test_wrong_moves_are_refused_and_change_nothing(lone: ServerProcess) -> None:
    table, a, b = await two_seats(lone)
    mover, waiter = (a, b) if a.state["turn"] == 0 else (b, a)
    hand_before = list(mover.state["hand"])
    answer = await waiter.move("draw")
    assert answer["code"] == "not_your_turn"
    for seq in (0, mover.seq + 1, 10**6):
        answer = await mover.move("draw", seq=seq)
        assert answer["type"] == "refused" and answer["code"] == "stale"
    answer = await mover.move("meld " + " ".join(hand_before[:3]))
    assert answer["code"] == "illegal"
    answer = await mover.move("x" * 300)
    assert answer["code"] == "bad_move"
    watcher = await TableConnection.open(lone.base, table, None)
    answer = await watcher.move("draw")
    assert answer["code"] == "not_seated"
    summary = await lone.api.summary(table)
    assert summary["seq"] == 1
    again = await TableConnection.open(lone.base, table, None)
    assert moves_of(again.state) == [] and again.state["stock"] == watcher.state["stock"]
    for connection in (a, b, watcher, again):
        await connection.close()


async def test_a_flood_is_rate_limited_then_closed(servers: Servers, sqlite_url: str) -> None:
    lone = servers.start(sqlite_url, extra=RATE_LIMITED)
    table, a, b = await two_seats(lone)
    mover = a if a.state["turn"] == 0 else b
    await asyncio.sleep(1.1)  # the hello was a frame of this second
    for _ in range(25):
        await mover.socket.send(json.dumps({"type": "ping"}))
    answers = [json.loads(await asyncio.wait_for(mover.socket.recv(), 10)) for _ in range(25)]
    assert [f["type"] for f in answers[:20]] == ["pong"] * 20
    assert {f.get("code") for f in answers[20:]} == {"rate_limited"}
    await asyncio.sleep(1.1)  # a new second: allowed again
    await mover.send({"type": "ping"})
    assert (await mover.next(10))["type"] == "pong"
    # Keeping on: the flood's moves are dropped and the connection is closed (1008).
    for n in range(80):
        try:
            await mover.socket.send(json.dumps({"type": "move", "id": f"f{n}",
                                                "seq": mover.seq, "move": "draw"}))
        except websockets.ConnectionClosed:
            break
    codes: list[int | None] = []
    with pytest.raises(Closed) as closed:
        while True:
            frame = await mover.next(10)
            codes.append(frame.get("seq") if frame["type"] == "ack" else None)
    assert closed.value.code == 1008
    assert len([c for c in codes if c is not None]) <= 1  # at most the first draw was made
    summary = await lone.api.summary(table)
    assert summary["seq"] <= 2
    await a.close()
    await b.close()


async def test_wrong_tokens_close_with_4401(lone: ServerProcess) -> None:
    table, a, b = await two_seats(lone)
    for token in ("x", "A" * 43, "token with spaces"):
        with pytest.raises(Closed) as closed:
            await TableConnection.open(lone.base, table, token)
        assert closed.value.code == 4401
    other = await lone.api.create_table({"players": 2})
    with pytest.raises(Closed) as closed:  # a token of another table
        await TableConnection.open(lone.base, table, other["token"])
    assert closed.value.code == 4401
    await a.close()
    await b.close()


async def test_other_origins_are_refused(lone: ServerProcess) -> None:
    made = await lone.api.create_table({"players": 2})
    host = lone.base.split("://", 1)[1]
    with pytest.raises(websockets.InvalidStatus) as refused:
        await raw(lone, made["table"], additional_headers={"Origin": "http://evil.example"})
    assert refused.value.response.status_code == 403
    with pytest.raises(websockets.InvalidStatus):
        await raw(lone, made["table"], additional_headers={"Origin": f"http://{host}.evil"})
    own = await TableConnection.open(lone.base, made["table"], made["token"],
                                     origin=f"http://{host}")
    assert own.seat == 0
    await own.close()
