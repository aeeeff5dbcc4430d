"""``random``: uniform over the legal moves."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

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
        count = len(moves)
        if not count:
            raise NotYourTurnError("there is no legal move: it is not this seat's move")
        rng = self.rng
        if type(rng) is not random.Random:
            return rng.choice(moves)
        return moves[draw_index(rng.getrandbits, count)]


def draw_index(getrandbits: Callable[[int], int], count: int) -> int:
    """An index below ``count`` drawn as ``random.Random.choice`` draws it, from the same bits
    (CPython's Random.choice and _randbelow_with_getrandbits, written out: the random bot
    picks once a move, the hot path of every simulation; tests/test_random_pick.py holds
    them equal)."""
    bits = count.bit_length()
    index = getrandbits(bits)
    while index >= count:
        index = getrandbits(bits)
    return index
