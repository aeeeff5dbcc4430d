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

import math
from functools import cache

from ..cards import JOKER, JOKER_MASK, NATURAL_MASK, faces_present, faces_twice, iter_bits
from ..melds import ACE_HIGH, JOKER_SET, RUN, Meld, find_melds
from ..rules import Rules
from ..scoring import Points
from ..table import pick_cards
from .simple import meld_points, melds_holding

PILE_REACH = 0.45
"""The chance that a live card lying in the pile can still be had by a deep take."""


class Evaluator:
    """Values hands against one table, with fixed counts of live cards."""

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
    ) -> None:
        self.rules = rules
        self.points = points
        self.wild = rules.jokers == "wild"
        self.persian = rules.jokers == "persian"
        self.any_suit = rules.set_suits == "any"
        self.live = live
        self.pool = max(1, pool)
        self.pile_count = pile_count
        self.draws = draws
        self.stuck = stuck
        runs: list[tuple[int, int, int]] = []
        set_open: dict[int, tuple[int, int]] = {}
        joker_room = 0
        any_fits = False
        fit_faces = 0
        for meld in melds:
            if meld.fits:
                any_fits = True
                if meld.kind != JOKER_SET:
                    fit_faces |= meld.fits
            if meld.kind == RUN:
                runs.append((meld.suit, meld.lo, meld.hi))
            elif meld.kind == JOKER_SET:
                joker_room += 4 - len(meld.cards)
            elif meld.fits:
                set_open[meld.rank] = (meld.fits, 4 - len(meld.cards))
        self.runs = runs
        self.set_open = set_open
        self.joker_room = joker_room
        self.any_fits = any_fits
        self.fit_faces = fit_faces
        self.rank_value = [points.rank[r] if r else 0 for r in range(14)] + [points.ace]
        self._memo: dict[int, float] = {}
        """:meth:`_best` by ``avail << 128 | out`` (a hand is ``_best(hand, 0)``)."""
        self._leaf: dict[int, float] = {}
        self._chance_memo: dict[tuple[int, ...], float] = {}
        self._pair_gain: dict[int, float] = {}
        self._dead = [-1.0] * 64

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
            melds = self._melds(avail)
            if not melds:
                return best_value, chosen
            target = self._best(avail, out)
            pivot, card = self._pivot(melds, avail)
            found = False
            for pieces, rest in melds_holding(pivot, melds, avail):
                if abs(meld_points(pieces, self.points) + self._best(rest, out) - target) < 1e-9:
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
        melds = self._melds(avail)
        if not melds:
            best = self.leftover(avail | out)
        else:
            pivot, card = self._pivot(melds, avail)
            best = self._best(avail & ~(1 << card), out | 1 << card)
            for pieces, rest in melds_holding(pivot, melds, avail):
                score = meld_points(pieces, self.points) + self._best(rest, out)
                if score > best:
                    best = score
        self._memo[key] = best
        return best

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
        stuck = self.stuck
        jokers = (cards & JOKER_MASK).bit_count()
        naturals = cards & ~JOKER_MASK
        laid, laid_value = self.layoffs(naturals)
        value += laid_value
        rest = naturals & ~laid
        # a second copy of a face (two packs) never pairs with the first: it is dead
        faces = (rest | rest >> 64) & NATURAL_MASK
        doubles = rest & rest >> 64 & NATURAL_MASK
        pairs = self._partials(faces)
        used = 0
        kept: list[tuple[float, int, int]] = []
        for gain, a, b in pairs:
            if used >> a & 1 or used >> b & 1:
                continue
            used |= 1 << a | 1 << b
            value += gain
            kept.append((gain, a, b))
        rank_value = self.rank_value
        dead: list[float] = []
        for face in iter_bits(faces & ~used | doubles << 64):
            face &= 63
            loss = stuck * rank_value[face & 15] * self._dead_weight(face)
            value -= loss
            dead.append(rank_value[face & 15] + loss)
        if jokers:
            if self.wild:
                value += self._wild_jokers(jokers, kept, dead)
            else:
                value += self._jokers_left(jokers, bool(faces))
        self._leaf[cards] = value
        return value

    def _dead_weight(self, face: int) -> float:
        """How surely a lone card stays dead: less when it could still join a meld."""
        found = self._dead[face]
        if found >= 0.0:
            return found
        suit, rank = face >> 4, face & 15
        live = self.live
        same_rank = sum(live[s << 4 | rank] for s in range(4) if s != suit)
        near = 0
        for r in (rank - 2, rank - 1, rank + 1, rank + 2):
            if 1 <= r <= 13:
                near += live[suit << 4 | r]
            elif r == 14:
                near += live[suit << 4 | 1]
        # some hope of two more cards; never below half dead
        hope = min(0.5, (same_rank * same_rank + near * 0.6) / 40 * self.draws / 8)
        found = self._dead[face] = 1.0 - hope
        return found

    def layoffs(self, naturals: int) -> tuple[int, float]:
        """Cards that lay off on the table, runs extended in chains, and their points."""
        if not (naturals | naturals >> 64) & self.fit_faces:
            return 0, 0.0
        laid = 0
        value = 0.0
        rank_value = self.rank_value
        low_ace = self.points.low_ace
        for rank, (open_faces, room) in self.set_open.items():
            for suit in range(4):
                if room <= 0:
                    break
                face = suit << 4 | rank
                if open_faces >> face & 1:
                    card = face if naturals >> face & 1 else face + 64
                    if naturals >> card & 1:
                        laid |= 1 << card
                        value += rank_value[rank]
                        room -= 1
        for suit, lo, hi in self.runs:
            base = suit << 4
            while lo > 1 and not (lo == 2 and hi == ACE_HIGH):
                pos = lo - 1
                card = self._held(naturals & ~laid, base | pos)
                if card < 0:
                    break
                laid |= 1 << card
                value += low_ace if pos == 1 else rank_value[pos]
                lo = pos
            while hi < ACE_HIGH and not (hi == 13 and lo == 1):
                pos = hi + 1
                card = self._held(naturals & ~laid, base | (1 if pos == ACE_HIGH else pos))
                if card < 0:
                    break
                laid |= 1 << card
                value += rank_value[pos]
                hi = pos
        return laid, value

    @staticmethod
    def _held(cards: int, face: int) -> int:
        if cards >> face & 1:
            return face
        if cards >> (face + 64) & 1:
            return face + 64
        return -1

    def chance(self, outs: tuple[int, ...]) -> float:
        """The chance of getting one of the faces ``outs`` before the deal ends."""
        known = self._chance_memo.get(outs)
        if known is not None:
            return known
        live = sum(self.live[f] for f in outs)
        in_pile = sum(self.pile_count[f] for f in outs)
        miss = math.pow(1.0 - min(1.0, live / self.pool), self.draws)
        miss *= math.pow(1.0 - PILE_REACH, in_pile)
        found = self._chance_memo[outs] = 1.0 - miss
        return found

    def _partials(self, faces: int) -> list[tuple[float, int, int]]:
        """Pairs of faces one card short of a meld, best first: (gain, a, b)."""
        found = []
        gains = self._pair_gain
        for a in iter_bits(faces):
            partners = PARTNERS[a] & faces & ~((2 << a) - 1)
            while partners:
                low = partners & -partners
                b = low.bit_length() - 1
                partners ^= low
                key = a << 6 | b
                gain = gains.get(key)
                if gain is None:
                    gain = gains[key] = self._gain(a, b)
                if gain > 0.0:
                    found.append((gain, a, b))
        if len(found) > 1:
            found.sort(reverse=True)
        return found

    def _gain(self, a: int, b: int) -> float:
        """What keeping ``a`` and ``b`` together adds over two dead cards."""
        outs = completions(a, b)
        if not outs:
            return 0.0
        stuck = self.stuck
        rank_value = self.rank_value
        p = self.chance(outs)
        pair = rank_value[a & 15] + rank_value[b & 15]
        out_value = rank_value[outs[0] & 15]
        value = p * (pair + out_value) - (1.0 - p) * stuck * pair
        dead = -stuck * (rank_value[a & 15] * self._dead_weight(a)
                         + rank_value[b & 15] * self._dead_weight(b))
        return value - dead

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


