"""A fixed-size observation of one seat's view, for learning agents (``docs/rl.md``).

:class:`ObservationEncoder` turns a :class:`~rummy500.view.PlayerView` into a
flat ``float32`` vector whose layout depends only on the rule set and the
player count. It reads the view and nothing else. Seats are counted from the
observer: row 0 is the observer, row 1 the player to its left, and so on;
sides likewise (the observer's side first).

Card planes are indexed by face (see :func:`~rummy500.rl.actions.face_index`:
``suit * 13 + rank - 1``, 52 for the joker) and hold counts of cards.

>>> from rummy500.game import Game
>>> game = Game(players=2, seed=1)
>>> encoder = ObservationEncoder(game.rules, 2)
>>> obs = encoder.encode(game.view(0))
>>> obs.shape, obs.dtype
((2149,), dtype('float32'))
>>> int(encoder.field(obs, "hand").sum())
13
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..cards import iter_bits
from ..kinds import Phase
from ..melds import Meld
from ..rules import Rules
from ..view import PlayerView
from .actions import CARD_FACE_INDEX, JOKER_INDEX, NATURAL_FACES, action_space

Observation = npt.NDArray[np.float32]

PHASES = tuple(Phase)
_PHASE_INDEX = {phase: i for i, phase in enumerate(PHASES)}
SCORE_CLIP = 10.0
"""Score features (points / score scale) are clipped to ±this."""


class Field(NamedTuple):
    """One named part of the observation vector."""

    name: str
    start: int
    shape: tuple[int, ...]
    high: float
    """The largest value an entry can take (the smallest is 0, or -high for scores)."""
    what: str

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def stop(self) -> int:
        return self.start + self.size


class ObservationEncoder:
    """The observation layout of one rule set and player count, and the encoder."""

    def __init__(self, rules: Rules, players: int) -> None:
        space = action_space(rules, players)
        self.rules = rules
        self.players = players
        self.sides = rules.sides(players)
        self.space = space
        target = rules.target_score
        self.score_scale = float(target if target is not None else 500 // rules.point_divisor)
        self.max_deals = rules.max_deals
        p, f, s = players, space.faces, space.meld_slots
        copies = float(max(space.decks, space.joker_count))
        fields: list[Field] = []

        def add(name: str, shape: tuple[int, ...], high: float, what: str) -> None:
            start = fields[-1].stop if fields else 0
            fields.append(Field(name, start, shape, high, what))

        add("hand", (f,), copies, "cards of each face in the observer's hand")
        add("pile_depth", (space.decks, NATURAL_FACES), 1.0,
            "each natural face's place in the pile counted from the top (1 = the top card) "
            "/ pack size, one row per copy (upper copy first); 0 if not there")
        if space.joker_count:
            add("pile_joker_depth", (space.joker_count,), 1.0,
                "the place from the top / pack size of each joker in the pile, upper first")
        add("table", (p, f), float(space.decks + space.joker_count),
            "cards of each face on the table laid by each seat (wild jokers under the face "
            "they stand for)")
        if space.wild:
            add("table_jokers", (NATURAL_FACES,), float(space.joker_count),
                "wild jokers on the table standing for each face")
        add("melds", (s, f), 4.0,
            "cards of each face in meld slot m1, m2, … (jokers as on the table)")
        add("fits", (s, f), 1.0, "1 where a card of that face can be laid off on that slot")
        add("known", (p, f), copies,
            "cards of each face each seat took from the pile and still holds (known to all)")
        add("must_use", (f,), 1.0, "1 at the face the player to move took and must use")
        add("hand_sizes", (p,), 1.0, "cards in each seat's hand / pack size")
        add("stock", (1,), 1.0, "cards in the stock / pack size")
        add("pile_size", (1,), 1.0, "cards in the discard pile / pack size")
        add("phase", (len(PHASES),), 1.0, "one-hot: draw, play, rummy, over")
        add("turn", (p,), 1.0, "one-hot: the seat the game waits for")
        add("dealer", (p,), 1.0, "one-hot: the dealer")
        add("totals", (self.sides,), SCORE_CLIP,
            "each side's running total before this deal / score scale (clipped)")
        add("credit", (p,), SCORE_CLIP,
            "points each seat has put on the table this deal / score scale (clipped)")
        add("deal", (1,), 1.0, "deals played / max_deals (0 when the game has no deal limit)")
        self.fields: tuple[Field, ...] = tuple(fields)
        self._field = {field.name: field for field in fields}
        self.size = fields[-1].stop
        low = np.zeros(self.size, dtype=np.float32)
        high = np.zeros(self.size, dtype=np.float32)
        for field in fields:
            high[field.start:field.stop] = field.high
            if field.name in ("totals",):
                low[field.start:field.stop] = -field.high
        self.low = low
        self.high = high
        self._starts = {field.name: field.start for field in fields}
        self._chunks: dict[int, list[int]] = {}
        self._meld_cache: dict[int, tuple[Meld, list[list[int] | None]]] = {}

    def field(self, obs: Observation, name: str) -> Observation:
        """The named part of ``obs``, in its shape."""
        field = self._field[name]
        return obs[field.start:field.stop].reshape(field.shape)

    def encode(self, view: PlayerView) -> Observation:
        """The observation of ``view`` (a fresh array).

        Count entries are gathered as indices (each meld's and each 16-card
        chunk's entries are cached: they recur from move to move) and counted at
        once; the fractions are then written at once.
        """
        o = self._starts
        players, faces, me = self.players, self.space.faces, view.seat
        fi = CARD_FACE_INDEX
        counts: list[int] = []
        self._cards(counts, o["hand"], view.hand)
        add = counts.append
        cache = self._meld_cache
        for meld in view.melds:
            entry = cache.get(id(meld))
            if entry is None or entry[0] is not meld:
                if len(cache) > 4096:
                    cache.clear()
                entry = cache[id(meld)] = (meld, [None] * players)
            part = entry[1][me]
            if part is None:
                part = entry[1][me] = self._meld_part(meld, me)
            counts.extend(part)
        known = o["known"]
        for seat, cards in enumerate(view.known):
            if cards:
                self._cards(counts, known + ((seat - me) % players) * faces, cards)
        if view.must_use >= 0:
            add(o["must_use"] + fi[view.must_use])
        add(o["phase"] + _PHASE_INDEX[view.phase])
        add(o["turn"] + (view.turn - me) % players)
        add(o["dealer"] + (view.dealer - me) % players)
        obs = np.bincount(counts, minlength=self.size).astype(np.float32)
        where: list[int] = []
        value: list[float] = []
        put, say = where.append, value.append
        pack = float(self.space.pack_size)
        pile = view.pile
        top = len(pile)
        if pile:
            depth_base = o["pile_depth"]
            joker_base = o.get("pile_joker_depth", -1)
            seen = 0
            jokers = 0
            for i in range(top - 1, -1, -1):
                index = fi[pile[i]]
                if index == JOKER_INDEX:
                    put(joker_base + jokers)
                    jokers += 1
                elif seen >> index & 1:
                    put(depth_base + NATURAL_FACES + index)
                else:
                    seen |= 1 << index
                    put(depth_base + index)
                say((top - i) / pack)
        sizes = o["hand_sizes"]
        for seat, size in enumerate(view.hand_sizes):
            put(sizes + (seat - me) % players)
            say(size / pack)
        put(o["stock"])
        say(view.stock_count / pack)
        put(o["pile_size"])
        say(top / pack)
        scale = self.score_scale
        if view.totals:
            totals = o["totals"]
            my_side = self.rules.side_of(me)
            for side, total in enumerate(view.totals):
                if total:
                    put(totals + (side - my_side) % self.sides)
                    say(_clip(total / scale))
        credit = o["credit"]
        for seat, points in enumerate(view.credit):
            if points:
                put(credit + (seat - me) % players)
                say(_clip(points / scale))
        if self.max_deals:
            put(o["deal"])
            say(min(view.deal_number / self.max_deals, 1.0))
        obs[where] = value
        return obs

    def _cards(self, out: list[int], base: int, cards: int) -> None:
        """Append ``base + face index`` for every card of a card set (16 bits at a time)."""
        table = self._chunks
        shift = 0
        while cards:
            chunk = cards & 0xFFFF
            if chunk:
                key = base << 24 | shift << 16 | chunk
                part = table.get(key)
                if part is None:
                    if len(table) > 65536:
                        table.clear()
                    fi = CARD_FACE_INDEX
                    part = table[key] = [base + fi[shift + i] for i in iter_bits(chunk)]
                out.extend(part)
            cards >>= 16
            shift += 16

    def _meld_part(self, meld: Meld, me: int) -> list[int]:
        """The count entries of one meld seen from seat ``me``: its slot, who laid what, fits."""
        o = self._starts
        faces = self.space.faces
        fi = CARD_FACE_INDEX
        slot_base = o["melds"] + (meld.number - 1) * faces
        table = o["table"]
        jokers_base = o.get("table_jokers", -1)
        part = []
        for tc in meld.cards:
            index = fi[tc.face]
            part.append(slot_base + index)
            part.append(table + ((tc.seat - me) % self.players) * faces + index)
            if jokers_base >= 0 and tc.card & 15 == 15:
                part.append(jokers_base + index)
        fits_base = o["fits"] + (meld.number - 1) * faces
        part.extend(fits_base + fi[face] for face in iter_bits(meld.fits))
        return part

    def describe(self) -> list[tuple[str, int, str, str]]:
        """(name, offset, shape, meaning) of every field, for documentation."""
        return [(f.name, f.start, "×".join(map(str, f.shape)), f.what) for f in self.fields]


def _clip(value: float) -> float:
    return max(-SCORE_CLIP, min(SCORE_CLIP, value))


@lru_cache(maxsize=32)
def observation_encoder(rules: Rules, players: int) -> ObservationEncoder:
    """The (shared) :class:`ObservationEncoder` of a rule set and player count."""
    return ObservationEncoder(rules, players)
