"""The one small interface every computer player implements."""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar, NamedTuple

from ..errors import BadInputError
from ..moves import Move
from ..view import PlayerView

MAX_BUDGET = 3600.0
"""The longest thinking time a decision accepted, in seconds (an hour)."""


def check_budget(seconds: object, what: str = "the thinking time") -> float:
    """``seconds`` as a float if it is a usable thinking time: a number of seconds above 0 and
    at most :data:`MAX_BUDGET`; else :class:`BadInputError` (NaN would make a search think
    for ever)."""
    if (isinstance(seconds, bool) or not isinstance(seconds, int | float)
            or not math.isfinite(seconds) or not 0 < seconds <= MAX_BUDGET):
        raise BadInputError(f"{what} must be a number of seconds above 0 and at most "
                            f"{MAX_BUDGET:g}, not {seconds!r}")
    return float(seconds)


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
    needs_view: ClassVar[bool] = True
    """False for a bot that decides from the legal moves alone: a driver may then skip
    building the view and call :meth:`pick` with the seat's legal moves."""

    def __init__(self, seed: int | None = None, time_budget: float = 1.0) -> None:
        self.rng = random.Random(seed)
        self.time_budget = check_budget(time_budget)

    @abstractmethod
    def decide(self, view: PlayerView) -> Decision:
        """The move for ``view`` (whose seat is to move) and the reason for it."""

    def choose(self, view: PlayerView) -> Move:
        return self.decide(view).move

    def pick(self, moves: Sequence[Move]) -> Move:
        """The move among the legal ``moves``, for a bot that does not need the view."""
        raise NotImplementedError(f"bot {self.name!r} decides from the view")

    def hint(self, view: PlayerView) -> str:
        decision = self.decide(view)
        return f"{decision.move}: {decision.reason}"
