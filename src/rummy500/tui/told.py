"""What the table says after undo: the moves taken back in words (never the notation), and
whose they were; at an online table, to the seat that took them back (the server's words,
``Ann took back 2 moves``, are for the others)."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import Rummy500Error
from ..kinds import MoveKind
from ..moves import Move, parse_move
from ..narrate import plural
from ..session.seat_state import HistoryEntry
from .remote_pacing import listed
from .widgets import piece_pretty

NOUNS = {
    MoveKind.DRAW: "draw from the stock",
    MoveKind.TAKE: "take of {cards} from the pile",
    MoveKind.MELD: "meld of {cards}",
    MoveKind.LAYOFF: "lay-off of {cards} on m{meld}",
    MoveKind.DISCARD: "discard of {cards}",
    MoveKind.END: "ending of the deal",
    MoveKind.RUMMY_MELD: "rummy call (a meld of {cards})",
    MoveKind.RUMMY_LAYOFF: "rummy call (a lay-off of {cards} on m{meld})",
    MoveKind.PASS: "pass",
}


def move_noun(move: Move) -> str:
    """``discard of 4♥``, ``meld of 7♥ 7♦ 7♠``: a move as a thing one took back."""
    cards = " ".join(piece_pretty(piece) for piece in move.pieces)
    return NOUNS[move.kind].format(cards=cards, meld=move.meld)


def taken_back(mine: Move, after: Sequence[str]) -> str:
    """``You took back your discard of 4♥, and 2 moves after it by Expert.``; ``after``: the
    name of the player of each move taken back after the person's own, oldest first."""
    text = f"You took back your {move_noun(mine)}"
    if after:
        owners = list(dict.fromkeys(after))
        text += f", and {plural(len(after), 'move')} after it by {listed(owners)}"
    return text + "."


def own_undo(before: Sequence[HistoryEntry], count: int, names: Sequence[str]) -> str | None:
    """What the seat that took back ``count`` moves is told, from the history ``before`` the
    undo (its own move first, then the others'); None when the history does not hold them."""
    moves = [entry for entry in before if entry.move is not None and entry.seat is not None
             and not entry.left]
    if count < 1 or len(moves) < count:
        return None
    mine, *after = moves[-count:]
    try:
        move = parse_move(str(mine.move))
    except Rummy500Error:
        return None
    seats = [entry.seat for entry in after if entry.seat is not None]
    if any(not 0 <= seat < len(names) for seat in seats):
        return None
    return taken_back(move, [names[seat] for seat in seats])


__all__ = ["move_noun", "own_undo", "taken_back"]
