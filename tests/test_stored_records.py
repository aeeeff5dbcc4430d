"""Stored game records as regression cases: each replays to the answer stored beside it.

tests/records/NAME.json is a game record (whole games under every preset and several house
rules, a game cut short, one with an illegal move); NAME.replay.json is what
`rummy500 replay NAME.json --json` answered when it was stored
(scripts/make_regression_records.py). A change of the engine that changes any deal's
outcome, score or refusal shows here.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rummy500.record import game_record, read, replay

RECORDS = Path(__file__).parent / "records"
NAMES = sorted(p.name.removesuffix(".json") for p in RECORDS.glob("*.json")
               if not p.name.endswith(".replay.json"))


def test_the_stored_records_are_there() -> None:
    assert len(NAMES) == 12
    for name in NAMES:
        assert (RECORDS / f"{name}.replay.json").exists(), name


@pytest.mark.parametrize("name", NAMES)
def test_replay_command_gives_the_stored_answer(name: str) -> None:
    expected = json.loads((RECORDS / f"{name}.replay.json").read_text())
    done = subprocess.run(
        [sys.executable, "-m", "rummy500", "replay", str(RECORDS / f"{name}.json"), "--json"],
        capture_output=True, text=True, timeout=120,
    )
    assert done.stderr == ""
    assert json.loads(done.stdout) == expected
    assert done.returncode == (0 if expected["ok"] else 1)


@pytest.mark.parametrize("name", [n for n in NAMES if not n.startswith("illegal")])
def test_a_replayed_record_writes_itself_back(name: str) -> None:
    data = read(RECORDS / f"{name}.json")
    assert game_record(replay(data)) == data
