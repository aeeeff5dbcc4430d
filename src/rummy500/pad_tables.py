"""The score pad page's scoring, as data the engine writes for one set of rules.

The pad page (``/pad``) must score a game offline, on a phone, without a second copy of the
rules. So the engine enumerates what scoring a finished deal needs and the page only looks
it up:

- ``melds``: every meld the rules allow, whole (a meld with all its lay-offs is one of
  them), keyed by its faces in a fixed order (:func:`meld_key`), each with the points of
  its cards where they lie (an ace low or high) as :func:`rummy500.table.new_meld` credits
  them, and whether four laid at once count double. A wild joker is worth ``joker_on_table``
  wherever it lies; a meld needs ``min_natural`` natural cards besides its jokers.
- ``in_hand``: what each card left in hand costs (:meth:`rummy500.scoring.Points.in_hand`).
- ``copies``: how often each card is in the packs.
- ``sheets``: the deal sheet's lines for each seat that may go out (or none), as formulas
  over each seat's points on the table and in hand, made by running the engine's own
  :func:`rummy500.results.score_lines` on symbols.
- ``end``: the numbers of :func:`rummy500.game.game_end` and the final bonus.

>>> from rummy500.rules import make_rules
>>> data = pad_tables(make_rules("classic"), 2)
>>> data["melds"]["7c 7d 7h"]["points"], data["in_hand"]["Ac"]
([7, 7, 7], 15)
>>> data["melds"]["Ah 2h 3h"]["points"], data["melds"]["Ah Qh Kh"]["points"]
([1, 2, 3], [15, 10, 10])
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache
from itertools import combinations_with_replacement
from typing import Any, cast

from .cards import JOKER, NATURAL_MASK, face_str, make_pack
from .errors import MeldError
from .game import DEAD_DEALS
from .melds import DECLARED, MeldShape, classify, find_melds
from .results import score_lines
from .rules import Rules
from .scoring import Points, points_for
from .table import new_meld

FORMAT = "rummy500-pad-tables"


def meld_key(faces: list[int]) -> str:
    """A meld's key: the faces it holds (a wild joker's declared face; ``*`` for a Persian
    joker) in face order, written in the notation."""
    return " ".join(face_str(face) for face in sorted(faces, key=_face_order))


def _face_order(face: int) -> tuple[int, int]:
    return (face >> 4, face & 15) if face != JOKER else (9, 0)


class _Symbol:
    """A seat's points on the table or in hand, unknown: :func:`score_lines` run on these
    gives the sheet's lines as formulas."""

    def __init__(self, source: str, seat: int, sign: int = 1) -> None:
        self.source, self.seat, self.sign = source, seat, sign

    def __neg__(self) -> _Symbol:
        return _Symbol(self.source, self.seat, -self.sign)


def _meld_entry(shape: MeldShape, rules: Rules, points: Points) -> dict[str, Any]:
    cards = list(shape.pieces)  # a piece's number serves as its card: only faces count here
    meld, credit = new_meld(1, shape, cards, 0, points)
    faces = [card.face for card in meld.cards]
    order = sorted(range(len(faces)), key=lambda index: _face_order(faces[index]))
    doubles = len(cards) == 4 and credit > 0 and credit == 2 * _undoubled(shape, rules)
    return {"kind": shape.kind.name.lower(),
            "points": [meld.cards[index].points // (2 if doubles else 1) for index in order],
            "doubles": doubles}


def _undoubled(shape: MeldShape, rules: Rules) -> int:
    """The points of ``shape`` laid at once under ``rules`` with no meld counted double."""
    plain = points_for(dataclasses.replace(rules, four_of_a_kind_doubles=False,
                                           four_card_runs_double=False))
    return new_meld(1, shape, list(shape.pieces), 0, plain)[1]


def _melds(rules: Rules, decks: int) -> dict[str, dict[str, Any]]:
    points = points_for(rules)
    every = NATURAL_MASK
    doubles = every if decks > 1 else 0
    persian = 4 * decks if rules.jokers == "persian" else 0
    found: dict[str, dict[str, Any]] = {}
    shapes = find_melds(every, 0, persian, rules.min_run, doubles, points.any_suit)
    if points.any_suit:  # a set may hold a card more often than the packs do, by jokers
        shapes += [tuple(suit << 4 | rank for suit in suits) for rank in range(1, 14)
                   for size in (3, 4) for suits in combinations_with_replacement(range(4), size)]
    for pieces in shapes:
        try:
            shape = classify(pieces, rules)
        except MeldError:
            continue
        found[meld_key(list(shape.pieces))] = _meld_entry(shape, rules, points)
    return found


def _min_natural(rules: Rules) -> int:
    """How many natural cards a meld needs beside wild jokers (asked of the engine)."""
    if rules.jokers != "wild":
        return 0
    for natural in range(3):
        pieces = tuple(DECLARED + (index << 4 | 2) if index >= natural else index << 4 | 2
                       for index in range(3))
        try:
            classify(pieces, rules)
        except MeldError:
            continue
        return natural
    return 3


def _sheets(rules: Rules, players: int) -> dict[str, list[dict[str, Any]]]:
    points = points_for(rules)
    melded = [_Symbol("on_table", seat) for seat in range(players)]
    in_hand = [_Symbol("in_hand", seat) for seat in range(players)]
    sheets: dict[str, list[dict[str, Any]]] = {}
    for went_out in [None, *range(players)]:
        lines = []
        for line in score_lines(rules, points, cast(Any, melded), cast(Any, in_hand),
                                went_out):
            value = cast(Any, line.points)
            entry: dict[str, Any] = {"seat": line.seat, "side": line.side, "what": line.what}
            if isinstance(value, _Symbol):
                entry.update({"from": value.source, "of": value.seat, "sign": value.sign})
            else:
                entry.update({"points": value})
            lines.append(entry)
        sheets["none" if went_out is None else str(went_out)] = lines
    return sheets


@lru_cache(maxsize=128)
def _tables_for(rules: Rules, players: int) -> dict[str, Any]:
    points = points_for(rules)
    decks = rules.deck_count(players)
    pack = make_pack(decks, rules.jokers_in_each_deck)
    copies: dict[str, int] = {}
    in_hand: dict[str, int] = {}
    for card in pack:
        face = JOKER if card & 15 == 15 else card & 63
        text = face_str(face)
        copies[text] = copies.get(text, 0) + 1
        in_hand[text] = points.in_hand(1 << card)
    return {
        "format": FORMAT, "version": 1, "rules": rules.to_record(), "players": players,
        "decks": decks, "jokers": rules.jokers, "copies": copies, "in_hand": in_hand,
        "joker_on_table": points.on_table(JOKER, False, True),
        "min_natural": _min_natural(rules),
        "melds": _melds(rules, decks),
        "sides": [rules.side_of(seat) for seat in range(players)],
        "side_count": rules.sides(players),
        "sheets": _sheets(rules, players),
        "end": {"target": rules.target_score, "deal_limit": rules.deal_limit,
                "dead_deals": DEAD_DEALS, "final_bonus": points.final_bonus},
    }


def pad_tables(rules: Rules, players: int) -> dict[str, Any]:
    """Everything the pad page needs to score a game of ``rules`` for ``players`` (checked
    first: :class:`~rummy500.rules.RulesError` in words where they cannot play it)."""
    rules.check_players(players)
    return _tables_for(rules, players)


__all__ = ["FORMAT", "meld_key", "pad_tables"]
