"""``random``: uniform over the legal moves."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import NotYourTurnError
from ..moves import Move
from ..view import PlayerView
from .base import Bot, Decision


class RandomBot(Bot):
    name = "random"
    needs_view = False

    def decide(self, view: PlayerView) -> Decision:
        return Decision(self.pick(view.legal_moves()), "picked at random among the legal moves")

    def pick(self, moves: Sequence[Move]) -> Move:
        if not moves:
            raise NotYourTurnError("there is no legal move: it is not this seat's move")
        return self.rng.choice(moves)
