"""The end of a deal: each seat's points on the table and in hand, and each side's score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .rules import Rules
from .scoring import Points


class DealResult(NamedTuple):
    went_out: int | None
    """The seat that went out, or None."""
    ended_by: str
    """'went out', 'stock' (the stock ran out), 'declined' (end with an empty stock),
    or 'idle' (no progress for too long)."""
    melded: tuple[int, ...]
    """Points each player has on the table."""
    in_hand: tuple[int, ...]
    """Points each player holds at the end."""
    scores: tuple[int, ...]
    """The deal's score for each side (each player, outside a partnership)."""


def score_deal(rules: Rules, points: Points, hands: Sequence[int], credit: Sequence[int],
               went_out: int | None, ended_by: str) -> DealResult:
    """A finished deal's result: ``hands`` (bitsets) and ``credit`` (points on the table)
    per seat, the seat that went out (or None) and how the deal ended."""
    players = len(hands)
    in_hand = tuple(points.in_hand(hand) for hand in hands)
    melded = tuple(credit)
    sides = rules.sides(players)
    scores = [0] * sides
    for seat in range(players):
        side = rules.side_of(seat)
        scores[side] += melded[seat]
        if not rules.add_hand_to_winner:
            scores[side] -= in_hand[seat]
    if rules.add_hand_to_winner:
        if went_out is not None:
            winner = rules.side_of(went_out)
            scores[winner] += sum(
                in_hand[s] for s in range(players) if rules.side_of(s) != winner
            )
        elif sides == 2:
            for seat in range(players):
                scores[1 - rules.side_of(seat)] += in_hand[seat]
    if went_out is not None:
        scores[rules.side_of(went_out)] += points.going_out_bonus
    return DealResult(went_out, ended_by, melded, in_hand, tuple(scores))
