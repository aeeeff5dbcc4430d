"""What is a meld, what a meld accepts, and what cards are worth where they lie.

Melds are reasoned about in *faces* (see :mod:`rummy500.cards`). A run's cards
are placed at *positions* 1..14 of its suit: position ``r`` is rank ``r`` and
position 14 is the ace played high, so an ace in a run is low at 1 or high at 14
and never both (no run goes round the corner, and none holds both aces).

A *piece* is one element of a meld move: a natural face (0..63), a wild joker
declared as face ``f`` (``DECLARED + f``), or an undeclared joker
(:data:`~rummy500.cards.JOKER`, how Persian jokers are melded).
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations, combinations_with_replacement, product
from typing import NamedTuple

from .cards import JOKER, face_pretty, rank_of, suit_of
from .errors import MeldError as MeldError
from .kinds import MeldKind
from .rules import Rules

RUN, SET, JOKER_SET = MeldKind.RUN, MeldKind.SET, MeldKind.JOKER_SET
DECLARED = 64
ACE_HIGH = 14


def piece_face(piece: int) -> int:
    """The face a piece stands for (a declared joker: the declared face)."""
    return piece - DECLARED if piece >= DECLARED else piece


def is_joker_piece(piece: int) -> bool:
    return piece >= DECLARED or piece == JOKER


def position_face(suit: int, position: int) -> int:
    return suit << 4 | (1 if position == ACE_HIGH else position)


def piece_pretty(piece: int) -> str:
    if piece >= DECLARED:
        return f"joker as {face_pretty(piece - DECLARED)}"
    return face_pretty(piece)


class TableCard(NamedTuple):
    card: int
    """The physical card."""
    face: int
    """The face it stands for: its own, the declared one for a wild joker, JOKER for Persian."""
    seat: int
    """The player who laid it (and is credited with it)."""
    points: int


class Meld(NamedTuple):
    """A meld on the table; a new value replaces it when a card is laid off."""

    number: int
    kind: MeldKind
    suit: int
    """The run's suit (-1 for sets)."""
    rank: int
    """The set's rank (0 for runs and joker sets)."""
    lo: int
    hi: int
    """The run's lowest and highest positions (0 for sets)."""
    faces: int
    """Bitset of the faces the meld holds (declared faces for jokers)."""
    cards: tuple[TableCard, ...]
    fits: int
    """The faces that can be laid off onto it (JOKER's bit for an open joker set)."""

    @property
    def name(self) -> str:
        return f"m{self.number}"

    def describe(self) -> str:
        ordered = sorted(self.cards, key=lambda c: self.order_key(c.face))
        return " ".join(
            ("*=" if c.card & 15 == 15 and c.face != JOKER else "") + face_pretty(c.face)
            if c.face != JOKER
            else "*"
            for c in ordered
        )

    def order_key(self, face: int) -> int:
        if self.kind == RUN:
            rank = rank_of(face)
            return ACE_HIGH if rank == 1 and self.hi == ACE_HIGH else rank
        return suit_of(face)


class MeldShape(NamedTuple):
    kind: MeldKind
    suit: int
    rank: int
    lo: int
    hi: int
    pieces: tuple[int, ...]
    """The pieces in canonical order (runs low to high, sets by suit)."""


def accepts(meld: Meld) -> int:
    """The faces that can be laid off onto ``meld`` (JOKER's bit for a joker set)."""
    return meld.fits


def compute_fits(
    kind: MeldKind, suit: int, rank: int, lo: int, hi: int, faces: int, size: int,
    any_suit: bool = False,
) -> int:
    """What a meld of this shape accepts: see :func:`accepts`. ``any_suit``
    (``set_suits = "any"``): a set under four accepts every card of its rank, even one it
    holds."""
    if kind == RUN:
        bits = 0
        if lo > 1 and not (lo == 2 and hi == ACE_HIGH):
            bits |= 1 << position_face(suit, lo - 1)
        if hi < ACE_HIGH and not (hi == 13 and lo == 1):
            bits |= 1 << position_face(suit, hi + 1)
        return bits
    if size >= 4:
        return 0
    if kind == JOKER_SET:
        return 1 << JOKER
    every = 1 << rank | 1 << (16 + rank) | 1 << (32 + rank) | 1 << (48 + rank)
    return every if any_suit else every & ~faces


def layoff_position(meld: Meld, face: int) -> int:
    """Where ``face`` goes on the run ``meld`` (an ace that fits both ends goes high)."""
    rank = rank_of(face)
    if rank == 1:
        return ACE_HIGH if meld.hi == 13 else 1
    return rank


def classify(pieces: tuple[int, ...], rules: Rules) -> MeldShape:
    """Check that ``pieces`` form a meld under ``rules`` and give its canonical shape."""
    return _classify(pieces, rules.jokers, rules.min_run, rules.set_suits)


