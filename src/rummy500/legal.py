"""Which moves are legal, and why a move is not, from what the player to move can see.

Everything here is a function of the rules, the phase, the mover's hand, the
discard pile, the table, the stock's size and the card the mover must still use.
The engine calls it with its state, a player's view with its own: both see the
same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import (
    JOKER,
    JOKER_MASK,
    NATURAL_MASK,
    face_pretty,
    face_str,
    faces_present,
    faces_twice,
    iter_bits,
    joker_count,
)
from .kinds import Phase
from .melds import (
    DECLARED,
    IMPOSSIBLE,
    JOKER_SET,
    RANK_BITS,
    RUN,
    Meld,
    MeldError,
    accepts,
    cards_needed_to_use,
    classify,
    find_melds,
    joker_cards_needed,
    piece_face,
    piece_pretty,
)
from .moves import (
    DISCARD,
    DRAW,
    END,
    LAYOFF,
    LOWER,
    MELD,
    PASS,
    RUMMY_LAYOFF,
    RUMMY_MELD,
    TAKE,
    Move,
)
from .rules import Rules
from .scoring import points_for
from .table import lay_off, new_meld, pick_cards, pick_from_pile, take_index

_new_tuple = tuple.__new__

DRAW_PHASE = Phase.DRAW
PLAY_PHASE = Phase.PLAY
RUMMY_PHASE = Phase.RUMMY
OVER = Phase.OVER

DRAW_MOVE = Move(DRAW)
END_MOVE = Move(END)
PASS_MOVE = Move(PASS)


class Position(NamedTuple):
    """What the player to move sees that decides what it may do."""

    rules: Rules
    phase: Phase
    hand: int
    pile: list[int]
    melds: list[Meld]
    stock_count: int
    must_use: int
    no_discard: int = -1
    """With ``discard_taken_card`` false: the face taken from the pile this turn, which may
    not be discarded now (-1: none)."""


def taken_face(rules: Rules, history: Sequence[Move], known: int, hand: int) -> int:
    """The face that ``discard_taken_card = false`` keeps from being discarded now: the face
    named by this turn's take, while a card of it taken from the pile (``known``) is still
    held and the hand holds a card of another face to discard instead; else -1."""
    if rules.discard_taken_card or not known:
        return -1
    for move in reversed(history):
        if move.kind in (MELD, LAYOFF):
            continue
        if move.kind != TAKE:
            return -1
        face = move.pieces[0]
        mask = JOKER_MASK if face == JOKER else (1 << face | 1 << (face + 64))
        if known & mask and hand & ~mask:
            return face
        return -1
    return -1


def _jokers(rules: Rules, cards: int) -> tuple[int, int]:
    """(wild, Persian) joker counts of a card set."""
    count = joker_count(cards)
    if not count:
        return 0, 0
    return (count, 0) if rules.jokers == "wild" else (0, count)


def _needed(rules: Rules, card: int, others: int, melds: list[Meld]) -> int:
    """The fewest cards with which ``card`` goes to the table, given ``others`` held too."""
    wild, persian = _jokers(rules, others)
    faces = faces_present(others)
    if rules.set_suits == "any":
        twice = faces_twice(others)
        if card & 15 == 15:
            return joker_cards_needed(faces, wild, persian, melds, rules.min_run, rules.jokers,
                                      twice)
        return cards_needed_to_use(card & 63, faces, wild, persian, melds, rules.min_run,
                                   twice, any_suit=True)
    if card & 15 == 15:
        return joker_cards_needed(faces, wild, persian, melds, rules.min_run, rules.jokers)
    return cards_needed_to_use(card & 63, faces, wild, persian, melds, rules.min_run)


def _meld_search(
    rules: Rules, cards: int, faces: int, wild: int, persian: int
) -> list[tuple[int, ...]]:
    """Every meld of ``cards`` (``faces``, its natural faces, and its jokers)."""
    if rules.set_suits == "any":
        return find_melds(faces, wild, persian, rules.min_run, faces_twice(cards), True)
    return find_melds(faces, wild, persian, rules.min_run)


def can_still_use(rules: Rules, card: int, hand: int, melds: list[Meld]) -> bool:
    """Whether ``card`` (held in ``hand``) can still reach the table this turn."""
    budget = hand.bit_count() - (1 if rules.discard_to_go_out else 0)
    others = hand & ~(1 << card)
    if card & 15 != 15 and rules.set_suits != "any":
        # _needed written out for a natural card, as in the draw listing (same answers)
        face = card & 63
        faces = (others | others >> 64) & NATURAL_MASK
        rank = face & 15
        if (faces >> rank & RANK_BITS).bit_count() - (faces >> face & 1) >= 2:
            if budget >= 3:
                return True  # a set of 3 (the table may take it with fewer)
        elif not (rules.jokers == "wild" and others & JOKER_MASK):
            suit = face >> 4
            for meld in melds:
                if meld.fits >> face & 1 or (meld.kind == RUN and meld.suit == suit):
                    break
            else:  # nothing on the table takes it: only a run through it
                if budget < rules.min_run:
                    return False
                suit_bits = faces >> (face & 48) & 0x3FFE
                ext = suit_bits | (suit_bits & 2) << 13
                windows = _run_windows(rules.min_run)[rank]
                return any(ext & window == window for window in windows)
    needed = _needed(rules, card, others, melds)
    if needed == IMPOSSIBLE:
        return False
    return needed <= budget


def take_must_be_used(rules: Rules, pile_len: int, index: int, stock_count: int) -> bool:
    return index < pile_len - 1 or rules.top_discard_must_be_used or stock_count == 0


# ---------------------------------------------------------------------------
# Listing


def legal_moves(pos: Position) -> list[Move]:
    """Every legal move, and nothing else."""
    phase = pos.phase
    if phase == PLAY_PHASE:
        return _play_moves(pos)
    if phase == DRAW_PHASE:
        return _draw_moves(pos)
    if phase == RUMMY_PHASE:
        return [*claims(pos.rules, pos.pile, pos.melds), PASS_MOVE]
    return []


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
    rules, pile, hand, melds = pos.rules, pos.pile, pos.hand, pos.melds
    moves = [DRAW_MOVE] if pos.stock_count else [END_MOVE]
    top = len(pile) - 1
    if top < 0:
        return moves
    seen = 0
    lower = 0  # faces whose second copy from the top was met (take 7h/2)
    taken = 0
    keep = 1 if rules.discard_to_go_out else 0
    table_fits = 0
    run_suits = 0  # the suits of the runs on the table (a card may reach one through others)
    for meld in melds:
        table_fits |= meld.fits
        if meld.kind == RUN:
            run_suits |= 1 << meld.suit
    top_free = not rules.top_discard_must_be_used and pos.stock_count > 0
    # Outside set_suits = any, _needed written out for a natural card (the same answers):
    # two more of the rank make a set of 3; else, with no wild joker held and no run of the
    # suit on the table, only a run through the card (min_run cards) may use it.
    quick = rules.set_suits != "any"
    wild_rules = rules.jokers == "wild"
    min_run = rules.min_run
    windows = _run_windows(min_run)
    for index in range(top, -1, -1):
        card = pile[index]
        taken |= 1 << card
        face = JOKER if card & 15 == 15 else card & 63
        if seen >> face & 1:
            if face == JOKER or lower >> face & 1:
                continue
            lower |= 1 << face
            move = _LOWER_TAKES[face]
        else:
            seen |= 1 << face
            move = _TAKES[face] if face != JOKER else Move(TAKE, (JOKER,))
        if not (index == top and top_free):
            others = (hand | taken) & ~(1 << card)
            budget = others.bit_count() + 1 - keep
            if face != JOKER and table_fits >> face & 1:
                if budget < 1:
                    continue
            elif face == JOKER or not quick:
                if _needed(rules, card, others, melds) > budget:
                    continue
            else:
                faces = (others | others >> 64) & NATURAL_MASK
                rank = face & 15
                if (faces >> rank & RANK_BITS).bit_count() - (faces >> face & 1) >= 2:
                    if budget < 3:  # a set of 3 is the fewest: nothing fits the table
                        continue
                elif (wild_rules and others & JOKER_MASK) or run_suits >> (face >> 4) & 1:
                    if _needed(rules, card, others, melds) > budget:
                        continue
                else:  # only a run through the card: min_run cards, if the suit has one
                    if budget < min_run:
                        continue
                    suit_bits = faces >> (face & 48) & 0x3FFE
                    ext = suit_bits | (suit_bits & 2) << 13
                    for window in windows[rank]:
                        if ext & window == window:
                            break
                    else:
                        continue
        moves.append(move)
    return moves


_WINDOWS: dict[int, tuple[tuple[int, ...], ...]] = {}


def _run_windows(min_run: int) -> tuple[tuple[int, ...], ...]:
    """By rank: each run of ``min_run`` through the card (its positions in a suit, ace low
    at 1 and high at 14), the card's own position left out; with no joker, a card makes a
    run of its suit when the hand holds one of them whole (as ``melds._run_through``)."""
    found = _WINDOWS.get(min_run)
    if found is None:
        by_rank: list[tuple[int, ...]] = [()]
        for rank in range(1, 14):
            masks = []
            for pos in ((1, 14) if rank == 1 else (rank,)):
                for lo in range(max(1, pos - min_run + 1), pos + 1):
                    if lo + min_run - 1 <= 14:
                        masks.append(((1 << min_run) - 1) << lo & ~(1 << pos))
            by_rank.append(tuple(masks))
        found = _WINDOWS[min_run] = tuple(by_rank)
    return found


def _play_moves(pos: Position) -> list[Move]:
    rules, hand, melds = pos.rules, pos.hand, pos.melds
    faces = faces_present(hand)
    wild, persian = _jokers(rules, hand) if hand & JOKER_MASK else (0, 0)
    count = hand.bit_count()
    keep = 1 if rules.discard_to_go_out else 0
    new = _new_tuple  # Move(MELD, pieces) without Move.__new__'s check of the kind
    candidates: list[Move] = [
        new(Move, (MELD, pieces, 0))
        for pieces in _meld_search(rules, hand, faces, wild, persian)
        if len(pieces) + keep <= count
    ]
    if count > keep:
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
                found = hit_moves.get(key)
                candidates += found if found is not None else _hit_layoffs(key)
            if wild:
                candidates.extend(
                    _layoff_move(LAYOFF, DECLARED + f, meld.number) for f in iter_bits(fits)
                )
    if pos.must_use >= 0:
        return [m for m in candidates if _keeps_obligation(pos, m)]
    kept = pos.no_discard
    if kept >= 0 and kept != JOKER:
        faces &= ~(1 << kept)
    chunks = _CHUNKS
    for suit in range(4):
        chunk = faces >> (suit << 4) & 0x3FFE
        if chunk:
            key = suit << 16 | chunk
            found = chunks.get(key)
            candidates += found if found is not None else _chunk_discards(key)
    if (wild or persian) and kept != JOKER:
        candidates.append(Move(DISCARD, (JOKER,)))
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


def _keeps_obligation(pos: Position, move: Move) -> bool:
    """With a card still to use: the play uses it, or leaves a way to use it."""
    must = pos.must_use
    pieces = move.pieces
    if must & 15 == 15:  # a joker: a joker's piece, or a wild joker declared as a card
        if JOKER in pieces or any(p >= DECLARED for p in pieces):
            return True
    elif must & 63 in pieces:  # the card's face (a declared joker is DECLARED + a face)
        return True
    # A play only adds to the table, and more melds never make a card harder to use: if the
    # melds the play leaves alone give a way with the hand it leaves, that settles it (most
    # plays, and no meld is built for them).
    cards = pick_cards(pos.hand, move.pieces, must)
    assert cards is not None
    hand = pos.hand
    for card in cards:
        hand &= ~(1 << card)
    melds = pos.melds
    if move.kind != MELD:
        melds = melds[:move.meld - 1] + melds[move.meld:]
    if can_still_use(pos.rules, must, hand, melds):
        return True
    hand, melds = _after_play(pos, move)
    return can_still_use(pos.rules, must, hand, melds)


def _after_play(pos: Position, move: Move) -> tuple[int, list[Meld]]:
    cards = pick_cards(pos.hand, move.pieces, pos.must_use)
    assert cards is not None
    hand = pos.hand
    for card in cards:
        hand &= ~(1 << card)
    points = points_for(pos.rules)
    melds = list(pos.melds)
    if move.kind == MELD:
        shape = classify(move.pieces, pos.rules)
        melds.append(new_meld(len(melds) + 1, shape, cards, 0, points)[0])
    else:
        index = move.meld - 1
        melds[index] = lay_off(melds[index], move.pieces[0], cards[0], 0, points)[0]
    return hand, melds


def claims(rules: Rules, pile: list[int], melds: list[Meld]) -> list[Move]:
    """Every rummy claim the pile offers: melds of pile cards alone, pile cards laid off."""
    cards = 0
    for card in pile:
        cards |= 1 << card
    faces = faces_present(cards)
    wild, persian = _jokers(rules, cards)
    moves = [Move(RUMMY_MELD, p) for p in _meld_search(rules, cards, faces, wild, persian)]
    for meld in melds:
        moves.extend(_layoffs(RUMMY_LAYOFF, meld, faces, wild, persian))
    return moves


# ---------------------------------------------------------------------------
# Checking one move, with the reason


def why_illegal(pos: Position, move: Move) -> str | None:
    """None if ``move`` is legal, else why not, in a player's words."""
    phase = pos.phase
    kind = move.kind
    if phase == OVER:
        return "the deal is over"
    if phase == RUMMY_PHASE:
        if kind == PASS:
            return None
        if kind not in (RUMMY_MELD, RUMMY_LAYOFF):
            return ("a rummy call is open: claim cards from the pile (rummy meld …, "
                    "rummy layoff … mN) or pass")
        return _why_claim(pos, move)
    if kind in (PASS, RUMMY_MELD, RUMMY_LAYOFF):
        if not pos.rules.rummy_calls:
            return "rummy calls are not played in this game"
        return "you can call rummy only on another player's discard, before the next turn"
    if phase == DRAW_PHASE:
        if kind == DRAW:
            if pos.stock_count == 0:
                return "the stock is empty: take from the discard pile, or end the deal (end)"
            return None
        if kind == TAKE:
            return _why_take(pos, move.pieces[0], move.meld)
        if kind == END:
            if pos.stock_count:
                return "you can end the deal only when the stock is empty; draw or take instead"
            return None
        return "draw first: the top card of the stock, or cards from the discard pile"
    # play phase
    if kind in (DRAW, TAKE):
        return "you have already drawn this turn"
    if kind == END:
        return "end is only for declining the pile when the stock is empty"
    if kind == DISCARD:
        return _why_discard(pos, move.pieces[0])
    reason = _why_meld(pos, move.pieces) if kind == MELD else _why_layoff(pos, move)
    if reason is None and pos.must_use >= 0 and not _keeps_obligation(pos, _canonical(pos, move)):
        face = pos.must_use & 63 if pos.must_use & 15 != 15 else JOKER
        reason = (f"that would leave no way to use {face_pretty(face)}, which you took from "
                  "the pile and must use this turn")
    return reason


