"""What the local table says in its message line after undo: the moves taken back in
words (never the notation), and whose they were."""

from __future__ import annotations

from collections.abc import Sequence

from ..kinds import MoveKind
from ..moves import Move
from ..narrate import plural
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


__all__ = ["move_noun", "taken_back"]