@lru_cache(maxsize=65536)
def _classify(
    pieces: tuple[int, ...], jokers: str, min_run: int, set_suits: str = "distinct"
) -> MeldShape:
    if len(pieces) < 3:
        raise MeldError("a meld needs at least three cards")
    plain_jokers = sum(1 for p in pieces if p == JOKER)
    declared = sum(1 for p in pieces if p >= DECLARED)
    if plain_jokers:
        if jokers == "wild":
            raise MeldError("say which card each joker stands for, like *=6h")
        if jokers != "persian":
            raise MeldError("there are no jokers in this game")
        if plain_jokers != len(pieces):
            raise MeldError("jokers are not wild in this game: they meld only with each other")
        if len(pieces) > 4:
            raise MeldError("a set of jokers holds at most four")
        return MeldShape(JOKER_SET, -1, 0, 0, 0, pieces)
    if declared and jokers != "wild":
        raise MeldError("jokers are not wild in this game and cannot stand for a card")
    if declared == len(pieces):
        raise MeldError("a meld needs at least one natural card besides its jokers")
    faces = [piece_face(p) for p in pieces]
    words = " ".join(piece_pretty(p) for p in pieces)
    ranks = {rank_of(f) for f in faces}
    twice = len(set(faces)) != len(faces)
    if len(ranks) == 1:
        distinct = set_suits == "distinct"
        if len(pieces) > 4:
            raise MeldError(f"{words} is not a meld: a set holds at most four cards"
                            + (", one of each suit" if distinct else ""))
        if twice and distinct:
            raise MeldError(f"{words} is not a meld: a set holds one card of each suit, "
                            "even with two packs (set_suits = distinct)")
        rank = ranks.pop()
        # By suit, a natural card before a joker standing for the same card.
        ordered = tuple(sorted(pieces, key=lambda p: (suit_of(piece_face(p)), p)))
        return MeldShape(SET, -1, rank, 0, 0, ordered)
    if twice:
        raise MeldError("a meld cannot hold the same card twice")
    suits = {suit_of(f) for f in faces}
    if len(suits) != 1:
        raise MeldError(
            f"{words} is not a meld: a set is three or four cards of one rank, "
            "a run three or more cards of one suit in sequence"
        )
    suit = suits.pop()
    high = 13 in ranks
    def position(piece: int) -> int:
        rank = rank_of(piece_face(piece))
        return ACE_HIGH if rank == 1 and high else rank
    ordered = tuple(sorted(pieces, key=position))
    lo, hi = position(ordered[0]), position(ordered[-1])
    if hi - lo + 1 != len(ordered):
        if 1 in ranks and 13 in ranks and 2 in ranks:
            raise MeldError(f"{words} is not a run: runs do not go round the corner (K-A-2)")
        raise MeldError(f"{words} is not a run: the cards of a run follow one another")
    if len(ordered) < min_run:
        raise MeldError(f"{words} is not a meld: a run needs at least {min_run} cards")
    return MeldShape(RUN, suit, 0, lo, hi, ordered)


# ---------------------------------------------------------------------------
# Finding every meld a set of faces can make


@cache
def _run_windows(ext: int, min_run: int) -> tuple[tuple[int, int], ...]:
    """Every (lo, hi) window of consecutive positions present in ``ext``."""
    windows = []
    pos = 1
    while pos <= ACE_HIGH:
        if ext >> pos & 1:
            start = pos
            while pos <= ACE_HIGH and ext >> pos & 1:
                pos += 1
            end = pos - 1
            for lo in range(start, end - min_run + 2):
                for hi in range(lo + min_run - 1, end + 1):
                    # A..K is listed once, as 2..A (ace high: classify reads it so).
                    if not (lo == 1 and hi >= 13):
                        windows.append((lo, hi))
        pos += 1
    return tuple(windows)


@cache
def _natural_runs(suit: int, bits: int, min_run: int) -> tuple[tuple[int, ...], ...]:
    ext = bits | (bits & 2) << 13
    return tuple(
        tuple(position_face(suit, p) for p in range(lo, hi + 1))
        for lo, hi in _run_windows(ext, min_run)
    )


@cache
def _natural_sets(rank: int, suit_mask: int) -> tuple[tuple[int, ...], ...]:
    suits = [s for s in range(4) if suit_mask >> s & 1]
    found = []
    for size in (3, 4):
        for combo in combinations(suits, size):
            found.append(tuple(s << 4 | rank for s in combo))
    return tuple(found)


