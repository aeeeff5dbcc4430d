""""Play again" at an online table (docs/protocol.md): ``POST /api/tables/<id>/again`` makes
the next game once (the same rules, seats, names and computer players), every person takes
their own seat in it, and every client of the old table hears of it. Against real ``serve``
processes on SQLite and on PostgreSQL; two processes on one PostgreSQL database race."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from rummy500.net.client import Api, ServerError, TableConnection
from serverkit import ServerProcess, Servers, http_answer, play_out, summary_once

pytestmark = pytest.mark.asyncio

SHORT = {"preset": "classic", "max_deals": 1}
"""A game of one deal."""


def body(seed: int | None = 5) -> dict[str, Any]:
    made: dict[str, Any] = {
        "rules": SHORT, "players": 3, "takeover_s": 0,
        "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person"},
                  {"kind": "bot", "bot": "random"}]}
    if seed is not None:
        made["seed"] = seed
    return made


async def again(base: str, table: str, token: Any) -> tuple[int, dict[str, Any]]:
    return await http_answer(base, f"/api/tables/{table}/again", "POST",
                             json.dumps({"token": token}).encode())


async def finished_table(api: Api, base: str, seed: int | None = 5,
                         ) -> tuple[str, dict[str, str], list[TableConnection]]:
    """A table of Ann (seat 0), Bob (seat 1) and a computer player, played to its end:
    its id, each person's token, and Ann's and Bob's connections."""
    made = await api.create_table(body(seed))
    table = made["table"]
    bob = await api.take_seat(table, 1, "Bob")
    tokens = {"Ann": made["token"], "Bob": bob["token"]}
    # Before the end there is no next game.
    status, answer = await again(base, table, tokens["Ann"])
    assert (status, answer["error"]) == (409, "not_over"), answer
    ann_seat = await TableConnection.open(base, table, tokens["Ann"], keep_frames=True)
    bob_seat = await TableConnection.open(base, table, tokens["Bob"], keep_frames=True)
    rng = random.Random(seed)
    await asyncio.wait_for(asyncio.gather(play_out(ann_seat, random.Random(rng.random())),
                                          play_out(bob_seat, random.Random(rng.random()))), 150)
    assert ann_seat.state["over"] and bob_seat.state["over"]
    assert ann_seat.state["next"] is None
    return table, tokens, [ann_seat, bob_seat]


async def next_frame(connection: TableConnection) -> dict[str, Any]:
    while True:
        frame = await connection.next(30)
        if frame["type"] == "next":
            return frame


async def test_play_again_makes_one_next_table_where_each_person_takes_their_seat(
        server: ServerProcess) -> None:
    api, base = server.api, server.base
    table, tokens, (ann_seat, bob_seat) = await finished_table(api, base)
    watcher = await TableConnection.open(base, table, None, keep_frames=True)
    assert watcher.state["next"] is None and (await api.summary(table))["next"] is None

    # Who holds no seat of the table cannot start the next game; nor can a wrong request.
    other = await api.create_table({"players": 2})
    for token in ("not-a-token", other["token"]):
        status, answer = await again(base, table, token)
        assert (status, answer["error"]) == (403, "bad_token"), answer
    for data in (b"{not json", b"[]", b'{"token": 7}', b"{}"):
        status, answer = await http_answer(base, f"/api/tables/{table}/again", "POST", data)
        assert status == 400 and answer["error"] in ("bad_json", "bad_request"), answer
        assert answer["message"]
    status, answer = await again(base, "nosuchtable", tokens["Ann"])
    assert (status, answer["error"]) == (404, "not_found")

    # Ann asks first: the next table is made, with her in her own seat.
    status, made = await again(base, table, tokens["Ann"])
    assert status == 201, made
    following = made["table"]
    assert following != table and made["url"] == f"/t/{following}" and made["seat"] == 0
    assert len(made["token"]) >= 22 and made["token"] != tokens["Ann"]
    # Every client of the old table hears of it at once.
    for connection in (watcher, ann_seat, bob_seat):
        frame = await next_frame(connection)
        assert frame == {"type": "next", "table": following, "url": f"/t/{following}"}
        assert connection.state["next"] == following
    assert (await api.summary(table))["next"] == following
    late = await TableConnection.open(base, table, tokens["Bob"])
    assert late.state["next"] == following and late.state["over"]
    await late.close()

    old, new = await api.summary(table), await api.summary(following)
    assert new["status"] == "waiting" and new["next"] is None
    assert new["rules"] == old["rules"] and new["players"] == 3
    assert new["takeover_s"] == old["takeover_s"] and new.get("seeded") is True
    assert [(s["kind"], s["name"], s.get("bot")) for s in new["seats"]] == [
        (s["kind"], s["name"], s.get("bot")) for s in old["seats"]]
    assert [s["open"] for s in new["seats"]] == [False, True, False]

    # Ann again: her seat there is hers already. Bob: his own seat, at the same table.
    status, answer = await again(base, table, tokens["Ann"])
    assert (status, answer["error"]) == (409, "seat_taken"), answer
    status, joined = await again(base, table, tokens["Bob"])
    assert status == 200, joined
    assert (joined["table"], joined["url"], joined["seat"]) == (following, made["url"], 1)
    # Every person seat is taken: the next game starts.
    summary = await api.summary(following)
    assert summary["status"] == "playing" and summary["seq"] == 1
    assert [s["name"] for s in summary["seats"]][:2] == ["Ann", "Bob"]
    bob_next = await TableConnection.open(base, following, joined["token"])
    ann_next = await TableConnection.open(base, following, made["token"])
    assert (ann_next.seat, bob_next.seat) == (0, 1)
    assert len(bob_next.state["hand"]) == 7 and bob_next.state["next"] is None

    # A table made with seed 5 plays its next game with seed 6: the same deal as a table
    # made with seed 6.
    fresh = await api.create_table(body(6))
    fresh_bob = await api.take_seat(fresh["table"], 1, "Bob")
    twin = await TableConnection.open(base, fresh["table"], fresh_bob["token"])
    assert twin.state["hand"] == bob_next.state["hand"]
    for connection in (watcher, ann_seat, bob_seat, bob_next, ann_next, twin):
        await connection.close()


