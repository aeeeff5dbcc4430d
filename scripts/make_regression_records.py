"""Writes tests/records/: whole games between computer players (one a preset or a house rule)
and the answer of `rummy500 replay --json` for each. Run it only when a record's expected
answer must change on purpose, and say why in the commit."""

import json
import subprocess
import sys
from pathlib import Path

from rummy500 import Game
from rummy500.record import dumps
from rummy500.runners.simulation import make_bots, play_turns, rules_from_options

CASES = [
    ("classic-2", "classic", [], 2, "expert,simple"),
    ("classic-5", "classic", [], 5, "simple"),
    ("wild-3", "wild", [], 3, "expert,simple,random"),
    ("simplified-6", "simplified", [], 6, "simple"),
    ("boathouse-2", "boathouse", [], 2, "simple,expert"),
    ("partnership-4", "partnership", [], 4, "expert,simple"),
    ("persian-4", "persian", [], 4, "simple,expert"),
    ("reshuffle-3", "classic", ["stock_exhausted=reshuffle", "hand_size=10"], 3, "random"),
    ("rummy-calls-3", "classic", ["rummy_calls=true", "add_hand_to_winner=true"], 3, "simple"),
    ("wild-two-packs-2", "wild", ["stock_exhausted=reshuffle", "decks=2"], 2, "expert,random"),
]
out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent.parent / "tests" / "records"
for name, preset, options, players, bots in CASES:
    rules = rules_from_options(preset, options)
    names = (bots.split(",") * players)[:players]
    game = Game(rules, players, seed=2026)
    seats = make_bots(names, 2026)
    while not game.finished and len(game.deals) < 40:
        play_turns(game, seats)
    path = out / f"{name}.json"
    path.write_text(dumps(game) + "\n")
    command = [sys.executable, "-m", "rummy500", "replay", str(path), "--json"]
    answer = subprocess.run(command, capture_output=True, text=True)
    print(name, answer.returncode, len(game.deals), game.finished)
    (out / f"{name}.replay.json").write_text(json.dumps(json.loads(answer.stdout), indent=1) + "\n")
