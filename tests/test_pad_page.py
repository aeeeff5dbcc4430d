"""The score pad page's scoring (js/pad/score.js) against the engine's: pads of the deals the
engine played, under every preset and many options, scored by the page's own modules (run by
Node.js) from the tables the engine writes for the rules (rummy500.pad_tables), give the
same deal sheets, totals, end and winner as the engine. The page in Chromium, offline, is
tested in tests/test_browser_pad.py.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from padkit import ace_place_unknown, pad_of_game
from rummy500.pad import pad_from_json
from rummy500.pad_score import score_pad
from rummy500.pad_tables import pad_tables
from rummy500.session.pad_sheets import pad_summary
from test_pad import CONFIGURATIONS, GAMES, played

ROOT = Path(__file__).resolve().parent.parent
CHECK = ROOT / "tests" / "js" / "pad_scores.mjs"


def page_scores(cases: list[dict[str, Any]], tmp_path: Path) -> list[dict[str, Any]]:
    node = shutil.which("node")
    if node is None:  # pragma: no cover - the JavaScript checks need Node.js
        pytest.skip("Node.js is needed to run the page's modules")
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases))
    done = subprocess.run([node, str(CHECK), str(path)], capture_output=True, text=True,
                          check=True, timeout=300)
    answers: list[dict[str, Any]] = json.loads(done.stdout)
    return answers


def engine_answer(pad: dict[str, Any]) -> dict[str, Any]:
    read = pad_from_json(pad)
    summary = pad_summary(read, score_pad(read))
    return {"totals": summary["totals"], "over": summary["over"], "winner": summary["winner"],
            "scores": [deal["scores"] for deal in summary["deals"]],
            "lines": [[[line["seat"], line["what"], line["points"]] for line in deal["lines"]]
                      for deal in summary["deals"]],
            "problems": []}


def test_the_page_scores_every_configuration_as_the_engine(tmp_path: Path) -> None:
    cases, expected = [], []
    for preset, options, players in CONFIGURATIONS:
        for seed in range(GAMES):
            game = played(preset, options, players, seed)
            if ace_place_unknown(game):  # pragma: no cover - a run of all thirteen: very rare
                continue
            pad = pad_of_game(game, [f"P{seat}" for seat in range(players)])
            cases.append({"tables": pad_tables(game.rules, players), "pad": pad})
            expected.append(engine_answer(pad))
    answers = page_scores(cases, tmp_path)
    deals = 0
    for case, mine, theirs in zip(cases, answers, expected, strict=True):
        where = f"{case['pad']['rules']} with {len(case['pad']['players'])} players"
        assert mine == theirs, where
        deals += len(theirs["scores"])
    assert deals >= len(CONFIGURATIONS) * GAMES


def test_the_page_finds_what_cannot_be_right(tmp_path: Path) -> None:
    names = ["Ann", "Bob"]
    base = {"format": "rummy500-pad", "version": 1, "rules": {"preset": "classic"},
            "players": names}
    broken = [
        ({"melds": [{"seat": 0, "cards": "7h 8d 9h"}], "hands": ["", "Kd"]},
         "meld 1 by Ann: 7h 8d 9h is not a meld under these rules"),
        ({"melds": [{"seat": 0, "cards": "7h 7d 7s"}], "hands": ["", "7h"]},
         "7h is entered 2 times, and the pack holds it once"),
        ({"melds": [{"seat": 0, "cards": "4c 5c 6c"}],
          "layoffs": [{"seat": 1, "cards": "9c", "on": 1}], "hands": ["", ""]},
         "the cards laid off (9c) do not fit meld 1 (4c 5c 6c)"),
        ({"melds": [{"seat": 0, "cards": "4c 5c 6c"}], "hands": ["", "*"]},
         "a joker: there is no such card in this game"),
    ]
    cases = [{"tables": pad_tables(pad_from_json({**base, "deals": []}).rules, 2),
              "pad": {**base, "deals": [{"dealer": 0, "went_out": None, **deal}]}}
             for deal, _ in broken]
    for answer, (_, words) in zip(page_scores(cases, tmp_path), broken, strict=True):
        assert words in answer["problems"][0] if answer["problems"] else False, (
            answer["problems"], words)