@cache
def completions(a: int, b: int) -> tuple[int, ...]:
    """The faces that would make a meld of ``a``, ``b`` and one more card."""
    if a == b:
        return ()
    ra, rb = a & 15, b & 15
    if ra == rb:
        sa, sb = a >> 4, b >> 4
        return tuple(s << 4 | ra for s in range(4) if s != sa and s != sb)
    if a >> 4 != b >> 4:
        return ()
    suit = a >> 4
    outs: list[int] = []
    for pa in ((1, ACE_HIGH) if ra == 1 else (ra,)):
        for pb in ((1, ACE_HIGH) if rb == 1 else (rb,)):
            lo, hi = min(pa, pb), max(pa, pb)
            if hi - lo == 1:
                if lo > 1:
                    outs.append(lo - 1)
                if hi < ACE_HIGH:
                    outs.append(hi + 1)
            elif hi - lo == 2:
                outs.append(lo + 1)
    return tuple(dict.fromkeys(suit << 4 | (1 if p == ACE_HIGH else p) for p in outs))


def _partners(face: int) -> int:
    """Faces that can make a meld with ``face`` and one more card."""
    suit, rank = face >> 4, face & 15
    bits = 0
    for s in range(4):
        if s != suit:
            bits |= 1 << (s << 4 | rank)
    ranks = [rank - 2, rank - 1, rank + 1, rank + 2]
    if rank == 1:
        ranks += [12, 13]
    if rank in (12, 13):
        ranks.append(1)
    for r in ranks:
        if 1 <= r <= 13:
            bits |= 1 << (suit << 4 | r)
    return bits


PARTNERS = [_partners(face) if 1 <= face & 15 <= 13 else 0 for face in range(64)]
