"""Hostile input: deep JSON, huge numbers and meld ids, oversized records and moves, NaN
thinking times, absurd worker counts. Each is a clean refusal saying what is wrong: exit 2
and one line on stderr at the command line, never a traceback."""

from __future__ import annotations

import json
import math
import os
import tracemalloc
from pathlib import Path
from typing import Any

import pytest

from rummy500 import safejson
from rummy500.bots import MAX_BUDGET, check_budget, make_bot
from rummy500.cli import main
from rummy500.errors import BadInputError, InvalidMoveError, TooLargeError
from rummy500.game import Game
from rummy500.moves import MAX_MOVE_LENGTH, parse_move
from rummy500.record import RecordFormatError, game_record, load, read, replay
from rummy500.rules import make_rules
from rummy500.runners.simulation import make_bots, play_turns
from rummy500.session.saves import SaveStore
from rummy500.session.session import TableSession
from rummy500.session.settings import SettingsError, TableSettings, default_settings

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: Capture, *argv: str) -> str:
    """The one line a command refusing its input prints (exit 2, no traceback)."""
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("rummy500 "), err
    assert "Traceback" not in err
    return err


def a_record(seed: int = 5) -> dict[str, Any]:
    game = Game(make_rules("classic"), 2, seed=seed)
    bots = make_bots(["random", "random"], seed)
    play_turns(game, bots)
    return game_record(game)


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


# -- JSON: nesting, numbers, byte-order mark ----------------------------------------------------


def test_a_deeply_nested_record_is_refused(tmp_path: Path, capsys: Capture) -> None:
    path = write(tmp_path / "deep.json", "[" * 100_000 + "]" * 100_000)
    err = refused(capsys, "replay", str(path))
    assert "nested 100000 deep" in err
    with pytest.raises(RecordFormatError, match="nested"):
        load('{"rules": ' + "{\"a\": " * 40 + "1" + "}" * 40 + "}")


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert safejson.loads('{"moves": ["[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\\"{{"]}') == {
        "moves": ['[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["' + "{{"]}
    assert safejson.nesting('[{"a": [1, "]]]"]}]') == 3


def test_an_integer_beyond_pythons_digit_limit_is_refused(tmp_path: Path, capsys: Capture) -> None:
    data = json.dumps(a_record())
    path = write(tmp_path / "huge.json", data.replace('"players": 2', '"players": ' + "9" * 5000))
    err = refused(capsys, "replay", "--json", str(path))
    assert "a number written with 5,000 characters" in err


def test_nan_and_infinity_are_not_numbers() -> None:
    for text in ('{"players": NaN}', '{"players": Infinity}', '{"players": 1e400}'):
        with pytest.raises(BadInputError, match="the record holds"):
            safejson.loads(text, what="the record")


def test_an_option_value_with_a_huge_number_is_refused(capsys: Capture) -> None:
    err = refused(capsys, "simulate", "--deals", "1", "-o", "ace_points=1e309")
    assert "ace_points" in err and "too large" in err
    err = refused(capsys, "simulate", "--deals", "1", "-o", "target_score=" + "9" * 5000)
    assert "target_score" in err



@pytest.mark.parametrize(
    ("option", "bounds"),
    [("ace_points=99999999999999999999999999", "at most 1,000"),
     ("joker_points=5000", "at most 1,000"), ("final_bonus=100000", "at most 1,000"),
     ("target_score=10000000", "at most 100,000"), ("max_deals=999999999", "at most 50"),
     ("hand_size=100000", "at most 52")],
)
def test_an_integer_option_beyond_its_bounds_is_refused_with_them(
    capsys: Capture, option: str, bounds: str
) -> None:
    """Issue 9, item 6: ``-o ace_points=<huge>`` is a clean refusal that gives the bounds."""
    err = refused(capsys, "simulate", "--deals", "1", "-o", option)
    assert option.split("=")[0] in err or "hands" in err
    assert bounds.replace("at most", "") in err and "Traceback" not in err

