"""What cards outside melds are worth by the end of the deal (see
:mod:`~rummy500.bots.handeval`, which finds the melds).

Cards that lay off on the table count their points; pairs and near-runs that one more
card would complete count their points times the chance of that card coming (counted from
the live copies); dead cards risk being caught in hand; wild jokers go where they add
most. Values are kept per set of cards, and a search asks for many sets one card apart:
:meth:`LeftoverValues.leftovers_without` and :meth:`LeftoverValues.leftover_with` find
what lays off and the pairs once for them all, and add up the very same sums. What depends
on the live cards alone (each pair's odds) is shared by the evaluators of the same counts
met one after another (:mod:`~rummy500.bots.shared_odds`).
"""

from __future__ import annotations

import math

from ..cards import JOKER, JOKER_MASK, NATURAL_MASK, iter_bits
from ..melds import Meld
from ..rules import Rules
from ..scoring import Points
from .face_pairs import (
    NEAR,
    NEAR_BITS,
    OUTS,
    PAIRS_OF,
    PARTNERS,
    SAME_RANK,
    SAME_RANK_BITS,
    pairs_of,
)
from .shared_odds import odds_of
from .table_facts import RULE_SETS_KEPT, TableFacts, lay_off, table_facts

PILE_REACH = 0.45
"""The chance that a live card lying in the pile can still be had by a deep take."""
PILE_MISS = [math.pow(1.0 - PILE_REACH, copies) for copies in range(16)]
"""The chance that none of this many live copies in the pile is had."""
LAID_KEPT = 2_000
"""The most hands whose lay-offs one table keeps (then it starts afresh)."""
_RANK_VALUES: dict[Points, list[int]] = {}

