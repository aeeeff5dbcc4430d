"""Version 3 of the protocol (docs/protocol.md): updates carry the change (``set``,
``append``), and a client that folds them holds exactly what a new welcome would give.

The frames here are the server's own (:class:`rummy500.server.frames.Frames` over a
:class:`rummy500.server.live.LiveTable`, written by the one encoder), read back from their
JSON text and folded by :func:`rummy500.net.protocol.fold`, the Python clients' fold; every
preset, each seat and a spectator, clients that join at any change.
"""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rummy500.bots import make_bot
from rummy500.moves import parse_move
from rummy500.net.protocol import V2, V3, Gap, apply_frame, fold
from rummy500.rules import PRESETS, make_rules
from rummy500.server.frames import Frames
from rummy500.server.live import BOT, Change, LiveTable, Seat, Spec

CHAT: list[dict[str, Any]] = [{"n": 1, "seat": 0, "text": "hi"}]


def a_table(preset: str, seed: int) -> LiveTable:
    players = make_rules(preset).default_players
    spec = Spec(rules={"preset": preset, "max_deals": 3}, players=players, seed=seed)
    table = LiveTable("t", spec, [Seat(n, BOT, "random") for n in range(players)])
    table.apply(Change(1))
    return table


read = msgspec.json.Decoder(dict[str, Any]).decode
"""A frame's JSON text as a client reads it (msgspec's reader: the same data as ``json``'s,
in a fraction of the time, at every change of every game)."""


def welcomed(text: bytes) -> dict[str, Any]:
    """A welcome frame's state, its chat (which has frames of its own) aside."""
    state: dict[str, Any] = read(text)["state"]
    assert state.pop("chat") == CHAT
    return state


def welcome_state(table: LiveTable, reader: int | None) -> dict[str, Any]:
    """What a new client of ``reader`` would be welcomed with now (its chat aside)."""
    frame = read(Frames().welcome(table.seq, reader, table.parts(reader), V3, CHAT))
    assert frame["seq"] == table.seq and frame["state"].pop("chat") == CHAT
    state: dict[str, Any] = frame["state"]
    return state


@pytest.mark.parametrize("preset", sorted(PRESETS))
@settings(max_examples=4)
@given(seed=st.integers(0, 2**32), joins=st.lists(st.integers(0, 400), min_size=1, max_size=3))
def test_folding_every_update_gives_the_state_a_new_welcome_gives(
        preset: str, seed: int, joins: list[int]) -> None:
    table = a_table(preset, seed)
    readers: list[int | None] = [*range(table.spec.players), None]
    frames = Frames()
    held: dict[tuple[int | None, int], dict[str, Any]] = {}
    for reader in readers:  # clients from the start, and others joining later
        held[reader, 0] = welcomed(frames.welcome(table.seq, reader, table.parts(reader), V3,
                                                  CHAT))
    bots = [make_bot("random", seed + seat) for seat in range(table.spec.players)]
    step = 0
    while not table.game.finished and step < 500:
        step += 1
        seat = table.game.turn
        move = bots[seat].decide(table.game.view(seat)).move

        def heard(change: Change, _: Any) -> None:  # as the server renders: at each change
            for reader in readers:
                parts = table.parts(reader)
                text = frames.update(change.seq, reader, parts, parts.own.event, {V3})[V3]
                update = read(text)
                assert set(update) == {"type", "seq", "event", "set", "append"}
                assert update["seq"] == change.seq == table.seq
                for (who, _since), state in held.items():
                    if who == reader:
                        fold(state, update)
                fresh = welcome_state(table, reader)
                for (who, since), state in held.items():
                    if who == reader:
                        assert state == fresh, (preset, seed, reader, since, change.seq)
                # The event is the reader's last history entry, as in version 2.
                assert update["event"] == fresh["history"][-1]

        table.make(seat, move, heard)
        if step in joins:
            for reader in readers:
                held[reader, step] = welcomed(frames.welcome(
                    table.seq, reader, table.parts(reader), V3, CHAT))