def _canonical(pos: Position, move: Move) -> Move:
    if move.kind == MELD:
        return move._replace(pieces=classify(move.pieces, pos.rules).pieces)
    return move


def _why_take(pos: Position, face: int, which: int = 0) -> str | None:
    pile = pos.pile
    if which not in (0, LOWER) or (which and face == JOKER):
        return "a take names a card of the pile, or the lower of its two copies (take 7h/2)"
    index = take_index(pile, face, which == LOWER)
    if index < 0:
        if which and take_index(pile, face) >= 0:
            return (f"the discard pile holds only one {face_pretty(face)}: take it with "
                    f"'take {face_str(face)}' (/2 takes the lower of two copies)")
        return f"{face_pretty(face)} is not in the discard pile"
    card = pile[index]
    if not take_must_be_used(pos.rules, len(pile), index, pos.stock_count):
        return None
    taken = 0
    for above in pile[index:]:
        taken |= 1 << above
    if can_still_use(pos.rules, card, pos.hand | taken, pos.melds):
        return None
    keep = " and still keep a card to discard" if pos.rules.discard_to_go_out else ""
    why = ("the stock is empty, so any card taken from the pile must be used at once"
           if pos.stock_count == 0 and index == len(pile) - 1 and
           not pos.rules.top_discard_must_be_used else
           f"you may take {'the lower ' if which else ''}{face_pretty(face)} from the pile "
           "only to use it at once in a meld or lay-off")
    return f"{why}, and you cannot use it{keep}"


