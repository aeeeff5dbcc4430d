"""When a person may take a move back against computer players: never past new information.

The same rule for the terminal game, the online seat and the online tables (this is its one
home). A person takes back their last move of the deal and every computer player's move
since, unless that last move was a draw from the stock (they have seen the card), or a
computer player has since shown a card of its hand (a take from the pile, a meld, a
lay-off, a discard): choosing again knowing it would be choosing with more than the table
knew. A computer player's discard shows a card it held, or the card it drew: taken back,
the same reply would come again, and the person would know it before choosing (and, when
it threw the card it drew, the next card of the stock). So a person's discard can be taken
back while the computer players after it have only drawn, not once one has discarded (in
the terminal game, where undo waits for the person's turn, that leaves the moves of their
own turn). A new deal is never taken back.

>>> from rummy500.moves import parse_move
>>> moves = [(0, parse_move("take 7h")), (0, parse_move("discard 9c")), (1, parse_move("draw"))]
>>> moves_to_take_back(moves, 0, ["You", "Bot"])
2
>>> moves_to_take_back(moves + [(1, parse_move("meld 5c 5d 5h"))], 0, ["You", "Bot"])[:40]
'Bot has since shown cards (meld 5c 5d 5h'
>>> moves_to_take_back(moves + [(1, parse_move("discard 5c"))], 0, ["You", "Bot"])[:45]
'Bot has since shown cards (discard 5c), so yo'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..moves import DISCARD, DRAW, LAYOFF, MELD, RUMMY_LAYOFF, RUMMY_MELD, TAKE, Move

SHOWN_KINDS = frozenset({TAKE, MELD, LAYOFF, DISCARD, RUMMY_MELD, RUMMY_LAYOFF})
"""A computer player's moves that show the table something new of its hand (a discard
shows a card it held, or the one it drew)."""


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
