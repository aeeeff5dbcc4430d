"""A finished deal's score sheet, line by line: every point a side scored, with its words,
so that no face adds anything up itself.

>>> from rummy500.game import Game
>>> from rummy500.bots import make_bot
>>> game = Game(players=2, seed=4)
>>> while not game.results:
...     game.play(make_bot("simple", seed=1).decide(game.view(game.turn)).move)
>>> sheet = deal_sheet(game, ["Ann", "Bob"], 0, None)
>>> [sum(line.points for line in sheet.side_lines(side)) for side in (0, 1)] == list(sheet.scores)
True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import JOKER
from ..deal import Deal
from ..game import Game
from ..melds import RUN, Meld
from ..narrate import YOU
from ..results import score_lines
from ..scoring import Points, points_for
from .faces import hand_faces, table_meld
from .seat_state import DealSheet, SheetLine, sheet_summary
from .words import ending_words, side_label, standing_words


def reader_names(names: Sequence[str], reader: int | None) -> list[str]:
    """The seats' names as ``reader`` reads them: its own seat is "You"."""
    shown = list(names)
    if reader is not None and 0 <= reader < len(shown):
        shown[reader] = YOU
    return shown


def doubled_points(meld: Meld, points: Points) -> tuple[int, int]:
    """The seat that laid ``meld`` as a meld of four counted double, and the points the
    doubling added (0 when it was not doubled)."""
    first = meld.cards[:4]
    if not points.doubles or len(first) < 4 or len({card.seat for card in first}) != 1:
        return first[0].seat if first else 0, 0
    base = 0
    for card in first:
        ace = card.face != JOKER and card.face & 15 == 1
        low = meld.kind == RUN and ace and meld.lo == 1
        base += points.on_table(card.face, low, joker=card.card & 15 == 15,
                                high_ace=meld.kind == RUN and ace and not low)
    laid = sum(card.points for card in first)
    return first[0].seat, base if base and laid == 2 * base else 0


def sheet_lines(game: Game, deal: Deal, index: int, names: Sequence[str]) -> list[SheetLine]:
    """Every line of deal ``index``'s sheet, names as given."""
    rules, players = game.rules, game.players
    points = points_for(rules)
    result = game.results[index]
    doubled = [0] * players
    for meld in deal.melds:
        seat, extra = doubled_points(meld, points)
        doubled[seat] += extra
    words = {"on_table": "on the table", "in_hand": "in hand", "going_out": "going out"}
    lines: list[SheetLine] = []
    for line in score_lines(rules, points, result.melded, result.in_hand, result.went_out):
        who = names[line.seat]
        if line.what == "hands_won":
            text = f"{who}: hand added to {side_label(rules, names, line.side)}"
        else:
            text = f"{who}: {words[line.what]}"
        if line.what == "on_table" and doubled[line.seat]:
            lines.append(SheetLine(line.seat, line.side, "on_table",
                                   line.points - doubled[line.seat], text))
            lines.append(SheetLine(line.seat, line.side, "doubled", doubled[line.seat],
                                   f"{who}: melds of four counted double"))
        else:
            lines.append(SheetLine(line.seat, line.side, line.what, line.points, text))
    last = game.finished and index == len(game.results) - 1
    if last and game.winner is not None and points.final_bonus:
        lines.append(SheetLine(None, game.winner, "game_bonus", points.final_bonus,
                               f"{side_label(rules, names, game.winner)}: winning the game"))
    return lines


def deal_sheet(game: Game, names: Sequence[str], index: int, reader: int | None) -> DealSheet:
    """The sheet of deal ``index`` (from 0) of ``game`` as ``reader`` (a seat, or None)
    reads it. It says only what was known when its deal ended: who led then."""
    rules = game.rules
    shown = reader_names(names, reader)
    deal, result = game.deals[index], game.results[index]
    lines = sheet_lines(game, deal, index, shown)
    sides = rules.sides(game.players)
    scores = tuple(sum(line.points for line in lines if line.side == side)
                   for side in range(sides))
    totals = [sum(earlier.scores[side] for earlier in game.results[: index + 1])
              for side in range(sides)]
    last = game.finished and index == len(game.results) - 1
    if last and game.winner is not None:
        totals[game.winner] += points_for(rules).final_bonus
    standing = standing_words(rules, shown, totals, finished=last,
                              winner=game.winner if last else None,
                              margin=game.margin if last else 0, deals_played=index + 1,
                              stopped=game.stopped if last else "")
    hands = tuple(hand_faces(hand) for hand in deal.hands)
    ended = ending_words(deal, result, shown)
    labels = tuple(side_label(rules, shown, side) for side in range(sides))
    return DealSheet(index + 1, result.went_out, ended,
                     sheet_summary(index + 1, ended, labels, scores), tuple(lines), scores,
                     tuple(totals), hands, tuple(result.melded), tuple(result.in_hand),
                     standing, labels, last, tuple(table_meld(meld) for meld in deal.melds))


__all__ = ["deal_sheet", "doubled_points", "reader_names", "sheet_lines"]
