"""Putting cards on the table: new melds and lay-offs, each card credited to who laid it."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import JOKER, JOKER_MASK, card_for_face
from .melds import (
    ACE_HIGH,
    DECLARED,
    RUN,
    Meld,
    MeldShape,
    TableCard,
    compute_fits,
    layoff_position,
)
from .scoring import Points


def pick_cards(cards: int, pieces: tuple[int, ...], prefer: int = -1) -> list[int] | None:
    """Physical cards of ``cards`` for ``pieces`` (``prefer`` first when it fits), or None."""
    if len(pieces) == 1 and pieces[0] < 64 and pieces[0] & 15 != 15 and prefer < 0:
        face = pieces[0]  # one natural card: the first pack's copy if held
        if cards >> face & 1:
            return [face]
        return [face + 64] if cards >> (face + 64) & 1 else None
    chosen: list[int] = []
    left = cards
    for piece in pieces:
        face = JOKER if piece >= DECLARED else piece
        if prefer >= 0 and left >> prefer & 1 and _shows(prefer, face):
            card = prefer
        else:
            card = card_for_face(left, face)
            if card < 0:
                return None
        chosen.append(card)
        left &= ~(1 << card)
    return chosen


def take_index(pile: Sequence[int], face: int, lower: bool = False) -> int:
    """The index in ``pile`` (bottom first) of the card that ``take face`` takes: the upper
    card showing ``face``, or with ``lower`` the second from the top (``take 7h/2``); -1 if
    the pile holds no such card."""
    skip = 1 if lower else 0
    for index in range(len(pile) - 1, -1, -1):
        if _shows(pile[index], face):
            if not skip:
                return index
            skip -= 1
    return -1


def pick_from_pile(pile: list[int], pieces: tuple[int, ...]) -> list[int] | None:
    """Indices into ``pile`` of cards for ``pieces``, the upper copy first, or None."""
    used: set[int] = set()
    found: list[int] = []
    for piece in pieces:
        face = JOKER if piece >= DECLARED else piece
        for index in range(len(pile) - 1, -1, -1):
            if index not in used and _shows(pile[index], face):
                used.add(index)
                found.append(index)
                break
        else:
            return None
    return found


def _shows(card: int, face: int) -> bool:
    if face == JOKER:
        return bool(1 << card & JOKER_MASK)
    return card & 63 == face and card & 15 != 15


def new_meld(
    number: int, shape: MeldShape, cards: list[int], seat: int, points: Points
) -> tuple[Meld, int]:
    """The meld ``shape`` laid with ``cards`` by ``seat``, and the points credited for it."""
    doubled = (points.doubles and len(cards) == 4
               and (shape.kind != RUN or points.doubles_runs))
    table_cards = []
    faces = 0
    credit = 0
    for index, (piece, card) in enumerate(zip(shape.pieces, cards, strict=True)):
        face = piece - DECLARED if piece >= DECLARED else piece
        low_ace = shape.kind == RUN and index == 0 and shape.lo == 1
        high_ace = shape.kind == RUN and face & 15 == 1 and not low_ace and face != JOKER
        value = points.on_table(face, low_ace, joker=card & 15 == 15, high_ace=high_ace)
        if doubled:
            value *= 2
        table_cards.append(TableCard(card, face, seat, value))
        if face != JOKER:
            faces |= 1 << face
        credit += value
    fits = compute_fits(shape.kind, shape.suit, shape.rank, shape.lo, shape.hi, faces,
                        len(table_cards), points.any_suit)
    meld = Meld(number, shape.kind, shape.suit, shape.rank, shape.lo, shape.hi, faces,
                tuple(table_cards), fits)
    return meld, credit


def lay_off(meld: Meld, piece: int, card: int, seat: int, points: Points) -> tuple[Meld, int]:
    """``meld`` with ``card`` (standing for ``piece``) laid off by ``seat``, and its points."""
    face = piece - DECLARED if piece >= DECLARED else piece
    joker = card & 15 == 15
    lo, hi = meld.lo, meld.hi
    low_ace = False
    if meld.kind == RUN:
        position = layoff_position(meld, face)
        if position < lo:
            lo = position
            low_ace = position == 1
        else:
            hi = position
            assert hi <= ACE_HIGH
    high_ace = meld.kind == RUN and face != JOKER and face & 15 == 1 and not low_ace
    value = points.on_table(face, low_ace, joker, high_ace=high_ace)
    faces = meld.faces | (1 << face if face != JOKER else 0)
    cards = (*meld.cards, TableCard(card, face, seat, value))
    fits = compute_fits(meld.kind, meld.suit, meld.rank, lo, hi, faces, len(cards),
                        points.any_suit)
    updated = meld._replace(lo=lo, hi=hi, faces=faces, cards=cards, fits=fits)
    return updated, value