@cache
def _any_suit_sets(
    rank: int, held: tuple[int, ...], wild: int
) -> tuple[tuple[int, ...], ...]:
    """Every set of ``rank`` under ``set_suits = "any"``: ``held[s]`` natural cards of suit
    ``s`` (0 to 2) and ``wild`` wild jokers, each standing for any card of the rank."""
    found = []
    for size in (3, 4):
        for combo in combinations_with_replacement(range(4), size):
            counts = [combo.count(s) for s in range(4)]
            for naturals in product(*(range(min(counts[s], held[s]) + 1) for s in range(4))):
                natural = sum(naturals)
                if not natural or size - natural > wild:
                    continue
                pieces: list[int] = []
                for s in range(4):
                    face = s << 4 | rank
                    pieces += [face] * naturals[s] + [DECLARED + face] * (counts[s] - naturals[s])
                found.append(tuple(pieces))
    return tuple(found)


def _held(faces: int, doubles: int, rank: int) -> tuple[int, ...]:
    return tuple((faces >> (s << 4 | rank) & 1) + (doubles >> (s << 4 | rank) & 1)
                 for s in range(4))


RANK_BITS = 0x0001_0001_0001_0001
"""Shifted left by a rank: that rank's face in each suit."""
ACES = RANK_BITS << 1


def find_melds(
    faces: int, wild: int, persian: int, min_run: int, doubles: int = 0,
    any_suit: bool = False,
) -> list[tuple[int, ...]]:
    """Every meld (as canonical pieces) that ``faces`` and the jokers can make.

    ``any_suit`` (``set_suits = "any"``): sets may repeat a card, ``doubles`` being the
    faces held twice (with two packs), and a wild joker may stand for a card the set holds.
    """
    melds: list[tuple[int, ...]] = []
    if wild:
        _find_wild_melds(faces, wild, min_run, melds, doubles if any_suit else -1)
    else:
        # Where the four suits hold min_run positions in a row (ace high too): most hands
        # hold none, and no suit is looked at.
        ext = faces | (faces & ACES) << 13
        starts = ext
        for shift in range(1, min_run):
            starts &= ext >> shift
        if starts:
            for suit in range(4):
                if starts >> (suit << 4) & 0xFFFF:
                    melds.extend(_natural_runs(suit, faces >> (suit << 4) & 0x3FFE, min_run))
        sets_possible = faces & faces >> 16 & (faces >> 32 | faces >> 48) | (
            faces >> 32 & faces >> 48 & (faces | faces >> 16)
        )
        sets_possible &= 0x3FFE
        if doubles and any_suit:
            twice = (doubles | doubles >> 16 | doubles >> 32 | doubles >> 48) & 0x3FFE
            sets_possible &= ~twice
            for rank in range(1, 14):
                if twice >> rank & 1 and (faces >> rank & RANK_BITS).bit_count() >= 2:
                    melds.extend(_any_suit_sets(rank, _held(faces, doubles, rank), 0))
        while sets_possible:
            low = sets_possible & -sets_possible
            rank = low.bit_length() - 1
            sets_possible ^= low
            mask = (faces >> rank & 1) | (faces >> (rank + 15) & 2) | (
                faces >> (rank + 30) & 4) | (faces >> (rank + 45) & 8)
            melds.extend(_natural_sets(rank, mask))
    if persian >= 3:
        melds.append((JOKER,) * 3)
        if persian >= 4:
            melds.append((JOKER,) * 4)
    return melds


def _find_wild_melds(
    faces: int, wild: int, min_run: int, out: list[tuple[int, ...]], doubles: int = -1
) -> None:
    """The melds with wild jokers; ``doubles`` as in :func:`find_melds` (-1: distinct)."""
    for suit in range(4):
        bits = faces >> (suit << 4) & 0x3FFE
        if not bits:
            continue
        ext = bits | (bits & 2) << 13
        for lo in range(1, ACE_HIGH + 1):
            for hi in range(lo + min_run - 1, ACE_HIGH + 1):
                if lo == 1 and hi == ACE_HIGH:
                    break
                if lo == 1 and hi == 13:
                    continue  # the same cards as 2..A, listed there (ace high)
                window = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
                present = ext & window
                missing = hi - lo + 1 - present.bit_count()
                if missing > wild:
                    break
                if not present:
                    continue
                present_positions = [p for p in range(lo, hi + 1) if present >> p & 1]
                spare = wild - missing
                for extra in range(0, min(spare, len(present_positions) - 1) + 1):
                    for replaced in combinations(present_positions, extra):
                        out.append(tuple(
                            position_face(suit, p)
                            + (DECLARED if not present >> p & 1 or p in replaced else 0)
                            for p in range(lo, hi + 1)
                        ))
    for rank in range(1, 14):
        held = [s for s in range(4) if faces >> (s << 4 | rank) & 1]
        if not held:
            continue
        if doubles >= 0:
            out.extend(_any_suit_sets(rank, _held(faces, doubles, rank), min(wild, 3)))
            continue
        for size in (3, 4):
            for target in combinations(range(4), size):
                natural_options = [s for s in target if s in held]
                for n in range(1, len(natural_options) + 1):
                    if size - n > wild:
                        continue
                    for naturals in combinations(natural_options, n):
                        out.append(tuple(
                            (s << 4 | rank) + (0 if s in naturals else DECLARED) for s in target
                        ))


