"""Talk at the table (docs/protocol.md): chat lines and reactions reach every client of
the table through every process, the last 100 come with the welcome, what cannot be
shown is removed, and spectators read only."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from rummy500.net.client import ServerError, TableConnection
from rummy500.server.talk import REACTIONS
from serverkit import RATE_LIMITED, ServerProcess, Servers, seat_body
from talkkit import answer_to, frame_of, processes, send

pytestmark = pytest.mark.asyncio


@pytest.fixture
def lone(shared_sqlite: ServerProcess) -> ServerProcess:
    return shared_sqlite


async def test_lines_reach_every_client_on_every_process_and_stay(
        servers: Servers, database_url: str) -> None:
    a, b = processes(servers, database_url)
    made = await a.api.create_table(seat_body("person", "person", "expert", seed=4))
    taken = await b.api.take_seat(made["table"], 1, "Bo")
    ann = await TableConnection.open(a.base, made["table"], made["token"])
    bo = await TableConnection.open(b.base, made["table"], taken["token"])
    watcher = await TableConnection.open(b.base, made["table"], None)
    assert ann.state["chat"] == []

    # Bidi overrides and control characters are removed; spaces run together.
    await send(ann, "chat", text="  good\u202e luck\x07   all ")
    heard = [await frame_of(c, "chat") for c in (ann, bo, watcher)]
    assert {frame["text"] for frame in heard} == {"good luck all"}
    assert {(frame["seat"], frame["name"]) for frame in heard} == {(0, "Seat 1")}
    assert all(frame["at"].endswith("Z") for frame in heard)

    await send(bo, "react", what="nice")
    reacted = [await frame_of(c, "chat") for c in (ann, bo, watcher)]
    assert {(frame["seat"], frame["name"], frame["react"]) for frame in reacted} == {
        (1, "Bo", "nice")}
    assert "Nice" in reacted[0]["text"]

    # A client that connects later, to either process, gets the lines with its welcome.
    for server in (a, b):
        late = await TableConnection.open(server.base, made["table"], None)
        assert [(line["seat"], line["text"]) for line in late.state["chat"]] == [
            (0, "good luck all"), (1, reacted[0]["text"])]
        assert late.state["chat"][0]["n"] < late.state["chat"][1]["n"]
        await late.close()
    for connection in (ann, bo, watcher):
        await connection.close()


async def one_line_then_stop(servers: Servers, sqlite_url: str, text: str) -> dict[str, Any]:
    """A table where Ann says ``text``, on a server then stopped: the table made."""
    first = servers.start(sqlite_url)
    made: dict[str, Any] = await first.api.create_table(seat_body("person", "expert", seed=4))
    ann = await TableConnection.open(first.base, made["table"], made["token"])
    await send(ann, "chat", text=text)
    await frame_of(ann, "chat")
    await ann.close()
    first.stop()
    return made


async def test_a_restarted_server_still_has_the_lines(servers: Servers, sqlite_url: str) -> None:
    made = await one_line_then_stop(servers, sqlite_url, "see you later")
    again = servers.start(sqlite_url)
    back = await TableConnection.open(again.base, made["table"], made["token"])
    assert [line["text"] for line in back.state["chat"]] == ["see you later"]
    await back.close()


async def test_what_is_refused(lone: ServerProcess) -> None:
    made = await lone.api.create_table(seat_body("person", "expert", seed=4))
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    watcher = await TableConnection.open(lone.base, made["table"], None)

    too_long = await answer_to(ann, await send(ann, "chat", text="x" * 201))
    assert (too_long["type"], too_long["code"]) == ("refused", "bad_chat")
    empty = await answer_to(ann, await send(ann, "chat", text=" \u202e\u200f\x00 "))
    assert (empty["type"], empty["code"]) == ("refused", "bad_chat")
    unknown = await answer_to(ann, await send(ann, "react", what="rude"))
    assert (unknown["type"], unknown["code"]) == ("refused", "bad_reaction")
    assert "nice" in unknown["message"]
    spectator = await answer_to(watcher, await send(watcher, "chat", text="hello"))
    assert (spectator["type"], spectator["code"]) == ("refused", "not_seated")
    spectator = await answer_to(watcher, await send(watcher, "react", what="nice"))
    assert spectator["code"] == "not_seated"
    await ann.send({"type": "chat", "id": "c1", "text": 5})
    assert (await frame_of(ann, "error"))["code"] == "bad_frame"
    await ann.send({"type": "chat", "text": "no id"})
    assert (await frame_of(ann, "error"))["code"] == "bad_frame"

    # Exactly 200 characters pass (an emoji is one character).
    full = "\U0001f600" * 200
    await send(ann, "chat", text=full)
    assert (await frame_of(ann, "chat"))["text"] == full
    # Nothing refused was said or kept.
    late = await TableConnection.open(lone.base, made["table"], None)
    assert [line["text"] for line in late.state["chat"]] == [full]
    for connection in (ann, watcher, late):
        await connection.close()


async def test_the_rate_limit_counts_chat_frames(servers: Servers, sqlite_url: str) -> None:
    lone = servers.start(sqlite_url, extra=RATE_LIMITED)
    made = await lone.api.create_table(seat_body("person", "expert", seed=4))
    ann = await TableConnection.open(lone.base, made["table"], made["token"], keep_frames=True)
    for number in range(30):
        await ann.send({"type": "chat", "id": f"c{number}", "text": f"line {number}"})
    said, limited = 0, 0
    while said + limited < 30:
        frame = await ann.next(30)
        said += frame["type"] == "chat"
        limited += frame["type"] == "error" and frame["code"] == "rate_limited"
    assert limited >= 10 and said <= 20, (said, limited)
    await ann.close()


async def test_only_the_last_100_lines_are_kept(lone: ServerProcess) -> None:
    made = await lone.api.create_table(seat_body("person", "expert", seed=4))
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    for number in range(105):
        await send(ann, "chat", text=f"line {number}")
        await frame_of(ann, "chat")
    late = await TableConnection.open(lone.base, made["table"], None)
    assert [line["text"] for line in late.state["chat"]] == [
        f"line {number}" for number in range(5, 105)]
    await late.close()
    await ann.close()


async def test_every_reaction_of_the_documented_list_is_taken(lone: ServerProcess) -> None:
    documented = (Path(__file__).parent.parent / "docs" / "protocol.md").read_text()
    made = await lone.api.create_table(seat_body("person", "expert", seed=4))
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    for what, text in REACTIONS.items():
        assert f"`{what}`" in documented, what
        await send(ann, "react", what=what)
        line = await frame_of(ann, "chat")
        assert (line["react"], line["text"]) == (what, text)
    await ann.close()


async def test_the_lines_go_with_their_table(servers: Servers, sqlite_url: str) -> None:
    made = await one_line_then_stop(servers, sqlite_url, "bye")
    path = sqlite_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM chat").fetchone() == (1,)
    await asyncio.sleep(0.1)  # older than 0.000001 days (86 ms)
    second = servers.start(sqlite_url, extra=("--abandoned-days", "0.000001"))
    for _ in range(100):
        try:
            await second.api.summary(made["table"])
        except ServerError as error:
            assert error.status == 404
            break
        await asyncio.sleep(0.2)
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM chat").fetchone() == (0,)
