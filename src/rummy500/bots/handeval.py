"""What a hand is worth by the end of the deal, as a careful player would reckon it.

A card in hand ends the deal on the table (its points count for its owner), in
the pile (nothing), or still in hand (its points count against). The
:class:`Evaluator` splits a hand into the melds worth the most, the cards that
lay off on the table, the pairs and near-runs that one more card would complete
(each worth its points times the chance of that card coming, counted from the
live copies), and dead cards that risk being caught in hand. Wild jokers are
not searched through: they are placed afterwards where they add most (turning
a pair into a sure meld, or laid off on the table), which keeps a decision
within milliseconds.

The two numbers that tie it to the position are ``draws`` (how many more cards
this seat may expect to draw before the deal ends) and ``stuck`` (the chance
that a card with no future is still in hand when it does).
"""

from __future__ import annotations

from ..cards import JOKER, JOKER_MASK, faces_present, faces_twice
from ..melds import find_melds
from ..scoring import Points
from ..table import pick_cards
from .face_pairs import PARTNERS, completions
from .leftovers import PILE_REACH, LeftoverValues
from .simple import meld_points, melds_holding
from .table_facts import RULE_SETS_KEPT

SHAPES_KEPT = 50_000
"""The most hands whose meld branching one rule set keeps (then it starts afresh)."""

_SHAPES: dict[tuple[int, bool, bool, Points],
              dict[int, tuple[int, list[tuple[tuple[int, ...], int, int]]] | tuple[()]]] = {}
"""The branching of the best-melds search per hand, by the rule set's meld-finding options
and points: it does not depend on the position, so every evaluator shares it."""


class Evaluator(LeftoverValues):
    """Values hands against one table, with fixed counts of live cards."""

    def _prepare(self) -> None:
        rules = self.rules
        self._memo: dict[int, float] = {}
        """:meth:`_best` by ``avail << 128 | out`` (a hand is ``_best(hand, 0)``)."""
        key = (rules.min_run, self.persian, self.any_suit, self.points)
        shapes = _SHAPES.get(key)
        if shapes is None:
            if len(_SHAPES) >= RULE_SETS_KEPT:
                _SHAPES.clear()
            shapes = _SHAPES[key] = {}
        self._shapes = shapes

    # -- the whole hand ------------------------------------------------------------------

    def value(self, cards: int) -> float:
        """The hand's expected worth at the end of the deal (melds counted as laid)."""
        return self._best(cards, 0)

    def plan(self, cards: int) -> tuple[float, list[tuple[int, ...]]]:
        """The best value and the melds (as pieces) that reach it."""
        best_value = self.value(cards)
        chosen: list[tuple[int, ...]] = []
        avail, out = cards, 0
        while True:
            shape = self._shapes.get(avail)
            if shape is None:
                shape = self._shape(avail)
            if not shape:
                return best_value, chosen
            target = self._best(avail, out)
            card = shape[0]
            found = False
            for pieces, points, rest in shape[1]:
                if abs(points + self._best(rest, out) - target) < 1e-9:
                    chosen.append(pieces)
                    avail = rest
                    found = True
                    break
            if not found:
                avail &= ~(1 << card)
                out |= 1 << card

    def _melds(self, cards: int) -> list[tuple[int, ...]]:
        """The melds of natural cards (and of Persian jokers): wild jokers are placed later,
        where they fill the best gap (see :meth:`leftover`)."""
        persian = (cards & JOKER_MASK).bit_count() if self.persian else 0
        if self.any_suit:  # sets may hold both copies of a card
            return find_melds(faces_present(cards), 0, persian, self.rules.min_run,
                              faces_twice(cards), True)
        return find_melds(faces_present(cards), 0, persian, self.rules.min_run)

    @staticmethod
    def _pivot(melds: list[tuple[int, ...]], cards: int) -> tuple[int, int]:
        pivot = 64
        for pieces in melds:
            for p in pieces:
                if p < pivot and p != JOKER:
                    pivot = p
        if pivot == 64:
            pivot = JOKER
        picked = pick_cards(cards, (pivot,))
        assert picked is not None
        return pivot, picked[0]

    def _best(self, avail: int, out: int) -> float:
        key = avail << 128 | out
        found = self._memo.get(key)
        if found is not None:
            return found
        shape = self._shapes.get(avail)
        if shape is None:
            shape = self._shape(avail)
        if not shape:
            best = self.leftover(avail | out)
        else:
            card = shape[0]
            best = self._best(avail & ~(1 << card), out | 1 << card)
            for _, points, rest in shape[1]:
                score = points + self._best(rest, out)
                if score > best:
                    best = score
        self._memo[key] = best
        return best

    def _shape(self, avail: int) -> tuple[int, list[tuple[tuple[int, ...], int, int]]] | tuple[()]:
        """The branching of :meth:`_best` at ``avail``, which depends on the cards alone:
        ``()`` when they make no meld, else the card of the pivot and each meld holding it
        (its pieces, its points, the cards left). Shared by every evaluator of one rule set."""
        shapes = self._shapes
        if len(shapes) >= SHAPES_KEPT:
            shapes.clear()
        melds = self._melds(avail)
        if not melds:
            shapes[avail] = ()
            return ()
        pivot, card = self._pivot(melds, avail)
        branches = [(pieces, meld_points(pieces, self.points), rest)
                    for pieces, rest in melds_holding(pivot, melds, avail)]
        found = shapes[avail] = (card, branches)
        return found

    def has_melds(self, cards: int) -> bool:
        """Whether ``cards`` make a meld (wild jokers aside: see :meth:`_melds`); if not,
        no fewer cards do, and :meth:`value` is :meth:`leftover`."""
        shape = self._shapes.get(cards)
        if shape is None:
            shape = self._shape(cards)
        return bool(shape)


__all__ = ["PARTNERS", "PILE_REACH", "Evaluator", "completions"]
