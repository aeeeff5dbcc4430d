"""``simple``: the frozen yardstick. Its play never changes once written.

- It takes from the pile only when the bottom card taken can be melded or laid
  off at once (among such takes, the one that puts the most points on the table
  this turn, then the one that takes the fewest cards); otherwise it draws from
  the stock (or, with the stock empty and nothing to take, ends the deal).
- It melds everything it can at once (the melds worth the most points together),
  then lays off every card that fits, the most valuable first.
- It discards its highest-value card that is in no meld (ties: the higher face).
- With rummy calls, it claims the claim worth the most points, if any.

It depends only on the engine's rules code, never on the other bots, so that it
stays the same yardstick whatever happens to them.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import JOKER, JOKER_MASK, face_of, faces_present, iter_bits
from ..errors import NotYourTurnError
from ..kinds import Phase
from ..melds import (
    DECLARED,
    JOKER_SET,
    RUN,
    Meld,
    classify,
    find_melds,
    layoff_position,
    piece_face,
)
from ..moves import DISCARD, DRAW, END, LAYOFF, LOWER, MELD, RUMMY_LAYOFF, RUMMY_MELD, TAKE, Move
from ..rules import Rules
from ..scoring import Points, points_for
from ..table import lay_off, new_meld, pick_cards, take_index
from ..turn_rules import can_still_use
from ..view import PlayerView
from .base import Bot, Decision

Plan = tuple[int, int, tuple[tuple[int, ...], ...]]
"""(points, cards melded, melds as canonical pieces)."""


def meld_points(pieces: tuple[int, ...], points: Points) -> int:
    """What a new meld of ``pieces`` scores when laid down."""
    ranks = {piece_face(p) & 15 for p in pieces if p != JOKER}
    run = len(ranks) > 1
    total = 0
    for piece in pieces:
        if piece >= DECLARED or piece == JOKER:
            total += points.joker
            continue
        rank = piece & 15
        low_ace = run and rank == 1 and 13 not in ranks
        total += points.on_table(piece, low_ace, False)
    if points.doubles and not run and len(pieces) == 4:
        total *= 2
    return total


def layoff_points(piece: int, meld: Meld, points: Points) -> int:
    if piece >= DECLARED or piece == JOKER:
        return points.joker
    low_ace = meld.kind == RUN and piece & 15 == 1 and layoff_position(meld, piece) == 1
    return points.on_table(piece, low_ace, False)


def card_value(card: int, points: Points) -> int:
    """A card's points when left in hand."""
    return points.in_hand(1 << card)


def _jokers(rules: Rules, cards: int) -> tuple[int, int]:
    count = (cards & JOKER_MASK).bit_count()
    if not count:
        return 0, 0
    return (count, 0) if rules.jokers == "wild" else (0, count)


def melds_holding(
    pivot: int, melds: list[tuple[int, ...]], cards: int
) -> Iterator[tuple[tuple[int, ...], int]]:
    """Each meld of ``melds`` that holds ``pivot`` and can be laid from ``cards``, with the
    cards left after laying it (the branching step of every best-melds search)."""
    for pieces in melds:
        if pivot not in pieces:
            continue
        picked = pick_cards(cards, pieces)
        if picked is None:
            continue
        rest = cards
        for card in picked:
            rest &= ~(1 << card)
        yield pieces, rest


def best_melds(cards: int, rules: Rules, points: Points, memo: dict[int, Plan] | None = None,
               ) -> Plan:
    """The disjoint melds of ``cards`` worth the most points together."""
    if memo is None:
        memo = {}
    found = memo.get(cards)
    if found is not None:
        return found
    wild, persian = _jokers(rules, cards)
    melds = find_melds(faces_present(cards), wild, persian, rules.min_run)
    if not melds:
        plan: Plan = (0, 0, ())
        memo[cards] = plan
        return plan
    naturals = [p for pieces in melds for p in pieces if p < DECLARED and p != JOKER]
    pivot = min(naturals) if naturals else JOKER
    # Either the pivot card stays out of every meld...
    left_out = pick_cards(cards, (pivot,))
    assert left_out is not None
    best = best_melds(cards & ~(1 << left_out[0]), rules, points, memo)
    # ...or it is in one of the melds that hold it.
    for pieces, rest in melds_holding(pivot, melds, cards):
        sub = best_melds(rest, rules, points, memo)
        candidate = (sub[0] + meld_points(pieces, points), sub[1] + len(pieces),
                     (pieces, *sub[2]))
        if candidate[:2] > best[:2]:
            best = candidate
    memo[cards] = best
    return best


