"""A score pad's deal sheets: the same sheets an online table gives (:mod:`.sheets`), for
a game the engine scored from a pad (:func:`rummy500.pad_score.score_pad`).

>>> from rummy500.pad import load_pad
>>> from rummy500.pad_score import score_pad
>>> pad = load_pad('''{"format": "rummy500-pad", "version": 1,
...   "rules": {"preset": "classic"}, "players": ["Ann", "Bob"],
...   "deals": [{"dealer": 0, "went_out": 1, "melds": [{"seat": 1, "cards": "7h 7d 7s"}],
...              "hands": ["Kd", ""]}]}''')
>>> summary = pad_summary(pad, score_pad(pad))
>>> [(line["what"], line["points"]) for line in summary["deals"][0]["lines"]]
[('on_table', 0), ('in_hand', -10), ('on_table', 21), ('in_hand', 0)]
>>> summary["totals"], summary["over"], summary["winner"]
([-10, 21], False, None)
"""

from __future__ import annotations

from typing import Any

from ..game import Game
from ..pad import Pad
from .seat_state import DealSheet
from .sheets import deal_sheet


def pad_sheets(pad: Pad, game: Game) -> list[DealSheet]:
    """Every deal's sheet of ``game``, scored from ``pad``, as everyone at the table reads
    it (no seat is "You")."""
    return [deal_sheet(game, pad.players, index, None) for index in range(len(game.results))]


def pad_summary(pad: Pad, game: Game) -> dict[str, Any]:
    """The pad's scores as ``rummy500 pad --json`` prints them: each deal's lines, scores
    and totals after it, the totals, whether the game is over and its winner (a side)."""
    deals = [{"deal": sheet.deal, "lines": [line.to_json() for line in sheet.lines],
              "scores": list(sheet.scores), "totals_after": list(sheet.totals_after)}
             for sheet in pad_sheets(pad, game)]
    return {"deals": deals, "totals": list(game.totals), "over": game.finished,
            "winner": game.winner}


__all__ = ["pad_sheets", "pad_summary"]
