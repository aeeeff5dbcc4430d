"""The score sheet of a deal at an online table, made from the seat's ``state`` alone.

The server sends every finished deal in ``state.deals`` (``went_out``, ``melded`` and
``in_hand`` per player, ``scores`` per side); the sheet adds them up as the local game's
sheet does (:func:`.words.deal_sheet`), with the same rows, notes and standing. The cards
left in the hands are not part of the protocol, so an online sheet does not list them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..narrate import ENDINGS
from ..rules import Rules
from ..session.words import DealSheet, ScoreRow, sheet_notes, side_label, side_seats, standing_words


def online_sheet(rules: Rules, names: Sequence[str], state: Mapping[str, Any], index: int,
                 table: Sequence[str] = ()) -> DealSheet:
    """The sheet of deal ``index`` (from 0) of ``state.deals``; ``table``: the melds and the
    pile as the deal ended, in words, when the seat saw them."""
    deals = state.get("deals") or []
    entry = deals[index]
    players = len(names)
    sides = rules.sides(players)
    totals = [sum(int(deal["scores"][side]) for deal in deals[: index + 1])
              for side in range(sides)]
    finished = bool(state.get("over")) and index == len(deals) - 1
    winner = state.get("winner") if finished else None
    if finished:
        totals = [int(total) for total in state.get("totals") or totals]
    rows = []
    for side in range(sides):
        seats = side_seats(rules, players, side)
        rows.append(ScoreRow(side_label(rules, names, side),
                             sum(int(entry["melded"][seat]) for seat in seats),
                             sum(int(entry["in_hand"][seat]) for seat in seats),
                             int(entry["scores"][side]), totals[side]))
    went_out = entry.get("went_out")
    if isinstance(went_out, int) and 0 <= went_out < players:
        ending = ENDINGS["went out"].format(who=names[went_out])
    else:
        went_out, ending = None, "nobody went out"
    winner = winner if isinstance(winner, int) and 0 <= winner < sides else None
    margin = 0
    if winner is not None and sides > 1:
        margin = totals[winner] - max(t for side, t in enumerate(totals) if side != winner)
    outcome = standing_words(rules, names, totals, finished=finished, winner=winner,
                             margin=margin, deals_played=index + 1)
    return DealSheet(index + 1, ending, tuple(rows),
                     tuple(sheet_notes(rules, names, went_out, winner)), (), finished, outcome,
                     tuple(table))
