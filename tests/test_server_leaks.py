"""No frame to a seat holds a card that seat cannot know (docs/protocol.md, "Limits and
safety"), over whole games under every preset, two-pack games included.

Each game is played on a real ``serve`` process by computer players and by clients
making random legal moves; every frame sent to every person seat (across a reconnect)
and to a spectator is kept. Once the game is over its record is replayed by the engine,
change by change, and every frame is held against the truth at its ``seq``:

- every card named anywhere in the frame is one the seat may know then: in its own
  hand, the pile, the melds or this deal's public history;
- a seat's ``hand`` is exactly its true hand (as faces), ``pile``, ``stock`` and
  ``hand_sizes`` are the truth, and the state is the engine's view of that seat;
- the state is the same when every card of a two-pack game is the other pack's copy,
  so no frame tells which copy of a card anyone holds;
- frames carry only the fields of the protocol, so nothing else can slip a card out.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rummy500.cards import face_of, face_str, iter_bits
from rummy500.game import Game
from rummy500.net.client import TableConnection
from rummy500.record import replay
from rummy500.session.state import seat_state
from serverkit import (
    ServerProcess,
    engine_part,
    play_out,
    public_event,
    replay_changes,
    start_server,
    with_states,
)

CARD = re.compile(r"(?<![A-Za-z0-9])(?:[A2-9TJQK][cdhs]|\*)(?![A-Za-z0-9])")
"""A card face as the notation writes it."""
DECLARED = re.compile(r"\*=(?:[A2-9TJQK][cdhs])(?![A-Za-z0-9])")
"""A wild joker with the face it stands for (``*=6h``): a joker, and no 6h."""
SAID_JOKER = re.compile(r"joker(?:\((?:10|[A2-9JQK])[♣♦♥♠]\)| as (?:10|[A2-9JQK])[♣♦♥♠])")
"""A wild joker in words, with the face it stands for (``joker(5♣)``, ``joker as 5♣``)."""
PRETTY = re.compile(r"(?<![A-Za-z0-9])(10|[A2-9JQK])([♣♦♥♠])")
"""A card as people read it (``10♥``), as in the engine's words."""
SUIT_ORDER = "cdhs"
RANK_ORDER = "A23456789TJQK"

FRAME_FIELDS = {
    "welcome": {"type", "seat", "seq", "state"},
    "welcome v3": {"type", "seat", "seq", "state", "v"},
    "update": {"type", "seq", "event", "state"},
    "update v3": {"type", "seq", "event", "set", "append"},
    "ack": {"type", "id", "seq"},
    "refused": {"type", "id", "code", "message"},
    "seats": {"type", "seq", "seats"},
}
SEED = int(os.environ.get("RUMMY500_LEAK_SEED", "500"))
"""The games' seeds start here (deals, computer players and the random clients' moves):
set ``RUMMY500_LEAK_SEED`` to play other games."""
SEAT_FIELDS = {"seat", "kind", "name", "connected", "open", "bot", "standin", "kept", "left"}


@dataclass(frozen=True)
class Setup:
    name: str
    rules: dict[str, Any]
    seats: tuple[str, ...]
    """``person`` (a client making random legal moves) or a computer player's name."""


SETUPS = [
    Setup("classic", {"preset": "classic", "max_deals": 2}, ("person", "simple")),
    Setup("classic-5-two-packs", {"preset": "classic", "max_deals": 1},
          ("person", "simple", "random", "person", "simple")),
    Setup("wild", {"preset": "wild", "max_deals": 1}, ("person", "simple", "simple")),
    Setup("wild-5-two-packs", {"preset": "wild", "max_deals": 1, "decks": 2,
                               "jokers_per_deck": 2},
          ("person", "simple", "simple", "person", "simple")),
    Setup("simplified", {"preset": "simplified", "max_deals": 1},
          ("person", "random", "simple")),
    Setup("boathouse", {"preset": "boathouse", "max_deals": 2}, ("person", "simple")),
    Setup("partnership", {"preset": "partnership", "max_deals": 1},
          ("person", "simple", "person", "expert")),
    Setup("persian", {"preset": "persian", "max_deals": 1},
          ("person", "simple", "simple", "simple")),
]


@pytest.fixture(scope="module")
def leak_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One ``serve`` process (SQLite, computer players without a pause) for every game."""
    folder: Path = tmp_path_factory.mktemp("leaks")
    server = start_server(f"sqlite:///{folder / 'tables.db'}", folder / "logs", pace=0.0)
    yield server
    server.stop()


# -- playing and listening ---------------------------------------------------------------------


Heard = list[tuple[int | None, list[dict[str, Any]]]]
"""Each connection's seat (None: the spectator) and every frame it received, in order."""


