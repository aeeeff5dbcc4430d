"""When a person may take a move back against computer players: never past new information.

The same rule for the terminal game and the online tables. A person takes back their last
move of the deal and every computer player's move since, unless that last move was a draw
from the stock (they have seen the card), or a computer player has since shown cards of
its hand (a take from the pile, a meld, a lay-off): choosing again knowing them would be
choosing with more than the table knew. A new deal is never taken back.

>>> from rummy500.moves import parse_move
>>> moves = [(0, parse_move("take 7h")), (0, parse_move("discard 9c")), (1, parse_move("draw"))]
>>> moves_to_take_back(moves, 0, ["You", "Bot"])
2
>>> moves_to_take_back(moves + [(1, parse_move("meld 5c 5d 5h"))], 0, ["You", "Bot"])[:40]
'Bot has since shown cards (meld 5c 5d 5h'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..moves import DRAW, LAYOFF, MELD, RUMMY_LAYOFF, RUMMY_MELD, TAKE, Move

SHOWN_KINDS = frozenset({TAKE, MELD, LAYOFF, RUMMY_MELD, RUMMY_LAYOFF})
"""A computer player's moves that show the table something new of its hand."""


def moves_to_take_back(moves: Sequence[tuple[int, Move]], person: int,
                       names: Sequence[str]) -> int | str:
    """How many of the deal's ``moves`` (each with its seat, in order) an undo by
    ``person`` takes back (its last move and every move since), or why it may not."""
    mine = [index for index, (seat, _) in enumerate(moves) if seat == person]
    if not mine:
        return "there is no move of yours to take back in this deal"
    last = moves[mine[-1]][1]
    if last.kind == DRAW:
        return "a card drawn from the stock cannot be taken back: you have seen it"
    for seat, move in moves[mine[-1] + 1:]:
        if move.kind in SHOWN_KINDS:
            return (f"{names[seat]} has since shown cards ({move}), so your {last.kind} "
                    "cannot be taken back: you have seen them")
    return len(moves) - mine[-1]


__all__ = ["SHOWN_KINDS", "moves_to_take_back"]
