"""Cards as the protocol writes them: faces (``7h``, ``*``; ``*=6h`` for a joker in a
meld), never physical copies, so nothing a client reads tells which copy of a two-pack card
is which. Made once for each hand and each meld as it lies (both are values)."""

from __future__ import annotations

import functools

from ..cards import JOKER, face_of, face_str, iter_bits, sort_key
from ..melds import Meld
from .seat_state import TableMeld


@functools.cache  # a pack's few card numbers: a deep pile is written card by card each change
def card_text(card: int) -> str:
    """A physical card as the face it shows (``7h``, ``*``): copies look alike."""
    return face_str(face_of(card))


@functools.lru_cache(maxsize=4096)
def hand_faces(hand: int) -> tuple[str, ...]:
    """A hand's faces in the order a hand is shown (made once for each hand: a table's
    states of one change share them)."""
    return tuple(card_text(card) for card in sorted(iter_bits(hand), key=sort_key))


@functools.lru_cache(maxsize=4096)
def table_meld(meld: Meld) -> TableMeld:
    """A meld as PROTOCOL.md gives it, its cards in the meld's order (a run low to high);
    made once for each meld as it lies (a meld is a value: one laid off on is another)."""
    ordered = sorted(meld.cards, key=lambda table_card: meld.order_key(table_card.face))
    cards = []
    for table_card in ordered:
        if face_of(table_card.card) == JOKER:
            cards.append("*" if table_card.face == JOKER else "*=" + face_str(table_card.face))
        else:
            cards.append(card_text(table_card.card))
    # A meld's cards lie in the order they were laid, so its first is the melder's.
    return TableMeld(f"m{meld.number}", tuple(cards),
                     tuple(table_card.seat for table_card in ordered), meld.cards[0].seat)


__all__ = ["card_text", "hand_faces", "table_meld"]