async def person(base: str, table: str, token: str, rng: random.Random, heard: Heard,
                 reconnect_at: int, probes: list[str]) -> None:
    """Random legal moves until the game is over, probing once with discards of cards
    the seat does not hold, and leaving and coming back once."""
    first = await TableConnection.open(base, table, token, keep_frames=True)
    heard.append((first.seat, first.frames))
    await probe(first, rng, probes)
    await play_out(first, rng, until_seq=reconnect_at)
    await first.close()
    # Back in version 2 of the protocol (the first connection spoke version 3).
    again = await TableConnection.open(base, table, token, keep_frames=True, version=2)
    heard.append((again.seat, again.frames))
    await play_out(again, rng)
    await again.close()


async def probe(connection: TableConnection, rng: random.Random, probes: list[str]) -> None:
    """At the seat's next turn to lay or discard, try to discard three faces it does not
    hold and has not seen: the refusal must read the same wherever the card is (another
    hand, the stock). ``probes`` gets each refusal's words, its card written ``X``."""
    state = connection.state
    while not state.get("over") and not (state.get("legal") and state["phase"] == "play"):
        if state.get("legal"):
            answer = await connection.move(rng.choice(state["legal"]))
            assert answer["type"] == "ack" or answer.get("code") == "stale", answer
        else:
            await connection.next(60)
        state = connection.state
    if state.get("over"):
        probes.append("")  # the game ended before this seat could lay or discard
        return
    seen = set(state["hand"]) | set(state["pile"])
    seen |= {card for meld in state["melds"] for card in meld["cards"]}
    unseen = sorted({r + s for r in RANK_ORDER for s in SUIT_ORDER} - seen)
    for face in rng.sample(unseen, 3):
        await connection.send({"type": "move", "id": f"probe {face}", "seq": connection.seq,
                               "move": f"discard {face}"})
        answer = await connection.next(30)
        while answer.get("id") != f"probe {face}":
            answer = await connection.next(30)
        assert answer["type"] == "refused" and answer["code"] == "illegal", answer
        assert cards_named(answer["message"]) <= {face}, answer
        probes.append(PRETTY.sub("X", answer["message"]).replace(face, "X"))


async def spectate(connection: TableConnection) -> None:
    while not connection.state.get("over"):
        await connection.next(60)


async def play_game(server: ServerProcess, setup: Setup, seed: int) -> tuple[str, Heard]:
    """Create the table, seat everyone, play it to the end: its id and every frame heard."""
    api = server.api
    seats = [{"kind": "person", "name": f"P{i}"} if kind == "person"
             else {"kind": "bot", "bot": kind} for i, kind in enumerate(setup.seats)]
    made = await api.create_table({"rules": setup.rules, "players": len(seats),
                                   "seats": seats, "takeover_s": 0, "seed": seed})
    table = made["table"]
    heard: Heard = []
    watcher = await TableConnection.open(server.base, table, None, keep_frames=True)
    heard.append((None, watcher.frames))
    tokens = [made["token"]]
    for seat in range(made["seat"] + 1, len(seats)):
        if setup.seats[seat] == "person":
            tokens.append((await api.take_seat(table, seat, f"P{seat}"))["token"])
    rng = random.Random(seed)
    probes: list[str] = []
    players = [person(server.base, table, token, random.Random(rng.random()), heard,
                      rng.randrange(8, 30), probes) for token in tokens]
    await asyncio.wait_for(asyncio.gather(spectate(watcher), *players), 120)
    # The public summary never names a card, not even mid-game or at the end. (Table ids
    # are random text that may hold "-Js_": they are left out of the scan.)
    summary = await api.summary(table)
    assert summary["table"] == table and summary["next"] is None
    assert CARD.findall(json.dumps({k: v for k, v in summary.items() if k != "table"})) == []
    await watcher.close()
    # A discard of a card not held is refused in the same words wherever the card is.
    words = set(probes) - {""}
    assert len(words) == 1 or probes == [""] * len(tokens), probes
    return table, heard


# -- the truth ---------------------------------------------------------------------------------


def face_text(card: int) -> str:
    return face_str(face_of(card))


def hand_faces(game: Game, seat: int) -> list[str]:
    return [face_text(card) for card in iter_bits(game.deal.hands[seat])]


