"""The rules of a turn as predicates, each written once.

The move listing (:mod:`rummy500.listing`) and the checker (:mod:`rummy500.legal`) both ask
these, as PokerKit's ``can_x``/``verify_x`` pairs do, so that a rule cannot say one thing
when the moves are listed and another when a move is checked: which cards may be laid
while keeping one to discard (``discard_to_go_out``), when a card taken from the pile
must be used, whether it still can be, and what may be discarded. (The listing writes out
the two one-line rules it asks before every draw of a play-out, :func:`can_draw` and
:func:`take_must_be_used` of the top card; ``tests/test_random_play.py`` holds every listing
to the checker.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import (
    JOKER,
    JOKER_MASK,
    NATURAL_MASK,
    faces_present,
    faces_twice,
    joker_count,
)
from .kinds import Phase
from .melds import (
    DECLARED,
    RANK_BITS,
    RUN,
    Meld,
    cards_needed_to_use,
    classify,
    joker_cards_needed,
)
from .moves import LAYOFF, MELD, TAKE, Move
from .rules import Rules
from .scoring import points_for
from .table import lay_off, new_meld, pick_cards

DRAW_PHASE = Phase.DRAW
PLAY_PHASE = Phase.PLAY
RUMMY_PHASE = Phase.RUMMY
OVER = Phase.OVER


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


# -- drawing --------------------------------------------------------------------------


def can_draw(pos: Position) -> bool:
    """Whether the stock can be drawn from; when it cannot, the player may end the deal."""
    return pos.stock_count > 0


def take_must_be_used(rules: Rules, pile_len: int, index: int, stock_count: int) -> bool:
    """Whether the card at ``index`` of the pile, once taken, must be used this turn: a card
    under the top always, the top one with ``top_discard_must_be_used`` or an empty stock."""
    return index < pile_len - 1 or rules.top_discard_must_be_used or stock_count == 0


# -- laying cards on the table ----------------------------------------------------------


def most_laid(rules: Rules, held: int) -> int:
    """The most cards a player holding ``held`` may put on the table this turn: all of
    them, or all but one to discard with ``discard_to_go_out`` (the Boathouse rule)."""
    return held - 1 if rules.discard_to_go_out else held


def jokers_of(rules: Rules, cards: int) -> tuple[int, int]:
    """(wild, Persian) joker counts of a card set."""
    count = joker_count(cards)
    if not count:
        return 0, 0
    return (count, 0) if rules.jokers == "wild" else (0, count)


def can_still_use(rules: Rules, card: int, hand: int, melds: list[Meld]) -> bool:
    """Whether ``card`` (held in ``hand``) can still reach the table this turn."""
    return pile_takes(rules, hand & ~(1 << card), (card,), melds, True)[0] == 1


def pile_takes(rules: Rules, hand: int, pile: Sequence[int], melds: list[Meld],
               top_must_be_used: bool) -> tuple[int, int]:
    """What the pile (bottom first) offers a player holding ``hand`` to take, as bits by
    pile index: (the cards ``take f`` takes, the top copy of each face; the cards
    ``take f/2`` takes, the second copy from the top, never a joker), each only if it may be
    taken now. The top card may be taken freely unless ``top_must_be_used``
    (:func:`take_must_be_used`); any other card only if it can then reach the table this
    turn, held with ``hand`` and the cards above it (taken with it), laying at most
    :func:`most_laid` of them all.

    The one test of the must-use rule: of a take (the listing and the checker) and of a
    play that leaves a card still to use (:func:`can_still_use`).
    """
    fits = run_suits = -1  # what the table takes at once, and the suits of its runs (-1: not
    # yet worked out: many takes are settled without them)
    distinct_sets = rules.set_suits != "any"
    wild_rules = rules.jokers == "wild"
    min_run = rules.min_run
    held = hand
    budget = most_laid(rules, hand.bit_count())  # and one more for each card taken
    seen = lower = 0  # the faces met from the top down, and those met a second time
    usable = seconds = 0  # the cards that may be taken, and the second copies among all
    for index in range(len(pile) - 1, -1, -1):
        card = pile[index]
        others = held  # the hand and the cards above this one
        held |= 1 << card
        budget += 1
        face = JOKER if card & 15 == 15 else card & 63
        if seen >> face & 1:
            if face == JOKER or lower >> face & 1:
                continue  # no take names this copy
            lower |= 1 << face
            seconds |= 1 << index
        else:
            seen |= 1 << face
            if not top_must_be_used:  # the top card, free to take
                top_must_be_used = True
                usable |= 1 << index
                continue
        if face == JOKER or not distinct_sets:
            if _needed(rules, card, others, melds) > budget:
                continue
            usable |= 1 << index
            continue
        if fits < 0:
            fits = run_suits = 0
            for meld in melds:
                fits |= meld.fits
                if meld.kind == RUN:
                    run_suits |= 1 << meld.suit
        if fits >> face & 1:
            if budget < 1:
                continue
        else:
            # Written out for a natural card (the answers of _needed): two more of the rank
            # make a set of 3, the fewest when nothing on the table takes the card; else,
            # with no wild joker held and no run of the suit on the table, only a run
            # through the card (min_run cards) may use it.
            faces = (others | others >> 64) & NATURAL_MASK
            rank = face & 15
            if (faces >> rank & RANK_BITS).bit_count() - (faces >> face & 1) >= 2:
                if budget < 3:
                    continue
            elif (wild_rules and others & JOKER_MASK) or run_suits >> (face >> 4) & 1:
                if _needed(rules, card, others, melds) > budget:
                    continue
            else:
                if budget < min_run:
                    continue
                suit_bits = faces >> (face & 48) & 0x3FFE
                ext = suit_bits | (suit_bits & 2) << 13
                for window in run_windows(min_run)[rank]:
                    if ext & window == window:
                        break
                else:
                    continue
        usable |= 1 << index
    return usable & ~seconds, usable & seconds


def _needed(rules: Rules, card: int, others: int, melds: list[Meld]) -> int:
    """The fewest cards with which ``card`` goes to the table, given ``others`` held too
    (``melds.IMPOSSIBLE`` if none)."""
    wild, persian = jokers_of(rules, others)
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


_WINDOWS: dict[int, tuple[tuple[int, ...], ...]] = {}


def run_windows(min_run: int) -> tuple[tuple[int, ...], ...]:
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


def keeps_obligation(pos: Position, move: Move) -> bool:
    """With a card still to use (``pos.must_use``): the play (a meld or lay-off, its meld's
    pieces in :func:`~rummy500.melds.classify` order) uses it, or leaves a way to use it."""
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
    hand, melds = _after_play(pos, move, cards)
    return can_still_use(pos.rules, must, hand, melds)


def _after_play(pos: Position, move: Move, cards: list[int]) -> tuple[int, list[Meld]]:
    """The hand and the table once ``move`` has put ``cards`` on the table."""
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


# -- discarding -------------------------------------------------------------------------


def discards_allowed(pos: Position, faces: int) -> int:
    """Of ``faces`` (bits, the joker's at :data:`~rummy500.cards.JOKER`), those that may be
    discarded now: none while a card taken from the pile is still to be used, and not the
    face taken this turn with ``discard_taken_card = false``."""
    if pos.must_use >= 0:
        return 0
    if pos.no_discard >= 0:
        return faces & ~(1 << pos.no_discard)
    return faces