async def test_two_people_asking_at_once_get_one_next_table(server: ServerProcess) -> None:
    api, base = server.api, server.base
    table, tokens, connections = await finished_table(api, base, seed=None)
    (first, one), (second, two) = await asyncio.gather(again(base, table, tokens["Ann"]),
                                                       again(base, table, tokens["Bob"]))
    assert sorted((first, second)) == [200, 201], (one, two)
    assert one["table"] == two["table"] and (one["seat"], two["seat"]) == (0, 1)
    summary = await api.summary(one["table"])
    assert summary["status"] == "playing" and "seeded" not in summary
    assert (await api.summary(table))["next"] == one["table"]
    for connection in connections:
        assert (await next_frame(connection))["table"] == one["table"]
        await connection.close()


async def test_two_processes_make_one_next_table_and_both_tell_their_clients(
        servers: Servers, postgres_url: str) -> None:
    import psycopg

    a = servers.start(postgres_url)
    b = servers.start(postgres_url)
    table, tokens, (ann_seat, bob_seat) = await finished_table(a.api, a.base)
    await ann_seat.close()
    bob_seat = await TableConnection.open(b.base, table, tokens["Bob"], keep_frames=True)
    watch_a = await TableConnection.open(a.base, table, None)
    watch_b = await TableConnection.open(b.base, table, None)
    assert bob_seat.state["over"] and watch_b.state["next"] is None
    (first, one), (second, two) = await asyncio.gather(again(a.base, table, tokens["Ann"]),
                                                       again(b.base, table, tokens["Bob"]))
    assert sorted((first, second)) == [200, 201], (one, two)
    following = one["table"]
    assert two["table"] == following and (one["seat"], two["seat"]) == (0, 1)
    with psycopg.connect(postgres_url) as db:
        count = db.execute("SELECT count(*) FROM tables").fetchone()
        link = db.execute("SELECT next_table FROM tables WHERE id = %s", (table,)).fetchone()
    assert count == (2,) and link == (following,)  # the loser's table was rolled back
    for connection in (bob_seat, watch_a, watch_b):
        assert (await next_frame(connection))["table"] == following
    assert [f["type"] for f in bob_seat.frames].count("next") == 1
    for server in (a, b):
        assert (await server.api.summary(table))["next"] == following
        # The process that did not seat Bob learns of it by the database's notice, a moment on.
        await summary_once(server, following, lambda summary: summary["status"] == "playing",
                           "the next table in play")
    for connection in (bob_seat, watch_a, watch_b):
        await connection.close()


async def test_the_python_client_asks_for_the_next_game(server: ServerProcess) -> None:
    api = server.api
    table, tokens, connections = await finished_table(api, server.base, seed=8)
    made = await api.again(table, tokens["Bob"])
    assert made["seat"] == 1 and made["url"] == f"/t/{made['table']}"
    with pytest.raises(ServerError) as refused:
        await api.again(table, tokens["Bob"])
    assert (refused.value.status, refused.value.code) == (409, "seat_taken")
    for connection in connections:
        await connection.close()