# ---------------------------------------------------------------------------
# Whether a card can be used at once (for takes from the pile)

IMPOSSIBLE = 99


def cards_needed_to_use(
    face: int, faces: int, wild: int, persian: int, melds: list[Meld], min_run: int,
    doubles: int = 0, any_suit: bool = False,
) -> int:
    """The fewest cards (the card itself included) with which ``face`` can go to the table.

    ``faces`` and ``wild`` are what the player holds besides ``face`` (natural
    faces and wild jokers); ``melds`` is the table. Runs on the table may be
    reached through a chain of lay-offs. For a joker use :func:`joker_cards_needed`.
    ``doubles`` and ``any_suit`` as in :func:`find_melds`.
    :data:`IMPOSSIBLE` if never.
    """
    bit = 1 << face
    for meld in melds:
        if meld.fits & bit:
            return 1
    suit, rank = face >> 4, face & 15
    others = (faces >> rank & RANK_BITS).bit_count()
    if any_suit:  # another copy of the same card makes a set too
        others += (doubles >> rank & RANK_BITS).bit_count()
    else:
        others -= faces >> face & 1
    best = 3 if others + wild >= 2 else IMPOSSIBLE
    suit_bits = faces >> (suit << 4) & 0x3FFE
    ext = suit_bits | (suit_bits & 2) << 13
    positions = (1, ACE_HIGH) if rank == 1 else (rank,)
    for meld in melds:
        if meld.kind != RUN or meld.suit != suit:
            continue
        for pos in positions:
            if pos > meld.hi and not (pos == ACE_HIGH and meld.lo == 1):
                gap = ((1 << pos) - 1) ^ ((1 << (meld.hi + 1)) - 1)
            elif pos < meld.lo and not (pos == 1 and meld.hi == ACE_HIGH):
                gap = ((1 << meld.lo) - 1) ^ ((1 << (pos + 1)) - 1)
            else:
                continue
            if (gap & ~ext).bit_count() <= wild:
                best = min(best, gap.bit_count() + 1)
    if best > min_run and _run_through(ext, positions, wild, min_run):
        best = min_run
    return best


@lru_cache(maxsize=1 << 16)
def _run_through(ext: int, positions: tuple[int, ...], wild: int, min_run: int) -> bool:
    """Whether a run of ``min_run`` through one of ``positions`` can be completed
    (remembered: the question comes back for every take and play of a simulation)."""
    full = (1 << min_run) - 1
    if not wild:  # every window of the run must be held: find the starts of full windows
        for pos in positions:
            starts = with_card = ext | 1 << pos
            for k in range(1, min_run):
                starts &= with_card >> k
            if starts & (full << pos >> (min_run - 1)):
                return True
        return False
    for pos in positions:
        with_card = ext | 1 << pos
        for lo in range(max(1, pos - min_run + 1), pos + 1):
            hi = lo + min_run - 1
            if hi > ACE_HIGH or (lo == 1 and hi == ACE_HIGH):
                continue
            window = full << lo
            if (window & ~with_card).bit_count() <= wild:
                return True
    return False


def joker_cards_needed(
    faces: int, wild: int, persian: int, melds: list[Meld], min_run: int, kind: str,
    doubles: int = 0,
) -> int:
    """:func:`cards_needed_to_use` for a joker; ``wild``/``persian`` count the other jokers;
    ``doubles``: faces held twice that may make a set together (``set_suits = "any"``)."""
    if kind == "persian":
        if any(m.kind == JOKER_SET and len(m.cards) < 4 for m in melds):
            return 1
        return 3 if persian >= 2 else IMPOSSIBLE
    if any(accepts(m) for m in melds if m.kind != JOKER_SET):
        return 1
    if not faces:
        return IMPOSSIBLE
    if wild >= 1 or doubles or any(
        sum(faces >> (s << 4 | rank) & 1 for s in range(4)) >= 2 for rank in range(1, 14)
    ):
        return 3
    for suit in range(4):
        bits = faces >> (suit << 4) & 0x3FFE
        ext = bits | (bits & 2) << 13
        for pos in range(1, ACE_HIGH + 1):
            if ext >> pos & 1 and _run_through(ext & ~(1 << pos), (pos,), 1, min_run):
                return min_run
    return IMPOSSIBLE
