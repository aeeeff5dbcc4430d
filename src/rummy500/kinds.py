"""The package's one vocabulary: move kinds, phases, deal endings and meld kinds.

The string ones are :class:`~enum.StrEnum`: each member *is* its notation text, so it
compares equal to it, prints as it and goes into records and JSON byte for byte the same.

>>> MoveKind.RUMMY_MELD == "rummy meld", str(Phase.DRAW), DealEnd("went out").name
(True, 'draw', 'WENT_OUT')
>>> import json; json.dumps([MoveKind.DRAW, MeldKind.SET])
'["draw", 1]'
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class MoveKind(StrEnum):
    """What a move does; the value is the move's first word(s) in the notation."""

    DRAW = "draw"
    TAKE = "take"
    MELD = "meld"
    LAYOFF = "layoff"
    DISCARD = "discard"
    END = "end"
    RUMMY_MELD = "rummy meld"
    RUMMY_LAYOFF = "rummy layoff"
    PASS = "pass"


class Phase(StrEnum):
    """What the player to move may do: draw, play (meld, lay off, discard), call rummy, or
    nothing (the deal is over)."""

    DRAW = "draw"
    PLAY = "play"
    RUMMY = "rummy"
    OVER = "over"


class DealEnd(StrEnum):
    """How a deal ended (:attr:`rummy500.deal.DealResult.ended_by`)."""

    WENT_OUT = "went out"
    """A player went out."""
    STOCK = "stock"
    """The stock ran out."""
    DECLINED = "declined"
    """The player to draw took nothing from the pile with the stock empty."""
    IDLE = "idle"
    """Nobody drew from the stock or put a card on the table for too long."""


class MeldKind(IntEnum):
    """A meld on the table: a run in one suit, a set of one rank, or a set of Persian jokers."""

    RUN = 0
    SET = 1
    JOKER_SET = 2


MOVE_KINDS: dict[str, MoveKind] = {kind.value: kind for kind in MoveKind}
"""Each move kind by its text (a member looks itself up too: it hashes as its text)."""

__all__ = ["MOVE_KINDS", "DealEnd", "MeldKind", "MoveKind", "Phase"]
