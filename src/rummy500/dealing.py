"""Dealing: which seat each card of a pack order goes to, the up-card and the stock, and
a stock made again from the pile in a given order.

The one home of the dealing order, for the engine's :class:`~rummy500.deal.Deal` and for
those who deal one card at a time (the OpenSpiel game's chance nodes).
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import face_of, face_pretty
from .errors import RecordError
from .rules import Rules


def dealt_to(dealer: int, players: int, index: int) -> int:
    """The seat that receives the ``index``-th card dealt (from 0): one card at a time,
    from the dealer's left."""
    return (dealer + 1 + index) % players


def cards_to_deal(rules: Rules, players: int) -> int:
    """How many cards of the pack are dealt before play: every hand, then the up-card that
    begins the discard pile (the rest is the stock)."""
    return rules.cards_dealt(players) * players + 1


def deal_out(
    rules: Rules, players: int, dealer: int, deck: Sequence[int]
) -> tuple[list[int], list[int], list[int]]:
    """The hands (bitsets per seat), the pile (the up-card) and the stock (top last) dealt
    from ``deck``, a pack order whose first card is dealt first."""
    hands = [0] * players
    up = cards_to_deal(rules, players) - 1
    for index in range(up):
        hands[dealt_to(dealer, players, index)] |= 1 << deck[index]
    return hands, [deck[up]], list(reversed(deck[up + 1:]))


def restock_cards(order: Sequence[int], cards: Sequence[int]) -> list[int]:
    """A restock ``order`` (cards or faces, top first) matched to ``cards``, the pile's
    physical cards being reshuffled; a :class:`RecordError` unless it names them all."""
    left = list(cards)
    matched = []
    for wanted in order:
        for i, card in enumerate(left):
            if card == wanted:
                matched.append(left.pop(i))
                break
        else:
            for i, card in enumerate(left):
                if face_of(card) == face_of(wanted):
                    matched.append(left.pop(i))
                    break
            else:
                raise RecordError(
                    f"the restock order names {face_pretty(face_of(wanted))}, which is "
                    "not in the pile being reshuffled"
                )
    if left:
        raise RecordError(
            f"the restock order leaves out {len(left)} card(s) of the pile being reshuffled"
        )
    return matched