def _why_discard(pos: Position, face: int) -> str | None:
    if pick_cards(pos.hand, (face,)) is None:
        return f"you do not hold {face_pretty(face)}"
    if pos.must_use >= 0:
        must = JOKER if pos.must_use & 15 == 15 else pos.must_use & 63
        return f"you took {face_pretty(must)} from the pile and must use it before you discard"
    if face == pos.no_discard:
        return (f"you took {face_pretty(face)} from the pile this turn: it may not be "
                "discarded before your next turn (discard_taken_card = false)")
    return None


def _why_not_held(hand: int, pieces: tuple[int, ...], jokers: str) -> str | None:
    if pick_cards(hand, pieces) is not None:
        return None
    for piece in pieces:
        if piece >= DECLARED or piece == JOKER:
            if jokers == "none":
                return "there are no jokers in this game"
            if pick_cards(hand, tuple(p for p in pieces if p >= DECLARED or p == JOKER)) is None:
                return "you do not hold that many jokers"
        elif pick_cards(hand, (piece,)) is None:
            return f"you do not hold {face_pretty(piece)}"
    return "you do not hold two of the same card"


def _why_meld(pos: Position, pieces: tuple[int, ...]) -> str | None:
    missing = _why_not_held(pos.hand, pieces, pos.rules.jokers)
    if missing:
        return missing
    try:
        classify(pieces, pos.rules)
    except MeldError as error:
        return str(error)
    if pos.rules.discard_to_go_out and len(pieces) >= pos.hand.bit_count():
        return "you must keep a card to discard when you go out (Boathouse rule)"
    return None