def update_of(frames: Frames, table: LiveTable, reader: int | None) -> dict[str, Any]:
    """The version 3 update of ``reader`` at the table's last change, as a client reads it."""
    parts = table.parts(reader)
    text = frames.update(table.seq, reader, parts, parts.own.event, {V3})
    update: dict[str, Any] = json.loads(text[V3])
    return update


def test_an_update_names_only_what_changed_and_a_history_that_grew() -> None:
    table = a_table("classic", 7)
    frames = Frames()
    frames.welcome(table.seq, 0, table.parts(0), V3, [])
    seat = table.game.turn
    table.make(seat, parse_move("draw"))
    after = welcome_state(table, 0)
    update = update_of(frames, table, 0)
    changed, grown = update["set"], update["append"]
    assert grown == {"history": [after["history"][-1]]}
    assert "deals" not in changed and "history" not in changed and "seats" not in changed
    assert {"stock", "phase", "legal"} & set(changed)
    assert "hand" in changed if seat == 0 else "hand" not in changed
    again = update_of(frames, table, 0)  # nothing changed since
    assert (again["set"], again["append"]) == ({}, {})
    fresh = update_of(Frames(), table, 0)  # nothing was sent: the whole state
    assert fresh["set"] == after and fresh["append"] == {}


def test_a_new_deal_sets_its_history_and_appends_the_finished_deal_s_sheet() -> None:
    table = a_table("classic", 3)
    bots = [make_bot("random", 3 + seat) for seat in range(2)]
    frames = Frames()
    frames.welcome(table.seq, None, table.parts(None), V3, [])
    while len(table.game.deals) < 2:
        seat = table.game.turn
        made = table.make(seat, bots[seat].decide(table.game.view(seat)).move)
        if len(table.game.deals) < 2:
            update_of(frames, table, None)
    assert len(made) == 2  # the move that ended deal 1, then deal 2 dealt
    after = welcome_state(table, None)
    update = update_of(frames, table, None)
    assert update["set"]["history"] == after["history"] and after["history"][0]["deal"] == 2
    assert update["append"]["deals"] == after["deals"] and len(after["deals"]) == 1


def test_updates_do_not_grow_with_the_game() -> None:
    """A whole game's version 3 updates stay small while version 2's grow with it."""
    table = a_table("partnership", 11)
    frames = Frames()
    frames.welcome(table.seq, 0, table.parts(0), V3, [])
    bots = [make_bot("random", 11 + seat) for seat in range(4)]
    sizes: dict[int, list[int]] = {V2: [], V3: []}
    while not table.game.finished:
        seat = table.game.turn

        def heard(change: Change, _: Any) -> None:
            made = frames.update(change.seq, 0, table.parts(0), table.parts(0).own.event,
                                  {V2, V3})
            for version, text in made.items():
                sizes[version].append(len(text))

        table.make(seat, bots[seat].decide(table.game.view(seat)).move, heard)
    third = len(sizes[V3]) // 3
    early, late = sorted(sizes[V3][:third]), sorted(sizes[V3][-third:])
    assert late[len(late) // 2] < 2 * early[len(early) // 2]
    assert max(sizes[V3]) < 6000
    assert sum(sizes[V3]) * 5 < sum(sizes[V2])


def test_a_client_that_misses_an_update_asks_for_the_whole_state() -> None:
    table = a_table("classic", 5)
    frames = Frames()
    welcome = json.loads(frames.welcome(table.seq, 1, table.parts(1), V3, []))
    state, seq = apply_frame({}, -1, welcome)
    updates = []
    for _ in range(3):
        seat = table.game.turn
        table.make(seat, random.Random(seat).choice(table.game.view(seat).legal_moves()),
                   lambda change, _: updates.append(json.loads(frames.update(
                       change.seq, 1, table.parts(1), table.parts(1).own.event, {V3})[V3])))
    state, seq = apply_frame(state, seq, updates[0])
    try:
        apply_frame(state, seq, updates[2])
    except Gap:
        pass
    else:
        raise AssertionError("an update after a gap was folded")
