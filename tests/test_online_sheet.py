"""The score sheet an online seat makes from its ``state`` (rummy500.tui.online_sheet)
says what the local game's sheet says of the same deal: the same rows, notes, ending
and standing, for every deal of whole games, partnership and target-less games included."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rummy500 import make_rules
from rummy500.bots import make_bot
from rummy500.bots.playout import play_out
from rummy500.game import Game
from rummy500.record import game_record, replay
from rummy500.rules import Rules
from rummy500.session.state import seat_state
from rummy500.session.words import deal_sheet
from rummy500.tui.online_sheet import online_sheet


def whole_game(rules: Rules, players: int, seed: int) -> Game:
    game = Game(rules, players, rng=random.Random(seed))
    bots = [make_bot("simple", seed=seed + seat) for seat in range(players)]
    while not game.finished:
        play_out(game, bots, check=False)
    return game


def upto(game: Game, index: int) -> Game:
    """``game`` as it stood when deal ``index`` (from 0) had just ended, replayed from its
    record."""
    record = game_record(game)
    return replay({**record, "rounds": record["rounds"][: index + 1]})


@pytest.mark.parametrize(("preset", "players", "options", "seed"), [
    ("classic", 2, {}, 4),
    ("partnership", 4, {}, 9),
    ("persian", 4, {}, 2),
    ("classic", 3, {"target_score": None, "max_deals": 3}, 5),
    ("classic", 2, {"add_hand_to_winner": True}, 6),
])
def test_the_online_sheet_says_what_the_local_sheet_says(
        preset: str, players: int, options: dict[str, Any], seed: int) -> None:
    game = whole_game(make_rules(preset, **options), players, seed)
    names = ["You", *(f"Seat {seat}" for seat in range(1, players))]
    checked = 0
    for index in range(len(game.results)):
        then = upto(game, index)
        local = deal_sheet(then, names, index)
        online = online_sheet(game.rules, names, seat_state(then, 0, []), index)
        assert online.number == local.number == index + 1
        assert online.rows == local.rows
        assert online.notes == local.notes
        assert online.outcome == local.outcome
        assert online.finished == local.finished
        if game.results[index].ended_by == "went out":
            assert online.ending == local.ending
        else:
            assert online.ending == "nobody went out"
        assert online.hands == ()
        checked += 1
    assert checked == len(game.results) >= 2
    assert online.finished and "the game" in online.outcome


def test_a_sheet_with_a_table_lists_it_and_a_broken_winner_is_ignored() -> None:
    rules = make_rules("classic")
    state = {"deals": [{"went_out": 7, "melded": [10, 0], "in_hand": [0, 5],
                        "scores": [10, -5]}], "over": True, "winner": 9, "totals": [10, -5]}
    sheet = online_sheet(rules, ["You", "Bob"], state, 0, ["m1 4♠ 5♠ 6♠ (You)", "pile: empty"])
    assert sheet.ending == "nobody went out"
    assert sheet.outcome == "The game is a draw."
    assert sheet.table == ("m1 4♠ 5♠ 6♠ (You)", "pile: empty")
    assert [row.total for row in sheet.rows] == [10, -5]
