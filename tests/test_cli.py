"""The command line: rules, simulate, replay and watch, through ``rummy500.cli.main``."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rummy500.cli import main
from rummy500.game import Game
from rummy500.record import game_record, replay, replay_summary
from rummy500.rules import OPTION_DOCS, PRESET_DOCS, PRESETS, make_rules
from rummy500.runners.simulation import ENDINGS, make_bots, play_turns

Capture = pytest.CaptureFixture[str]


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def whole_game(seed: int, preset: str = "classic", players: int = 2) -> Game:
    game = Game(make_rules(preset), players, seed=seed)
    bots = make_bots(["random"] * players, seed)
    while not game.finished:
        play_turns(game, bots)
    return game


def write(path: Path, data: Any) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


# -- rules -------------------------------------------------------------------------------------


def test_rules_lists_every_preset_and_option(capsys: Capture) -> None:
    code, out, err = run(capsys, "rules")
    assert code == 0 and err == ""
    for name in PRESETS:
        assert f"\n  {name}\n" in out
    for name, (_meaning, _books, values) in OPTION_DOCS.items():
        assert f"\n  {name}  (classic: " in out
        assert values in out
    assert "differs from classic: jokers=wild, hand_size_two=10" in out


def test_rules_json(capsys: Capture) -> None:
    code, out, _ = run(capsys, "rules", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data["presets"]) == set(PRESETS)
    assert set(data["options"]) == set(OPTION_DOCS)
    for name, meaning in PRESET_DOCS.items():
        assert data["presets"][name]["meaning"] == meaning
    assert data["presets"]["classic"]["differs_from_classic"] == {}
    assert data["presets"]["persian"]["differs_from_classic"]["jokers"] == "persian"
    assert data["options"]["min_run"]["books"] == OPTION_DOCS["min_run"][1]
    assert data["options"]["target_score"]["classic"] == 500


def test_rules_of_one_preset(capsys: Capture) -> None:
    code, out, _ = run(capsys, "rules", "persian")
    assert code == 0
    assert out.startswith("Preset persian:")
    for name in OPTION_DOCS:
        assert f"\n  {name} " in out
    assert "jokers                   = persian  (classic: none)" in out
    code, out, _ = run(capsys, "rules", "persian", "--json", "--option", "max_deals=3")
    data = json.loads(out)
    assert data["settings"]["max_deals"] == 3
    assert data["settings"]["final_bonus"] == 50
    assert data["differs_from_preset"] == {"max_deals": 3}
    assert set(data["settings"]) == set(OPTION_DOCS)


@pytest.mark.parametrize("argv", [["rules", "nope"], ["rules", "--json", "nope"],
                                  ["rules", "classic", "-o", "min_run=2"]])
def test_rules_refuses_unknown_presets(capsys: Capture, argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert "rummy500 rules:" in err


# -- simulate ----------------------------------------------------------------------------------


def simulate_json(capsys: Capture, *extra: str) -> dict[str, Any]:
    code, out, err = run(capsys, "simulate", "--json", *extra)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_simulate_json_summary(capsys: Capture) -> None:
    data = simulate_json(capsys, "--deals", "6", "--players", "3", "--preset", "wild",
                         "--seed", "5", "--bot", "random")
    assert data["deals"] == 6 and data["players"] == 3 and data["seed"] == 5
    assert data["rules"] == {"preset": "wild"}
    assert data["bots"] == ["random"] * 3
    assert set(data["ended_by"]) == set(ENDINGS)
    assert sum(data["ended_by"].values()) == 6
    assert sum(data["wins_per_side"]) + data["ties"] == 6
    assert len(data["points"]["per_side"]) == 3
    for spread in (*data["points"]["per_side"], data["points"]["overall"], data["moves"],
                   data["turns"]):
        assert spread["min"] <= spread["mean"] <= spread["max"]
        assert spread["min"] <= spread["p95"] <= spread["max"]
    assert data["turns"]["max"] <= data["moves"]["max"]
    assert data["timing"]["deals_per_second"] > 0


def test_simulate_same_seed_same_json(capsys: Capture) -> None:
    argv = ("--deals", "4", "--seed", "77", "--option", "min_run=4")
    first = simulate_json(capsys, *argv)
    second = simulate_json(capsys, *argv)
    assert first["rules"] == {"preset": "classic", "min_run": 4}
    first.pop("timing")
    second.pop("timing")
    assert first == second


def test_simulate_records_replay_to_the_summary(capsys: Capture, tmp_path: Path) -> None:
    folder = tmp_path / "records"
    data = simulate_json(capsys, "--deals", "5", "--preset", "partnership", "--seed", "3",
                         "--records", str(folder))
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == [f"deal-{i:05d}.json" for i in range(1, 6)]
    per_side: list[list[int]] = [[], []]
    ended: dict[str, int] = dict.fromkeys(ENDINGS, 0)
    for path in files:
        game = replay(json.loads(path.read_text(encoding="utf-8")))
        assert len(game.results) == 1
        result = game.results[0]
        ended[result.ended_by] += 1
        for side, score in enumerate(result.scores):
            per_side[side].append(score)
    assert ended == data["ended_by"]
    for side, spread in enumerate(data["points"]["per_side"]):
        assert spread["min"] == min(per_side[side])
        assert spread["max"] == max(per_side[side])
        assert spread["mean"] == pytest.approx(sum(per_side[side]) / 5, abs=1e-3)


def test_simulate_with_worlds_replays_mcts_exactly(capsys: Capture, tmp_path: Path) -> None:
    """``--worlds`` bounds mcts's search by sampled deals instead of time, so a seed gives
    one run: the same records and summary every time, and other records for other bounds."""

    def records(worlds: int, folder: str) -> tuple[dict[str, Any], list[str]]:
        data = simulate_json(capsys, "--deals", "1", "--bot", "mcts,random", "--seed", "3",
                             "--worlds", str(worlds), "--records", str(tmp_path / folder))
        data.pop("timing")
        texts = [p.read_text(encoding="utf-8") for p in sorted((tmp_path / folder).iterdir())]
        return data, texts

    first, again, other = records(1, "first"), records(1, "again"), records(4, "other")
    assert first[0]["worlds"] == 1 and other[0]["worlds"] == 4
    assert first == again
    assert first[1] != other[1]


def test_simulate_text_summary(capsys: Capture) -> None:
    code, out, _ = run(capsys, "simulate", "--deals", "3", "--seed", "1")
    assert code == 0
    for heading in ("Points per deal", "How deals ended", "Deal length", "deals a second",
                    "went out", "declined", "p95", "seed 1"):
        assert heading in out


@pytest.mark.parametrize(("preset", "names"), [
    ("classic", {"Seat 1", "Seat 2"}),
    ("persian", {"Seats 1 and 3", "Seats 2 and 4", "Seat 1", "Seat 2", "Seat 3", "Seat 4"}),
])
def test_simulate_names_seats_from_one_as_the_replay_does(
    capsys: Capture, preset: str, names: set[str]
) -> None:
    code, out, _ = run(capsys, "simulate", "--deals", "2", "--seed", "1", "--preset", preset)
    assert code == 0
    assert set(re.findall(r"\bSeats? \d+(?: and \d+)?", out)) == names


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--preset", "nope"], "unknown preset"),
        (["--option", "colour=red"], "unknown option"),
        (["--option", "min_run=many"], "min_run"),
        (["--option", "point_divisor=5"], "point_divisor"),
        (["--option", "min_run"], "NAME=VALUE"),
        (["--players", "9"], "not 9"),
        (["--preset", "persian", "--players", "2"], "four players"),
        (["--bot", "nobody"], "unknown bot"),
        (["--deals", "0"], "--deals"),
        (["--worlds", "0"], "--worlds"),
        (["--worlds", "1000001"], "at most"),
    ],
)
def test_simulate_refuses_impossible_settings(
    capsys: Capture, argv: list[str], words: str
) -> None:
    code, out, err = run(capsys, "simulate", "--json", "--deals", "1", *argv)
    assert code == 2 and out == ""
    assert err.startswith("rummy500 simulate: ")
    assert words in err


# -- replay ------------------------------------------------------------------------------------


def test_replay_json_of_a_legal_record(capsys: Capture, tmp_path: Path) -> None:
    game = whole_game(4)
    path = write(tmp_path / "game.json", game_record(game))
    code, out, _ = run(capsys, "replay", str(path), "--json")
    data = json.loads(out)
    assert code == 0
    assert data == replay_summary(game)
    assert data["ok"] is True and data["finished"] is True
    assert data["totals"] == game.totals
    assert [r["scores"] for r in data["rounds"]] == [list(r.scores) for r in game.results]


def test_replay_tells_the_game(capsys: Capture, tmp_path: Path) -> None:
    game = whole_game(6, "partnership", 4)
    path = write(tmp_path / "game.json", game_record(game))
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0
    lines = out.splitlines()
    said = [line for line in lines if line.startswith("Seat ")]
    assert len(said) == sum(len(deal.moves) for deal in game.deals)
    for number in range(1, len(game.deals) + 1):
        assert any(line.startswith(f"Deal {number}: Seat ") for line in lines)
        assert any(line.startswith(f"Deal {number} is over: ") for line in lines)
    assert any(" holds " in line for line in lines)
    assert lines[-1].startswith(("Seats 1 and 3 win", "Seats 2 and 4 win", "The game ends"))
    assert any(line.startswith("  Seats 1 and 3") for line in lines)
    code, quiet, _ = run(capsys, "replay", str(path), "--no-hands")
    assert code == 0 and " holds " not in quiet


def illegal_record(tmp_path: Path) -> tuple[Path, int, int]:
    """A legal game with a discard written in where a turn must begin with a draw."""
    record = game_record(whole_game(9))
    r = len(record["rounds"]) - 1
    moves = record["rounds"][r]["moves"]
    i = next(i for i, text in enumerate(moves) if i > 10 and text.split()[0] in ("draw", "take"))
    moves[i] = "discard Ks"
    return write(tmp_path / "bad.json", record), r, i


def test_replay_finds_an_illegal_move(capsys: Capture, tmp_path: Path) -> None:
    path, r, i = illegal_record(tmp_path)
    code, out, _ = run(capsys, "replay", str(path), "--json")
    data = json.loads(out)
    assert code == 1
    assert data["ok"] is False
    assert (data["round"], data["move"]) == (r, i)
    assert isinstance(data["error"], str) and len(data["error"].split()) >= 3
    code, text, _ = run(capsys, "replay", str(path))
    assert code == 1
    assert f"Illegal move: deal {r + 1}, move {i + 1} ('discard Ks'): " in text
    assert f"Deal {r + 1}: Seat " in text
    assert "was to move, holding" in text


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_replay_refuses_unreadable_records(
    capsys: Capture, tmp_path: Path, json_flag: list[str]
) -> None:
    good = game_record(whole_game(2))
    broken = {
        "missing.json": None,
        "text.json": "this is not JSON",
        "list.json": [1, 2, 3],
        "no-rounds.json": {**good, "rounds": []},
        "bad-deck.json": {**good, "rounds": [{**good["rounds"][0], "deck": ["Zz"]}]},
        "bad-rules.json": {**good, "rules": {"preset": "nope"}},
        "bad-option.json": {**good, "rules": {"preset": "classic", "min_run": "x"}},
        "players.json": {**good, "players": 11},
    }
    for name, content in broken.items():
        path = tmp_path / name
        if isinstance(content, str):
            path.write_text(content, encoding="utf-8")
        elif content is not None:
            write(path, content)
        code, out, err = run(capsys, "replay", str(path), *json_flag)
        assert code == 2, name
        assert out == ""
        assert err.startswith(f"rummy500 replay: {path}: "), err


# -- watch -------------------------------------------------------------------------------------


def test_watch_plays_a_seeded_game_to_the_end(capsys: Capture) -> None:
    code, out, err = run(capsys, "watch", "--seed", "12", "--delay", "0")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("2 players, rules classic, seed 12")
    assert any(line.startswith("Deal 1: Seat ") for line in lines)
    assert "[cards in hand " in out
    assert lines[-1].startswith(("Seat 1 wins the game", "Seat 2 wins the game"))
    assert "Seat 0" not in out
    again = run(capsys, "watch", "--seed", "12", "--delay", "0")
    assert again[1] == out


def test_watch_stops_after_the_deals_asked(capsys: Capture) -> None:
    code, out, _ = run(capsys, "watch", "--preset", "persian", "--seed", "3", "--deals", "1",
                       "--delay", "0", "--reasons", "--no-hands")
    assert code == 0
    assert "Deal 1 is over" in out and "Deal 2" not in out
    assert "Sides: Seats 1 and 3 against Seats 2 and 4." in out
    assert "The game is not over after 1 deal" in out
    assert "(picked at random" in out


@pytest.mark.parametrize("argv", [["--players", "9"], ["--preset", "nope"],
                                  ["--option", "jokers=many"], ["--bot", "x"],
                                  ["--delay", "-1"]])
def test_watch_refuses_impossible_settings(capsys: Capture, argv: list[str]) -> None:
    code, out, err = run(capsys, "watch", *argv)
    assert code == 2 and out == ""
    assert err.startswith("rummy500 watch: ")


# -- the installed entry point -----------------------------------------------------------------


def test_python_dash_m(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rummy500", "simulate", "--deals", "2", "--seed", "1", "--json",
         "--records", str(tmp_path)],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["deals"] == 2
    for path in sorted(tmp_path.iterdir()):
        replayed = subprocess.run(
            [sys.executable, "-m", "rummy500", "replay", str(path), "--json"],
            capture_output=True, text=True, timeout=60, check=False,
        )
        assert replayed.returncode == 0, replayed.stderr
        assert json.loads(replayed.stdout)["ok"] is True