def test_a_record_with_a_byte_order_mark_replays(tmp_path: Path, capsys: Capture) -> None:
    path = tmp_path / "bom.json"
    path.write_text(json.dumps(a_record()), encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    code, out, err = run(capsys, "replay", "--json", str(path))
    assert (code, err) == (0, "")
    assert json.loads(out)["ok"] is True
    assert load("\ufeff" + json.dumps(a_record()))["players"] == 2


# -- meld ids and move text ---------------------------------------------------------------------


def test_a_meld_id_of_thousands_of_digits_is_not_a_move() -> None:
    with pytest.raises(InvalidMoveError):
        parse_move("layoff 7h m" + "1" * 5000)
    with pytest.raises(InvalidMoveError, match="is not a meld"):
        parse_move("layoff 7h m" + "9" * 150)
    assert parse_move("layoff 7h m12").meld == 12


def test_game_why_illegal_gives_the_reason_for_text_that_is_no_move() -> None:
    game = Game(make_rules("classic"), 2, seed=1)
    assert game.why_illegal("frobnicate") == (
        "'frobnicate' is not a move: the moves are draw, take, meld, layoff, discard, end, "
        "rummy and pass")
    assert "at most 200 characters" in str(game.why_illegal("layoff 7h m" + "1" * 5000))
    assert not game.is_legal("meld 7x 8y 9z")
    assert game.is_legal("draw")


def test_the_terminal_game_refuses_a_typed_huge_meld_id() -> None:
    session = TableSession.new(default_settings(bot="random", seed=0))
    seat = session.people[0]
    assert session.play(seat, "draw") is None
    before = len(session.game.deal.moves)
    reason = session.play(seat, "layoff 7h m" + "1" * 5000)
    assert reason is not None and "at most 200 characters" in reason
    assert len(session.game.deal.moves) == before


def test_an_oversized_move_is_refused_before_it_is_read() -> None:
    text = "meld " + "7h " * 300_000
    tracemalloc.start()
    try:
        with pytest.raises(InvalidMoveError, match=f"at most {MAX_MOVE_LENGTH} characters"):
            parse_move(text)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100_000  # a split of the text would take megabytes
    parse_move("meld " + " ".join(["7h"] * 60))  # long but real melds still parse


# -- sizes of files -----------------------------------------------------------------------------


def test_an_oversized_record_is_refused_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as file:
        file.truncate(60 * 1024 * 1024)  # a sparse 60 MB file
    tracemalloc.start()
    try:
        with pytest.raises(RecordFormatError, match="too large: 62,914,560 bytes"):
            read(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2 * safejson.MAX_BYTES


def test_a_padded_record_over_the_cap_is_refused(tmp_path: Path, capsys: Capture) -> None:
    text = json.dumps(a_record())
    path = write(tmp_path / "padded.json", text[:-1] + " " * safejson.MAX_BYTES + "}")
    err = refused(capsys, "replay", str(path))
    assert "too large" in err
    with pytest.raises(TooLargeError):
        safejson.loads(" " * (safejson.MAX_BYTES + 1))


def test_a_deck_far_larger_than_the_pack_is_refused_before_it_is_read() -> None:
    data = a_record()
    data["rounds"][0]["deck"] = data["rounds"][0]["deck"] * 2000
    with pytest.raises(RecordFormatError, match="must hold the 52 cards of the pack, and it "
                                                "holds 104,000"):
        replay(data)


# -- thinking time ------------------------------------------------------------------------------


@pytest.mark.parametrize("seconds", [math.nan, math.inf, -1.0, 0.0, MAX_BUDGET * 2, True])
def test_unusable_thinking_times_are_refused(seconds: float) -> None:
    with pytest.raises(BadInputError, match="number of seconds above 0"):
        check_budget(seconds)
    with pytest.raises(BadInputError):
        make_bot("mcts", 1, seconds)


def test_usable_thinking_times_pass() -> None:
    assert check_budget(1) == 1.0
    assert check_budget(0.05) == 0.05
    assert check_budget(MAX_BUDGET) == MAX_BUDGET


@pytest.mark.parametrize("command", [
    ["simulate", "--deals", "1"],
    ["watch", "--deals", "1"],
    ["tournament", "--bots", "random", "--deals", "1", "--workers", "1"],
])
@pytest.mark.parametrize("budget", ["nan", "inf", "-1"])
def test_the_commands_refuse_unusable_budgets(
    capsys: Capture, command: list[str], budget: str,
) -> None:
    err = refused(capsys, *command, "--bot" if command[0] != "tournament" else "--seed",
                  "random" if command[0] != "tournament" else "1", "--budget", budget)
    assert "number of seconds above 0" in err


def test_play_refuses_a_nan_budget(tmp_path: Path, capsys: Capture) -> None:
    err = refused(capsys, "play", "--budget", "nan", "--save-dir", str(tmp_path))
    assert "thinking time must be a number of seconds" in err
    assert not (tmp_path / "game.json").exists()


def test_watch_refuses_a_nan_delay(capsys: Capture) -> None:
    assert "--delay must be" in refused(capsys, "watch", "--delay", "nan")


def test_a_save_with_a_nan_budget_is_not_resumed(tmp_path: Path) -> None:
    store = SaveStore(tmp_path)
    session = TableSession.new(default_settings(bot="mcts", seed=4), store)
    assert session.settings.budget == 1.0
    data = store.read()
    data["table"]["budget"] = "nan"
    store.write(data)
    with pytest.raises(SettingsError, match="thinking time"):
        TableSession.resume(store)
    with pytest.raises(SettingsError, match="thinking time"):
        TableSettings.from_data({**data["table"], "budget": 1e300}).check()


# -- worker processes ---------------------------------------------------------------------------


def test_tournament_never_starts_more_workers_than_cores(capsys: Capture) -> None:
    from rummy500.runners.tournament import usable_workers

    cores = os.cpu_count() or 1
    assert usable_workers(999) == cores
    assert usable_workers(1) == 1
    code, out, err = run(capsys, "tournament", "--bots", "random", "--deals", "1",
                         "--workers", "999", "--json")
    assert code == 0
    assert json.loads(out)["deals"] >= 1
    assert f"playing with {cores} worker process(es), not 999" in err
