"""Checking one seat's move against the engine: the move, or a refusal with a code and words.

The codes are the online protocol's (docs/protocol.md); the words for an illegal
move are the engine's reason.

>>> from rummy500.game import Game
>>> game = Game(players=2, seed=1, dealer=1)
>>> check_move(game, 1, "draw")
Refusal(code='not_your_turn', message='it is not your turn: seat 0 is to move')
>>> check_move(game, 0, "fly away").code
'bad_move'
>>> check_move(game, 0, "draw")
Move(kind='draw', pieces=(), meld=0)
"""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import NamedTuple

from ..game import Game
from ..moves import InvalidMoveError, Move, parse_move

MOVE_TEXT_LIMIT = 200
"""No move of the notation is longer than this; a longer text is refused unread."""

ILLEGAL = "illegal"
NOT_YOUR_TURN = "not_your_turn"
BAD_MOVE = "bad_move"
OVER = "over"
NOT_STARTED = "not_started"
STALE = "stale"
NOT_SEATED = "not_seated"


_parsed = functools.lru_cache(maxsize=4096)(parse_move)
"""A move's text as a move, each text parsed once (a move is a value; a text that is no
move raises each time)."""


class Refusal(NamedTuple):
    """A move that was not made: nothing changed."""

    code: str
    message: str


def check_move(game: Game, seat: int, text: str, listed: Collection[Move] = ()) -> Move | Refusal:
    """``text`` as ``seat``'s move now, or why it cannot be made. ``listed``: moves already
    known to be legal for ``seat`` now (its legal moves as last listed), taken as legal
    without asking the engine again."""
    if game.finished:
        return Refusal(OVER, "the game is over")
    if not game.deals:
        return Refusal(NOT_STARTED, "the game has not started: a seat is still open")
    if game.turn != seat:
        return Refusal(NOT_YOUR_TURN, f"it is not your turn: seat {game.turn} is to move")
    if len(text) > MOVE_TEXT_LIMIT:
        return Refusal(BAD_MOVE, f"a move is at most {MOVE_TEXT_LIMIT} characters")
    try:
        move = _parsed(text)
    except (InvalidMoveError, ValueError) as error:
        return Refusal(BAD_MOVE, str(error))
    if move in listed:
        return move
    reason = game.view(seat).why_illegal(move)
    if reason is not None:
        return Refusal(ILLEGAL, reason)
    return move


__all__ = ["BAD_MOVE", "ILLEGAL", "NOT_SEATED", "NOT_STARTED", "NOT_YOUR_TURN", "OVER",
           "STALE", "Refusal", "check_move"]
