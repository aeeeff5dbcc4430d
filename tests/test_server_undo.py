"""Undo (docs/protocol.md): at a table where one person plays computer players, the
person's last move and the computer players' replies are taken back, never past new
information (the person's draw from the stock, a computer player's cards shown, its
discard among them, a new deal); the database, a restarted server and every
process agree on the table after it, and ``seq`` only grows."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummy500.net.client import TableConnection
from serverkit import ServerProcess, Servers, moves_of, seat_body
from talkkit import answer_to, frame_of, processes, send

pytestmark = pytest.mark.asyncio


PACE = 1.0
"""The computer players' pace where a test takes back a discard: the time between the
computer player's draw and its discard (which would show a card: no undo after it)."""


@pytest.fixture
def lone(shared_sqlite: ServerProcess) -> ServerProcess:
    return shared_sqlite


@pytest.fixture
def paced(servers: Servers, sqlite_url: str) -> ServerProcess:
    return servers.start(sqlite_url, pace=PACE)


async def my_turn(seat: TableConnection) -> None:
    while not seat.state.get("legal"):
        await seat.next(60)


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what changes with time or presence."""
    return {key: value for key, value in state.items()
            if key not in ("seats", "clock", "pause_left", "chat", "watchers")}


QUIET = ("draw",)
"""Replies that show nothing of a computer player's hand: an undo may pass over them (a
discard shows a card it held)."""
SHOWN = ("take", "meld", "layoff", "discard", "rummy")


async def draw_and_discard(ann: TableConnection, rng: random.Random,
                           ) -> tuple[dict[str, Any], int, str, list[str]]:
    """Ann draws from the stock and discards, and the computer players reply: the state and
    seq right after the draw, the discard, and the replies' moves (if the deal goes on)."""
    await my_turn(ann)
    assert (await ann.move("draw"))["type"] == "ack"
    after_draw, drawn_at = dict(ann.state), ann.seq  # a copy: updates fold in place
    discards = [move for move in ann.state["legal"] if move.startswith("discard")]
    discard = rng.choice(discards)
    assert (await ann.move(discard))["type"] == "ack"
    await my_turn(ann)
    moves = moves_of(ann.state) if ann.state["deal"] == after_draw["deal"] else []
    replies = moves[len(moves_of(after_draw)) + 1:] if moves else ["(a new deal)"]
    return after_draw, drawn_at, discard, replies


async def draw_discard_and_let_the_bots_reply(ann: TableConnection,
                                              rng: random.Random,
                                              ) -> tuple[dict[str, Any], int, str]:
    """Turns of a draw and a discard until the computer player's first reply to one shows
    nothing of its hand (a draw from the stock: an undo may pass over it), read before it
    discards (the server's pace is :data:`PACE`): the state and seq right after that
    turn's draw, and its discard."""
    for _ in range(30):
        await my_turn(ann)
        drew = await ann.move("draw")
        assert drew["type"] == "ack", drew
        after_draw, drawn_at = dict(ann.state), ann.seq  # a copy (updates fold in place)
        discard = rng.choice([move for move in ann.state["legal"]
                              if move.startswith("discard")])
        assert (await ann.move(discard))["type"] == "ack"
        await ann.until(ann.seq + 1, 30)
        moves = moves_of(ann.state) if ann.state["deal"] == after_draw["deal"] else []
        reply = moves[len(moves_of(after_draw)) + 1:]
        if reply and reply[0].split()[0] in QUIET:
            return after_draw, drawn_at, discard
        await my_turn(ann)
    raise AssertionError("no quiet reply in 30 turns")


async def test_undo_takes_back_a_discard_and_the_replies(paced: ServerProcess) -> None:
    lone = paced
    made = await lone.api.create_table(seat_body("person", "simple", "simple", seed=11,
                                                 rules={"preset": "classic"}))
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    watcher = await TableConnection.open(lone.base, made["table"], None)
    rng = random.Random(4)
    after_draw, drawn_at, discard = await draw_discard_and_let_the_bots_reply(ann, rng)
    before = ann.seq

    assert ann.state["can_undo"] and not watcher.state.get("can_undo")
    client_id = await send(ann, "undo")
    update = await frame_of(ann, "update")
    answer = await answer_to(ann, client_id)
    assert answer == {"type": "ack", "id": client_id, "seq": before + 1}
    assert update["seq"] == before + 1  # seq only grows
    assert update["event"]["seat"] == 0 and update["event"]["undo"] == before - drawn_at
    assert "took back" in update["event"]["text"]
    assert ann.state["hand"] == after_draw["hand"]
    assert moves_of(ann.state) == moves_of(after_draw)
    assert ann.state["legal"] == after_draw["legal"] and discard in ann.state["legal"]
    assert comparable(ann.state) == comparable(after_draw)
    await watcher.until(before + 1, 10)
    assert watcher.state["pile"] == after_draw["pile"] and "hand" not in watcher.state

    # The draw from the stock stands: the state says so, and a second undo is refused.
    assert ann.state["can_undo"] is False
    blocked = await answer_to(ann, await send(ann, "undo"))
    assert (blocked["type"], blocked["code"]) == ("refused", "undo_blocked")
    assert "stock" in blocked["message"]

    # A new connection and a restarted server read the same table back.
    fresh = await TableConnection.open(lone.base, made["table"], made["token"])
    assert comparable(fresh.state) == comparable(ann.state) and fresh.seq == ann.seq
    await fresh.close()
    await ann.close()
    await watcher.close()


