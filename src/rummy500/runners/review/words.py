"""A reviewed decision in words: "discarding 4♦ in place of melding A♣ A♦ A♥".

Cards and melds are written as the narration writes them (:mod:`rummy500.narrate`).
"""

from __future__ import annotations

from ...deal import Deal
from ...moves import DISCARD, DRAW, END, LAYOFF, MELD, PASS, RUMMY_LAYOFF, RUMMY_MELD, TAKE, Move
from ...narrate import card_text, meld_text

TURN_STARTS = (DRAW, TAKE, END)


def turn_number(deal: Deal, seat: int) -> int:
    """Which of ``seat``'s turns in ``deal`` (from 1) is in progress or about to start."""
    started = sum(1 for move, mover in zip(deal.moves, deal.movers, strict=True)
                  if mover == seat and move.kind in TURN_STARTS)
    return started + 1 if deal.turn == seat and deal.phase == "draw" else max(1, started)


def doing(deal: Deal, move: Move) -> str:
    """``move``, to be made by the seat to move in ``deal``, as a gerund: "melding 7♥ 8♥ 9♥"."""
    after = deal.copy()
    after.play(move, check=False)
    kind = move.kind
    if kind == DRAW:
        return "drawing from the stock"
    if kind == TAKE:
        taken = deal.pile[len(after.pile):]
        text = f"taking {card_text(taken[0])}"
        if len(taken) > 1:
            above = "card" if len(taken) == 2 else f"{len(taken) - 1} cards"
            text += f" and the {above} above it"
        return text + " from the pile"
    if kind in (MELD, RUMMY_MELD):
        return f"melding {meld_text(after.melds[-1])}"
    if kind in (LAYOFF, RUMMY_LAYOFF):
        meld = after.melds[move.meld - 1]
        before = meld_text(deal.melds[move.meld - 1])
        return f"laying {card_text(meld.cards[-1].card)} off on {before}"
    if kind == DISCARD:
        return f"discarding {card_text(after.pile[-1])}"
    if kind == END:
        return "ending the deal by taking nothing from the pile"
    if kind == PASS:
        return "not calling rummy"
    return move.describe()  # pragma: no cover - every kind is told above


def put_down(deal: Deal, move: Move) -> tuple[str, int]:
    """The cards ``move`` (a meld or a lay-off) would put on the table: in words, and as
    a set of cards."""
    after = deal.copy()
    after.play(move, check=False)
    if move.kind in (MELD, RUMMY_MELD):
        meld = after.melds[-1]
        cards = 0
        for table_card in meld.cards:
            cards |= 1 << table_card.card
        return meld_text(meld), cards
    card = after.melds[move.meld - 1].cards[-1].card
    return card_text(card), 1 << card


def choice(deal: Deal, played: Move, best: Move) -> str:
    """What was played in place of what: "keeping 7♥ 8♥ 9♥ in hand and discarding 4♦ in
    place of melding 7♥ 8♥ 9♥"."""
    played_words, best_words = doing(deal, played), doing(deal, best)
    table = (MELD, LAYOFF)
    if played.kind == DISCARD and best.kind in table:
        played_words = _keeping(deal, best, played, played_words)
    elif best.kind == DISCARD and played.kind in table:
        best_words = _keeping(deal, played, best, best_words)
    return f"{played_words} in place of {best_words}"


def _keeping(deal: Deal, put: Move, discard: Move, words: str) -> str:
    """``words`` (of ``discard``) after the cards ``put`` would have put down and the
    discard keeps in hand, when it keeps them all."""
    text, cards = put_down(deal, put)
    after = deal.copy()
    after.play(discard, check=False)
    if cards >> after.pile[-1] & 1:
        return words
    return f"keeping {text} in hand and {words}"


__all__ = ["choice", "doing", "turn_number"]