class LeftoverValues:
    """Values cards outside melds against one table, with fixed counts of live cards."""

    def __init__(
        self,
        rules: Rules,
        points: Points,
        melds: tuple[Meld, ...] | list[Meld],
        live: list[int],
        pool: int,
        pile_count: list[int],
        draws: float,
        stuck: float,
        unseen: int | None = None,
        table: TableFacts | None = None,
        pile: int | None = None,
    ) -> None:
        """``unseen``: the cards ``live`` counts (each face's copies, ``pool`` in all), if
        known: then they are counted from it, as bits; ``table``: the facts of ``melds``, if
        known; ``pile``: the cards ``pile_count`` counts, if known: with ``unseen``, what
        depends on the live cards alone is shared with evaluators of the same counts made
        lately (see :mod:`~rummy500.bots.shared_odds`)."""
        self.rules = rules
        self._unseen = unseen
        self.points = points
        self.wild = rules.jokers == "wild"
        self.persian = rules.jokers == "persian"
        self.any_suit = rules.set_suits == "any"
        self.live = live
        self.pool = max(1, pool)
        self.pile_count = pile_count
        self.draws = draws
        self.stuck = stuck
        if table is None:
            table = table_facts(melds)
        self.runs = table.runs
        self.set_open = table.set_open
        self.joker_room = table.joker_room
        self.any_fits = table.any_fits
        self.fit_faces = table.fit_faces
        self.lay_reach = table.lay_reach
        laid = table.laid.get(points)
        if laid is None:
            laid = table.laid[points] = {}
        self._laid = laid
        """:meth:`layoffs` by cards, shared by the evaluators of this table and points."""
        rank_value = _RANK_VALUES.get(points)
        if rank_value is None:
            if len(_RANK_VALUES) >= RULE_SETS_KEPT:
                _RANK_VALUES.clear()
            rank_value = _RANK_VALUES[points] = [points.rank[r] if r else 0
                                                 for r in range(14)] + [points.ace]
        self.rank_value = rank_value
        """Points per rank (ace high at 14): shared by every evaluator of these points."""
        self._leaf: dict[int, float] = {}
        self._chance_memo, self._pair_gain, self._dead, self._loss, self._pairs = odds_of(
            None if unseen is None or pile is None else (points, unseen, pile, draws, stuck))
        """:meth:`chance` by outs, :meth:`_gain` by pair, :meth:`_dead_weight` and what a
        dead card costs (``stuck`` times its points, weighted) by face, :meth:`_partials`
        by faces (never changed by their users)."""
        self._joker_values: dict[int, float] = {}
        """:meth:`_jokers_left` by ``jokers << 1 | others``."""
        self._with_base: tuple[int, bool, int, int, list[tuple[float, int, int, int]], int,
                               float | None] | None = None
        """For :meth:`leftover_with`: the cards it last added to, and what they hold."""
        self._prepare()

    def _prepare(self) -> None:
        """What a subclass keeps beside these values, made once the values are set up."""

    # -- cards outside melds ----------------------------------------------------------------

    def card_points(self, card: int) -> int:
        if card & 15 == 15:
            return self.points.joker
        return self.rank_value[card & 15]

    def leftover(self, cards: int) -> float:
        """The worth of cards that make no meld among themselves."""
        found = self._leaf.get(cards)
        if found is not None:
            return found
        value = 0.0
        naturals = cards & ~JOKER_MASK
        if (naturals | naturals >> 64) & self.fit_faces:
            laid, laid_value = self.layoffs(naturals)
            value += laid_value
            rest = naturals & ~laid
        else:
            rest = naturals
        # a second copy of a face (two packs) never pairs with the first: it is dead
        faces = (rest | rest >> 64) & NATURAL_MASK
        doubles = rest & rest >> 64 & NATURAL_MASK
        pairs = self._partials(faces) if faces else []
        used = 0
        for gain, _, _, both in pairs:
            if used & both:
                continue
            used |= both
            value += gain
        losses = self._loss
        lone = faces & ~used | doubles << 64
        while lone:
            low = lone & -lone
            face = (low.bit_length() - 1) & 63
            lone ^= low
            loss = losses[face]
            if loss < 0.0:
                loss = losses[face] = self.stuck * self.rank_value[face & 15] * \
                    self._dead_weight(face)
            value -= loss
        jokers = (cards & JOKER_MASK).bit_count()
        if jokers:
            if self.wild:
                value += self._wild_jokers(jokers, self._kept(pairs), self._dead_values(
                    faces & ~used | doubles << 64))
            else:
                value += self._jokers_left(jokers, bool(faces))
        self._leaf[cards] = value
        return value

    def leftovers_without(self, cards: int) -> list[tuple[int, float]]:
        """:meth:`leftover` of ``cards`` less each of its cards in turn, lowest card first:
        (card, value). What lays off and the pairs are found once for all of them: less a
        card that does not lay off, the same cards lay off, and the pairs are those of
        ``cards`` without the card's, in the same order (a joker, a card that lays off, or
        a second copy of a face is valued on its own)."""
        naturals = cards & ~JOKER_MASK
        found: list[tuple[int, float]] = []
        leaf = self._leaf
        if naturals & naturals >> 64 & NATURAL_MASK:
            rest = cards
            while rest:
                low = rest & -rest
                rest ^= low
                found.append((low.bit_length() - 1, self.leftover(cards & ~low)))
            return found
        if (naturals | naturals >> 64) & self.fit_faces:
            laid, laid_value = self.layoffs(naturals)
            lays_off = True
        else:
            laid, laid_value, lays_off = 0, 0.0, False
        rest = naturals & ~laid
        faces = (rest | rest >> 64) & NATURAL_MASK
        pairs = self._partials(faces) if faces else []
        jokers = (cards & JOKER_MASK).bit_count()
        losses = self._loss
        stuck = self.stuck
        rank_value = self.rank_value
        rest = cards
        while rest:
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            without = cards & ~low
            value = leaf.get(without)
            if value is None:
                if card & 15 == 15 or laid & low:
                    value = self.leftover(without)
                else:
                    value = self._leftover_less(
                        without, 1 << (card & 63), faces, pairs, jokers,
                        laid_value if lays_off else None, losses, stuck, rank_value)
            found.append((card, value))
        return found

    def leftover_with(self, cards: int, card: int) -> float:
        """:meth:`leftover` of ``cards`` and one more ``card``: when the card is a natural
        one of a face not held that no lay-off can take, from what lays off from ``cards``
        and their pairs (found once for every card added to the same cards) and the
        card's own pairs."""
        more = cards | 1 << card
        found = self._leaf.get(more)
        if found is not None:
            return found
        face = card & 63
        base = self._with_base
        if base is None or base[0] != cards:
            base = self._with_base = self._base_of(cards)
        _, simple, held, faces, pairs, jokers, laid_value = base
        if not simple or card & 15 == 15 or (held | self.lay_reach) >> face & 1:
            return self.leftover(more)
        gains = self._pair_gain
        added = list(pairs)
        for other in iter_bits(PARTNERS[face] & faces):
            a, b = (face, other) if face < other else (other, face)
            key = a << 6 | b
            gain = gains.get(key)
            if gain is None:
                gain = gains[key] = self._gain(a, b)
            if gain > 0.0:
                added.append((gain, a, b, 1 << a | 1 << b))
        if len(added) > 1:
            added.sort(reverse=True)
        return self._leftover_less(more, 0, faces | 1 << face, added, jokers, laid_value,
                                   self._loss, self.stuck, self.rank_value)

    def _base_of(self, cards: int) -> tuple[int, bool, int, int,
                                           list[tuple[float, int, int, int]], int,
                                           float | None]:
        """What :meth:`leftover_with` adds cards to: ``cards``, whether it can (no face
        held twice), the faces held, those left after lay-offs, their pairs, the jokers,
        and the points laid off (None: nothing lays off)."""
        naturals = cards & ~JOKER_MASK
        held = (naturals | naturals >> 64) & NATURAL_MASK
        simple = not naturals & naturals >> 64 & NATURAL_MASK
        laid_value: float | None = None
        laid = 0
        if held & self.fit_faces:
            laid, laid_value = self.layoffs(naturals)
        rest = naturals & ~laid
        faces = (rest | rest >> 64) & NATURAL_MASK
        return (cards, simple, held, faces,
                self._partials(faces) if simple and faces else [],
                (cards & JOKER_MASK).bit_count(), laid_value)

    def _leftover_less(self, cards: int, gone: int, faces: int,
                       pairs: list[tuple[float, int, int, int]], jokers: int,
                       laid_value: float | None, losses: list[float], stuck: float,
                       rank_value: list[int]) -> float:
        """:meth:`leftover` of ``cards`` from the ``faces`` and ``pairs`` (best first) of
        more cards (their natural cards less ``gone``, a face whose pairs are passed over)
        that lay off ``laid_value`` (None: they lay off nothing) and hold ``jokers``: the
        same sums in the same order as :meth:`leftover`."""
        value = 0.0
        if laid_value is not None:
            value += laid_value
        used = 0
        for pair in pairs:  # the pairs of the smaller hand, in the same order
            both = pair[3]
            if both & gone or used & both:
                continue
            used |= both
            value += pair[0]
        faces &= ~gone
        lone = faces & ~used
        while lone:
            low = lone & -lone
            face = low.bit_length() - 1
            lone ^= low
            loss = losses[face]
            if loss < 0.0:
                loss = losses[face] = stuck * rank_value[face & 15] * self._dead_weight(face)
            value -= loss
        if jokers:
            if self.wild:
                kept = [pair for pair in pairs if not pair[3] & gone]
                value += self._wild_jokers(jokers, self._kept(kept),
                                           self._dead_values(faces & ~used))
            else:
                value += self._jokers_left(jokers, bool(faces))
        self._leaf[cards] = value
        return value

    @staticmethod
    def _kept(pairs: list[tuple[float, int, int, int]]) -> list[tuple[float, int, int]]:
        """The pairs :meth:`leftover` keeps: best first, each face in one pair at most."""
        used = 0
        kept: list[tuple[float, int, int]] = []
        for gain, a, b, both in pairs:
            if used & both:
                continue
            used |= both
            kept.append((gain, a, b))
        return kept

    def _dead_values(self, lone: int) -> list[float]:
        """Per dead card (``lone`` as faces, a second copy 64 above), its points and loss."""
        rank_value = self.rank_value
        return [rank_value[face & 15] + self._loss[face]
                for face in (card & 63 for card in iter_bits(lone))]

    def _dead_weight(self, face: int) -> float:
        """How surely a lone card stays dead: less when it could still join a meld."""
        found = self._dead[face]
        if found >= 0.0:
            return found
        unseen = self._unseen
        if unseen is not None:  # the same sums of live copies, counted as bits
            second = unseen >> 64
            mask = SAME_RANK_BITS[face]
            same_rank = (unseen & mask).bit_count() + (second & mask).bit_count()
            mask = NEAR_BITS[face]
            near = (unseen & mask).bit_count() + (second & mask).bit_count()
        else:
            live = self.live
            same_rank = 0
            for other in SAME_RANK[face]:
                same_rank += live[other]
            near = 0
            for other in NEAR[face]:
                near += live[other]
        # some hope of two more cards; never below half dead
        hope = min(0.5, (same_rank * same_rank + near * 0.6) / 40 * self.draws / 8)
        found = self._dead[face] = 1.0 - hope
        return found

    def layoffs(self, naturals: int) -> tuple[int, float]:
        """Cards that lay off on the table, runs extended in chains, and their points."""
        if not (naturals | naturals >> 64) & self.fit_faces:
            return 0, 0.0
        found = self._laid.get(naturals)
        if found is not None:
            return found
        if len(self._laid) >= LAID_KEPT:
            self._laid.clear()
        found = self._laid[naturals] = lay_off(self.runs, self.set_open, naturals,
                                               self.rank_value, self.points.low_ace)
        return found

    def chance(self, outs: tuple[int, ...]) -> float:
        """The chance of getting one of the faces ``outs`` before the deal ends."""
        known = self._chance_memo.get(outs)
        if known is not None:
            return known
        live = 0
        in_pile = 0
        for face in outs:
            live += self.live[face]
            in_pile += self.pile_count[face]
        miss = math.pow(1.0 - min(1.0, live / self.pool), self.draws)
        miss *= PILE_MISS[in_pile] if in_pile < len(PILE_MISS) else \
            math.pow(1.0 - PILE_REACH, in_pile)
        found = self._chance_memo[outs] = 1.0 - miss
        return found

    def _partials(self, faces: int) -> list[tuple[float, int, int, int]]:
        """Pairs of faces one card short of a meld, best first: (gain, a, b, both faces'
        bits)."""
        known = self._pairs.get(faces)
        if known is not None:
            return known
        candidates = PAIRS_OF.get(faces)
        if candidates is None:
            candidates = pairs_of(faces)
        found = []
        gains = self._pair_gain
        for key, a, b, both in candidates:
            gain = gains.get(key)
            if gain is None:
                gain = gains[key] = self._gain(a, b)
            if gain > 0.0:
                found.append((gain, a, b, both))
        if len(found) > 1:
            found.sort(reverse=True)
        self._pairs[faces] = found
        return found

    def _gain(self, a: int, b: int) -> float:
        """What keeping ``a`` and ``b`` together adds over two dead cards."""
        outs = OUTS[a << 6 | b]
        if not outs:
            return 0.0
        stuck = self.stuck
        rank_value = self.rank_value
        p = self._chance_memo.get(outs)
        if p is None:
            p = self.chance(outs)
        pair = rank_value[a & 15] + rank_value[b & 15]
        out_value = rank_value[outs[0] & 15]
        value = p * (pair + out_value) - (1.0 - p) * stuck * pair
        dead = self._dead
        dead_a = dead[a]
        if dead_a < 0.0:
            dead_a = self._dead_weight(a)
        dead_b = dead[b]
        if dead_b < 0.0:
            dead_b = self._dead_weight(b)
        return value - -stuck * (rank_value[a & 15] * dead_a + rank_value[b & 15] * dead_b)

    def _wild_jokers(self, jokers: int, pairs: list[tuple[float, int, int]],
                     dead: list[float]) -> float:
        """Wild jokers placed where they add most: completing a pair into a meld, with a
        lone card and a second joker, or laid off on the table."""
        pts = self.points.joker
        stuck = self.stuck
        rank_value = self.rank_value
        uses: list[float] = []
        for gain, a, b in pairs:
            # a pair (worth its dead cards plus ``gain``) becomes a sure meld with the joker
            dead_pair = -stuck * (rank_value[a & 15] * self._dead_weight(a)
                                  + rank_value[b & 15] * self._dead_weight(b))
            uses.append(rank_value[a & 15] + rank_value[b & 15] + pts - dead_pair - gain)
        uses.sort(reverse=True)
        single = sorted(dead, reverse=True)
        value = 0.0
        left = jokers
        for use in uses:
            if not left or use <= pts:
                break
            value += use
            left -= 1
        while left >= 2 and single and single[0] + 2 * pts > 2 * pts + 0.5:
            value += single.pop(0) + 2 * pts
            left -= 2
        if left:
            value += left * pts * (1.0 if self.any_fits else 0.5)
        return value

    def _jokers_left(self, jokers: int, others: bool) -> float:
        key = jokers << 1 | others
        found = self._joker_values.get(key)
        if found is None:
            found = self._joker_values[key] = self._jokers_worth(jokers, others)
        return found

    def _jokers_worth(self, jokers: int, others: bool) -> float:
        pts = self.points.joker
        if self.wild:
            if self.any_fits:
                return float(jokers * pts)
            # a joker completes any pair later: worth keeping
            return jokers * pts * (0.8 if others else 0.2)
        if self.persian:
            room = self.joker_room
            value = 0.0
            placed = min(room, jokers)
            value += placed * pts
            left = jokers - placed
            if left:
                outs = (JOKER,)
                p = self.chance(outs) if left == 2 else self.chance(outs) ** 2
                value += left * pts * (p - (1.0 - p) * self.stuck)
            return value
        return 0.0
