"""One seat's state (rummy500.session.seat_state): what the local table draws and the server
sends is written to the protocol's JSON and read back unchanged, for every preset through
whole games; a broken or hostile state is refused with a clear StateFormatError, by the
model and by the online seat that checks it against its table (rummy500.tui.remote_seat)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from rummy500 import make_rules
from rummy500.bots import make_bot
from rummy500.game import Game
from rummy500.rules import PRESETS
from rummy500.session.seat_state import SeatInfo, SeatState, StateFormatError, version2
from rummy500.session.state import build_state
from rummy500.session.table_words import TableWords
from rummy500.tui.remote_seat import read_state


def through_json(state: SeatState) -> SeatState:
    return SeatState.from_json(json.loads(json.dumps(state.to_json())))


def states_of(game: Game, words: TableWords, seats: list[SeatInfo]) -> list[SeatState]:
    return [build_state(game, reader, seats, words)
            for reader in [*range(game.players), None]]


def whole_game(preset: str, seed: int) -> tuple[Game, TableWords, list[SeatInfo], int]:
    """A whole game of ``preset`` between simple computer players, told as it is played;
    how many states were read back on the way (at every deal's end and at some moves)."""
    players = 4 if make_rules(preset).partnership else 3 if preset == "wild" else 2
    game = Game(make_rules(preset, max_deals=2), players, rng=random.Random(seed))
    names = ["Ann", "Bob", "Cat", "Dan"][:players]
    seats = [SeatInfo(seat, "bot", name, bot="simple") for seat, name in enumerate(names)]
    words = TableWords(game, names)
    words.deal_started()
    bots = [make_bot("simple", seed=seed + seat) for seat in range(players)]
    checked = 0
    moves = 0
    while not game.finished:
        deals = len(game.results)
        seat = game.turn
        words.play(seat, bots[seat].decide(game.view(seat)).move, check=False)
        moves += 1
        if len(game.results) > deals or moves % 37 == 0:
            for state in states_of(game, words, seats):
                assert through_json(state) == state
                checked += 1
    return game, words, seats, checked


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_state_of_a_whole_game_reads_back_unchanged(preset: str) -> None:
    game, words, seats, checked = whole_game(preset, seed=3)
    assert checked > game.players * 2
    for state in states_of(game, words, seats):
        again = through_json(state)
        assert again == state
        assert again.over and len(again.deals) == len(game.results)
        assert [sum(line.points for line in sheet.side_lines(side))
                for sheet in again.deals for side in range(len(sheet.scores))] == [
            score for sheet in again.deals for score in sheet.scores]
        assert list(again.deals[-1].totals_after) == game.totals
        assert (state.hand is None) == (state.seat is None)


def test_the_table_keys_are_read_and_unknown_keys_left_aside() -> None:
    game, words, seats, _ = whole_game("classic", seed=5)
    data = build_state(game, 0, seats, words).to_json()
    data["next"] = "t2"
    data["waiting_for"] = [1]
    data["chat"] = [{"seat": 1, "text": "gg"}]
    data["a_newer_key"] = {"x": 1}
    state = SeatState.from_json(data)
    assert state.next == "t2" and state.waiting_for == (1,)
    assert state.to_json() == {key: value for key, value in data.items()
                               if key not in ("chat", "a_newer_key")}


def test_a_version_2_state_reads_back_as_the_same_state() -> None:
    game, words, seats, _ = whole_game("classic", seed=5)
    for reader in (None, 0, 1):
        state = build_state(game, reader, seats, words)
        assert SeatState.from_json(version2(state.to_json())) == state


def a_state() -> dict[str, Any]:
    """A seat's state in the middle of a deal, melds and a draw of its own in it."""
    game = Game(make_rules("classic"), 2, rng=random.Random(8))
    words = TableWords(game, ["Ann", "Bob"])
    words.deal_started()
    bots = [make_bot("simple", seed=1), make_bot("simple", seed=2)]
    while not game.deal.melds or len(game.deal.moves) < 12:
        words.play(game.turn, bots[game.turn].decide(game.view(game.turn)).move, check=False)
    seats = [SeatInfo(0, "person", "Ann"), SeatInfo(1, "bot", "Bob", bot="simple")]
    return build_state(game, 0, seats, words).to_json()


BROKEN: list[tuple[str, Any, str]] = [
    ("not an object", ["a list"], "the state should be an object"),
    ("players as text", {"players": "2"}, "'players' should be a number"),
    ("players as true", {"players": True}, "'players' should be a number"),
    ("no phase", {"phase": None}, "'phase' should be a text"),
    ("a hand of numbers", {"hand": [1, 2]}, "'hand' should be a list of texts"),
    ("a pile that is no list", {"pile": "7h"}, "'pile' should be a list"),
    ("a meld without cards", {"melds": [{"id": "m1", "by": [0]}]}, "a meld: 'cards'"),
    ("history as plain moves", {"history": ["draw"]}, "'history' should be a list of objects"),
    ("a history entry without words", {"history": [{"seat": 0, "move": "draw"}]},
     "a history entry: 'text'"),
    ("a sheet without hands", {"deals": [{"deal": 1}]}, "a deal sheet: 'hands'"),
    ("a seat without a name", {"seats": [{"seat": 0, "kind": "person"}]}, "a seat: 'name'"),
    ("legal moves as one text", {"legal": "draw"}, "'legal' should be a list"),
]


@pytest.mark.parametrize(("change", "wanted"), [(c, w) for _, c, w in BROKEN],
                         ids=[name for name, _, _ in BROKEN])
def test_a_broken_state_is_refused_saying_what_is_wrong(change: Any, wanted: str) -> None:
    data = change if not isinstance(change, dict) else {**a_state(), **change}
    with pytest.raises(StateFormatError, match=wanted):
        SeatState.from_json(data)


HOSTILE: list[tuple[str, Any, str]] = [
    ("a card that is no card", lambda s: s["hand"].append("Zz"), "hand: 'Zz' is not a card"),
    ("a pile card that is no card", lambda s: s["pile"].append("<b>"), "pile"),
    ("a turn beyond the table", lambda s: s.update(turn=7), "turn: there is no seat 7"),
    ("a seat of another table", lambda s: s.update(seat=-1), "seat: there is no seat -1"),
    ("too few hand sizes", lambda s: s["hand_sizes"].pop(), "hand_sizes: 1 entries for 2"),
    ("totals of three sides", lambda s: s["totals"].append(0), "totals: 3 entries for 2"),
    ("a meld laid by nobody", lambda s: s["melds"][0]["by"].pop(), "meld m1: "),
    ("a meld by a seat that is not there",
     lambda s: s["melds"][0].update(by=[9] * len(s["melds"][0]["cards"])), "no seat 9"),
    ("a meld that is no meld's id", lambda s: s["melds"][0].update(id="x"), "a meld's id"),
    ("seats out of order", lambda s: s["seats"].reverse(), "seats: entry 0 is of seat 1"),
    ("another number of players", lambda s: s.update(players=3), "the state is of 3 players"),
]


@pytest.mark.parametrize(("spoil", "wanted"), [(c, w) for _, c, w in HOSTILE],
                         ids=[name for name, _, _ in HOSTILE])
def test_the_online_seat_refuses_a_state_that_does_not_fit_its_table(spoil: Any,
                                                                     wanted: str) -> None:
    data = a_state()
    rules = make_rules("classic")
    assert read_state(data, rules, 2) == SeatState.from_json(data)
    spoiled = copy.deepcopy(data)
    spoil(spoiled)
    with pytest.raises(StateFormatError, match=wanted):
        read_state(spoiled, rules, 2)
