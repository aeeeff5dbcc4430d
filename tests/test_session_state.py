"""The per-seat state of PROTOCOL.md as the table layer builds it (rummy500.session.state)."""

from __future__ import annotations

import json

from helpers import deal_from_hands
from rummy500 import make_rules
from rummy500.session.state import meld_json


def test_a_run_laid_off_below_is_listed_low_to_high_with_who_laid_each_card() -> None:
    game = deal_from_hands(make_rules("classic"), ["Tc Jc Qc 2d ...", "9c ..."], up="Kd",
                           stock="5h 6h")
    game.play("draw")
    game.play("meld Tc Jc Qc")
    game.play("discard 2d")
    game.play("draw")
    game.play("layoff 9c m1")
    meld = json.loads(json.dumps(meld_json(game.deal.melds[0])))
    assert meld == {"id": "m1", "cards": ["9c", "Tc", "Jc", "Qc"], "by": [1, 0, 0, 0],
                    "owner": 0}


def test_a_meld_is_its_melder_s_however_many_cards_others_lay_off_on_it() -> None:
    game = deal_from_hands(make_rules("classic"), ["4s 5s 6s 2d ...", "3s 7s 8s 9h ..."],
                           up="Kd", stock="5h 6h")
    game.play("draw")
    game.play("meld 4s 5s 6s")
    game.play("discard 2d")
    game.play("draw")
    for card in ("3s", "7s", "8s"):
        game.play(f"layoff {card} m1")
    meld = meld_json(game.deal.melds[0])
    assert meld["by"] == [1, 0, 0, 0, 1, 1] and meld["owner"] == 0


def test_an_ace_high_run_ends_with_the_ace() -> None:
    game = deal_from_hands(make_rules("classic"), ["Ac Kc Qc 2d ...", "..."], up="Kd",
                           stock="5h")
    game.play("draw")
    game.play("meld Qc Kc Ac")
    assert meld_json(game.deal.melds[0])["cards"] == ["Qc", "Kc", "Ac"]