async def test_undo_survives_a_restart_and_play_goes_on(servers: Servers,
                                                        sqlite_url: str) -> None:
    first = servers.start(sqlite_url, pace=PACE)
    made = await first.api.create_table(seat_body("person", "simple", seed=12))
    ann = await TableConnection.open(first.base, made["table"], made["token"])
    rng = random.Random(5)
    after_draw, _drawn_at, _discard = await draw_discard_and_let_the_bots_reply(ann, rng)
    client_id = await send(ann, "undo")
    assert (await answer_to(ann, client_id))["type"] == "ack"
    undone = ann.state
    await ann.close()
    first.stop()

    second = servers.start(sqlite_url)
    back = await TableConnection.open(second.base, made["table"], made["token"])
    assert comparable(back.state) == comparable(undone)
    assert back.state["hand"] == after_draw["hand"]
    # Play goes on from the undone position, seq after the undo's.
    seq = back.seq
    answer = await back.move(rng.choice([m for m in back.state["legal"]
                                         if m.startswith("discard")]))
    assert answer == {"type": "ack", "id": answer["id"], "seq": seq + 1}
    await my_turn(back)
    await back.close()


async def test_undo_is_refused_where_it_does_not_belong(lone: ServerProcess) -> None:
    two = await lone.api.create_table(seat_body("person", "person", "simple", seed=3))
    bo = await lone.api.take_seat(two["table"], 1, "Bo")
    ann = await TableConnection.open(lone.base, two["table"], two["token"])
    refused = await answer_to(ann, await send(ann, "undo"))
    assert (refused["type"], refused["code"]) == ("refused", "undo_blocked")
    assert "computer" in refused["message"]
    await ann.close()
    del bo

    made = await lone.api.create_table(seat_body("person", "simple", seed=12))
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    watcher = await TableConnection.open(lone.base, made["table"], None)
    nothing = await answer_to(ann, await send(ann, "undo"))  # no move of Ann's this deal
    assert (nothing["type"], nothing["code"]) == ("refused", "undo_blocked")
    spectator = await answer_to(watcher, await send(watcher, "undo"))
    assert (spectator["type"], spectator["code"]) == ("refused", "not_seated")
    await ann.send({"type": "undo"})
    assert (await frame_of(ann, "error"))["code"] == "bad_frame"  # an undo needs an id

    # Never past a new deal: once deal 2 is dealt, Ann's moves of deal 1 stand.
    rng = random.Random(7)
    while ann.state["deal"] < 2:
        if ann.state.get("legal"):
            assert (await ann.move(rng.choice(ann.state["legal"])))["type"] == "ack"
        else:
            await ann.next(60)
    past = await answer_to(ann, await send(ann, "undo"))
    assert (past["type"], past["code"]) == ("refused", "undo_blocked")
    assert "in this deal" in past["message"]
    await ann.close()
    await watcher.close()


async def test_every_process_agrees_after_an_undo(servers: Servers, database_url: str) -> None:
    a, b = processes(servers, database_url, pace=PACE)
    made = await a.api.create_table(seat_body("person", "simple", "simple", seed=21))
    ann = await TableConnection.open(a.base, made["table"], made["token"])
    far = await TableConnection.open(b.base, made["table"], None)
    await draw_discard_and_let_the_bots_reply(ann, random.Random(6))
    seq = ann.seq
    await far.until(seq, 30)
    client_id = await send(ann, "undo")
    assert (await answer_to(ann, client_id))["seq"] == seq + 1
    update = await frame_of(far, "update", 30, where=lambda frame: "undo" in frame["event"])
    assert update["seq"] == seq + 1 == far.seq
    near = await TableConnection.open(a.base, made["table"], None)
    assert comparable(far.state) == comparable(near.state)
    # Ann plays on; the far process follows move by move.
    discard = next(m for m in ann.state["legal"] if m.startswith("discard"))
    assert (await ann.move(discard))["seq"] == seq + 2
    await my_turn(ann)
    await far.until(ann.seq, 30)
    await near.until(ann.seq, 30)
    assert comparable(far.state) == comparable(near.state)
    summary = await b.api.summary(made["table"])
    assert summary["seq"] == ann.seq
    for connection in (ann, far, near):
        await connection.close()


async def test_undo_stops_where_a_computer_player_showed_cards(lone: ServerProcess) -> None:
    """Never past new information: once a computer player has taken from the pile, melded,
    laid off or discarded since Ann's last move, that move stands (the terminal game's
    rule; issue 30: a discard taken back showed the same reply again)."""
    made = await lone.api.create_table(seat_body("person", "expert", seed=31))
    ann = await TableConnection.open(lone.base, made["table"], made["token"])
    rng = random.Random(8)
    for _ in range(40):
        _after, _at, _discard, replies = await draw_and_discard(ann, rng)
        shown = [reply for reply in replies if reply.split()[0] in SHOWN]
        if shown and replies != ["(a new deal)"]:
            break
    else:
        raise AssertionError("the computer player never showed a card in 40 turns")
    seq = ann.seq
    assert ann.state["can_undo"] is False
    blocked = await answer_to(ann, await send(ann, "undo"))
    assert (blocked["type"], blocked["code"]) == ("refused", "undo_blocked")
    assert "shown cards" in blocked["message"] and shown[0] in blocked["message"]
    assert ann.seq == seq  # nothing changed
    await ann.close()
