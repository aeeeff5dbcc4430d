"""The move listing: every legal move of a position, fast (asked before every move of a
play-out), and nothing else.

:func:`legal_moves` is the one listing: :class:`~rummy500.deal.Deal` and a player's view
ask it, and :mod:`rummy500.legal` checks one move by the same rules
(:mod:`rummy500.turn_rules`). The moves are built once and kept (a move is a tuple that
never changes), so a listing mostly gathers kept moves.
"""

from __future__ import annotations

from .cards import (
    JOKER,
    JOKER_MASK,
    NATURAL_MASK,
    faces_present,
    faces_twice,
    iter_bits,
)
from .melds import DECLARED, JOKER_SET, Meld, find_melds
from .moves import (
    DISCARD,
    DRAW_MOVE,
    END_MOVE,
    LAYOFF,
    LOWER,
    MELD,
    PASS_MOVE,
    RUMMY_LAYOFF,
    RUMMY_MELD,
    TAKE,
    Move,
)
from .rules import Rules
from .turn_rules import (
    DRAW_PHASE,
    PLAY_PHASE,
    RUMMY_PHASE,
    Position,
    discards_allowed,
    jokers_of,
    keeps_obligation,
    most_laid,
    pile_takes,
)

_new_tuple = tuple.__new__


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move of ``pos``, and nothing else (in a fixed order: a seeded random
    pick from it is the same pick every time)."""
    phase = pos.phase
    if phase == PLAY_PHASE:
        return _play_moves(pos)
    if phase == DRAW_PHASE:
        return _draw_moves(pos)
    if phase == RUMMY_PHASE:
        return [*claims(pos.rules, pos.pile, pos.melds), PASS_MOVE]
    return []


def claims(rules: Rules, pile: list[int], melds: list[Meld]) -> list[Move]:
    """Every rummy claim the pile offers: melds of pile cards alone, pile cards laid off."""
    cards = 0
    for card in pile:
        cards |= 1 << card
    faces = faces_present(cards)
    wild, persian = jokers_of(rules, cards)
    moves = [Move(RUMMY_MELD, p) for p in meld_search(rules, cards, faces, wild, persian)]
    for meld in melds:
        moves.extend(_layoffs(RUMMY_LAYOFF, meld, faces, wild, persian))
    return moves


def meld_search(
    rules: Rules, cards: int, faces: int, wild: int, persian: int
) -> list[tuple[int, ...]]:
    """Every meld of ``cards`` (``faces``, its natural faces, and its jokers)."""
    if rules.set_suits == "any":
        return find_melds(faces, wild, persian, rules.min_run, faces_twice(cards), True)
    return find_melds(faces, wild, persian, rules.min_run)


_TAKES = [Move(TAKE, (face,)) for face in range(64)]
_LOWER_TAKES = [Move(TAKE, (face,), LOWER) for face in range(64)]
_DISCARDS = [Move(DISCARD, (face,)) for face in range(64)]
_LAYOFFS: dict[int, Move] = {}


def _layoff_move(kind: str, piece: int, number: int) -> Move:
    key = (number << 8 | piece) << 1 | (kind == RUMMY_LAYOFF)
    move = _LAYOFFS.get(key)
    if move is None:
        move = _LAYOFFS[key] = Move(kind, (piece,), number)
    return move


def _draw_moves(pos: Position) -> list[Move]:
    rules, _, hand, pile, melds, stock_count, _, _ = pos  # at once: cheaper than by name
    # can_draw and take_must_be_used (of the top card) written out: a draw is listed before
    # every draw of a play-out (tests/test_random_play.py holds the listing to the checker)
    moves = [DRAW_MOVE] if stock_count > 0 else [END_MOVE]
    if not pile:
        return moves
    top_must_be_used = rules.top_discard_must_be_used or stock_count == 0
    takes, lower_takes = pile_takes(rules, hand, pile, melds, top_must_be_used)
    takes |= lower_takes
    while takes:  # from the top of the pile down
        index = takes.bit_length() - 1
        takes ^= 1 << index
        card = pile[index]
        if lower_takes >> index & 1:
            moves.append(_LOWER_TAKES[card & 63])
        else:
            moves.append(_TAKES[JOKER if card & 15 == 15 else card & 63])
    return moves


def _play_moves(pos: Position) -> list[Move]:
    rules, _, hand, _, melds, _, must_use, no_discard = pos
    faces = (hand | hand >> 64) & NATURAL_MASK  # faces_present(hand), written out
    wild, persian = jokers_of(rules, hand) if hand & JOKER_MASK else (0, 0)
    most = most_laid(rules, hand.bit_count())
    found = meld_search(rules, hand, faces, wild, persian)
    new = _new_tuple  # Move(MELD, pieces) without Move.__new__'s check of the kind
    candidates: list[Move] = [
        new(Move, (MELD, pieces, 0)) for pieces in found if len(pieces) <= most
    ] if found else []
    if most >= 1:
        hit_moves = _HITS
        for meld in melds:
            fits = meld.fits
            if not fits:
                continue
            if meld.kind == JOKER_SET:
                if persian:
                    candidates.append(_layoff_move(LAYOFF, JOKER, meld.number))
                continue
            hits = fits & faces
            if hits:
                key = hits << 16 | meld.number
                candidates += hit_moves.get(key) or _hit_layoffs(key)
            if wild:
                candidates.extend(
                    _layoff_move(LAYOFF, DECLARED + f, meld.number) for f in iter_bits(fits)
                )
    if must_use >= 0:
        return [m for m in candidates if keeps_obligation(pos, m)]
    discards = faces | (1 << JOKER if wild or persian else 0)
    if no_discard >= 0:  # else every card held may be discarded
        discards = discards_allowed(pos, discards)
    chunks = _CHUNKS
    for shift in (0, 16, 32, 48):  # a suit's ranks at a time
        chunk = discards >> shift & 0x3FFE
        if chunk:
            key = shift << 12 | chunk
            candidates += chunks.get(key) or _chunk_discards(key)
    if discards >> JOKER & 1:
        candidates.append(_DISCARDS[JOKER])
    return candidates


_HITS: dict[int, tuple[Move, ...]] = {}
"""The lay-offs of held faces on one meld, keyed by ``faces << 16 | meld number``, lowest
face first (a table of at most 108 cards holds far fewer than 65,536 melds)."""


def _hit_layoffs(key: int) -> tuple[Move, ...]:
    number = key & 0xFFFF
    found = _HITS[key] = tuple(_layoff_move(LAYOFF, face, number)
                               for face in iter_bits(key >> 16))
    return found


_CHUNKS: dict[int, tuple[Move, ...]] = {}
"""The discards of one suit's held ranks, keyed by ``suit << 16 | ranks``, lowest first."""


def _chunk_discards(key: int) -> tuple[Move, ...]:
    suit, chunk = key >> 16, key & 0xFFFF
    found = _CHUNKS[key] = tuple(_DISCARDS[suit << 4 | r] for r in range(1, 14) if chunk >> r & 1)
    return found


def _layoffs(kind: str, meld: Meld, faces: int, wild: int, persian: int) -> list[Move]:
    fits = meld.fits
    if not fits:
        return []
    number = meld.number
    if meld.kind == JOKER_SET:
        return [_layoff_move(kind, JOKER, number)] if persian else []
    moves = [_layoff_move(kind, face, number) for face in iter_bits(fits & faces)]
    if wild:
        moves.extend(_layoff_move(kind, DECLARED + face, number) for face in iter_bits(fits))
    return moves
