"""The one small interface every computer player implements."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import NamedTuple

from ..moves import Move
from ..view import PlayerView


class Decision(NamedTuple):
    move: Move
    reason: str
    """Why, in one short sentence (for the hint key of the front ends)."""


class Bot(ABC):
    """A computer player: given only its seat's view, it returns a legal move.

    A bot is reproducible from ``seed`` (all its randomness comes from
    ``self.rng``) and keeps to ``time_budget`` seconds a decision.
    """

    name = "bot"

    def __init__(self, seed: int | None = None, time_budget: float = 1.0) -> None:
        self.rng = random.Random(seed)
        self.time_budget = time_budget

    @abstractmethod
    def decide(self, view: PlayerView) -> Decision:
        """The move for ``view`` (whose seat is to move) and the reason for it."""

    def choose(self, view: PlayerView) -> Move:
        return self.decide(view).move

    def hint(self, view: PlayerView) -> str:
        decision = self.decide(view)
        return f"{decision.move}: {decision.reason}"
