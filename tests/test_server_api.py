"""The HTTP API and the WebSocket of docs/protocol.md, against a real ``serve`` process on
SQLite and on PostgreSQL, with real WebSocket clients."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request
from typing import Any

import pytest

from rummy500.net.client import Api, ServerError, TableConnection
from rummy500.record import replay, replay_summary
from serverkit import ServerProcess, moves_of, play_out, seat_body

pytestmark = pytest.mark.asyncio


async def refused(call: object) -> ServerError:
    try:
        await call  # type: ignore[misc]
    except ServerError as error:
        return error
    raise AssertionError("the server accepted it")


async def test_a_table_is_created_joined_and_started(server: ServerProcess) -> None:
    api = server.api
    made = await api.create_table({"rules": {"preset": "classic"}, "players": 3})
    assert made["seat"] == 0 and made["url"] == f"/t/{made['table']}"
    assert len(made["table"]) >= 22 and len(made["token"]) >= 22
    summary = await api.summary(made["table"])
    assert summary["status"] == "waiting" and summary["seq"] == 0
    assert [s["kind"] for s in summary["seats"]] == ["person"] * 3
    assert [s["open"] for s in summary["seats"]] == [False, True, True]
    assert (await refused(api.record(made["table"]))).status == 409

    creator = await TableConnection.open(server.base, made["table"], made["token"])
    assert creator.seat == 0 and creator.state["phase"] == "waiting"
    assert creator.state["hand"] == []
    bob = await api.take_seat(made["table"], 1, "Bob")
    assert bob["seat"] == 1
    taken = await refused(api.take_seat(made["table"], 1, "Eve"))
    assert (taken.status, taken.code) == (409, "seat_taken")
    carol = await api.take_seat(made["table"], 2, "Carol")
    # The last seat taken starts the game: every seat hears the whole new state.
    frame = await creator.next(10)
    while frame["type"] != "update":
        frame = await creator.next(10)
    dealer = creator.state["dealer"]
    assert frame["seq"] == 1 and frame["event"] == {
        "deal": 1, "dealer": dealer, "text": "Deal 1: You deal." if dealer == 0 else
        f"Deal 1: {creator.state['seats'][dealer]['name']} deals."}
    # Version 3: the update names what changed, the whole new deal among it.
    assert {"hand", "phase", "dealer", "history"} <= set(frame["set"])
    assert len(creator.state["hand"]) == 7 and creator.state["phase"] == "draw"
    summary = await api.summary(made["table"])
    assert summary["status"] == "playing" and summary["seq"] == 1
    assert [s["name"] for s in summary["seats"]][1:] == ["Bob", "Carol"]
    assert "hand" not in json.dumps(summary)
    third = await TableConnection.open(server.base, made["table"], carol["token"])
    assert third.seat == 2 and len(third.state["hand"]) == 7
    assert set(third.state["hand"]).isdisjoint(creator.state["hand"] if creator.seq == 1 else [])
    await creator.close()
    await third.close()


async def test_bad_requests_get_a_code_and_words(server: ServerProcess) -> None:
    api = server.api
    cases: list[tuple[dict[str, Any], str]] = [
        ({"rules": {"preset": "nope"}}, "bad_rules"),
        ({"rules": {"preset": "partnership"}, "players": 3}, "bad_players"),
        ({"players": "two"}, "bad_players"),
        ({"players": 2, "seats": [{"kind": "person"}]}, "bad_seats"),
        ({"players": 2, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "hal"}]},
         "bad_seats"),
        ({"takeover_s": -1}, "bad_takeover"),
        ({"seed": "x"}, "bad_seed"),
        ({"players": 2, "seats": [{"kind": "person", "name": "\u0007bell"},
                                  {"kind": "person"}]}, "bad_name"),
    ]
    for body, code in cases:
        error = await refused(api.create_table(body))
        assert (error.status, error.code) == (400, code), body
        assert error.message
    assert (await refused(api.summary("nosuchtable"))).status == 404
    assert (await refused(api.take_seat("nosuchtable", 1))).status == 404
    made = await api.create_table({"players": 2})
    assert (await refused(api.take_seat(made["table"], 5))).status == 404
    request = urllib.request.Request(server.base + "/api/tables", data=b"{not json",
                                     method="POST",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(request, timeout=10)
    assert raised.value.code == 400 and json.loads(raised.value.read())["error"] == "bad_json"
    big = json.dumps({"players": 2, "pad": "x" * 20000}).encode()
    request = urllib.request.Request(server.base + "/api/tables", data=big, method="POST",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as raised:
        urllib.request.urlopen(request, timeout=10)
    assert raised.value.code == 413


async def test_two_people_and_two_computer_players_finish_a_partnership_game(
        server: ServerProcess) -> None:
    api = server.api
    body = {"rules": {"preset": "partnership"}, "players": 4, "seed": 11,
            "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "expert"},
                      {"kind": "person"}, {"kind": "bot", "bot": "simple"}]}
    made = await api.create_table(body)
    table = made["table"]
    partner = await api.take_seat(table, 2, "Cy")
    ann = await TableConnection.open(server.base, table, made["token"])
    cy = await TableConnection.open(server.base, table, partner["token"])
    watcher = await TableConnection.open(server.base, table, None)
    assert watcher.seat is None and "hand" not in watcher.state
    rng = random.Random(3)
    await asyncio.gather(play_out(ann, rng, timeout=60), play_out(cy, rng, timeout=60))
    await watcher.until(ann.seq, 30)
    for seat in (ann, cy, watcher):
        assert seat.state["over"] and seat.state["winner"] in (0, 1)
        assert seat.state.get("legal") is None  # absent (version 2) or null (3)
    record = await api.record(table)
    game = replay(record)
    rounds = replay_summary(game)["rounds"]
    assert game.finished and len(rounds) == len(ann.state["deals"])
    for played, sheet in zip(rounds, ann.state["deals"], strict=True):
        assert (played["went_out"], played["melded"], played["in_hand"]) == (
            sheet["went_out"], sheet["melded"], sheet["in_hand"])
        for side, score in enumerate(sheet["scores"]):
            assert sum(line["points"] for line in sheet["lines"] if line["side"] == side) == score
    assert list(game.totals) == ann.state["totals"] == ann.state["deals"][-1]["totals_after"]
    summary = await api.summary(table)
    assert summary["status"] == "over" and summary["seq"] == ann.seq
    for connection in (ann, cy, watcher):
        await connection.close()


async def test_a_reconnecting_seat_gets_the_whole_truth(server: ServerProcess) -> None:
    made = await server.api.create_table(seat_body("person", "random", seed=4))
    first = await TableConnection.open(server.base, made["table"], made["token"])
    await play_out(first, random.Random(1), until_seq=12)
    seq, hand = first.seq, first.state["hand"]
    await first.close()
    again = await TableConnection.open(server.base, made["table"], made["token"])
    assert again.seq >= seq
    if again.seq == seq:
        assert again.state["hand"] == hand
    assert again.state["seats"][0]["connected"]
    await again.send({"type": "ping"})
    frame = await again.next(10)
    while frame["type"] != "pong":
        frame = await again.next(10)
    await again.close()


async def test_moves_are_checked_by_the_engine(server: ServerProcess) -> None:
    made = await server.api.create_table(seat_body("person", "person", seed=9))
    other = await server.api.take_seat(made["table"], 1)
    a = await TableConnection.open(server.base, made["table"], made["token"])
    b = await TableConnection.open(server.base, made["table"], other["token"])
    mover, waiter = (a, b) if a.state["turn"] == 0 else (b, a)
    answer = await waiter.move("draw")
    assert answer["code"] == "not_your_turn"
    answer = await mover.move("draw", seq=mover.seq - 1)
    assert answer["code"] == "stale"
    answer = await mover.move("flap wings")
    assert answer["code"] == "bad_move" and answer["message"]
    answer = await mover.move("discard " + mover.state["hand"][0])
    assert answer["code"] == "illegal" and "draw" in answer["message"]
    assert mover.seq == 1
    dealt = len(mover.state["hand"])
    answer = await mover.move("draw")
    assert answer == {"type": "ack", "id": answer["id"], "seq": 2}
    assert moves_of(mover.state) == ["draw"] and len(mover.state["hand"]) == dealt + 1
    drawn = mover.state["history"][-1]
    assert drawn["text"].startswith("You draw ") and drawn["drawn"] in mover.state["hand"]
    frame = await waiter.next(10)
    assert frame["type"] == "update" and frame["event"]["move"] == "draw"
    assert "drawn" not in frame["event"] and frame["event"]["seat"] == mover.seat
    name = waiter.state["seats"][mover.seat]["name"]
    assert frame["event"]["text"] == f"{name} draws from the stock"
    assert frame["append"] == {"history": [frame["event"]]}
    assert "hand" not in frame["set"]  # the waiter's hand did not change
    assert waiter.state["history"][-1] == frame["event"]
    assert len(waiter.state["hand"]) == dealt
    assert waiter.state["hand_sizes"][mover.seat] == dealt + 1
    await a.close()
    await b.close()


async def test_an_unknown_table_or_token_closes_with_4401(server: ServerProcess) -> None:
    from rummy500.net.client import Closed

    made = await server.api.create_table({"players": 2})
    with pytest.raises(Closed) as closed:
        await TableConnection.open(server.base, made["table"], "not-a-token")
    assert closed.value.code == 4401
    with pytest.raises(Closed) as closed:
        await TableConnection.open(server.base, "nosuchtable", None)
    assert closed.value.code == 4401


async def test_a_send_after_the_server_closed_raises_closed_with_its_code(
        server: ServerProcess) -> None:
    import websockets

    from rummy500.net.client import Closed, socket_url

    socket = await websockets.connect(socket_url(server.base, "nosuchtable"))
    connection = TableConnection(socket)
    await socket.wait_closed()  # the server closed before any hello (the race of open())
    with pytest.raises(Closed) as closed:
        await connection.send({"type": "hello", "token": None})
    assert closed.value.code == 4401


async def test_api_client_reads_table_links() -> None:
    from rummy500.net.client import split_table_url

    assert split_table_url("http://h:1/t/abc") == ("http://h:1", "abc")
    with pytest.raises(ValueError):
        split_table_url("http://h:1/x/abc")
    assert Api("http://h:1/").base == "http://h:1"
