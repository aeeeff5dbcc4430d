"""What the bots read of the table, worked out once per table.

The table changes only when a meld is laid or a card laid off, and a search meets the same
table in thousands of positions: :func:`table_facts` keeps what the evaluator and the
card count read of it (the runs and open sets, the faces that lay off, every card on it),
by the identity of its melds (which are never changed, only replaced).
"""

from __future__ import annotations

from operator import is_
from typing import NamedTuple

from ..cards import NATURAL_MASK, SUIT_BITS
from ..melds import ACE_HIGH, JOKER_SET, RUN, Meld
from ..scoring import Points

TABLES_KEPT = 4_000
"""The most tables whose facts are kept (then they start afresh)."""
RULE_SETS_KEPT = 8
"""The most rule sets (by their points) whose caches the bots keep at once (then they start
afresh): a server may play many."""


class TableFacts(NamedTuple):
    runs: tuple[tuple[int, int, int], ...]
    """Each run as (suit, lowest position, highest position)."""
    set_open: dict[int, tuple[int, int]]
    """Per rank of a set that takes more cards: the faces it takes, and how many more."""
    joker_room: int
    """How many more jokers the joker sets take."""
    joker_set_open: bool
    """Whether a joker set takes another joker."""
    any_fits: bool
    """Whether any meld takes a card."""
    fit_faces: int
    """The faces that lay off on a meld other than a joker set."""
    cards: int
    """Every card on the table."""
    lay_reach: int
    """The faces a hand's lay-offs may take: every face of a run's suit (runs grow in
    chains), and the faces an open set takes."""
    laid: dict[Points, dict[int, tuple[int, float]]]
    """What lays off from a hand, per points and hand (filled by the evaluators)."""


_TABLES: dict[tuple[int, ...], tuple[tuple[Meld, ...], TableFacts]] = {}
_BY_MELDS: dict[tuple[Meld, ...], TableFacts] = {}
"""The same facts by the melds themselves: sampled deals of one search lay equal melds as
new objects (the searching seat's meld after a take, in every deal), and equal tables
share their facts, what lays off from a hand included."""


def table_facts(melds: tuple[Meld, ...] | list[Meld]) -> TableFacts:
    """The facts of the table of ``melds``."""
    key = tuple(map(id, melds))
    found = _TABLES.get(key)
    # the melds are kept with their facts, so their ids are not reused while kept; the
    # identity check covers a table met again after the cache started afresh
    if found is not None and all(map(is_, found[0], melds)):
        return found[1]
    kept = tuple(melds)
    facts = _BY_MELDS.get(kept)
    if facts is None:
        facts = _work_out(melds)
        if len(_BY_MELDS) >= TABLES_KEPT:
            _BY_MELDS.clear()
        _BY_MELDS[kept] = facts
    if len(_TABLES) >= TABLES_KEPT:
        _TABLES.clear()
    _TABLES[key] = (kept, facts)
    return facts


def reach_of(meld: Meld) -> int:
    """The faces lay-offs onto ``meld`` may take (see :attr:`TableFacts.lay_reach`)."""
    if meld.kind == RUN:
        return SUIT_BITS << (meld.suit << 4)
    if meld.kind == JOKER_SET:
        return 0
    return meld.fits


def _work_out(melds: tuple[Meld, ...] | list[Meld]) -> TableFacts:
    runs: list[tuple[int, int, int]] = []
    set_open: dict[int, tuple[int, int]] = {}
    joker_room = 0
    joker_set_open = False
    any_fits = False
    fit_faces = 0
    cards = 0
    lay_reach = 0
    for meld in melds:
        for table_card in meld.cards:
            cards |= 1 << table_card.card
        if meld.fits:
            any_fits = True
            if meld.kind != JOKER_SET:
                fit_faces |= meld.fits
        lay_reach |= reach_of(meld)
        if meld.kind == RUN:
            runs.append((meld.suit, meld.lo, meld.hi))
        elif meld.kind == JOKER_SET:
            joker_room += 4 - len(meld.cards)
            if meld.fits:
                joker_set_open = True
        elif meld.fits:
            set_open[meld.rank] = (meld.fits, 4 - len(meld.cards))
    return TableFacts(tuple(runs), set_open, joker_room, joker_set_open, any_fits, fit_faces,
                      cards, lay_reach, {})


RANK_BITS = 1 | 1 << 16 | 1 << 32 | 1 << 48
"""The faces of rank 0 in the four suits (shifted by a rank: that rank's)."""


def _first_copy(cards: int, face: int) -> int:
    """The bit of the first copy of ``face`` held in ``cards`` (the second copy 64 above),
    0 when neither is."""
    bit = 1 << face
    if cards & bit:
        return bit
    bit <<= 64
    return bit if cards & bit else 0


def lay_off(runs: tuple[tuple[int, int, int], ...], set_open: dict[int, tuple[int, int]],
            naturals: int, rank_value: list[int], low_ace: int) -> tuple[int, float]:
    """The cards of ``naturals`` (a second copy 64 above) that lay off on a table of these
    ``runs`` and open sets (``TableFacts``), runs extended in chains, and their points."""
    laid = 0
    value = 0.0
    held = (naturals | naturals >> 64) & NATURAL_MASK
    for rank, (open_faces, room) in set_open.items():
        # the faces of the rank the set takes, by suit, each the first copy held
        fits = open_faces & held & RANK_BITS << rank
        while fits and room > 0:
            low = fits & -fits
            fits ^= low
            laid |= low if naturals & low else low << 64
            value += rank_value[rank]
            room -= 1
    for suit, lo, hi in runs:
        base = suit << 4
        while lo > 1 and not (lo == 2 and hi == ACE_HIGH):
            pos = lo - 1
            card = _first_copy(naturals & ~laid, base | pos)
            if not card:
                break
            laid |= card
            value += low_ace if pos == 1 else rank_value[pos]
            lo = pos
        while hi < ACE_HIGH and not (hi == 13 and lo == 1):
            pos = hi + 1
            card = _first_copy(naturals & ~laid, base | (1 if pos == ACE_HIGH else pos))
            if not card:
                break
            laid |= card
            value += rank_value[pos]
            hi = pos
    return laid, value