def knowable(game: Game, seat: int | None) -> set[str]:
    """The faces ``seat`` may know now: its own hand and what is public (pile, melds, this
    deal's history, the cards each seat was left with at the end of a finished deal and
    the melds as they lay then), from the engine's true game, not from anything the server
    renders."""
    if not game.deals:
        return set()
    deal = game.deal
    faces = set(hand_faces(game, seat)) if seat is not None else set()
    for finished in game.deals[: len(game.results)]:
        faces |= {face_text(card) for hand in finished.hands for card in iter_bits(hand)}
        faces |= {face_text(table_card.card) for meld in finished.melds
                  for table_card in meld.cards}
    faces |= {face_text(card) for card in deal.pile}
    faces |= {face_text(table_card.card) for meld in deal.melds for table_card in meld.cards}
    for move in deal.moves:
        faces |= cards_named(str(move))
    return faces


def cards_named(text: str) -> set[str]:
    """The cards ``text`` names, in the notation or as people read them (``10♥``); a
    joker's declared face is no card."""
    text = SAID_JOKER.sub("*", text)
    text = PRETTY.sub(lambda m: ("T" if m[1] == "10" else m[1]) + SUIT_ORDER[
        "♣♦♥♠".index(m[2])], text)
    return set(CARD.findall(DECLARED.sub("*", text)))


def face_order(text: str) -> tuple[int, int]:
    return (4, 0) if text == "*" else (SUIT_ORDER.index(text[1]), RANK_ORDER.index(text[0]))


def strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def check_frame(where: str, seat: int | None, frame: dict[str, Any], game: Game,
                swapped: Game, event: dict[str, Any] | None) -> None:
    kind = frame.get("type")
    assert kind in FRAME_FIELDS, f"{where}: an unexpected frame {frame}"
    sent = frame.get("sent", frame)  # version 3: as it came, before it was folded
    fields = FRAME_FIELDS[kind if set(sent) == FRAME_FIELDS[kind] else f"{kind} v3"]
    assert set(sent) == fields, f"{where}: fields {sorted(sent)}"
    allowed = knowable(game, seat)
    if kind == "refused" and frame["id"].startswith("probe "):
        assert frame["code"] == "illegal", f"{where}: {frame}"
        allowed.add(frame["id"].split()[1])  # the card the seat itself named
    elif kind == "refused":
        assert frame["code"] == "stale", f"{where}: a random legal move refused: {frame}"
    named = {card for text in strings(frame) for card in cards_named(text)}
    assert named <= allowed, (f"{where}: seat {seat} is shown {sorted(named - allowed)}, "
                              f"which it cannot know: {frame}")
    if kind == "seats":
        for entry in frame["seats"]:
            assert set(entry) <= SEAT_FIELDS, f"{where}: seat fields {sorted(entry)}"
    if kind == "welcome":
        assert frame["seat"] == seat
    if kind == "update":
        assert public_event(frame["event"]) == event, (
            f"{where}: the event of this change is {event}")
    if kind not in ("welcome", "update"):
        return
    # "next" (the table of the next game, POST …/again) is no part of the engine's view.
    assert frame["state"].get("next") is None, where
    state = engine_part(frame["state"])
    if game.deals:
        deal = game.deal
        assert state["pile"] == [face_text(card) for card in deal.pile], where
        assert state["stock"] == len(deal.stock), where
        assert state["hand_sizes"] == [len(list(iter_bits(h))) for h in deal.hands], where
    if seat is None:
        assert "hand" not in state and "legal" not in state, where
    else:
        truth = hand_faces(game, seat) if game.deals else []
        assert Counter(state["hand"]) == Counter(truth), f"{where}: not seat {seat}'s hand"
        # In an order of faces alone, so the order cannot tell one copy from the other.
        assert state["hand"] == sorted(state["hand"], key=face_order), (
            f"{where}: the hand is not in the order of faces")
    expected = seat_state(game, seat, state["seats"])
    assert state == expected, f"{where}: the state is not the engine's view of seat {seat}"
    assert state == seat_state(swapped, seat, state["seats"]), (
        f"{where}: the state changes with which pack's copy of a card is where")


def check_game(record: dict[str, Any], heard: Heard) -> tuple[int, int]:
    """Hold every frame heard against the replayed truth: (frames, changes) checked."""
    at_seq: dict[int, list[tuple[str, int | None, dict[str, Any]]]] = defaultdict(list)
    for number, (seat, received) in enumerate(heard):
        seq = -1
        for index, frame in enumerate(with_states(received)):
            if frame.get("type") in ("welcome", "update"):
                assert frame["seq"] >= seq, f"connection {number}: seq went back"
                if frame["type"] == "update" and seq >= 0:
                    assert frame["seq"] == seq + 1, f"connection {number}: a change missed"
                seq = frame["seq"]
            elif frame.get("type") == "seats":
                assert frame["seq"] == seq, f"connection {number}: seats at another seq"
            elif frame.get("type") == "ack":
                assert frame["seq"] <= seq, f"connection {number}: ack before its update"
            assert seq >= 0, f"connection {number}: {frame} before the welcome"
            at_seq[seq].append((f"connection {number} frame {index} (seq {seq})", seat, frame))
    checked = changes = 0
    for (seq, game, event), (seq2, swapped, _) in zip(
            replay_changes(record), replay_changes(record, swap_copies=True), strict=True):
        assert seq == seq2
        changes += 1
        for where, seat, frame in at_seq.pop(seq, []):
            check_frame(where, seat, frame, game, swapped, event)
            checked += 1
    assert not at_seq, f"frames at changes the record does not have: {sorted(at_seq)}"
    return checked, changes


