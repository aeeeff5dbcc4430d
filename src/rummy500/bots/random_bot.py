"""``random``: uniform over the legal moves."""

from __future__ import annotations

from ..view import PlayerView
from .base import Bot, Decision


class RandomBot(Bot):
    name = "random"

    def decide(self, view: PlayerView) -> Decision:
        moves = view.legal_moves()
        if not moves:
            raise ValueError("there is no legal move: it is not this seat's move")
        return Decision(self.rng.choice(moves), "picked at random among the legal moves")
