"""The protocol's JSON Schema (``web/static/js/protocol.schema.json``, which the browser's
types are made from) is what the server's types give today, and the server's frames have
its shape: every welcome and update of whole games, for each seat and a spectator, an undo's
event and a chat line as the server makes them, read back by the schema's own types
(which refuse a key they do not know). ``tests/js/protocol_types.test.js`` checks the
declarations made from the schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from rummy500.bots import make_bot
from rummy500.net.protocol import V3
from rummy500.rules import make_rules
from rummy500.server.frames import Frames
from rummy500.server.live import BOT, Change, LiveTable, Seat, Spec
from rummy500.server.talk_store import _line
from rummy500.server.undo import undo_event
from rummy500.session.seat_state import HistoryEntry, SeatState
from rummy500.web import protocol_schema as schema
from rummy500.web.protocol_schema import NoEvent, UndoEvent, Update, Welcome


def test_the_committed_schema_is_the_schema_of_today_s_types(tmp_path: Path) -> None:
    assert schema.SCHEMA_PATH.read_text(encoding="utf-8") == schema.text(), \
        "run npm run types"
    assert schema.main(["--check"]) == 0
    stale = tmp_path / "stale.json"
    stale.write_text("{}\n", encoding="utf-8")
    assert schema.main(["--check", str(stale)]) == 1
    assert schema.main([str(stale)]) == 0 and schema.main(["--check", str(stale)]) == 0


def test_the_schema_names_every_key_of_the_state_and_what_it_always_holds() -> None:
    parts = schema.schema()["definitions"]
    state = parts["SeatState"]
    assert list(state["properties"]) == list(SeatState.__struct_fields__)
    # A spectator's state has no hand and no can_undo; every other key is always written.
    assert set(state["properties"]) - set(state["required"]) == {"hand", "can_undo"}
    assert parts["SeatInfo"]["properties"]["standin"]["anyOf"] == [{"type": "string"},
                                                                    {"type": "null"}]
    assert set(parts["SeatInfo"]["required"]) == set(parts["SeatInfo"]["properties"])
    assert "required" not in parts["StateChange"]
    assert set(parts["Appended"]["properties"]) == {"history", "deals"}
    assert parts["WelcomeState"]["required"][-1] == "chat"
    assert parts["TableMeld"]["properties"]["by"]["description"] == \
        "The seat that laid each card."


def told(event: Any) -> HistoryEntry | UndoEvent | NoEvent:
    """An update's event read as the schema's ``event``: one of its three kinds."""
    if "undo" in event:
        return msgspec.convert(event, UndoEvent)
    if not event:
        return msgspec.convert(event, NoEvent)
    entry = msgspec.convert(event, HistoryEntry)
    assert set(event) <= set(HistoryEntry.__struct_fields__)
    return entry


@pytest.mark.parametrize("preset", ["classic", "partnership"])
def test_the_server_s_frames_have_the_schema_s_shape(preset: str) -> None:
    players = make_rules(preset).default_players
    table = LiveTable("t", Spec(rules={"preset": preset, "max_deals": 2}, players=players,
                                seed=7), [Seat(n, BOT, "random") for n in range(players)])
    table.apply(Change(1))
    readers: list[int | None] = [*range(players), None]
    chat = [_line(1, 0, "Ann", "hi", None, 0.0), _line(2, 1, "Bob", "", "clap", 1.0)]
    frames = Frames()
    for reader in readers:
        welcome = msgspec.json.decode(frames.welcome(table.seq, reader, table.parts(reader),
                                                     V3, chat), type=Welcome)
        assert welcome.seat == reader and welcome.v == V3 and len(welcome.state.chat) == 2
    bots = [make_bot("random", seat) for seat in range(players)]
    kinds: set[str] = set()

    def heard(change: Change, _: Any) -> None:
        for reader in readers:
            parts = table.parts(reader)
            text = frames.update(change.seq, reader, parts, parts.own.event, {V3})[V3]
            update = msgspec.json.decode(text, type=Update)
            told(update.event)
            kinds.update(f"set {key}" for key in json.loads(text)["set"])
            kinds.update(f"append {key}" for key in json.loads(text)["append"])

    while not table.game.finished:
        seat = table.game.turn
        move = bots[seat].decide(table.game.view(seat)).move
        table.make(seat, move, heard)
    assert {"set history", "set legal", "set turn", "append history", "append deals"} <= kinds
    # a welcome at the end of the game, with its sheets
    for reader in readers:
        msgspec.json.decode(Frames().welcome(table.seq, reader, table.parts(reader), V3, []),
                            type=Welcome)


def test_an_undo_s_event_and_an_empty_one_have_the_schema_s_shape() -> None:
    table = LiveTable("t", Spec(rules={"preset": "classic"}, players=2, seed=3),
                      [Seat(n, BOT, "random") for n in range(2)])
    event = undo_event(table, Change(2, 1, "undo 2"))
    assert told(event) == UndoEvent(1, 2, event["text"])
    assert told({}) == NoEvent()
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"seat": 0, "undo": 1, "text": "x", "move": "d"}, UndoEvent)


def test_a_state_with_a_key_the_schema_does_not_know_is_refused() -> None:
    table = LiveTable("t", Spec(rules={"preset": "classic"}, players=2, seed=3),
                      [Seat(n, BOT, "random") for n in range(2)])
    frame = json.loads(Frames().welcome(table.seq, 0, table.parts(0), V3, []))
    frame["state"]["stand_in"] = True
    with pytest.raises(msgspec.ValidationError, match="stand_in"):
        msgspec.convert(frame, Welcome)