@pytest.mark.asyncio
@pytest.mark.parametrize("setup", SETUPS, ids=[setup.name for setup in SETUPS])
async def test_no_frame_shows_a_card_its_seat_cannot_know(leak_server: ServerProcess,
                                                          setup: Setup) -> None:
    table, heard = await play_game(leak_server, setup, SEED + SETUPS.index(setup))
    record = await leak_server.api.record(table)
    game = replay(record)
    assert game.finished
    summary = await leak_server.api.summary(table)
    assert summary["status"] == "over" and list(game.totals) == summary["totals"]
    checked, changes = check_game(record, heard)
    assert changes == summary["seq"] + 1
    # Every connection saw the game to its end; the spectator saw every change.
    people = sum(1 for kind in setup.seats if kind == "person")
    assert len(heard) == 1 + 2 * people
    last: dict[int | None, list[dict[str, Any]]] = {}
    for seat, frames in heard:
        last[seat] = [f for f in with_states(frames) if f["type"] in ("welcome", "update")]
    assert len(last) == 1 + people
    watched = [f["seq"] for f in last[None]]
    assert watched == list(range(watched[0], changes))
    for seat, states in last.items():
        assert states[-1]["seq"] == summary["seq"] and states[-1]["state"]["over"], seat
    assert checked > changes


def test_the_check_finds_a_leak() -> None:
    """The check above fails on frames that show a hidden card, tell the copies of a
    two-pack card apart, or carry a field of their own (frames made here from the
    engine, the way the server makes them, then spoiled)."""
    from rummy500.bots import make_bot
    from rummy500.record import game_record
    from rummy500.rules import rules_from_record

    rules = rules_from_record({"preset": "wild", "max_deals": 1, "decks": 2})
    game = Game(rules, 5, seed=2)
    bots = [make_bot("simple", seat, 1.0) for seat in range(5)]
    while not game.finished:
        game.play(bots[game.turn].choose(game.view(game.turn)))
    record = game_record(game)
    frames = [{"type": "update", "seq": seq, "event": event,
               "state": seat_state(g, 0, [])} for seq, g, event in replay_changes(record)]
    frames[0] = {"type": "welcome", "seat": 0, "seq": 0, "state": frames[0]["state"]}
    assert check_game(record, [(0, frames)]) == (len(frames), len(frames))

    def spoiled(seq: int, change: Any) -> list[dict[str, Any]]:
        copy: list[dict[str, Any]] = json.loads(json.dumps(frames))
        change(copy[seq])
        return copy

    truth = {seq: g.copy() for seq, g, _ in replay_changes(record)}
    middle = len(frames) // 2
    hidden = hand_faces(truth[middle], 1)
    unseen = sorted(set(hidden) - knowable(truth[middle], 0))
    assert unseen
    # Another seat's card, named in a move the seat is offered.
    leak = spoiled(middle, lambda f: f["state"].__setitem__("legal", [f"discard {unseen[0]}"]))
    with pytest.raises(AssertionError, match="cannot know"):
        check_game(record, [(0, leak)])
    # The hand in the order of the physical cards: first pack's copies, then the second's.
    def physical_order(seq: int) -> list[str]:
        return [face_text(card) for card in sorted(iter_bits(truth[seq].deal.hands[0]))]

    twice = next(seq for seq in truth if seq and physical_order(seq) != sorted(
        physical_order(seq), key=face_order))
    ordered = physical_order(twice)
    leak = spoiled(twice, lambda f: f["state"].__setitem__("hand", ordered))
    with pytest.raises(AssertionError, match="hand"):
        check_game(record, [(0, leak)])
    # A field of its own (here the physical cards of the hand).
    leak = spoiled(twice, lambda f: f.__setitem__(
        "cards", sorted(iter_bits(truth[twice].deal.hands[0]))))
    with pytest.raises(AssertionError, match="fields"):
        check_game(record, [(0, leak)])
