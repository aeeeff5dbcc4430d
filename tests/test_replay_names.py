"""``rummy500 replay`` names the seats as set-up does (issue 34.8): the record's names where
it has them (a saved game's table, the replay page's ``{"record", "names"}``, ``--names``),
else counted from 1 (``Seat 1``), never ``Seat 0``."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rummy500.cli import main
from rummy500.game import Game
from rummy500.narrate import narrate_game, seat_names
from rummy500.record import game_record
from rummy500.rules import make_rules
from rummy500.runners.simulation import make_bots, play_turns

Capture = pytest.CaptureFixture[str]


def whole_game(seed: int, preset: str = "classic", players: int = 2) -> Game:
    game = Game(make_rules(preset, target_score=200), players, seed=seed)
    bots = make_bots(["random"] * players, seed)
    while not game.finished:
        play_turns(game, bots)
    return game


def replay_text(capsys: Capture, tmp_path: Path, data: Any, *argv: str) -> tuple[int, str, str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = main(["replay", str(path), *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_seats_are_counted_from_one(capsys: Capture, tmp_path: Path) -> None:
    game = whole_game(4, "partnership", 4)
    code, out, _ = replay_text(capsys, tmp_path, game_record(game))
    assert code == 0
    assert not re.search(r"\bSeats? 0\b|\band 0\b", out), out[:600]
    assert "Seat 4" in out
    assert re.search(r"^  Seats 1 and 3 ", out, re.MULTILINE)
    assert out.splitlines()[-1].startswith(
        ("Seats 1 and 3 win", "Seats 2 and 4 win", "The game ends"))


def test_a_saved_games_names(capsys: Capture, tmp_path: Path) -> None:
    """A saved terminal game keeps its table: the names its players saw, ``You`` agreeing."""
    game = whole_game(5)
    data = {**game_record(game), "table": {"preset": "classic", "seats": ["person", "expert"],
                                           "names": [], "seed": 5, "budget": 1.0}}
    code, out, _ = replay_text(capsys, tmp_path, data)
    assert code == 0
    assert "Seat " not in out
    lines = out.splitlines()
    assert any(line.startswith("  You hold ") for line in lines)
    assert any(line.startswith("  Expert holds ") for line in lines)
    assert any(line.startswith(("You draw ", "You take ")) for line in lines)
    assert any(line.startswith(("Expert draws ", "Expert takes ")) for line in lines)
    assert re.search(r"^  You +-?\d+ +-?\d+ +-?\d+ +-?\d+$", out, re.MULTILINE)
    assert lines[-1].startswith(("You win the game", "Expert wins the game", "The game ends"))


def test_the_replay_pages_form_and_names_given(capsys: Capture, tmp_path: Path) -> None:
    game = whole_game(6, "persian", 4)
    names = ["Ann", "Bob", "Cy", "Dee"]
    code, out, _ = replay_text(capsys, tmp_path, {"record": game_record(game), "names": names})
    assert code == 0 and "Seat" not in out
    assert "Ann and Cy" in out and "Bob and Dee" in out
    code, again, _ = replay_text(capsys, tmp_path, game_record(game), "--names",
                                 "Ann, Bob,Cy,Dee")
    assert code == 0 and again == out
    assert out == "\n".join(narrate_game(game, names=names)) + "\n"


@pytest.mark.parametrize("names", ["Ann", "Ann,Ann", "Ann,"])
def test_names_that_do_not_fit_are_refused_in_words(
    capsys: Capture, tmp_path: Path, names: str
) -> None:
    code, out, err = replay_text(capsys, tmp_path, game_record(whole_game(7)), "--names", names)
    assert code == 2 and out == ""
    assert err.startswith("rummy500 replay: --names: ") and "Traceback" not in err


def test_an_illegal_move_names_who_was_to_move(capsys: Capture, tmp_path: Path) -> None:
    record = game_record(whole_game(9))
    moves = record["rounds"][0]["moves"]
    i = next(i for i, text in enumerate(moves) if i > 4 and text.split()[0] in ("draw", "take"))
    moves[i] = "discard Ks"
    code, out, _ = replay_text(capsys, tmp_path, record)
    assert code == 1
    assert re.search(r"^Seat [12] was to move, holding ", out, re.MULTILINE)
    code, out, _ = replay_text(capsys, tmp_path, record, "--names", "Ann,You")
    assert code == 1
    assert re.search(r"^(Ann was|You were) to move, holding ", out, re.MULTILINE)


def test_seat_names_count_from_one() -> None:
    assert seat_names(3) == ["Seat 1", "Seat 2", "Seat 3"]
    assert seat_names(2, ["Ann", "Bob"]) == ["Ann", "Bob"]
