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


class ScoreLine(NamedTuple):
    """One line of a deal's score: ``points`` to ``side`` for the cards of ``seat``."""

    seat: int
    side: int
    what: str
    """``on_table``, ``in_hand`` (negative), ``hands_won`` (another side's seat's hand,
    with ``add_hand_to_winner``) or ``going_out``."""
    points: int


def score_lines(rules: Rules, points: Points, melded: Sequence[int], in_hand: Sequence[int],
                went_out: int | None) -> list[ScoreLine]:
    """Every line a finished deal scores, seat by seat; each side's score is its lines' sum."""
    players = len(melded)
    lines = []
    for seat in range(players):
        side = rules.side_of(seat)
        lines.append(ScoreLine(seat, side, "on_table", melded[seat]))
        if not rules.add_hand_to_winner:
            lines.append(ScoreLine(seat, side, "in_hand", -in_hand[seat]))
    if rules.add_hand_to_winner:
        two_sides = rules.sides(players) == 2
        for seat in range(players):
            if went_out is not None:
                gainer = rules.side_of(went_out)
            elif two_sides:
                gainer = 1 - rules.side_of(seat)
            else:
                continue
            if rules.side_of(seat) != gainer:
                lines.append(ScoreLine(seat, gainer, "hands_won", in_hand[seat]))
    if went_out is not None and points.going_out_bonus:
        lines.append(ScoreLine(went_out, rules.side_of(went_out), "going_out",
                               points.going_out_bonus))
    return lines


def score_deal(rules: Rules, points: Points, hands: Sequence[int], credit: Sequence[int],
               went_out: int | None, ended_by: str) -> DealResult:
    """A finished deal's result: ``hands`` (bitsets) and ``credit`` (points on the table)
    per seat, the seat that went out (or None) and how the deal ended."""
    in_hand = tuple(points.in_hand(hand) for hand in hands)
    melded = tuple(credit)
    scores = [0] * rules.sides(len(hands))
    for line in score_lines(rules, points, melded, in_hand, went_out):
        scores[line.side] += line.points
    return DealResult(went_out, ended_by, melded, in_hand, tuple(scores))
