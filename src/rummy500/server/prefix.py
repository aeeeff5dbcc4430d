"""A table that starts at a chosen position (tests only): the ``moves`` of ``POST
/api/tables``, in the notation of NOTATION.md, played as the first deal starts, one by
whichever seat is to move, a deal that ends dealing the next. They are checked here,
each as a move made at the table is checked, and kept as the :attr:`.live.Spec.prefix`;
they are stored as the table's first changes, ordinary ones (a replay, a review and
Take back read them as any others). Only a server started with ``--allow-seeds`` takes
them, with a seed: whoever chooses the moves knows the shuffle. They are played (here, and
again on the new table) in a worker thread, not on the event loop."""

from __future__ import annotations

import random
from typing import Any

from ..game import Game
from ..rules import rules_from_record
from ..session.refusal import MOVE_TEXT_LIMIT, Refusal, check_move
from .apierror import ApiError
from .live import Spec

MOVES_LIMIT = 2000
"""The most moves a table may start with."""


def check_moves(given: Any, *, allow_seeds: bool, seeded: bool) -> list[str]:
    """The ``moves`` of a POST /api/tables body as a list of texts (empty when none are
    given), or :class:`ApiError` saying why they cannot be taken."""
    if given is None:
        return []
    if not allow_seeds:
        raise ApiError(400, "moves_disabled", "a table starts at its first deal: moves to "
                       "start from are taken only by a server started with --allow-seeds")
    if not seeded:
        raise ApiError(400, "bad_moves", "moves to start from need the table's seed")
    if (not isinstance(given, list) or len(given) > MOVES_LIMIT
            or not all(isinstance(move, str) and len(move) <= MOVE_TEXT_LIMIT
                       for move in given)):
        raise ApiError(400, "bad_moves", f"moves must be a list of at most {MOVES_LIMIT} "
                       f"moves, each a text of at most {MOVE_TEXT_LIMIT} characters")
    return list(given)


def played_prefix(spec: Spec, moves: list[str]) -> tuple[tuple[int, str] | None, ...]:
    """``moves`` played from the first deal of a table made as ``spec``: each seat and
    its move as the table stores it, None where a deal ends and the next is dealt; or
    400 ``bad_moves`` naming the first move that cannot be made, and why."""
    game = Game(rules_from_record(spec.rules), spec.players, rng=random.Random(spec.seed),
                auto_deal=False)
    game.start_deal()
    steps: list[tuple[int, str] | None] = []
    for number, text in enumerate(moves, 1):
        seat = game.turn
        checked = check_move(game, seat, text)
        if isinstance(checked, Refusal):
            raise ApiError(400, "bad_moves", f"move {number} ({text[:40]!r}, seat {seat + 1} "
                           f"to move): {checked.message}")
        game.play(checked, check=False)
        steps.append((seat, str(checked)))
        if game.finished:
            raise ApiError(400, "bad_moves", f"move {number} ({text[:40]!r}) ends the game: "
                           "a table starts with a game still to play")
        if game.deal.over:
            game.start_deal()
            steps.append(None)
    return tuple(steps)


__all__ = ["MOVES_LIMIT", "check_moves", "played_prefix"]
