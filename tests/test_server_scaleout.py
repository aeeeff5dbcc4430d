"""Two ``serve`` processes on one PostgreSQL database serve the same tables
(docs/protocol.md): a whole game with its seats and spectators on different processes,
every client hearing every change, and a move sent through both processes at once for
the same ``seq`` made exactly once."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from rummy500.net.client import TableConnection
from rummy500.record import replay
from rummy500.session.state import seat_state
from serverkit import (
    ServerProcess,
    Servers,
    engine_part,
    play_out,
    public_event,
    replay_changes,
    summary_once,
    with_states,
)

pytestmark = pytest.mark.asyncio

LOSERS = ("stale", "not_your_turn")


@dataclass
class Races:
    """The same seat's move sent through both processes at once, for the same seq."""

    held: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    words: Counter[str] = field(default_factory=Counter)


async def wait_for_seq(server: ServerProcess, table: str, seq: int) -> dict[str, Any]:
    """The summary once ``server`` has the table at change ``seq`` (or past it)."""
    return await summary_once(server, table, lambda summary: summary["seq"] >= seq,
                              f"change {seq}")


async def race_and_play(here: TableConnection, there: TableConnection, a: ServerProcess,
                        b: ServerProcess, table: str, rng: random.Random, races: Races) -> None:
    """Play one seat to the end through ``here``; each of its draws is sent through both
    processes at once (``here`` on ``a``, ``there`` on ``b``) with the same seq."""
    while not here.state.get("over"):
        legal = here.state.get("legal")
        if not legal:
            await here.next(60)
            continue
        seq = here.seq
        if here.state["phase"] != "draw":
            answer = await here.move(rng.choice(legal))
            assert answer["type"] == "ack", answer
            continue
        await there.until(seq, 30)
        assert there.seq == seq and there.state["legal"] == legal
        answers = await asyncio.gather(here.move(rng.choice(legal), seq=seq),
                                       there.move(rng.choice(legal), seq=seq))
        kinds = sorted(answer["type"] for answer in answers)
        assert kinds == ["ack", "refused"], answers
        acked = next(answer for answer in answers if answer["type"] == "ack")
        loser = next(answer for answer in answers if answer["type"] == "refused")
        assert acked["seq"] == seq + 1 and loser["code"] in LOSERS, answers
        races.held += 1
        races.codes[loser["code"]] += 1
        races.words[loser["message"].split(":")[0]] += 1
        # After a draw it is still this seat's turn: nothing else can change the table,
        # so both processes must stand at exactly one change more.
        for server in (a, b):
            summary = await wait_for_seq(server, table, seq + 1)
            assert summary["seq"] == seq + 1, (server.base, summary["seq"], seq)
        await here.until(seq + 1, 30)
        await there.until(seq + 1, 30)
        assert here.seq == there.seq == seq + 1
        assert here.state == {**there.state, "seats": here.state["seats"]}


async def listen(connection: TableConnection) -> None:
    while not connection.state.get("over"):
        await connection.next(60)


async def test_two_processes_play_one_game_and_never_both_take_a_seq(
        servers: Servers, postgres_url: str) -> None:
    a = servers.start(postgres_url, pace=0.0)
    b = servers.start(postgres_url, pace=0.0)
    made = await a.api.create_table({
        "rules": {"preset": "partnership", "max_deals": 1}, "players": 4, "seed": 2024,
        "takeover_s": 0,
        "seats": [{"kind": "person", "name": "Ann"}, {"kind": "bot", "bot": "simple"},
                  {"kind": "person", "name": "Cy"}, {"kind": "bot", "bot": "random"}]})
    table = made["table"]
    ann = await TableConnection.open(a.base, table, made["token"], keep_frames=True)
    watch_a = await TableConnection.open(a.base, table, None, keep_frames=True)
    # Version 2 here, version 3 elsewhere: both hold the truth at every change.
    watch_b = await TableConnection.open(b.base, table, None, keep_frames=True, version=2)
    # The last seat is taken through the other process, which deals: A hears of it.
    taken = await b.api.take_seat(table, 2, "Cy")
    cy = await TableConnection.open(b.base, table, taken["token"], keep_frames=True)
    ann_b = await TableConnection.open(b.base, table, made["token"], keep_frames=True)
    assert (ann.seat, ann_b.seat, cy.seat) == (0, 0, 2)
    await ann.until(1, 30)
    assert ann.state["phase"] != "waiting"

    rng = random.Random(8)
    races = Races()
    await asyncio.wait_for(asyncio.gather(
        race_and_play(ann, ann_b, a, b, table, random.Random(rng.random()), races),
        play_out(cy, random.Random(rng.random())),
        listen(watch_a), listen(watch_b)), 150)
    assert races.held >= 3, races

    final = (await wait_for_seq(a, table, ann.seq))["seq"]
    await ann_b.until(final, 30)
    assert (await wait_for_seq(b, table, final))["seq"] == final
    record = await a.api.record(table)
    assert await b.api.record(table) == record
    game = replay(record)
    assert game.finished

    # Every client heard every change after its welcome, in order, each as an update
    # with the change's true event, and every state is the truth for its seat.
    truth = {seq: (g, event) for seq, g, event in _snapshots(record)}
    assert max(truth) == final
    for name, connection in {"ann on A": ann, "ann on B": ann_b, "cy on B": cy,
                             "spectator on A": watch_a, "spectator on B": watch_b}.items():
        states = [f for f in with_states(connection.frames)
                  if f["type"] in ("welcome", "update")]
        assert states[0]["type"] == "welcome", name
        seqs = [f["seq"] for f in states]
        assert seqs == list(range(seqs[0], final + 1)), f"{name} missed or repeated: {seqs}"
        assert [f["type"] for f in states[1:]] == ["update"] * (len(states) - 1), name
        for frame in states:
            g, event = truth[frame["seq"]]
            state = frame["state"]
            assert state["next"] is None, (name, frame)  # nobody asked for a next game
            state = engine_part(state)
            assert state == seat_state(g, connection.seat, state["seats"]), (name, frame)
            if frame["type"] == "update":
                assert public_event(frame["event"]) == event, (name, frame)
                assert frame["event"] == state["history"][-1], (name, frame)
    await _close(ann, ann_b, cy, watch_a, watch_b)
    print(f"races: {races.held}, refusals {dict(races.codes)}, {dict(races.words)}")


def _snapshots(record: dict[str, Any]) -> list[tuple[int, Any, dict[str, Any] | None]]:
    """Each change's game, copied (``replay_changes`` changes one game in place)."""
    return [(seq, game.copy(), event) for seq, game, event in replay_changes(record)]


async def _close(*connections: TableConnection) -> None:
    for connection in connections:
        await connection.close()
