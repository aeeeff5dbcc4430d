"""``rummy500 pad FILE``: each deal's sheet and the totals in words, ``--json`` for scripts,
exit 2 with one line that says what, where and why for a pad that cannot be right."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from padkit import deal, pad
from rummy500.cli import main

FOUR = ["Ann", "Bob", "Cy", "Di"]
PERSIAN_GAME = pad("persian", FOUR, [
    deal(0, ["Kd", "", "5c", "9s"], [(1, "7h 7d 7s")], went_out=1),
    deal(1, ["", "Qc", "", ""], [(2, "* * * *"), (2, "8h 8d 8s")], [(0, "8c", 2)],
         went_out=0)])


def write(tmp_path: Path, data: Any, name: str = "pad.json") -> Path:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["pad", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_words_give_each_deals_sheet_the_totals_and_the_winner(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, str(write(tmp_path, PERSIAN_GAME)))
    assert code == 0 and err == ""
    assert out.startswith("500 Rum (persian): Ann & Cy against Bob & Di.")
    assert "Deal 1 is over: Bob went out. Ann & Cy −15, Bob & Di +37." in out
    assert "Cy: melds of four counted double" in out
    assert "Totals after deal 1: Ann & Cy -15, Bob & Di 37." in out
    assert "Ann & Cy: winning the game" in out
    assert out.rstrip().endswith("The game is over. Ann & Cy win the game by 225 points.")


def test_json_gives_the_lines_scores_and_totals_per_side(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--json", str(write(tmp_path, PERSIAN_GAME)))
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"deals", "totals", "over", "winner"}
    assert [d["deal"] for d in result["deals"]] == [1, 2]
    second = result["deals"][1]
    assert set(second) == {"deal", "lines", "scores", "totals_after"}
    assert {"seat": 2, "side": 0, "what": "doubled", "points": 80,
            "text": "Cy: melds of four counted double"} in second["lines"]
    assert second["scores"] == [80 + 80 + 24 + 8 + 25 + 50, -10]
    assert result["totals"] == second["totals_after"] == [-15 + 267, 37 - 10]
    assert result["over"] is True and result["winner"] == 0


def test_a_game_that_goes_on_says_who_leads(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    data = pad("classic", ["Ann", "Bob"], [deal(0, ["Kd", ""], [(1, "7h 7d 7s")], went_out=1)])
    code, out, _ = run(capsys, str(write(tmp_path, data)))
    assert code == 0
    assert out.rstrip().endswith("The game goes on. Bob leads with 21 (to 500).")
    empty = pad("classic", ["Ann", "Bob"], [])
    code, out, _ = run(capsys, str(write(tmp_path, empty)))
    assert code == 0 and "No deal has been scored yet." in out
    code, out, _ = run(capsys, "--json", str(write(tmp_path, empty)))
    assert json.loads(out) == {"deals": [], "totals": [0, 0], "over": False, "winner": None}


@pytest.mark.parametrize(("data", "words"), [
    (pad("classic", ["Ann", "Bob"], [deal(0, ["7h", ""], [(1, "7h 7d 7s")], went_out=1)]),
     "deal 1: 7h appears 2 times"),
    (pad("classic", ["Ann", "Bob"], [deal(0, ["", ""], [(1, "7h 8h 9s")], went_out=1)]),
     "deal 1, meld 1 by Bob (seat 1) (7h 8h 9s): 7♥ 8♥ 9♠ is not a meld"),
    ('{"format": "rummy500-pad", ', "is not JSON"),
    (" " * (2 * 1024 * 1024), "is too large"),
])
def test_a_pad_that_cannot_be_right_exits_2_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], data: Any, words: str) -> None:
    path = write(tmp_path, data)
    code, out, err = run(capsys, str(path))
    assert code == 2 and out == ""
    assert err.startswith(f"rummy500 pad: {path}: ") and words in err
    assert len(err.strip().splitlines()) == 1


def test_a_missing_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, str(tmp_path / "none.json"))
    assert code == 2 and "cannot read" in err and "Traceback" not in err


def test_the_command_runs_as_a_program(tmp_path: Path) -> None:
    path = write(tmp_path, {"format": "rummy500-pad", "version": 3})
    done = subprocess.run([sys.executable, "-m", "rummy500", "pad", str(path)],
                          capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "this is version 1 of the pad's file, not 3" in done.stderr