def table_points(cards: int, melds: list[Meld], rules: Rules, points: Points) -> int:
    """Points ``cards`` can put on the table at once: the best melds, then every lay-off."""
    score, _, plan = best_melds(cards, rules, points)
    table = list(melds)
    left = cards
    for pieces in plan:
        chosen = pick_cards(left, pieces)
        assert chosen is not None
        for card in chosen:
            left &= ~(1 << card)
        table.append(new_meld(len(table) + 1, classify(pieces, rules), chosen, 0, points)[0])
    laid = True
    while laid and left:
        laid = False
        for index, meld in enumerate(table):
            fits = meld.fits
            if not fits:
                continue
            for card in iter_bits(left):
                face = face_of(card)
                if face == JOKER:
                    if rules.jokers == "wild" and meld.kind != JOKER_SET:
                        piece = DECLARED + (fits & -fits).bit_length() - 1
                    elif rules.jokers == "persian" and meld.kind == JOKER_SET:
                        piece = JOKER
                    else:
                        continue
                elif fits >> face & 1 and meld.kind != JOKER_SET:
                    piece = face
                else:
                    continue
                table[index], credit = lay_off(meld, piece, card, 0, points)
                score += credit
                left &= ~(1 << card)
                laid = True
                break
    return score


def taken_cards(pile: tuple[int, ...], move: Move) -> tuple[int, int]:
    """(the bottom card, every card taken) for a take (``take 7h`` or ``take 7h/2``)."""
    index = take_index(pile, move.pieces[0], move.meld == LOWER)
    taken = 0
    for card in pile[index:]:
        taken |= 1 << card
    return pile[index], taken


def best_claim(view: PlayerView, moves: list[Move], points: Points) -> tuple[int, Move] | None:
    """The rummy claim among ``moves`` that puts the most points down, with its points."""
    best: tuple[int, Move] | None = None
    for move in moves:
        if move.kind == RUMMY_MELD:
            value = meld_points(move.pieces, points)
        elif move.kind == RUMMY_LAYOFF:
            value = layoff_points(move.pieces[0], view.melds[move.meld - 1], points)
        else:
            continue
        if best is None or value > best[0]:
            best = (value, move)
    return best


class SimpleBot(Bot):
    name = "simple"

    def decide(self, view: PlayerView) -> Decision:
        moves = view.legal_moves()
        if not moves:
            raise NotYourTurnError("there is no legal move: it is not this seat's move")
        points = points_for(view.rules)
        if view.phase == Phase.RUMMY:
            return self._claim(view, moves, points)
        if view.phase == Phase.DRAW:
            return self._draw(view, moves, points)
        return self._play(view, moves, points)

    def _claim(self, view: PlayerView, moves: list[Move], points: Points) -> Decision:
        best = best_claim(view, moves, points)
        if best is None:
            return Decision(moves[-1], "nothing in the pile can be claimed")
        return Decision(best[1], f"claims {best[0]} points from the pile")

    def _draw(self, view: PlayerView, moves: list[Move], points: Points) -> Decision:
        rules = view.rules
        melds = list(view.melds)
        best: tuple[int, int, Move] | None = None
        for move in moves:
            if move.kind != TAKE:
                continue
            bottom, taken = taken_cards(view.pile, move)
            cards = view.hand | taken
            if not can_still_use(rules, bottom, cards, melds):
                continue
            key = (table_points(cards, melds, rules, points), -taken.bit_count())
            if best is None or key > best[:2]:
                best = (*key, move)
        if best is not None:
            return Decision(best[2], "the card taken can be melded at once")
        for move in moves:
            if move.kind in (DRAW, END):
                why = ("nothing in the pile melds at once" if move.kind == DRAW
                       else "the stock is empty and nothing in the pile melds at once")
                return Decision(move, why)
        return Decision(moves[0], "the only move")

    def _play(self, view: PlayerView, moves: list[Move], points: Points) -> Decision:
        legal_melds = [m for m in moves if m.kind == MELD]
        if legal_melds:
            _, _, plan = best_melds(view.hand, view.rules, points)
            for pieces in plan:
                move = Move(MELD, pieces)
                if move in legal_melds:
                    return Decision(move, "melds everything it can at once")
            move = max(legal_melds, key=lambda m: (meld_points(m.pieces, points), m.pieces))
            return Decision(move, "melds everything it can at once")
        layoffs = [m for m in moves if m.kind == LAYOFF]
        if layoffs:
            move = max(layoffs, key=lambda m: (
                layoff_points(m.pieces[0], view.melds[m.meld - 1], points), -m.meld, m.pieces))
            return Decision(move, "lays off every card that fits")
        discards = [m for m in moves if m.kind == DISCARD]
        if not discards:
            return Decision(moves[0], "the only move")
        in_melds = 0
        wild, persian = _jokers(view.rules, view.hand)
        for pieces in find_melds(faces_present(view.hand), wild, persian, view.rules.min_run):
            for piece in pieces:
                in_melds |= 1 << (JOKER if piece >= DECLARED else piece)

        def key(move: Move) -> tuple[bool, int, int]:
            face = move.pieces[0]
            chosen = pick_cards(view.hand, (face,))
            assert chosen is not None
            return (not in_melds >> face & 1, card_value(chosen[0], points), face)

        move = max(discards, key=key)
        return Decision(move, "discards its highest-value card that is in no meld")