def _why_layoff(pos: Position, move: Move) -> str | None:
    piece = move.pieces[0]
    missing = _why_not_held(pos.hand, move.pieces, pos.rules.jokers)
    if missing:
        return missing
    reason = _why_not_fit(pos.rules, pos.melds, piece, move.meld)
    if reason:
        return reason
    if pos.rules.discard_to_go_out and pos.hand.bit_count() <= 1:
        return "you must keep a card to discard when you go out (Boathouse rule)"
    return None


def _why_not_fit(rules: Rules, melds: list[Meld], piece: int, number: int) -> str | None:
    if not 1 <= number <= len(melds):
        return f"there is no meld m{number} on the table"
    meld = melds[number - 1]
    if piece == JOKER:
        if rules.jokers == "wild":
            return "say which card the joker stands for, like *=9h"
        if meld.kind != JOKER_SET:
            return "jokers are not wild in this game: they go only on a set of jokers"
        if not accepts(meld):
            return f"m{number} already holds four jokers"
        return None
    if piece >= DECLARED and rules.jokers != "wild":
        return "jokers are not wild in this game and cannot stand for a card"
    face = piece_face(piece)
    if accepts(meld) >> face & 1 and meld.kind != JOKER_SET:
        return None
    return f"{piece_pretty(piece)} does not fit m{number} ({meld.describe()})"


def _why_claim(pos: Position, move: Move) -> str | None:
    if pick_from_pile(pos.pile, move.pieces) is None:
        return "a rummy claim takes only cards that are in the discard pile"
    if move.kind == RUMMY_MELD:
        try:
            classify(move.pieces, pos.rules)
        except MeldError as error:
            return str(error)
        return None
    return _why_not_fit(pos.rules, pos.melds, move.pieces[0], move.meld)
