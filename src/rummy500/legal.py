"""Which moves are legal, and why a move is not, from what the player to move can see.

Everything here is a function of the rules, the phase, the mover's hand, the
discard pile, the table, the stock's size and the card the mover must still use
(a :class:`Position`). The engine calls it with its state, a player's view with its
own: both see the same answer. :func:`legal_moves` lists the moves
(:mod:`rummy500.listing`), :func:`why_illegal` checks one and says why it is not legal,
and both ask the same predicates of :mod:`rummy500.turn_rules`, one for each rule.
"""

from __future__ import annotations

from .cards import JOKER, face_pretty, face_str
from .listing import claims as claims
from .listing import legal_moves as legal_moves
from .melds import (
    DECLARED,
    JOKER_SET,
    Meld,
    MeldError,
    accepts,
    classify,
    piece_face,
    piece_pretty,
)
from .moves import DISCARD, DRAW, END, LOWER, MELD, PASS, RUMMY_LAYOFF, RUMMY_MELD, TAKE, Move
from .rules import Rules
from .table import pick_cards, pick_from_pile, take_index
from .turn_rules import DRAW_PHASE as DRAW_PHASE
from .turn_rules import OVER as OVER
from .turn_rules import PLAY_PHASE as PLAY_PHASE
from .turn_rules import RUMMY_PHASE as RUMMY_PHASE
from .turn_rules import Position as Position
from .turn_rules import can_draw, discards_allowed, keeps_obligation, most_laid
from .turn_rules import can_still_use as can_still_use
from .turn_rules import take_must_be_used as take_must_be_used
from .turn_rules import taken_face as taken_face

DRAW_FIRST = "draw first: the top card of the stock, or cards from the discard pile"
"""Why nothing but a draw or a take can be played before drawing."""

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
            if not can_draw(pos):
                return "the stock is empty: take from the discard pile, or end the deal (end)"
            return None
        if kind == TAKE:
            return _why_take(pos, move.pieces[0], move.meld)
        if kind == END:
            if can_draw(pos):
                return "you can end the deal only when the stock is empty; draw or take instead"
            return None
        return DRAW_FIRST
    # play phase
    if kind in (DRAW, TAKE):
        return "you have already drawn this turn"
    if kind == END:
        return "end is only for declining the pile when the stock is empty"
    if kind == DISCARD:
        return _why_discard(pos, move.pieces[0])
    reason = _why_meld(pos, move.pieces) if kind == MELD else _why_layoff(pos, move)
    if reason is None and pos.must_use >= 0 and not keeps_obligation(pos, _canonical(pos, move)):
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
    if discards_allowed(pos, 1 << face):
        return None
    if pos.must_use >= 0:
        must = JOKER if pos.must_use & 15 == 15 else pos.must_use & 63
        return f"you took {face_pretty(must)} from the pile and must use it before you discard"
    return (f"you took {face_pretty(face)} from the pile this turn: it may not be "
                "discarded before your next turn (discard_taken_card = false)")


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
    if len(pieces) > most_laid(pos.rules, pos.hand.bit_count()):
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
    if most_laid(pos.rules, pos.hand.bit_count()) < 1:
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
