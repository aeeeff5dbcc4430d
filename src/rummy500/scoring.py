"""What cards are worth: on the table by their place, in hand at the end of a deal."""

from __future__ import annotations

from functools import lru_cache

from .cards import JOKER_MASK, NATURAL_MASK, iter_bits
from .rules import Rules


class Points:
    """The point values of one rule set, divided by its ``point_divisor``."""

    __slots__ = ("ace", "any_suit", "doubles", "doubles_runs", "final_bonus", "going_out_bonus",
                 "joker", "low_ace", "rank")

    def __init__(self, rules: Rules) -> None:
        div = rules.point_divisor
        self.ace = rules.ace_points // div
        self.low_ace = rules.low_ace_points // div
        self.joker = rules.joker_value // div
        self.going_out_bonus = rules.going_out_bonus // div
        self.final_bonus = rules.final_bonus // div
        self.doubles = rules.four_of_a_kind_doubles
        self.doubles_runs = rules.four_card_runs_double
        # Not a value, but the other rule melds need as they grow: with set_suits = "any"
        # a set under four accepts its own cards again.
        self.any_suit = rules.set_suits == "any"
        simplified = rules.card_points == "simplified"
        # rank[1] is an ace in a set or in hand; ``ace`` an ace high in a run.
        self.rank = [0, self.low_ace if rules.high_ace_only else self.ace] + [
            (5 if simplified else r) // div if r < 10 else 10 // div for r in range(2, 14)
        ]

    def on_table(self, face: int, low_ace: bool, joker: bool, high_ace: bool = False) -> int:
        """A card laid on the table, standing for ``face`` (``low_ace``: an ace low in a run;
        ``high_ace``: an ace high in a run, which differs only with ``high_ace_only``)."""
        if joker:
            return self.joker
        if low_ace:
            return self.low_ace
        if high_ace:
            return self.ace
        return self.rank[face & 15]

    def in_hand(self, cards: int) -> int:
        """The points of a hand left at the end of a deal."""
        total = (cards & JOKER_MASK).bit_count() * self.joker
        naturals = cards & ~JOKER_MASK
        rank = self.rank
        for card in iter_bits(naturals & (NATURAL_MASK | NATURAL_MASK << 64)):
            total += rank[card & 15]
        return total


@lru_cache(maxsize=64)
def _points_for(rules: Rules) -> Points:
    return Points(rules)


_last: tuple[Rules, Points] | None = None
"""The last rule set asked for and its points: the same object comes back for every move
checked in a simulation, and hashing a Rules (every field) costs more than the look-up."""


def points_for(rules: Rules) -> Points:
    """The points of ``rules`` (one :class:`Points` for equal rule sets)."""
    global _last
    last = _last  # read once: another thread may replace it
    if last is not None and last[0] is rules:
        return last[1]
    points = _points_for(rules)
    _last = (rules, points)
    return points
